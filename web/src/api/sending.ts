import { campaignSummarySchema, type CampaignSummary } from '../../../schema/api/campaigns';
import {
  campaignEmailContentSchema,
  campaignEmailListSchema,
  campaignEmailSchema,
  contactEmailListSchema,
  sendBatchSchema,
  sendCheckSchema,
  sendingStatusSchema,
  type CampaignEmail,
  type CampaignEmailContent,
  type CampaignEmailList,
  type ContactEmail,
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

/**
 * GET /api/campaigns/{id}/emails: the campaign's recipients and their outcome (no content), each with its
 * follow-up steps, and each step counted over them.
 */
export function listCampaignEmails(api: ApiClient, campaignId: string, { signal }: Signal = {}): Promise<CampaignEmailList> {
  return api.request(apiPath('GET /api/campaigns/{id}/emails', { id: campaignId }), {
    parse: (data) => campaignEmailListSchema.parse(data),
    signal,
  });
}

/** GET /api/campaigns/{id}/emails/{position}: one email with its content (the expandable view). */
export function getCampaignEmail(api: ApiClient, campaignId: string, position: number, { signal }: Signal = {}): Promise<CampaignEmailContent> {
  return api.request(apiPath('GET /api/campaigns/{id}/emails/{position}', { id: campaignId, position }), {
    parse: (data) => campaignEmailContentSchema.parse(data),
    signal,
  });
}

/**
 * PUT (mark) or DELETE (unmark) /api/campaigns/{id}/emails/{position}/replied: the artist's "Replied" mark
 * on a sent email (gmail.send cannot read replies). Answers the email; 409 when it was not sent.
 */
export function setEmailReplied(api: ApiClient, campaignId: string, position: number, replied: boolean): Promise<CampaignEmail> {
  const path = apiPath(replied ? 'PUT /api/campaigns/{id}/emails/{position}/replied' : 'DELETE /api/campaigns/{id}/emails/{position}/replied', {
    id: campaignId,
    position,
  });
  const parse = (data: unknown) => campaignEmailSchema.parse(data);
  return replied ? api.put(path, undefined, parse) : api.delete(path, parse);
}

/** GET /api/contacts/{id}/emails: the emails sent to one contact, newest first (its card). */
export async function listContactEmails(api: ApiClient, contactId: string, { signal }: Signal = {}): Promise<ContactEmail[]> {
  const result = await api.request(apiPath('GET /api/contacts/{id}/emails', { id: contactId }), {
    parse: (data) => contactEmailListSchema.parse(data),
    signal,
  });
  return result.emails;
}
