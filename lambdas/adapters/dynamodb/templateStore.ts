import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { campaignTemplateSchema, type CampaignTemplate } from '../../../schema/api/templates';
import { key } from '../../../schema/table';
import type { IdGenerator, TemplateStore } from '../../ports';
import { deleteExisting, projectionOf, putNew, queryPartition } from './query';

/**
 * Campaign templates (schema/ACCESS_PATTERNS.md): the seeded system templates under `TEMPLATE` /
 * `<name>` (lib/local/seed), and each user's own under `USER#<sub>` / `TEMPLATE#<ulid>`. A system
 * template is never under a user's partition, so deleting one by id finds nothing.
 */
const USER_TEMPLATE = 'user-template';

/** The fields of a CampaignTemplate: what a read returns (a user template's created_at stays inside). */
const TEMPLATE_FIELDS = Object.keys(campaignTemplateSchema.shape) as (keyof CampaignTemplate)[];

const projection = projectionOf(TEMPLATE_FIELDS);

/** By name, ignoring case and accents ('deep' beside 'Demo'); the id keeps equal names in a stable order. */
const byName = (a: CampaignTemplate, b: CampaignTemplate) => a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }) || a.id.localeCompare(b.id);

const userTemplateKey = (userId: string, id: string) => ({ PK: key.user(userId), SK: key.userTemplate(id) });

export class DynamoTemplateStore implements TemplateStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly deps: { ids: IdGenerator },
  ) {}

  /** `PK = TEMPLATE` (sort key: the name). Sorted again ignoring case: byte order puts 'DJ Promo' before 'Demo to Label'. */
  async listSystem(): Promise<CampaignTemplate[]> {
    const templates = await queryPartition<CampaignTemplate>(this.db, this.tableName, { pk: key.templatePartition(), projection });
    return templates.sort(byName);
  }

  async listForUser(userId: string): Promise<CampaignTemplate[]> {
    const templates = await queryPartition<CampaignTemplate>(this.db, this.tableName, {
      pk: key.user(userId),
      skPrefix: key.userTemplatePrefix(),
      projection,
    });
    // Names are not keys (a template could be renamed): sorted here, one user's few templates.
    return templates.sort(byName);
  }

  async add(userId: string, input: Omit<CampaignTemplate, 'id' | 'is_system_template'>, now: Date): Promise<CampaignTemplate> {
    const template: CampaignTemplate = {
      id: this.deps.ids.next(now),
      name: input.name,
      description: input.description,
      subject_template: input.subject_template,
      body_template: input.body_template,
      ai_tone: input.ai_tone,
      is_system_template: false,
    };
    await putNew(this.db, this.tableName, userTemplateKey(userId, template.id), USER_TEMPLATE, { ...template, created_at: now.toISOString() });
    return template;
  }

  async remove(userId: string, id: string): Promise<boolean> {
    return deleteExisting(this.db, this.tableName, userTemplateKey(userId, id));
  }
}
