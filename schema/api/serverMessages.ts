/**
 * Answers that no route handler words itself, in one place so that the API, the local server, the web
 * and the web tests' fake servers say the same: the API's own (lambdas/http/api.ts), and API Gateway's,
 * which the local server gives as API Gateway does (lib/local/server.ts, lib/local/event.ts).
 */

/** The shared HTTP layer's answers (lambdas/http/api.ts). */
export const apiMessages = {
  /** A 500: the crash is logged with the request id, which the body carries. */
  internalError: 'Something went wrong on our side. Please try again.',
  /** A route key no route of schema/routes.ts has. */
  noRoute: 'Not found.',
} as const;

/** API Gateway's own answers (before, or instead of, a handler). */
export const gatewayMessages = {
  /** No route for this method and path. */
  notFound: 'Not Found',
  /** The route's rate or burst limit. */
  tooManyRequests: 'Too Many Requests',
  payloadTooLarge: 'Request Entity Too Large',
  /** No or an invalid token on a signed-in route. */
  unauthorized: 'Unauthorized',
  /** The integration timed out. */
  serviceUnavailable: 'Service Unavailable',
  /** A crashed Lambda, or a result API Gateway cannot use. */
  internalServerError: 'Internal Server Error',
} as const;

/** The error `code` of a feature's 503 on a deployment without its settings (billing, uploads, Gmail). */
export const NOT_CONFIGURED = 'not_configured';

/**
 * The message of that 503, for the person who sees it and for the operator who must set what it names:
 * '<feature> is not configured on this deployment: <settings> are not set (see docs/deploy.md: <section>).'
 */
export function notConfiguredMessage(feature: string, settings: readonly string[], guideSection: string): string {
  const named = `${settings.join(' and ')} ${settings.length > 1 ? 'are' : 'is'} not set`;
  return `${feature} is not configured on this deployment: ${named} (see docs/deploy.md: ${guideSection}).`;
}

/** The local server's own answers (lib/local/server.ts). */
export const localServerMessages = {
  /** A request before the engines are up. */
  starting: 'Trackpitch is starting; try again in a moment.',
  /** POST /local/confirm-signup for an address without an account. */
  noAccount: 'There is no account with this email address.',
} as const;

/**
 * The `code` of a 429 for one client over its own limit on a public POST route (lambdas/http/clientLimit.ts):
 * its message says when to try again, so a page shows it (the route throttle's 429 is everyone's).
 */
export const CLIENT_LIMIT_CODE = 'client_limit';
