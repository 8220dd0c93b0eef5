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
//
// It also makes cognito-local answer as the AWS pool does where the app relies on it (lib/cloud/auth.ts):
//   - SignUp and ConfirmForgotPassword with a password that breaks the app's rule (schema/passwordRule.mjs)
//     get Cognito's InvalidPasswordException with the rule's message (cognito-local checks no policy);
//   - with prevent-user-existence-errors, an unknown user is not revealed: a USER_PASSWORD_AUTH sign-in
//     with a wrong password or an unknown email gets NotAuthorizedException "Incorrect username or
//     password." (cognito-local says "Invalid password" / "User not authorized"), ForgotPassword for an
//     unknown email answers as if a code were sent, ConfirmForgotPassword for one gets CodeMismatchException.

import { meetsPasswordRule, PASSWORD_RULE_MESSAGE } from '../../schema/passwordRule.mjs';

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

/** The actions whose request or answer the guard reviews (lower case), see reviewRequest and reviewAnswer. */
const REVIEWED_ACTIONS = new Set(['signup', 'confirmforgotpassword', 'initiateauth', 'forgotpassword']);

/** Larger than any Cognito request the app sends; cognito-local's own parser allows 100 kB. */
const REVIEW_BODY_LIMIT = 100 * 1024;

/** Cognito's answer to a ConfirmForgotPassword with a wrong code (and, existence hidden, for an unknown user). */
export const CODE_MISMATCH_MESSAGE = 'Invalid verification code provided, please try again.';
/** Cognito's answer to a wrong password, and (existence hidden) to an unknown user. */
export const INCORRECT_CREDENTIALS_MESSAGE = 'Incorrect username or password.';

/** An email address as Cognito shows where it sent a code: `j***@e***`, the same for every address. */
export function maskedDestination(email) {
  const [local = '', domain = ''] = String(email ?? '').split('@');
  return `${local.slice(0, 1)}***@${domain.slice(0, 1)}***`;
}

/**
 * A Cognito error to answer instead of passing the request on, or undefined.
 * @returns {{ status: number, body: { __type: string, message: string } } | undefined}
 */
export function reviewRequest(action, request) {
  const name = String(action ?? '').toLowerCase();
  if ((name === 'signup' || name === 'confirmforgotpassword') && !meetsPasswordRule(request?.Password)) {
    return { status: 400, body: { __type: 'InvalidPasswordException', message: PASSWORD_RULE_MESSAGE } };
  }
  return undefined;
}

/**
 * cognito-local's answer as the AWS pool (prevent-user-existence-errors) gives it, or undefined to keep it.
 * @param {{ status: number, body: any }} answer
 * @returns {{ status: number, body: unknown } | undefined}
 */
export function reviewAnswer(action, request, answer) {
  const name = String(action ?? '').toLowerCase();
  const type = answer.status >= 400 ? answer.body?.__type : undefined;
  if (name === 'initiateauth' && request?.AuthFlow === 'USER_PASSWORD_AUTH') {
    if (type === 'NotAuthorizedException' || type === 'UserNotFoundException' || type === 'InvalidPasswordException') {
      return { status: 400, body: { __type: 'NotAuthorizedException', message: INCORRECT_CREDENTIALS_MESSAGE } };
    }
  }
  if (name === 'forgotpassword') {
    const delivery = { AttributeName: 'email', DeliveryMedium: 'EMAIL', Destination: maskedDestination(request?.Username) };
    if (type === 'UserNotFoundException' || answer.status === 200) return { status: 200, body: { CodeDeliveryDetails: delivery } };
  }
  if (name === 'confirmforgotpassword' && type === 'UserNotFoundException') {
    return { status: 400, body: { __type: 'CodeMismatchException', message: CODE_MISMATCH_MESSAGE } };
  }
  return undefined;
}

function sendJson(res, status, body, headers = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/x-amz-json-1.1',
    'content-length': String(Buffer.byteLength(text)),
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(text);
}

/** Makes res.end give reviewAnswer's version of cognito-local's answer (express sends it in one end() call). */
function reviewAnswersOf(res, action, request) {
  const end = res.end;
  res.end = function reviewedEnd(chunk, encoding, callback) {
    res.end = end;
    if (chunk === undefined || chunk === null || typeof chunk === 'function') return end.call(this, chunk, encoding, callback);
    let body;
    try {
      body = JSON.parse(Buffer.isBuffer(chunk) ? chunk.toString('utf8') : String(chunk));
    } catch {
      return end.call(this, chunk, encoding, callback);
    }
    const reviewed = reviewAnswer(action, request, { status: res.statusCode, body });
    if (reviewed === undefined) return end.call(this, chunk, encoding, callback);
    const text = JSON.stringify(reviewed.body);
    res.statusCode = reviewed.status;
    res.setHeader('content-type', 'application/x-amz-json-1.1');
    res.setHeader('content-length', String(Buffer.byteLength(text)));
    res.removeHeader('etag');
    return end.call(this, text, 'utf8', typeof encoding === 'function' ? encoding : callback);
  };
}

/**
 * Reads the request body, answers reviewRequest's error if any, else hands the parsed body to
 * cognito-local (its body parser skips a request already read) with its answer reviewed.
 */
function reviewed(listener, self, req, res, action) {
  // The browser reads the answer only with the CORS header cognito-local would have added.
  const cors = req.headers.origin === undefined ? {} : { 'access-control-allow-origin': '*' };
  const chunks = [];
  let size = 0;
  req.on('data', (chunk) => {
    size += chunk.length;
    if (size <= REVIEW_BODY_LIMIT) chunks.push(chunk);
  });
  req.on('error', () => res.destroy());
  req.on('end', () => {
    if (size > REVIEW_BODY_LIMIT) return sendJson(res, 413, { __type: 'InvalidParameterException', message: 'The request is too large.' }, cors);
    let request;
    try {
      request = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return sendJson(res, 400, { __type: 'SerializationException', message: 'The request body is not valid JSON.' }, cors);
    }
    const refused = reviewRequest(action, request);
    if (refused !== undefined) return sendJson(res, refused.status, refused.body, cors);
    req.body = request;
    reviewAnswersOf(res, action, request);
    listener.call(self, req, res);
  });
}

/** Wraps an HTTP request listener with the filter. */
export function guardListener(listener, appOrigins) {
  return function guardedListener(req, res) {
    const reason = refusal(req.headers, appOrigins);
    if (reason === undefined) {
      const action = actionOf(req.headers['x-amz-target']);
      if (req.method === 'POST' && REVIEWED_ACTIONS.has(String(action).toLowerCase())) return reviewed(listener, this, req, res, action);
      return listener.call(this, req, res);
    }
    req.resume();
    sendJson(res, 403, { __type: 'AccessDeniedException', message: reason });
  };
}
