import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { batchWriteAll, type BatchOptions, type WriteRequest } from '../../../lambdas/adapters/dynamodb/batch';
import { directoryItem } from '../../../lambdas/adapters/dynamodb/directoryStore';
import { directoryEntrySchema } from '../../../schema/api/directory';
import { campaignTemplateSchema, type CampaignTemplate } from '../../../schema/api/templates';
import { key, keys } from '../../../schema/table';
import { directoryEntries } from './directory';
import { systemTemplates } from './templates';

export { directoryEntries } from './directory';
export { systemTemplateNames, systemTemplates } from './templates';

/** The stored item of a system template: PK `TEMPLATE`, SK `<name>`. */
export function templateItem(template: CampaignTemplate): Record<string, unknown> {
  return {
    ...template,
    [keys.partition]: key.templatePartition(),
    [keys.sort]: template.name,
    entity: 'template',
  };
}

export type SeedOptions = Pick<BatchOptions, 'maxAttempts' | 'baseDelayMs'>;

/**
 * Writes the system campaign templates and the LabelFinder directory. Idempotent: every item is a
 * full put under a fixed key with no timestamps, so a second run leaves the table exactly as the first.
 */
export async function seedSystemData(
  db: DynamoDBDocumentClient,
  tableName: string,
  options: SeedOptions = {},
): Promise<{ templates: number; directoryEntries: number }> {
  // Parse on the way out: a bad edit to the seed lists fails here, not in a handler.
  const templates = systemTemplates.map((template) => campaignTemplateSchema.parse(template));
  const entries = directoryEntries.map((entry) => directoryEntrySchema.parse(entry));

  const requests: WriteRequest[] = [...templates.map(templateItem), ...entries.map(directoryItem)].map((Item) => ({ PutRequest: { Item } }));

  await batchWriteAll(db, tableName, requests, options);

  return { templates: templates.length, directoryEntries: entries.length };
}
