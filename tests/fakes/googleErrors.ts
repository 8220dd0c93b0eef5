/**
 * Google failures as gaxios 7 throws them (see gaxios' `_request`): a GaxiosError carrying the response
 * and the AIP-193 extraction of its body, or, with no response, the fetch failure's cause. For the
 * Gmail mailer tests: the shapes its error mapping reads are the library's, not invented.
 */
import { GaxiosError, type GaxiosOptionsPrepared, type GaxiosResponse } from 'gaxios';
import { vi } from 'vitest';

/** gaxios' own (internal) extraction of the error body, used on every non-2xx answer. */
const extract = (GaxiosError as unknown as { extractAPIErrorFromResponse: (response: GaxiosResponse, fallback?: string) => { message?: string } | undefined })
  .extractAPIErrorFromResponse;

const configFor = (url: string) => ({ url: new URL(url), method: 'POST', headers: new Headers() }) as unknown as GaxiosOptionsPrepared;

export const GMAIL_SEND_URL = 'https://gmail.googleapis.com/gmail/v1/users/me/messages/send';
export const TOKEN_URL = 'https://oauth2.googleapis.com/token';

/** An answer with an error status. `bodyUsed` keeps gaxios from discarding the parsed body. */
export function gaxiosHttpError(status: number, data: unknown, url = GMAIL_SEND_URL): GaxiosError {
  const config = configFor(url);
  const response = { status, statusText: '', ok: false, bodyUsed: true, data, config, headers: new Headers() } as unknown as GaxiosResponse;
  const info = extract(response, `Request failed with status code ${status}`);
  return new GaxiosError(info?.message ?? `Request failed with status code ${status}`, config, response, info);
}

/** A connection failure before any response, as native fetch reports it: the code on the cause's cause. */
export function gaxiosNetworkError(code: string, url = GMAIL_SEND_URL): GaxiosError {
  const fetchFailed = new TypeError('fetch failed', { cause: Object.assign(new Error(`connect ${code}`), { code }) });
  return new GaxiosError(fetchFailed.message, configFor(url), undefined, fetchFailed);
}

/** A request that timed out after it left (AbortSignal.timeout): of the send request, the outcome is unknown. */
export function gaxiosTimeout(url = GMAIL_SEND_URL): GaxiosError {
  return new GaxiosError('The operation was aborted due to timeout', configFor(url), undefined, new DOMException('timeout', 'TimeoutError'));
}

/** The OAuth client's token refresh answered by `answer` instead of Google's token endpoint (for a fake Gmail client). */
export function fakeTokenRefresh(auth: object, answer: () => Promise<{ token: string }> = () => Promise.resolve({ token: 'ya29.fake' })) {
  const refresh = vi.fn(answer);
  Object.assign(auth, { getAccessToken: refresh });
  return refresh;
}

/** The Gmail API's error body (AIP-193, with the legacy `errors[]`). */
export const gmailErrorBody = (code: number, reason: string, message: string) => ({
  error: { code, message, errors: [{ message, domain: 'usageLimits', reason }], status: code === 429 ? 'RESOURCE_EXHAUSTED' : 'FAILED_PRECONDITION' },
});
