/**
 * The public tracking and unsubscribe routes (no sign-in; throttled per route in schema/routes.ts).
 * Everything is found by the sent email's token (lambdas/core/emailToken.ts); a value of another
 * shape is answered without a read.
 *  - GET /api/t/o/{token}: the open pixel. Always the same 1×1 transparent GIF, whatever the token
 *    (an unknown one records nothing), so a mail client never shows a broken image.
 *  - GET /api/t/c/{token}/{link}: 302 to links[link] as stored for that email at send time, and
 *    nowhere else (DESIGN §5): a malformed token or an unknown index is a 404, never a URL from the request;
 *    a well-formed token no longer stored (its sender deleted their account) a 410 with a plain page.
 *  - GET /api/unsubscribe?token=: what the unsubscribe page shows. Never unsubscribes (link scanners
 *    prefetch GETs).
 *  - POST /api/unsubscribe {token, reason, reasonDetails}: the page's confirm button. Idempotent.
 *  - POST /api/unsubscribe/one-click?token=: RFC 8058 one-click (the List-Unsubscribe-Post header):
 *    a form-encoded `List-Unsubscribe=One-Click` body, 200 with no body. Idempotent. Any other body is
 *    a 400 and unsubscribes no one (a scanner's POST).
 * Logs name the campaign and position, never the address.
 */
import type { Context } from 'aws-lambda';
import type { UnsubscribeLookup } from '../../schema/api/sending';
import { isEmailToken } from '../core/emailToken';
import { isOneClickBody } from '../core/tracking';
import { classifyOpen, type OpenKind } from '../core/openClassifier';
import type { Clock, EmailToken, TrackingStore } from '../ports';
import { readServerConfig, type ServerConfig } from '../composition/config';
import { trackingDeps } from '../composition/tracking';
import { httpApi, json, lazyHandler, logger, parseForm, type ApiEvent, type ApiResult } from './api';

export interface TrackingDeps {
  tracking: TrackingStore;
  clock: Clock;
}

/** A 1×1 transparent GIF (GIF89a, 42 bytes). */
const PIXEL_GIF_BASE64 = 'R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';

/** Every fetch must reach us (each is an open); nothing in between may keep a copy. */
const NO_CACHE = { 'cache-control': 'no-store, no-cache, must-revalidate, private', pragma: 'no-cache' };

const ONE_CLICK_ROUTE = 'POST /api/unsubscribe/one-click';
const NOT_ONE_CLICK = 'A one-click unsubscribe needs the body List-Unsubscribe=One-Click (RFC 8058).';

/** A link index as the sender writes it: a non-negative integer without sign, padding or fraction. */
const LINK_INDEX = /^(0|[1-9][0-9]{0,5})$/;

const pixel = (): ApiResult => ({
  statusCode: 200,
  headers: { 'content-type': 'image/gif', ...NO_CACHE },
  body: PIXEL_GIF_BASE64,
  isBase64Encoded: true,
});

const linkNotFound = () => json(404, { message: 'This link is not valid.' });

/**
 * A well-formed token that is not (or no longer) stored: its sender deleted their account, and every
 * item of it (issue 26 §3). A plain page says so to the person who clicked; nothing names the sender.
 */
const linkGone = (): ApiResult => ({
  statusCode: 410,
  headers: { 'content-type': 'text/html; charset=utf-8', ...NO_CACHE },
  body: '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Link no longer available</title></head><body><p>This link is no longer available.</p></body></html>',
});

/**
 * The unsubscribe routes' schema and texts, loaded on the first unsubscribe: opens and clicks (nearly
 * every call) validate no body, so a container that serves only those never loads zod.
 */
const unsubscribeSchemas = () => import('../../schema/api/sending');

/** The lookup's failure (spec §8): the page shows `error`; `message` is every API error's field. */
const invalidToken = async () => {
  const { unsubscribeMessages } = await unsubscribeSchemas();
  return json(404, { message: unsubscribeMessages.invalidToken, error: unsubscribeMessages.invalidToken });
};

const secondsSince = (iso: string, now: Date) => {
  const at = Date.parse(iso);
  return Number.isFinite(at) ? (now.getTime() - at) / 1000 : Number.POSITIVE_INFINITY;
};

/** Who made this request, as far as the open classifier can tell (lambdas/core/openClassifier.ts). */
function requestKind(event: ApiEvent, token: EmailToken, now: Date): OpenKind {
  return classifyOpen({
    method: event.requestContext.http.method,
    userAgent: event.headers['user-agent'] ?? event.requestContext.http.userAgent,
    secondsSinceSent: secondsSince(token.created_at, now),
  });
}

