/**
 * The local mailbox's consent page (`/local/mailbox/consent`), the stand-in for Google's consent screen
 * in `npm start` and the tests. GET shows "Connect a test mailbox": the address to connect (any address:
 * nothing is sent anywhere, the outbox page shows what it "sent"), whether it is a Google Workspace
 * account, and Allow / Deny. POST sends the browser back to the app's own callback with a code of the
 * local mailbox (lambdas/adapters/local-mailbox/localMailboxAuth.ts) or `error=access_denied`, and the
 * state unchanged. Any other redirect_uri is refused, so the page cannot be used to bounce a browser
 * (or a code) to another site.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { issueLocalMailboxCode } from '../../lambdas/adapters/local-mailbox/localMailboxAuth';
import { FREE_GMAIL_DAILY_LIMIT, WORKSPACE_GMAIL_DAILY_LIMIT } from '../../lambdas/core/plans';
import { characterMessages, hasInvisibleOrControl } from '../../schema/api/characters';
import { brandMastheadHtml, brandPageCss } from '../../schema/brand';
import { escapeHtml } from '../../schema/email/escape';
import { readForm, refuseForeignPost, sendPage } from './formPage';

export const MAILBOX_CONSENT_PATH = '/local/mailbox/consent';
export const DEFAULT_LOCAL_MAILBOX = 'artist@local.test';
const CALLBACK_PATH = '/api/mailbox/callback';
const EMAIL = /^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/;

/** The callback URL when it is this app's own, else undefined. */
function ownCallback(redirectUri: string | null, appOrigins: readonly string[]): string | undefined {
  if (!redirectUri) return undefined;
  return appOrigins.some((origin) => redirectUri === `${origin}${CALLBACK_PATH}`) ? redirectUri : undefined;
}

interface FormValues {
  state: string;
  redirectUri: string;
  email: string;
  workspace: boolean;
  error?: string;
}

function consentPage(values: FormValues): string {
  const errorId = 'email-error';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Connect a test mailbox · Trackpitch (local)</title>
<style>${brandPageCss()}
  .check { display: flex; gap: .5rem; align-items: flex-start; font-weight: 400; }
  .check input { width: 1.2rem; height: 1.2rem; margin: 0; }
</style>
</head>
<body>
${brandMastheadHtml()}
<main>
  <h1>Connect a test mailbox</h1>
  <p>This is the local stand-in for Google's consent screen. Nothing is sent to a real mailbox: the emails Trackpitch "sends" appear on the app's Outbox page.</p>
  <p>Trackpitch would like to:</p>
  <ul>
    <li>Send email on your behalf</li>
    <li>See your email address</li>
  </ul>
  <form method="post" action="${MAILBOX_CONSENT_PATH}" novalidate>
    <input type="hidden" name="state" value="${escapeHtml(values.state)}">
    <input type="hidden" name="redirect_uri" value="${escapeHtml(values.redirectUri)}">
    <label for="email">Mailbox address</label>
    <input id="email" name="email" type="email" autocomplete="email" required value="${escapeHtml(values.email)}"${
      values.error ? ` aria-invalid="true" aria-describedby="${errorId}"` : ''
    }>
    ${values.error ? `<p id="${errorId}" class="error" role="alert">${escapeHtml(values.error)}</p>` : ''}
    <label class="check"><input type="checkbox" name="workspace" value="true"${values.workspace ? ' checked' : ''}> Google Workspace account</label>
    <p class="hint">A Workspace mailbox may send ${WORKSPACE_GMAIL_DAILY_LIMIT} emails a day; a personal Gmail account ${FREE_GMAIL_DAILY_LIMIT}.</p>
    <div class="actions">
      <button type="submit" name="decision" value="allow" class="primary">Allow</button>
      <button type="submit" name="decision" value="deny">Deny</button>
    </div>
  </form>
</main>
</body>
</html>`;
}

function problemPage(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}) {
  sendPage(
    res,
    status,
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Connect a test mailbox · Trackpitch (local)</title><style>${brandPageCss()}</style></head><body>${brandMastheadHtml()}<main><h1>Connect a test mailbox</h1><p role="alert">${escapeHtml(message)}</p></main></body></html>`,
    headers,
  );
}

const INVALID_LINK = 'This consent link is not valid. Start again from Settings → Mailbox Integration → Connect Gmail.';

/** Serves `/local/mailbox/consent`; `appOrigins` are the app's own origins (its callback is the only redirect allowed). */
export async function handleMailboxConsent(req: IncomingMessage, res: ServerResponse, { appOrigins }: { appOrigins: readonly string[] }): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  if (req.method === 'GET' || req.method === 'HEAD') {
    req.resume();
    const state = url.searchParams.get('state');
    const redirectUri = ownCallback(url.searchParams.get('redirect_uri'), appOrigins);
    if (!state || !redirectUri) {
      problemPage(res, 400, INVALID_LINK);
      return;
    }
    sendPage(res, 200, consentPage({ state, redirectUri, email: DEFAULT_LOCAL_MAILBOX, workspace: false }));
    return;
  }
  if (req.method !== 'POST') {
    req.resume();
    problemPage(res, 405, 'Method not allowed.', { allow: 'GET, HEAD, POST' });
    return;
  }
  // Only the page itself (served from one of the app's origins) may answer for the person.
  const refusal = refuseForeignPost(req, appOrigins, 'consent');
  if (refusal) {
    req.resume();
    problemPage(res, ...refusal);
    return;
  }
  const form = await readForm(req);
  if (form === 'too-large') {
    problemPage(res, 413, 'The request is too large.');
    return;
  }
  const state = form.get('state');
  const redirectUri = ownCallback(form.get('redirect_uri'), appOrigins);
  if (!state || !redirectUri) {
    problemPage(res, 400, INVALID_LINK);
    return;
  }

  const back = new URL(redirectUri);
  back.searchParams.set('state', state);
  if (form.get('decision') === 'deny') {
    back.searchParams.set('error', 'access_denied');
    redirect(res, back);
    return;
  }
  if (form.get('decision') !== 'allow') {
    problemPage(res, 400, 'Choose Allow or Deny.');
    return;
  }
  const email = (form.get('email') ?? '').trim();
  const workspace = form.get('workspace') === 'true';
  // The app's email rule (schema/api/characters): an address that looks right but holds an invisible character is named as such.
  const error = hasInvisibleOrControl(email)
    ? characterMessages.invisibleInEmail
    : email.length > 254 || !EMAIL.test(email)
      ? 'Enter an email address, such as artist@local.test.'
      : null;
  if (error !== null) {
    sendPage(res, 400, consentPage({ state, redirectUri, email, workspace, error }));
    return;
  }
  back.searchParams.set('code', issueLocalMailboxCode({ email: email.toLowerCase(), workspace }));
  redirect(res, back);
}

function redirect(res: ServerResponse, location: URL) {
  res.writeHead(302, { location: location.toString(), 'cache-control': 'no-store', 'referrer-policy': 'no-referrer', 'content-length': '0' }).end();
}
