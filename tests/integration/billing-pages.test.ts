/**
 * The local billing twin's pages (lib/local/billingPages.ts) as the local server mounts them, with the
 * twin posting its events to that very server's webhook route (`POST /api/billing/webhook`, public),
 * answered here by a recording handler that verifies each signature as Stripe's library does. What the
 * person sees (headings, plan, price, the test card, the buttons), where Pay and Cancel lead, each portal
 * action and its message, refusals (foreign origin, not a form, used or unknown sessions), and the
 * webhook's refusals shown on the page.
 */
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LocalBilling } from '../../lambdas/adapters/local-billing/localBilling';
import { BillingTwin } from '../../lambdas/adapters/local-billing/twin';
import { reserveLocalServer, type LambdaHandler, type LocalServer } from '../../lib/local/server';
import type { ApiGatewayEvent } from '../../lib/local/event';
import { dynamodb, stack, startServer } from './helpers';

const SECRET = 'whsec_pages_test';
const PRO = 'price_pages_pro';
const LABEL = 'price_pages_label';
const NOW = new Date('2026-01-15T12:00:00.000Z');

let server: LocalServer;
let billing: LocalBilling;
let webhookStatus = 200;
const delivered: Stripe.Event[] = [];
let run = 0;

beforeAll(async () => {
  const reserved = await reserveLocalServer(0);
  const deps = { db: dynamodb().doc, tableName: stack().tableName, appUrl: reserved.url, clock: { now: () => NOW } };
  billing = new LocalBilling(deps);
  const twin = new BillingTwin({ ...deps, webhookSecret: () => Promise.resolve(SECRET), prices: { pro: PRO, label: LABEL } });
  // The billing group's handler: records each event whose signature Stripe's library accepts.
  const webhook: LambdaHandler = (event: ApiGatewayEvent) => {
    if (webhookStatus !== 200) return Promise.resolve({ statusCode: webhookStatus, body: JSON.stringify({ message: 'Billing is not configured' }) });
    delivered.push(Stripe.webhooks.constructEvent(event.body ?? '', event.headers['stripe-signature'] ?? '', SECRET, 300));
    return Promise.resolve({ statusCode: 200, body: '{"received":true}' });
  };
  server = await startServer({ reserved, billingTwin: twin, loadHandler: () => Promise.resolve(webhook) });
});
afterAll(() => server.close());
beforeEach(() => {
  delivered.length = 0;
  webhookStatus = 200;
});

