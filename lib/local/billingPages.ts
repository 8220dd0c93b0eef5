/**
 * The local billing twin's pages (`/local/billing/…`), the stand-ins for Stripe's hosted Checkout and
 * Customer Portal in `npm start` and the tests (DESIGN §10). Server-rendered, no script; every value
 * escaped. Each POST acts only when sent from the app's own origins as a form (lib/local/formPage.ts)
 * and names its session, an unguessable id only the app handed out.
 *
 *   GET  /local/billing/checkout?session=<id>  "Trackpitch test checkout": the plan, its price, a test
 *        card form; Pay (the twin pays: subscription, events) → the session's success URL; Cancel →
 *        its cancel URL.
 *   GET  /local/billing/portal?session=<id>    "Trackpitch test billing portal": the plan, its status,
 *        the renewal or cancellation date, and the actions of lambdas/adapters/local-billing/twin.ts;
 *        each POST acts, then comes back here with what it did.
 *
 * When the app's webhook refuses an event (or cannot be reached), the page says so, with the webhook's
 * answer, instead of carrying on as if the app knew.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { BILLING_CHECKOUT_PATH, BILLING_PORTAL_PATH } from '../../lambdas/adapters/local-billing/paths';
import {
  isPortalAction,
  isPortalOutcome,
  portalOutcomes,
  TwinRefusal,
  type BillingTwin,
  type DeliveryReport,
  type PortalView,
} from '../../lambdas/adapters/local-billing/twin';
import { TwinConflictError } from '../../lambdas/adapters/local-billing/twinStore';
import { brandMastheadHtml, brandPageCss } from '../../schema/brand';
import { escapeHtml } from '../../schema/email/escape';
import { planOf, priceLabel, type PaidTier } from '../../schema/plans';
import { readForm, refuseForeignPost, sendPage } from './formPage';

export { BILLING_CHECKOUT_PATH, BILLING_PORTAL_PATH };
export const BILLING_PAGES_PREFIX = '/local/billing/';
/** Where a page without a usable session sends the person back to. */
const SUBSCRIPTION_PAGE = '/dashboard/subscription';
/** The one card the test checkout takes (Stripe's test card). */
const TEST_CARD = '4242 4242 4242 4242';

export interface BillingPagesOptions {
  twin: BillingTwin;
  /** The app's own origins: the only pages whose forms may act. */
  appOrigins: readonly string[];
}