const context = (token: EmailToken) => ({ campaignId: token.campaign_id, position: token.position });

export function makeHandler({ tracking, clock }: TrackingDeps) {
  /** The token of a request, if it has the shape of one and exists. */
  const findToken = async (value: string | undefined) => (isEmailToken(value) ? tracking.getToken(value) : undefined);

  async function unsubscribe(token: EmailToken, reason: { reason: string | null; details: string | null }, via: 'page' | 'one-click') {
    const outcome = await tracking.unsubscribe(token, reason, clock.now());
    logger.info('Unsubscribe', { ...context(token), outcome, via });
    return outcome;
  }

  const api = httpApi('tracking', {
    'GET /api/t/o/{token}': async ({ event, params }) => {
      // The image is answered whatever happens: a failed count must not show a broken image.
      try {
        const token = await findToken(params.token);
        if (token) {
          const now = clock.now();
          const kind = requestKind(event, token, now);
          await tracking.recordOpen(token, kind, now);
        }
      } catch (error) {
        logger.error('Open not recorded', { error: error as Error });
      }
      return pixel();
    },

    'GET /api/t/c/{token}/{link}': async ({ event, params }) => {
      const index = params.link;
      if (!LINK_INDEX.test(index)) return linkNotFound();
      const token = await findToken(params.token);
      if (!token) return isEmailToken(params.token) ? linkGone() : linkNotFound();
      const target = token.links[Number(index)];
      // Only what the sender stored, and only a web address (never javascript:, data:, …).
      if (typeof target !== 'string' || !/^https?:\/\//i.test(target)) return linkNotFound();
      const now = clock.now();
      // Link scanners follow every link on delivery: only a person's click is counted.
      if (requestKind(event, token, now) === 'human') {
        try {
          await tracking.recordClick(token, Number(index), now);
        } catch (error) {
          logger.error('Click not recorded', { ...context(token), error: error as Error });
        }
      }
      return { statusCode: 302, headers: { location: target, 'referrer-policy': 'no-referrer', ...NO_CACHE } };
    },

    'GET /api/unsubscribe': async ({ query }) => {
      const token = await findToken(query.token);
      if (!token) return invalidToken();
      const lookup: UnsubscribeLookup = { artistName: token.artist_name, alreadyUnsubscribed: await tracking.isUnsubscribed(token) };
      return json(200, lookup);
    },

    'POST /api/unsubscribe': async ({ body }) => {
      const submit = parseForm((await unsubscribeSchemas()).unsubscribeSubmitSchema, body);
      const token = await findToken(submit.token);
      if (!token) return invalidToken();
      const reason = submit.reason ?? null;
      // Details explain a reason (the page offers the box once one is chosen); blank is none.
      const details = reason && submit.reasonDetails ? submit.reasonDetails : null;
      await unsubscribe(token, { reason, details }, 'page');
      return json(200, { artistName: token.artist_name, alreadyUnsubscribed: true } satisfies UnsubscribeLookup);
    },

    // A mail client without RFC 8058 opens the List-Unsubscribe URL in a browser: it gets the page, which
    // asks first (a GET never unsubscribes: link scanners fetch it too).
    'GET /api/unsubscribe/one-click': ({ query }) =>
      Promise.resolve({
        statusCode: 302,
        headers: { location: `/unsubscribe?token=${encodeURIComponent(query.token ?? '')}`, ...NO_CACHE },
        body: '',
      }),

    [ONE_CLICK_ROUTE]: async ({ query }) => {
      const token = await findToken(query.token);
      if (!token) return invalidToken();
      await unsubscribe(token, { reason: null, details: null }, 'one-click');
      return { statusCode: 200, headers: { 'cache-control': 'no-store' }, body: '' };
    },
  });

  // RFC 8058's body is a form (`List-Unsubscribe=One-Click`, urlencoded or multipart), not JSON: it is
  // judged here, then dropped before the JSON parsing every other route gets.
  return async (event: ApiEvent, lambdaContext: Context): Promise<ApiResult> => {
    if (event.routeKey !== ONE_CLICK_ROUTE) return api(event, lambdaContext);
    const body = event.body !== undefined && event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
    if (!(await isOneClickBody(event.headers['content-type'], body))) return json(400, { message: NOT_ONE_CLICK });
    return api({ ...event, body: undefined, isBase64Encoded: false }, lambdaContext);
  };
}

/** This group's handler over its own adapters for `config` (the local server builds one per stack). */
export const handlerFor = (config: ServerConfig) => makeHandler(trackingDeps(config));
/** The Lambda entry: reads the environment once, on the first request. */
export const handler = lazyHandler(() => handlerFor(readServerConfig(process.env)));