const get = (path: string) => fetch(`${server.url}${path}`, { redirect: 'manual' });
const post = (path: string, form: Record<string, string>, origin: string | null = server.url, type = 'application/x-www-form-urlencoded') =>
  fetch(`${server.url}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': type, ...(origin ? { origin } : {}) },
    body: new URLSearchParams(form).toString(),
  });
const sessionOf = (url: string) => new URL(url).searchParams.get('session')!;

async function checkoutFor(priceId = PRO) {
  const userId = `pages-user-${++run}-${Date.now().toString(36)}`;
  const customerId = await billing.createCustomer({ userId, email: `${userId}@example.com` });
  const url = await billing.createCheckoutSession({
    customerId,
    userId,
    priceId,
    successUrl: `${server.url}/dashboard/subscription?success=true`,
    cancelUrl: `${server.url}/dashboard/subscription?canceled=true`,
  });
  return { customerId, url, session: sessionOf(url), path: url.slice(server.url.length) };
}

const payForm = (session: string) => ({ session, card: '4242 4242 4242 4242', expiry: '12/34', cvc: '123', decision: 'pay' });

async function portalFor(returnPath = '/dashboard/subscription') {
  const checkout = await checkoutFor();
  expect((await post('/local/billing/checkout', payForm(checkout.session))).status).toBe(303);
  delivered.length = 0;
  const url = await billing.createPortalSession({ customerId: checkout.customerId, returnUrl: `${server.url}${returnPath}` });
  return { ...checkout, portal: sessionOf(url), portalPath: url.slice(server.url.length) };
}

describe('the test checkout page', () => {
  it('shows the plan, its price and a prefilled test card form with Pay and Cancel', async () => {
    const { path } = await checkoutFor();
    const response = await get(path);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toContain("form-action 'self'");
    const html = await response.text();
    expect(html).toContain('<h1>Trackpitch test checkout</h1>');
    expect(html).toContain('<strong>Pro</strong>');
    expect(html).toContain('$29/month');
    expect(html).toMatch(/<label for="card">Card number<\/label>\s*<input id="card"[^>]*value="4242 4242 4242 4242"/);
    expect(html).toMatch(/<label for="expiry">Expiry<\/label><input id="expiry"[^>]*value="12\/34"/);
    expect(html).toMatch(/<label for="cvc">CVC<\/label><input id="cvc"[^>]*value="123"/);
    expect(html).toContain('>Pay</button>');
    expect(html).toContain('>Cancel</button>');
    expect(await (await get((await checkoutFor(LABEL)).path)).text()).toMatch(/<strong>Expert<\/strong>[\s\S]*\$99\/month/);
  });

  it('Pay: subscribes, posts the three events to the webhook route, and goes to the success URL; the session is then used', async () => {
    const { session, path, customerId } = await checkoutFor();
    const response = await post('/local/billing/checkout', payForm(session));
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(`${server.url}/dashboard/subscription?success=true`);
    expect(delivered.map((e) => e.type)).toEqual(['customer.subscription.created', 'invoice.paid', 'checkout.session.completed']);
    expect(await billing.currentSubscription(customerId)).toMatchObject({ status: 'active', priceId: PRO });
    const again = await get(path);
    expect(again.status).toBe(410);
    const html = await again.text();
    expect(html).toContain('already used');
    expect(html).toContain('<a href="/dashboard/subscription">Back to Subscription</a>');
  });

  it('Cancel: nothing is paid, no event, back to the cancel URL', async () => {
    const { session, customerId } = await checkoutFor();
    const response = await post('/local/billing/checkout', { session, decision: 'cancel' });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(`${server.url}/dashboard/subscription?canceled=true`);
    expect(delivered).toEqual([]);
    expect(await billing.currentSubscription(customerId)).toBeNull();
  });

  it('an unknown session says so, with a link back', async () => {
    const response = await get('/local/billing/checkout?session=cs_local_%3Cscript%3E');
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(html).toContain('not valid');
    expect(html).toContain('href="/dashboard/subscription"');
    expect(html).not.toContain('<script>');
  });

  it('refuses a post from another origin (a sandboxed frame says null), or not as a form, and pays nothing', async () => {
    const { session, customerId } = await checkoutFor();
    expect((await post('/local/billing/checkout', payForm(session), 'https://evil.example')).status).toBe(403);
    expect((await post('/local/billing/checkout', payForm(session), 'null')).status).toBe(403);
    expect((await post('/local/billing/checkout', payForm(session), server.url, 'text/plain')).status).toBe(415);
    expect(await billing.currentSubscription(customerId)).toBeNull();
    expect(delivered).toEqual([]);
  });

  it('asks for the test card, keeping what was typed (escaped)', async () => {
    const { session, customerId } = await checkoutFor();
    const response = await post('/local/billing/checkout', { ...payForm(session), card: '4000 "><b>x' });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain('value="4000 &quot;&gt;&lt;b&gt;x"');
    expect(html).toMatch(/role="alert">Use the test card 4242 4242 4242 4242\./);
    expect(await billing.currentSubscription(customerId)).toBeNull();
  });

  it('says when the webhook refused the events, instead of carrying on', async () => {
    const { session } = await checkoutFor();
    webhookStatus = 503;
    const response = await post('/local/billing/checkout', payForm(session));
    expect(response.status).toBe(502);
    const html = await response.text();
    expect(html).toContain('role="alert"');
    expect(html).toContain('did not accept 3 of its events');
    expect(html).toContain('<code>checkout.session.completed</code>: the webhook answered 503');
    expect(html).toContain(`href="${server.url}/dashboard/subscription?success=true">Continue to Trackpitch</a>`);
  });
});

describe('the test billing portal', () => {
  it('shows the plan, status, renewal date, the actions and the return link', async () => {
    const { portalPath } = await portalFor();
    const response = await get(portalPath);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('<h1>Trackpitch test billing portal</h1>');
    expect(html).toContain('<dd>Pro ($29/month)</dd>');
    expect(html).toContain('<dd>Active</dd>');
    expect(html).toContain('Renews on February 15, 2026');
    for (const label of ['Switch to Expert', 'Cancel at period end', 'Simulate failed renewal payment', 'Advance to period end'])
      expect(html).toContain(`>${label}</button>`);
    expect(html).not.toContain('Switch to Pro');
    expect(html).toContain(`<a href="${server.url}/dashboard/subscription">Return to Trackpitch</a>`);
  });

  it('each action acts, posts its events, and comes back with its message', async () => {
    const { portal, portalPath } = await portalFor();
    const act = async (action: string) => {
      const response = await post('/local/billing/portal', { session: portal, action });
      expect(response.status).toBe(303);
      const location = response.headers.get('location')!;
      expect(location.startsWith(`/local/billing/portal?session=${portal}&done=`)).toBe(true);
      return (await get(location)).text();
    };
    let html = await act('cancel-at-period-end');
    expect(html).toContain('role="status">The subscription will cancel at the end of the period.');
    expect(html).toContain('Cancels on February 15, 2026');
    expect(html).toContain('>Resume subscription</button>');
    html = await act('resume');
    expect(html).toContain('Renews on February 15, 2026');
    html = await act('switch-label');
    expect(html).toContain('<dd>Expert ($99/month)</dd>');
    expect(html).toContain('>Switch to Pro</button>');
    html = await act('fail-renewal');
    expect(html).toContain('<dd>Past due</dd>');
    expect(html).toContain('Renews on March 15, 2026');
    expect(delivered.map((e) => e.type)).toEqual([
      'customer.subscription.updated',
      'customer.subscription.updated',
      'customer.subscription.updated',
      'invoice.paid',
      'invoice.payment_failed',
      'customer.subscription.updated',
    ]);
    await act('advance');
    html = await act('advance');
    expect(html).toContain('The period ended: the subscription is canceled.');
    expect(html).toContain('You have no subscription.');
    expect(html).toContain('Return to Trackpitch');
    expect(await (await get(portalPath)).text()).not.toContain('Advance to period end');
  });

  it('says when there is no subscription, and when a session is unknown', async () => {
    const customerId = await billing.createCustomer({ userId: `pages-none-${Date.now()}`, email: 'none@example.com' });
    const url = await billing.createPortalSession({ customerId, returnUrl: `${server.url}/dashboard/subscription` });
    const html = await (await get(url.slice(server.url.length))).text();
    expect(html).toContain('You have no subscription.');
    expect(html).toContain('Return to Trackpitch');
    const unknown = await get('/local/billing/portal?session=bps_local_none');
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain('Open it again with Manage Billing');
  });

  it('escapes the return URL', async () => {
    const { portalPath } = await portalFor('/dashboard/subscription?x="><script>alert(1)</script>');
    const html = await (await get(portalPath)).text();
    expect(html).not.toContain('<script>');
    expect(html).toContain('x=&quot;&gt;&lt;script&gt;');
  });

  it('refuses an action from another origin, an unknown action, and shows a refused change and a refused event', async () => {
    const { portal, customerId } = await portalFor();
    expect((await post('/local/billing/portal', { session: portal, action: 'advance' }, 'https://evil.example')).status).toBe(403);
    expect((await post('/local/billing/portal', { session: portal, action: 'refund-everything' })).status).toBe(400);
    expect(await billing.currentSubscription(customerId)).toMatchObject({ status: 'active', cancelAtPeriodEnd: false });

    const refused = await post('/local/billing/portal', { session: portal, action: 'switch-pro' });
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain('role="alert">The subscription is already on Pro.');

    webhookStatus = 503;
    const failed = await post('/local/billing/portal', { session: portal, action: 'cancel-at-period-end' });
    expect(failed.status).toBe(502);
    const html = await failed.text();
    expect(html).toContain('did not accept its event');
    expect(html).toContain('<code>customer.subscription.updated</code>: the webhook answered 503: {&quot;message&quot;:&quot;Billing is not configured&quot;}');
    expect(html).toContain('Cancels on February 15, 2026');
  });
});

describe('the local server', () => {
  it('the local stack serves the twin’s pages', async () => {
    const response = await fetch(`${stack().appUrl}/local/billing/checkout?session=cs_local_unknown`);
    expect(response.status).toBe(404);
    expect(await response.text()).toContain('<h1>Trackpitch test checkout</h1>');
  });

  it('answers 404 under /local/billing/ when it runs no twin', async () => {
    const bare = await startServer({ loadHandler: () => Promise.reject(new Error('no handlers')) });
    try {
      const response = await fetch(`${bare.url}/local/billing/checkout?session=x`);
      expect(response.status).toBe(404);
    } finally {
      await bare.close();
    }
  });
});