/** The brand's page frame (schema/brand.ts) and this twin's own few rules. */
const STYLE = `${brandPageCss()}
  .test { display: inline-block; background: #fff3cd; color: #5c4400; border-radius: 6px; padding: .15rem .5rem; font-size: .85rem; font-weight: 600; }
  .price { font-size: 1.6rem; font-weight: 700; margin: .25rem 0 1rem; }
  dl { display: grid; grid-template-columns: auto 1fr; gap: .4rem 1rem; }
  dt { font-weight: 600; }
  dd { margin: 0; }
  .row { display: flex; gap: .75rem; }
  .row > div { flex: 1; }
  .status { color: #037f0c; font-weight: 600; }
`;

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Trackpitch (local)</title>
<style>${STYLE}</style>
</head>
<body>
${brandMastheadHtml()}
<main>
${body}
</main>
</body>
</html>`;
}

const priceText = (tier: PaidTier) => `${priceLabel(planOf(tier))}/month`;

/** A date as the pages print it: 'December 26, 2026' (UTC, as the twin's periods are). */
const dateText = (epochSeconds: number) =>
  new Date(epochSeconds * 1000).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

const statusText: Record<string, string> = {
  active: 'Active',
  trialing: 'Trialing',
  past_due: 'Past due',
  unpaid: 'Unpaid',
  incomplete: 'Incomplete',
  paused: 'Paused',
};

function deliveryAlert(delivery: DeliveryReport): string {
  if (delivery.failures.length === 0) return '';
  const items = delivery.failures.map((failure) => `<li><code>${escapeHtml(failure.type)}</code>: ${escapeHtml(failure.reason)}</li>`).join('');
  return `<div class="alert" role="alert"><p>The change was made, but Trackpitch's webhook did not accept ${
    delivery.failures.length === 1 ? 'its event' : `${delivery.failures.length} of its events`
  }, so the app may not show it yet (the Subscription page syncs when it loads):</p><ul>${items}</ul></div>`;
}

function problemPage(
  res: ServerResponse,
  status: number,
  title: string,
  message: string,
  back: { href: string; text: string },
  headers: Record<string, string> = {},
) {
  sendPage(
    res,
    status,
    layout(
      title,
      `<h1>${escapeHtml(title)}</h1><p role="alert">${escapeHtml(message)}</p><p><a href="${escapeHtml(back.href)}">${escapeHtml(back.text)}</a></p>`,
    ),
    headers,
  );
}

const backToSubscription = { href: SUBSCRIPTION_PAGE, text: 'Back to Subscription' };

function seeOther(res: ServerResponse, location: string) {
  res.writeHead(303, { location, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer', 'content-length': '0' }).end();
}

// ---- Checkout ----------------------------------------------------------------------------------

const CHECKOUT_TITLE = 'Trackpitch test checkout';

interface CardValues {
  card: string;
  expiry: string;
  cvc: string;
  error?: string;
}

function checkoutPage(sessionId: string, tier: PaidTier, card: CardValues): string {
  const plan = planOf(tier);
  const invalid = card.error ? ' aria-invalid="true" aria-describedby="card-error"' : '';
  return layout(
    CHECKOUT_TITLE,
    `<h1>${CHECKOUT_TITLE}</h1>
  <p><span class="test">Test mode</span> Nothing is charged: this is the local stand-in for Stripe Checkout.</p>
  <p>Subscribe to <strong>${escapeHtml(plan.name)}</strong></p>
  <p class="price">${escapeHtml(priceText(tier))}</p>
  <form method="post" action="${BILLING_CHECKOUT_PATH}" novalidate>
    <input type="hidden" name="session" value="${escapeHtml(sessionId)}">
    <label for="card">Card number</label>
    <input id="card" name="card" type="text" inputmode="numeric" autocomplete="cc-number" value="${escapeHtml(card.card)}"${invalid}>
    ${card.error ? `<p id="card-error" class="error" role="alert">${escapeHtml(card.error)}</p>` : ''}
    <div class="row">
      <div><label for="expiry">Expiry</label><input id="expiry" name="expiry" type="text" inputmode="numeric" autocomplete="cc-exp" value="${escapeHtml(card.expiry)}"></div>
      <div><label for="cvc">CVC</label><input id="cvc" name="cvc" type="text" inputmode="numeric" autocomplete="cc-csc" value="${escapeHtml(card.cvc)}"></div>
    </div>
    <p class="hint">Use the test card ${TEST_CARD}, any future expiry and any CVC.</p>
    <div class="actions">
      <button type="submit" name="decision" value="pay" class="primary">Pay</button>
      <button type="submit" name="decision" value="cancel">Cancel</button>
    </div>
  </form>`,
  );
}

const checkoutProblems = {
  unknown: [404, 'This checkout session is not valid. Start again from the Subscription page.'],
  used: [410, 'This checkout session was already used. Start again from the Subscription page.'],
  expired: [410, 'This checkout session has expired. Start again from the Subscription page.'],
  'unknown-price': [400, 'This checkout session names a price that is not one of the local plans. Start again from the Subscription page.'],
} as const;

async function checkoutGet(res: ServerResponse, twin: BillingTwin, sessionId: string) {
  const view = await twin.checkoutView(sessionId);
  if (view.state !== 'open') {
    const [status, message] = checkoutProblems[view.state];
    problemPage(res, status, CHECKOUT_TITLE, message, backToSubscription);
    return;
  }
  sendPage(res, 200, checkoutPage(view.session.id, view.tier, { card: TEST_CARD, expiry: '12/34', cvc: '123' }));
}

async function checkoutPost(res: ServerResponse, twin: BillingTwin, form: URLSearchParams) {
  const sessionId = form.get('session') ?? '';
  const decision = form.get('decision');
  if (decision === 'cancel') {
    const session = await twin.cancelCheckout(sessionId);
    seeOther(res, session.cancelUrl);
    return;
  }
  if (decision !== 'pay') {
    problemPage(res, 400, CHECKOUT_TITLE, 'Choose Pay or Cancel.', backToSubscription);
    return;
  }
  const card = { card: form.get('card') ?? '', expiry: form.get('expiry') ?? '', cvc: form.get('cvc') ?? '' };
  if (card.card.replace(/[\s-]/g, '') !== TEST_CARD.replace(/\s/g, '')) {
    const view = await twin.checkoutView(sessionId);
    if (view.state === 'open') {
      sendPage(res, 400, checkoutPage(sessionId, view.tier, { ...card, error: `Use the test card ${TEST_CARD}.` }));
      return;
    }
  }
  const { session, delivery } = await twin.payCheckout(sessionId);
  if (delivery.failures.length > 0) {
    problemPageWithDelivery(res, CHECKOUT_TITLE, 'Payment complete.', delivery, { href: session.successUrl, text: 'Continue to Trackpitch' });
    return;
  }
  seeOther(res, session.successUrl);
}

function problemPageWithDelivery(res: ServerResponse, title: string, done: string, delivery: DeliveryReport, next: { href: string; text: string }) {
  sendPage(
    res,
    502,
    layout(
      title,
      `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(done)}</p>${deliveryAlert(delivery)}<p><a href="${escapeHtml(next.href)}">${escapeHtml(next.text)}</a></p>`,
    ),
  );
}

// ---- Portal ------------------------------------------------------------------------------------

const PORTAL_TITLE = 'Trackpitch test billing portal';
const returnLink = (view: PortalView) => `<p><a href="${escapeHtml(view.session.returnUrl)}">Return to Trackpitch</a></p>`;

function portalPage(view: PortalView, notice: { status?: string; alert?: string; delivery?: DeliveryReport } = {}): string {
  const messages = `${notice.status ? `<p class="status" role="status">${escapeHtml(notice.status)}</p>` : ''}${
    notice.alert ? `<p class="alert" role="alert">${escapeHtml(notice.alert)}</p>` : ''
  }${notice.delivery ? deliveryAlert(notice.delivery) : ''}`;
  const { subscription, tier } = view;
  if (!subscription || !tier) {
    const none = subscription ? 'This subscription bills a price that is not one of the local plans.' : 'You have no subscription.';
    return layout(PORTAL_TITLE, `<h1>${PORTAL_TITLE}</h1>${messages}<p>${none}</p>${returnLink(view)}`);
  }
  const other: PaidTier = tier === 'pro' ? 'label' : 'pro';
  const dateLine = subscription.cancelAtPeriodEnd
    ? `Cancels on ${dateText(subscription.cancelAt ?? subscription.currentPeriodEnd)}`
    : `Renews on ${dateText(subscription.currentPeriodEnd)}`;
  const button = (action: string, text: string) => `<button type="submit" name="action" value="${action}">${escapeHtml(text)}</button>`;
  return layout(
    PORTAL_TITLE,
    `<h1>${PORTAL_TITLE}</h1>
  <p><span class="test">Test mode</span> The local stand-in for Stripe's Customer Portal.</p>
  ${messages}
  <dl>
    <dt>Current plan</dt><dd>${escapeHtml(planOf(tier).name)} (${escapeHtml(priceText(tier))})</dd>
    <dt>Status</dt><dd>${escapeHtml(statusText[subscription.status] ?? subscription.status)}</dd>
  </dl>
  <p>${escapeHtml(dateLine)}</p>
  ${subscription.status === 'past_due' ? '<p class="alert">The latest payment failed. The payment is retried until the retry window ends; then the subscription is canceled.</p>' : ''}
  <form method="post" action="${BILLING_PORTAL_PATH}">
    <input type="hidden" name="session" value="${escapeHtml(view.session.id)}">
    <div class="actions">
      ${button(`switch-${other}`, `Switch to ${planOf(other).name}`)}
      ${subscription.cancelAtPeriodEnd ? button('resume', 'Resume subscription') : button('cancel-at-period-end', 'Cancel at period end')}
      ${button('fail-renewal', 'Simulate failed renewal payment')}
      ${button('advance', 'Advance to period end')}
    </div>
  </form>
  ${returnLink(view)}`,
  );
}

const PORTAL_EXPIRED = 'This billing portal session is not valid or has expired. Open it again with Manage Billing.';

async function portalGet(res: ServerResponse, twin: BillingTwin, sessionId: string, done: string | null) {
  const view = await twin.portalView(sessionId);
  if (!view) {
    problemPage(res, 404, PORTAL_TITLE, PORTAL_EXPIRED, backToSubscription);
    return;
  }
  sendPage(res, 200, portalPage(view, done !== null && isPortalOutcome(done) ? { status: portalOutcomes[done] } : {}));
}

async function portalPost(res: ServerResponse, twin: BillingTwin, form: URLSearchParams) {
  const sessionId = form.get('session') ?? '';
  const action = form.get('action') ?? '';
  const view = await twin.portalView(sessionId);
  if (!view) {
    problemPage(res, 404, PORTAL_TITLE, PORTAL_EXPIRED, backToSubscription);
    return;
  }
  if (!isPortalAction(action)) {
    sendPage(res, 400, portalPage(view, { alert: 'Choose one of the portal actions.' }));
    return;
  }
  try {
    const { outcome, delivery } = await twin.portalAction(sessionId, action);
    if (delivery.failures.length > 0) {
      const after = (await twin.portalView(sessionId)) ?? view;
      sendPage(res, 502, portalPage(after, { status: portalOutcomes[outcome], delivery }));
      return;
    }
    seeOther(res, `${BILLING_PORTAL_PATH}?session=${encodeURIComponent(sessionId)}&done=${outcome}`);
  } catch (error) {
    if (!(error instanceof TwinRefusal) && !(error instanceof TwinConflictError)) throw error;
    sendPage(res, 409, portalPage((await twin.portalView(sessionId)) ?? view, { alert: error.message }));
  }
}

// ---- Routing -----------------------------------------------------------------------------------

/** Serves `/local/billing/checkout` and `/local/billing/portal`. */
export async function handleBillingPages(req: IncomingMessage, res: ServerResponse, { twin, appOrigins }: BillingPagesOptions): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const page = url.pathname === BILLING_CHECKOUT_PATH ? 'checkout' : url.pathname === BILLING_PORTAL_PATH ? 'portal' : undefined;
  const title = page === 'portal' ? PORTAL_TITLE : CHECKOUT_TITLE;
  if (!page) {
    req.resume();
    problemPage(res, 404, 'Trackpitch test billing', 'There is no such page.', backToSubscription);
    return;
  }
  if (req.method === 'GET' || req.method === 'HEAD') {
    req.resume();
    const sessionId = url.searchParams.get('session') ?? '';
    if (page === 'checkout') await checkoutGet(res, twin, sessionId);
    else await portalGet(res, twin, sessionId, url.searchParams.get('done'));
    return;
  }
  if (req.method !== 'POST') {
    req.resume();
    problemPage(res, 405, title, 'Method not allowed.', backToSubscription, { allow: 'GET, HEAD, POST' });
    return;
  }
  const refusal = refuseForeignPost(req, appOrigins, page === 'checkout' ? 'checkout' : 'billing portal');
  if (refusal) {
    req.resume();
    problemPage(res, refusal[0], title, refusal[1], backToSubscription);
    return;
  }
  const form = await readForm(req);
  if (form === 'too-large') {
    problemPage(res, 413, title, 'The request is too large.', backToSubscription);
    return;
  }
  try {
    if (page === 'checkout') await checkoutPost(res, twin, form);
    else await portalPost(res, twin, form);
  } catch (error) {
    if (!(error instanceof TwinRefusal)) throw error;
    problemPage(res, 409, title, error.message, backToSubscription);
  }
}
