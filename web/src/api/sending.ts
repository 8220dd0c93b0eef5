import { campaignSummarySchema, type CampaignSummary } from '../../../schema/api/campaigns';
import {
  campaignEmailContentSchema,
  campaignEmailListSchema,
  sendBatchSchema,
  sendCheckSchema,
  sendingStatusSchema,
  type CampaignEmail,
  type CampaignEmailContent,
  type SendBatchRequest,
  type SendBatchResult,
  type SendCheck,
  type SendingStatus,
} from '../../../schema/api/sending';
import { apiPath } from '../../../schema/routes';
import type { ApiClient } from './client';

/**
 * The sending API of the signed-in user (handler group `sending`): the mailbox and usage status, the
 * send flow's capacity check and batch queueing, pause / resume, and a campaign's emails. Contract:
 * schema/api/sending.ts; routes: schema/routes.ts.
 */

const parseSummary = (data: unknown) => campaignSummarySchema.parse(data);

interface Signal {
  signal?: AbortSignal;
}

/** GET /api/sending/status: the mailbox, today's and this month's usage, and when the next email is due. */
export function getSendingStatus(api: ApiClient, { signal }: Signal = {}): Promise<SendingStatus> {
  return api.request(apiPath('GET /api/sending/status'), { parse: (data) => sendingStatusSchema.parse(data), signal });
}

/** POST /api/campaigns/{id}/send-check: who of the selection would be skipped, and the capacity left. */
export function sendCheck(api: ApiClient, campaignId: string, contactIds: readonly string[], { signal }: Signal = {}): Promise<SendCheck> {
  return api.request(apiPath('POST /api/campaigns/{id}/send-check', { id: campaignId }), {
    method: 'POST',
    body: { contact_ids: contactIds },
    parse: (data) => sendCheckSchema.parse(data),
    signal,
  });
}

/**
 * POST /api/campaigns/{id}/send: queues one batch (≤ SEND_BATCH_SIZE) of the selection. The first batch
 * turns the draft into a sending or scheduled campaign; a batch sent again (a retry) queues nothing twice.
 */
export function sendBatch(api: ApiClient, campaignId: string, request: SendBatchRequest): Promise<SendBatchResult> {
  return api.post(apiPath('POST /api/campaigns/{id}/send', { id: campaignId }), request, (data) => sendBatchSchema.parse(data));
}

/** POST /api/campaigns/{id}/pause: answers the campaign summary. */
export function pauseCampaign(api: ApiClient, campaignId: string): Promise<CampaignSummary> {
  return api.post(apiPath('POST /api/campaigns/{id}/pause', { id: campaignId }), undefined, parseSummary);
}

/** POST /api/campaigns/{id}/retry-failed: answers the campaign summary (sending again). */
export function retryFailedEmails(api: ApiClient, campaignId: string): Promise<CampaignSummary> {
  return api.post(apiPath('POST /api/campaigns/{id}/retry-failed', { id: campaignId }), undefined, parseSummary);
}

/** POST /api/campaigns/{id}/resume: answers the campaign summary. */
export function resumeCampaign(api: ApiClient, campaignId: string): Promise<CampaignSummary> {
  return api.post(apiPath('POST /api/campaigns/{id}/resume', { id: campaignId }), undefined, parseSummary);
}

/** GET /api/campaigns/{id}/emails: the campaign's recipients and their outcome (no content). */
export async function listCampaignEmails(api: ApiClient, campaignId: string, { signal }: Signal = {}): Promise<CampaignEmail[]> {
  const result = await api.request(apiPath('GET /api/campaigns/{id}/emails', { id: campaignId }), {
    parse: (data) => campaignEmailListSchema.parse(data),
    signal,
  });
  return result.emails;
}

/** GET /api/campaigns/{id}/emails/{position}: one email with its content (the expandable view). */
export function getCampaignEmail(api: ApiClient, campaignId: string, position: number, { signal }: Signal = {}): Promise<CampaignEmailContent> {
  return api.request(apiPath('GET /api/campaigns/{id}/emails/{position}', { id: campaignId, position }), {
    parse: (data) => campaignEmailContentSchema.parse(data),
    signal,
  });
}
