/**
 * Per-client limits on the public POST routes (issue 26 §2): who the client is, and the 429 once its
 * allowance (core/allowance.ts clientLimitWindows) is used up.
 *
 * Who the client is: the API is reached through CloudFront (lib/cloud/web.ts, /api/*), so the request
 * context's sourceIp is a CloudFront edge's, shared by everyone near it. CloudFront tells the origin the
 * viewer's address in `CloudFront-Viewer-Address`, but the execute-api endpoint is public too and anyone
 * calling it directly can send that header. So the viewer's address is believed only when the request
 * also carries the origin secret that only our distribution adds (ORIGIN_VERIFY_HEADER, a Secrets
 * Manager value); otherwise the client is the request context's sourceIp, which the caller cannot choose.
 * X-Forwarded-For is never read: its first entries are whatever the client sent. Locally (no CloudFront,
 * no secret) sourceIp is the socket's address (lib/local/server.ts).
 */
import { timingSafeEqual } from 'node:crypto';
import { clientKey, clientLimitRefusal, clientLimitWindows, secondsUntil, type ClientLimitKind } from '../core/allowance';
import type { AllowanceStore } from '../ports';
import { CLIENT_LIMIT_CODE } from '../../schema/api/serverMessages';
import { ORIGIN_VERIFY_HEADER, VIEWER_ADDRESS_HEADER } from '../../schema/routes';
import { HttpError, logger, type ApiEvent } from './api';

const sameSecret = (sent: string, secret: string) => {
  const a = Buffer.from(sent);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
};

/** The client's address: CloudFront's viewer address when the origin secret proves the request came through it, else sourceIp. */
export function clientAddress(event: ApiEvent, originSecret: string | undefined): string {
  const sent = event.headers[ORIGIN_VERIFY_HEADER];
  const viewer = event.headers[VIEWER_ADDRESS_HEADER];
  if (originSecret && sent && sameSecret(sent, originSecret)) {
    // The port follows the last colon (an IPv6 address is not bracketed).
    const address = viewer?.slice(0, viewer.lastIndexOf(':'));
    if (address) return address;
    // Through CloudFront without the viewer's address, every viewer near one edge would share a limit.
    logger.warn('CloudFront sent no viewer address: the client limit counts the edge', { header: VIEWER_ADDRESS_HEADER });
  }
  return event.requestContext.http.sourceIp;
}

export interface ClientLimitDeps {
  allowances: AllowanceStore;
  /** AWS: the value CloudFront sends in ORIGIN_VERIFY_HEADER; absent locally (sourceIp is the client). */
  originSecret?: string | undefined;
}

/** Takes one of the client's places for `kind`, or throws the 429 (Retry-After, when to try again). */
export type ClientLimit = (kind: ClientLimitKind, event: ApiEvent, now: Date) => Promise<void>;

export const clientLimit =
  ({ allowances, originSecret }: ClientLimitDeps): ClientLimit =>
  async (kind, event, now) => {
    const taken = await allowances.take({ client: clientKey(clientAddress(event, originSecret)), kind }, clientLimitWindows(kind, now));
    if (taken.allowed) return;
    logger.warn('Client over its limit', { kind, window: taken.full.name, most: taken.full.most });
    throw new HttpError(429, clientLimitRefusal(kind, taken.full, now), CLIENT_LIMIT_CODE, { 'retry-after': String(secondsUntil(taken.full, now)) });
  };
