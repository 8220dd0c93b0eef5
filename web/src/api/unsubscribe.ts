/**
 * The public unsubscribe page's calls (spec §7: unsubscribe GET and POST). No sign-in: the email's
 * token is the whole authority, so these are plain fetches without the Authorization header.
 *  - GET /api/unsubscribe?token=: who the email came from and whether the address is already off the
 *    list. Never unsubscribes.
 *  - POST /api/unsubscribe {token, reason, reasonDetails}: unsubscribes (idempotent).
 * A failure carries the response's `error` (or `message`) field when it has one: the page shows it.
 */
import type { UnsubscribeLookup, UnsubscribeSubmit } from '../../../schema/api/sending';
import { apiPath } from '../../../schema/routes';
import { defaultFetch, fetchPublicJson } from './publicFetch';

export class UnsubscribeError extends Error {
  constructor(
    /** HTTP status; 0 when the server could not be reached. */
    readonly status: number,
    /** The response's own words (`error`, else `message`), when it had any. */
    readonly serverMessage: string | undefined,
  ) {
    super(serverMessage ?? `Request failed (${status})`);
    this.name = 'UnsubscribeError';
  }
}

async function send(path: string, init: Omit<RequestInit, 'headers'> & { headers?: Record<string, string> }, fetchImpl: typeof fetch): Promise<unknown> {
  const { status, ok, body } = await fetchPublicJson(path, { ...init, credentials: 'same-origin' }, fetchImpl, () => new UnsubscribeError(0, undefined));
  const fields = (body ?? {}) as { error?: unknown; message?: unknown };
  const said =
    typeof fields.error === 'string' && fields.error ? fields.error : typeof fields.message === 'string' && fields.message ? fields.message : undefined;
  if (!ok) throw new UnsubscribeError(status, said);
  // A 200 that still says `error` (spec §7: the responses may carry one) is a failure too.
  if (typeof fields.error === 'string' && fields.error) throw new UnsubscribeError(status, fields.error);
  return body;
}

export async function lookupUnsubscribe(token: string, options: { signal?: AbortSignal; fetchImpl?: typeof fetch } = {}): Promise<UnsubscribeLookup> {
  const body = await send(
    `${apiPath('GET /api/unsubscribe')}?token=${encodeURIComponent(token)}`,
    { method: 'GET', signal: options.signal },
    options.fetchImpl ?? defaultFetch,
  );
  const value = body as Partial<UnsubscribeLookup> | undefined;
  if (!value || typeof value.artistName !== 'string' || typeof value.alreadyUnsubscribed !== 'boolean') throw new UnsubscribeError(200, undefined);
  return { artistName: value.artistName, alreadyUnsubscribed: value.alreadyUnsubscribed };
}

export async function confirmUnsubscribe(input: UnsubscribeSubmit, options: { fetchImpl?: typeof fetch } = {}): Promise<void> {
  await send(
    apiPath('POST /api/unsubscribe'),
    { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(input) },
    options.fetchImpl ?? defaultFetch,
  );
}
