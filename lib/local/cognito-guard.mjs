// The request filter in front of cognito-local (installed by lib/local/cognito-child.mjs).
//
// cognito-local answers every origin (`Access-Control-Allow-Origin: *`) and checks no credentials,
// so without this filter any web page the developer visits could call it from the browser: list the
// users, create an admin, reset a password (the Admin* actions). The filter refuses, with 403:
//   - a Host other than this machine's own names (DNS rebinding);
//   - a request carrying an Origin header other than the web app's (TRACKPITCH_APP_ORIGIN, comma
//     separated: http://127.0.0.1:<port>,http://localhost:<port>), preflights included;
//   - from any origin at all, the actions that need AWS credentials in Cognito: Admin* and the
//     user pool / client / group management API. Browsers always send Origin on cross-origin POSTs
//     (the web app calls cognito-local on another port); the local runtime's own SDK calls send none.
// The web app's own calls (SignUp, InitiateAuth, GetUser, ...) pass as before.

/** Actions Cognito serves only to AWS-signed requests besides the Admin* ones (those cognito-local implements). */
const IAM_ONLY_ACTIONS = new Set(
  [
    'AddCustomAttributes',
    'CreateGroup',
    'CreateUserPool',
    'CreateUserPoolClient',
    'DeleteGroup',
    'DeleteUserPool',
    'DeleteUserPoolClient',
    'DescribeUserPool',
    'DescribeUserPoolClient',
    'GetGroup',
    'GetUserPoolMfaConfig',
    'ListGroups',
    'ListUserPoolClients',
    'ListUserPools',
    'ListUsers',
    'ListUsersInGroup',
    'SetUserPoolMfaConfig',
    'UpdateGroup',
    'UpdateUserPool',
    'UpdateUserPoolClient',
  ].map((name) => name.toLowerCase()),
);

const ALLOWED_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** The action of an X-Amz-Target header, read as cognito-local reads it (the part after the first dot). */
export function actionOf(target) {
  if (typeof target !== 'string') return undefined;
  return target.split('.')[1];
}

/** True for an action a browser must never call: Admin* and the IAM-only management API. */
export function isPrivilegedAction(action) {
  if (typeof action !== 'string') return false;
  const name = action.trim().toLowerCase();
  return name.startsWith('admin') || IAM_ONLY_ACTIONS.has(name);
}

/** The allowed origins from a comma-separated list (empty: no browser origin at all). */
export function parseOrigins(value) {
  return new Set(
    String(value ?? '')
      .split(',')
      .map((origin) => origin.trim())
      .filter((origin) => origin !== ''),
  );
}

/**
 * Why a request is refused, or undefined to let it through.
 * @param {import('node:http').IncomingHttpHeaders} headers
 * @param {Set<string>} appOrigins
 * @returns {string | undefined}
 */
export function refusal(headers, appOrigins) {
  const host = String(headers.host ?? '')
    .replace(/:\d+$/, '')
    .toLowerCase();
  if (!ALLOWED_HOSTS.has(host)) return `Host "${host}" is not allowed: call cognito-local at 127.0.0.1.`;
  const origin = headers.origin;
  if (origin === undefined) return undefined;
  if (!appOrigins.has(origin)) {
    return `Origin ${origin} may not call the local Cognito: only the Trackpitch app (${[...appOrigins].join(', ') || 'none configured'}) may.`;
  }
  const action = actionOf(headers['x-amz-target']);
  if (isPrivilegedAction(action)) return `${action} is refused from a browser: it needs AWS credentials in Cognito.`;
  return undefined;
}

/** Wraps an HTTP request listener with the filter. */
export function guardListener(listener, appOrigins) {
  return function guardedListener(req, res) {
    const reason = refusal(req.headers, appOrigins);
    if (reason === undefined) return listener.call(this, req, res);
    req.resume();
    const body = JSON.stringify({ __type: 'AccessDeniedException', message: reason });
    res.writeHead(403, {
      'content-type': 'application/x-amz-json-1.1',
      'content-length': String(Buffer.byteLength(body)),
      'cache-control': 'no-store',
    });
    res.end(body);
  };
}
