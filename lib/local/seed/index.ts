import { BatchWriteCommand, type BatchWriteCommandInput, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { directoryEntrySchema, type DirectoryEntry } from '../../../schema/api/directory';
import { campaignTemplateSchema, type CampaignTemplate } from '../../../schema/api/templates';
import { indexes, key, keys } from '../../../schema/table';
import { directoryEntries } from './directory';
import { systemTemplates } from './templates';

export { directoryEntries } from './directory';
export { systemTemplateNames, systemTemplates } from './templates';

type WriteRequest = NonNullable<BatchWriteCommandInput['RequestItems']>[string][number];

/** BatchWriteItem's limit. */
const BATCH_SIZE = 25;
const CONCURRENCY = 4;

/** The stored item of a system template: PK `TEMPLATE`, SK `<name>`. */
export function templateItem(template: CampaignTemplate): Record<string, unknown> {
  return {
    ...template,
    [keys.partition]: key.templatePartition(),
    [keys.sort]: template.name,
    entity: 'template',
  };
}

/** The stored item of a directory entry: PK `DIRECTORY`, SK `ENTRY#<id>`, GSI1 `DIRECTORY#EMAIL` / `<lower email>`. */
export function directoryItem(entry: DirectoryEntry): Record<string, unknown> {
  return {
    ...entry,
    [keys.partition]: key.directoryPartition(),
    [keys.sort]: key.directoryEntry(entry.id),
    [indexes.byLookup.partitionKey]: key.directoryEmailLookup(),
    [indexes.byLookup.sortKey]: entry.email.trim().toLowerCase(),
    entity: 'directory',
  };
}

export interface SeedOptions {
  /** Attempts per batch before giving up on items DynamoDB left unprocessed. Default 8. */
  maxAttempts?: number;
  /** First back-off between attempts, doubled each time (capped at 2 s). Default 50 ms. */
  baseDelayMs?: number;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function writeBatch(
  db: DynamoDBDocumentClient,
  tableName: string,
  requests: WriteRequest[],
  { maxAttempts, baseDelayMs }: Required<SeedOptions>,
): Promise<void> {
  let pending = requests;
  for (let attempt = 1; ; attempt++) {
    const result = await db.send(new BatchWriteCommand({ RequestItems: { [tableName]: pending } }));
    const left = result.UnprocessedItems?.[tableName] ?? [];
    if (left.length === 0) return;
    if (attempt >= maxAttempts) {
      throw new Error(`seed: ${left.length} item(s) still unprocessed after ${attempt} attempts`);
    }
    pending = left;
    await sleep(Math.min(baseDelayMs * 2 ** (attempt - 1), 2000));
  }
}

/**
 * Writes the system campaign templates and the LabelFinder directory. Idempotent: every item is a
 * full put under a fixed key with no timestamps, so a second run leaves the table exactly as the first.
 */
export async function seedSystemData(
  db: DynamoDBDocumentClient,
  tableName: string,
  options: SeedOptions = {},
): Promise<{ templates: number; directoryEntries: number }> {
  const settings: Required<SeedOptions> = { maxAttempts: options.maxAttempts ?? 8, baseDelayMs: options.baseDelayMs ?? 50 };
  // Parse on the way out: a bad edit to the seed lists fails here, not in a handler.
  const templates = systemTemplates.map((template) => campaignTemplateSchema.parse(template));
  const entries = directoryEntries.map((entry) => directoryEntrySchema.parse(entry));

  const requests: WriteRequest[] = [
    ...templates.map(templateItem),
    ...entries.map(directoryItem),
  ].map((Item) => ({ PutRequest: { Item } }));

  const batches: WriteRequest[][] = [];
  for (let i = 0; i < requests.length; i += BATCH_SIZE) batches.push(requests.slice(i, i + BATCH_SIZE));

  let next = 0;
  const worker = async () => {
    while (next < batches.length) {
      const batch = batches[next++];
      if (batch) await writeBatch(db, tableName, batch, settings);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, batches.length) }, worker));

  return { templates: templates.length, directoryEntries: entries.length };
}
