/**
 * The private listen page's calls (issue 16). No sign-in: the email's token is the whole authority, so
 * these are plain fetches without the Authorization header and without cookies.
 *  - GET /api/l/{token}: the page (or why there is no player: 410 with `state`).
 *  - POST /api/l/{token}/events: the page's beacons (navigator.sendBeacon: they outlive the page).
 *  - POST /api/l/{token}/answer: the one-click answer and its note.
 */
import type { ListenAnswer, ListenPage } from '../../../schema/api/listenValues';
import { apiPath } from '../../../schema/routes';
import { defaultFetch, fetchPublicJson } from './publicFetch';

export class ListenError extends Error {
  constructor(
    /** HTTP status; 0 when the server could not be reached. */
    readonly status: number,
    readonly serverMessage: string | undefined,
  ) {
    super(serverMessage ?? `Request failed (${status})`);
    this.name = 'ListenError';
  }
}

const send = (path: string, init: RequestInit, fetchImpl: typeof fetch) =>
  fetchPublicJson(path, { ...init, credentials: 'omit', headers: { 'content-type': 'application/json' } }, fetchImpl, () => new ListenError(0, undefined));

const messageOf = (body: unknown) => {
  const message = (body as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' ? message : undefined;
};

/** The page of a token: the player's data, or the expired / deleted state (a 410 carries it). */
export async function loadListenPage(token: string, options: { signal?: AbortSignal; fetchImpl?: typeof fetch } = {}): Promise<ListenPage> {
  const { status, body } = await send(apiPath('GET /api/l/{token}', { token }), { method: 'GET', signal: options.signal }, options.fetchImpl ?? defaultFetch);
  const state = (body as { state?: unknown } | undefined)?.state;
  if ((status === 200 && state === 'ready') || (status === 410 && (state === 'expired' || state === 'track_deleted'))) return body as ListenPage;
  throw new ListenError(status, messageOf(body));
}

export async function sendListenAnswer(
  token: string,
  answer: { answer: ListenAnswer; note: string },
  fetchImpl: typeof fetch = defaultFetch,
): Promise<{ answer: ListenAnswer; answer_note: string | null; message: string }> {
  const { status, body } = await send(apiPath('POST /api/l/{token}/answer', { token }), { method: 'POST', body: JSON.stringify(answer) }, fetchImpl);
  if (status !== 200) throw new ListenError(status, messageOf(body));
  return body as { answer: ListenAnswer; answer_note: string | null; message: string };
}

/** What the page reports: a play started, progress (percent heard, seconds heard this session), a download. */
export type ListenBeacon = { type: 'play' | 'download'; session: string } | { type: 'progress'; session: string; percent: number; seconds: number };

/** Sends a beacon that survives the page closing; a browser without sendBeacon posts with keepalive. */
export function sendListenBeacon(token: string, beacon: ListenBeacon): void {
  const url = apiPath('POST /api/l/{token}/events', { token });
  const body = JSON.stringify(beacon);
  if (typeof navigator.sendBeacon === 'function' && navigator.sendBeacon(url, new Blob([body], { type: 'application/json' }))) return;
  void fetch(url, { method: 'POST', body, keepalive: true, credentials: 'omit', headers: { 'content-type': 'application/json' } }).catch(() => undefined);
}

/** A new play session's id: 16 random bytes, base64url. */
export function newListenSession(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}
