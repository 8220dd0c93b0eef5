import {
  campaignSchema,
  recipientPreviewSchema,
  savedContactListSchema,
  savedContactListsSchema,
  templateListSchema,
  type Campaign,
  type ContactListInput,
  type DraftInputBody,
  type EmailUpdate,
  type GeneratePreviewRequest,
  type RecipientPreview,
  type RecipientPreviewRequest,
  type SavedContactList,
  type TemplateInput,
} from '../../../schema/api/campaigns';
import { campaignTemplateSchema, type CampaignTemplate } from '../../../schema/api/templates';
import { apiPath } from '../../../schema/routes';
import type { ApiClient } from './client';

/**
 * The compose API of the signed-in user: campaign drafts, the AI preview, per-recipient previews (handler
 * group `campaigns`), campaign templates and saved recipient lists (group `compose`). Contract:
 * schema/api/campaigns.ts and schema/api/templates.ts; routes: schema/routes.ts.
 */

const parseCampaign = (data: unknown) => campaignSchema.parse(data);

/**
 * POST /api/campaigns/generate-preview: the writer writes the email for the first selected recipient and
 * the draft is created (or, with `campaign_id`, rewritten). 503 with a message when the writer is busy or
 * slow; nothing is saved then.
 */
export function generatePreview(api: ApiClient, request: GeneratePreviewRequest): Promise<Campaign> {
  return api.post(apiPath('POST /api/campaigns/generate-preview'), request, parseCampaign);
}

/** POST /api/campaigns: a new draft with an email written by hand, taken from a template, or HTML mode's. */
export function createDraft(api: ApiClient, input: DraftInputBody): Promise<Campaign> {
  return api.post(apiPath('POST /api/campaigns'), input, parseCampaign);
}

/** PUT /api/campaigns/{id}: replaces a draft's content (mode, track, subject, body, recipients count). */
export function replaceDraft(api: ApiClient, id: string, input: DraftInputBody): Promise<Campaign> {
  return api.put(apiPath('PUT /api/campaigns/{id}', { id }), input, parseCampaign);
}

/** PATCH /api/campaigns/{id}: the preview card's Save (subject and body only). */
export function updateEmail(api: ApiClient, id: string, update: EmailUpdate): Promise<Campaign> {
  return api.patch(apiPath('PATCH /api/campaigns/{id}', { id }), update, parseCampaign);
}

/** POST /api/campaigns/{id}/recipient-preview: the final email one recipient gets, or one of its follow-up steps. */
export function recipientPreview(
  api: ApiClient,
  campaignId: string,
  request: RecipientPreviewRequest,
  { signal }: { signal?: AbortSignal } = {},
): Promise<RecipientPreview> {
  return api.request(apiPath('POST /api/campaigns/{id}/recipient-preview', { id: campaignId }), {
    method: 'POST',
    body: request,
    parse: (data) => recipientPreviewSchema.parse(data),
    signal,
  });
}

/** GET /api/templates: the system templates first, then the user's, each by name. */
export async function listTemplates(api: ApiClient, { signal }: { signal?: AbortSignal } = {}): Promise<CampaignTemplate[]> {
  const result = await api.request(apiPath('GET /api/templates'), { parse: (data) => templateListSchema.parse(data), signal });
  return result.templates;
}

/** POST /api/templates: the save-template dialog; answers the new user template. */
export function createTemplate(api: ApiClient, input: TemplateInput): Promise<CampaignTemplate> {
  return api.post(apiPath('POST /api/templates'), input, (data) => campaignTemplateSchema.parse(data));
}

/** DELETE /api/templates/{id}: one of the user's own templates (404 for a system template). */
export async function deleteTemplate(api: ApiClient, id: string): Promise<void> {
  await api.delete(apiPath('DELETE /api/templates/{id}', { id }));
}

/** GET /api/contact-lists: the user's saved recipient lists, newest first. */
export async function listContactLists(api: ApiClient, { signal }: { signal?: AbortSignal } = {}): Promise<SavedContactList[]> {
  const result = await api.request(apiPath('GET /api/contact-lists'), { parse: (data) => savedContactListsSchema.parse(data), signal });
  return result.lists;
}

/** POST /api/contact-lists: the 'Save Contact List' dialog. */
export function createContactList(api: ApiClient, input: ContactListInput): Promise<SavedContactList> {
  return api.post(apiPath('POST /api/contact-lists'), input, (data) => savedContactListSchema.parse(data));
}
