import { campaignListSchema, campaignSchema, type Campaign, type CampaignSummary } from '../../../../schema/api/campaigns';
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
