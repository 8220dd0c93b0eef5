import { outboxListSchema, outboxMessageSchema, type OutboxMessage, type OutboxMessageSummary } from '../../../schema/api/sending';
import { apiPath } from '../../../schema/routes';
import type { ApiClient } from './client';

/**
 * The local mailbox's sent folder (local runtime only; a 404 elsewhere). Contract: schema/api/sending.ts;
 * routes: schema/routes.ts (group `outbox`).
 */

/** GET /api/local/outbox: the user's messages, newest first, without their bodies. */
export async function listOutbox(api: ApiClient, { signal }: { signal?: AbortSignal } = {}): Promise<OutboxMessageSummary[]> {
  const result = await api.request(apiPath('GET /api/local/outbox'), { parse: (data) => outboxListSchema.parse(data), signal });
  return result.messages;
}

/** GET /api/local/outbox/{id}: one message in full (HTML, text, headers, raw MIME); 404 when not the user's. */
export function getOutboxMessage(api: ApiClient, id: string, { signal }: { signal?: AbortSignal } = {}): Promise<OutboxMessage> {
  return api.request(apiPath('GET /api/local/outbox/{id}', { id }), { parse: (data) => outboxMessageSchema.parse(data), signal });
}
