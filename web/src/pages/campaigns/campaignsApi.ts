import {
  campaignListSchema,
  campaignSchema,
  DRAFT_BULK_DELETE_MAX,
  draftBulkDeleteResultSchema,
  type Campaign,
  type CampaignSummary,
} from '../../../../schema/api/campaigns';
import { apiPath } from '../../../../schema/routes';
import type { ApiClient } from '../../api/client';

/**
 * The two campaign reads these pages need (handler group `campaigns`). They belong with the other
 * campaign calls in web/src/api/campaigns.ts; kept here until that file's owner moves them.
 */

/** GET /api/campaigns: the user's campaigns as summaries (no email body). */
export async function listCampaigns(api: ApiClient, { signal }: { signal?: AbortSignal } = {}): Promise<CampaignSummary[]> {
  const result = await api.request(apiPath('GET /api/campaigns'), { parse: (data) => campaignListSchema.parse(data), signal });
  return result.campaigns;
}

/** GET /api/campaigns/{id}: the whole campaign; 404 when it is not the caller's. */
export function getCampaign(api: ApiClient, id: string, { signal }: { signal?: AbortSignal } = {}): Promise<Campaign> {
  return api.request(apiPath('GET /api/campaigns/{id}', { id }), { parse: (data) => campaignSchema.parse(data), signal });
}

/** DELETE /api/campaigns/{id}: one draft (409 for a campaign that left draft, 404 when not the caller's). */
export async function deleteDraft(api: ApiClient, id: string): Promise<void> {
  await api.delete(apiPath('DELETE /api/campaigns/{id}', { id }));
}

/** POST /api/campaigns/bulk-delete, 100 ids a request: the ids of the drafts deleted. */
export async function deleteDrafts(api: ApiClient, ids: readonly string[]): Promise<string[]> {
  const deleted: string[] = [];
  for (let start = 0; start < ids.length; start += DRAFT_BULK_DELETE_MAX) {
    const batch = ids.slice(start, start + DRAFT_BULK_DELETE_MAX);
    const result = await api.post(apiPath('POST /api/campaigns/bulk-delete'), { ids: batch }, (data) => draftBulkDeleteResultSchema.parse(data));
    deleted.push(...result.deleted);
  }
  return deleted;
}
