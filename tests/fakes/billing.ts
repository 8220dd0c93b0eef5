/**
 * A billing provider the test drives (an in-memory BillingProvider: customers, the current subscription
 * of each, or several with setSubscriptions, Checkout and portal sessions it handed out and expired,
 * cancellations, a failure switch), and Stripe-shaped webhook
 * deliveries signed as Stripe signs them (stripe-node's webhooks.generateTestHeaderString).
 */
import { randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import { isLive } from '../../lambdas/core/billing';
import { governingSubscription } from '../../lambdas/core/governingSubscription';
import type { BillingProvider, CheckoutSessionInput, ListedSubscription, ProviderSubscription } from '../../lambdas/ports';
import { buildApiEvent, makeLambdaContext } from '../../lib/local/event';
import type { LambdaHandler } from '../../lib/local/server';
import { findRoute } from '../../schema/routes';

/** The test's webhook signing secret (Stripe's shape). */
export const TEST_WEBHOOK_SECRET = 'whsec_test_billing_secret_0123456789abcdef';
/** The price ids the tests configure (config's billingPrices). */
export const TEST_PRICES = { pro: 'price_test_pro', label: 'price_test_label' } as const;

export class FakeBillingProvider implements BillingProvider {
  readonly customers = new Map<string, { userId: string; email: string }>();
  readonly subscriptions = new Map<string, ProviderSubscription | null>();
  readonly checkoutSessions: CheckoutSessionInput[] = [];
  readonly portalSessions: { customerId: string; returnUrl: string }[] = [];
  /** Every currentSubscription call, by customer. */
  readonly reads: string[] = [];
  /** When set, every call rejects (the provider is down). */
  failing = false;
  private next = 0;
  /** Test files share one table: each provider's customer ids are its own, so two files never link the same id. */
  private readonly instance = randomUUID().slice(0, 8);

  private check(): void {
    if (this.failing) throw new Error('The fake provider is down');
  }

  createCustomer(input: { userId: string; email: string }): Promise<string> {
    return Promise.resolve().then(() => {
      this.check();
      const id = `cus_fake_${this.instance}_${++this.next}`;
      this.customers.set(id, input);
      return id;
    });
  }

  createCheckoutSession(input: CheckoutSessionInput): Promise<string> {
    return Promise.resolve().then(() => {
      this.check();
      this.checkoutSessions.push(input);
      return `https://checkout.fake.test/session/${this.checkoutSessions.length}`;
    });
  }

  createPortalSession(input: { customerId: string; returnUrl: string }): Promise<string> {
    return Promise.resolve().then(() => {
      this.check();
      this.portalSessions.push(input);
      return `https://portal.fake.test/session/${this.portalSessions.length}`;
    });
  }

  async currentSubscription(customerId: string): Promise<ProviderSubscription | null> {
    await Promise.resolve();
    this.check();
    this.reads.push(customerId);
    const subscription = this.subscriptions.get(customerId) ?? null;
    const answer = subscription ? { ...subscription } : null;
    // A held read answers with the state it read, after whatever happens meanwhile (a slow network).
    const hold = this.holds.shift();
    if (hold) {
      hold.started();
      await hold.gate;
    }
    return answer;
  }

  private readonly holds: { started: () => void; gate: Promise<void> }[] = [];

  /** The next read takes the state when called, then answers only once `release` is called. */
  holdNextRead(): { started: Promise<void>; release: () => void } {
    let started!: () => void;
    let release!: () => void;
    const startedPromise = new Promise<void>((resolve) => (started = resolve));
    const gate = new Promise<void>((resolve) => (release = resolve));
    this.holds.push({ started, gate });
    return { started: startedPromise, release };
  }

  /** What the provider holds for the customer from now on. */
  setSubscription(customerId: string, subscription: ProviderSubscription | null): void {
    this.several.delete(customerId);
    this.subscriptions.set(customerId, subscription ? { ...subscription } : null);
  }

  /** Several subscriptions of one customer (two tabs paid): the current one is the governing one of them. */
  setSubscriptions(customerId: string, subscriptions: readonly FakeListedSubscription[]): void {
    this.several.set(
      customerId,
      subscriptions.map((subscription) => ({ ...subscription })),
    );
    this.syncGoverning(customerId);
  }

  /** The ids of the Checkout Sessions (their index in checkoutSessions) that were expired. */
  readonly expiredCheckouts = new Set<number>();
  /** Every cancelSubscription call and what it answered. */
  readonly cancellations: { customerId: string; subscriptionId: string; outcome: 'canceled' | 'already_ended' }[] = [];
  /** When set, the next cancel finds its subscription already cancelled by someone else (then it clears). */
  cancelledMeanwhile = false;
  private readonly several = new Map<string, FakeListedSubscription[]>();

  private syncGoverning(customerId: string): void {
    const governing = governingSubscription(this.several.get(customerId) ?? []);
    this.subscriptions.set(customerId, governing ? providerSubscription(governing) : null);
  }

  expireOpenCheckoutSessions(customerId: string): Promise<string[]> {
    return Promise.resolve().then(() => {
      this.check();
      const expired: string[] = [];
      this.checkoutSessions.forEach((session, index) => {
        if (session.customerId !== customerId || this.expiredCheckouts.has(index)) return;
        this.expiredCheckouts.add(index);
        expired.push(`https://checkout.fake.test/session/${index + 1}`);
      });
      return expired;
    });
  }

  liveSubscriptions(customerId: string): Promise<ListedSubscription[]> {
    return Promise.resolve().then(() => {
      this.check();
      const several = this.several.get(customerId);
      const single = this.subscriptions.get(customerId);
      const listed = several ?? (single ? [{ ...single, created: 0 }] : []);
      return listed.filter(isLive).map(({ id, status, created }) => ({ id, status, created }));
    });
  }

  cancelSubscription({ customerId, subscriptionId }: { customerId: string; subscriptionId: string }): Promise<'canceled' | 'already_ended'> {
    return Promise.resolve().then(() => {
      this.check();
      const several = this.several.get(customerId);
      const single = this.subscriptions.get(customerId);
      const subscription = several?.find((s) => s.id === subscriptionId) ?? (single?.id === subscriptionId ? single : undefined);
      if (!subscription) throw new Error(`The fake provider has no subscription ${subscriptionId} of ${customerId}`);
      if (this.cancelledMeanwhile) {
        // A concurrent delivery's cancel landed between this one's list and its cancel.
        this.cancelledMeanwhile = false;
        subscription.status = 'canceled';
      }
      const outcome = subscription.status === 'canceled' || subscription.status === 'incomplete_expired' ? 'already_ended' : 'canceled';
      subscription.status = 'canceled';
      subscription.cancelAtPeriodEnd = false;
      if (several) this.syncGoverning(customerId);
      this.cancellations.push({ customerId, subscriptionId, outcome });
      return outcome;
    });
  }
}

/** One of several subscriptions of a customer: with its creation time (epoch seconds), which the one-subscription rule reads. */
export type FakeListedSubscription = ProviderSubscription & { created: number };

const providerSubscription = ({ created: _created, ...subscription }: FakeListedSubscription): ProviderSubscription => ({ ...subscription });

export const buildSubscription = (overrides: Partial<ProviderSubscription> = {}): ProviderSubscription => ({
  id: 'sub_test_1',
  status: 'active',
  priceId: TEST_PRICES.pro,
  currentPeriodEnd: '2026-12-26T00:00:00.000Z',
  cancelAtPeriodEnd: false,
  ...overrides,
});

let eventCounter = 0;
/** A new event id, unique in the test process. */
export const newEventId = () => `evt_test_${Date.now().toString(36)}_${++eventCounter}`;

export interface EventFacts {
  id?: string;
  customerId: string | null;
  /** checkout.session.completed: the user the session was created for. */
  clientReferenceId?: string;
  /** The subscription the payload carries (the webhook must not trust it: it re-reads the provider). */
  subscription?: ProviderSubscription | null;
  /** Unix seconds. */
  created?: number;
}

const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);

/** The data.object Stripe sends with each event type, as far as the webhook could read it. */
function objectOf(type: string, facts: EventFacts): Record<string, unknown> {
  const subscription = facts.subscription ?? null;
  if (type === 'checkout.session.completed') {
    return {
      id: `cs_test_${facts.id ?? 'x'}`,
      object: 'checkout.session',
      mode: 'subscription',
      status: 'complete',
      customer: facts.customerId,
      client_reference_id: facts.clientReferenceId ?? null,
      subscription: subscription?.id ?? null,
    };
  }
  if (type.startsWith('customer.subscription.')) {
    return {
      id: subscription?.id ?? 'sub_test_x',
      object: 'subscription',
      customer: facts.customerId,
      status: subscription?.status ?? 'canceled',
      cancel_at_period_end: subscription?.cancelAtPeriodEnd ?? false,
      items: {
        object: 'list',
        data: [
          {
            id: 'si_test',
            object: 'subscription_item',
            price: { id: subscription?.priceId ?? TEST_PRICES.pro, object: 'price' },
            current_period_end: subscription ? seconds(subscription.currentPeriodEnd) : null,
          },
        ],
      },
    };
  }
  if (type.startsWith('invoice.')) {
    return {
      id: `in_test_${facts.id ?? 'x'}`,
      object: 'invoice',
      customer: facts.customerId,
      status: type === 'invoice.paid' ? 'paid' : 'open',
      parent: { type: 'subscription_details', subscription_details: { subscription: subscription?.id ?? null } },
    };
  }
  return { id: `obj_test_${facts.id ?? 'x'}`, object: 'unknown', customer: facts.customerId };
}

/** A Stripe-shaped event body (JSON text), as Stripe posts it. */
export function stripeEventBody(type: string, facts: EventFacts): string {
  const id = facts.id ?? newEventId();
  return JSON.stringify({
    id,
    object: 'event',
    api_version: '2025-10-29.clover',
    created: facts.created ?? Math.floor(Date.now() / 1000),
    data: { object: objectOf(type, { ...facts, id }) },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  });
}

/** The Stripe-Signature header of `payload` signed with `secret` at `timestamp` (Unix seconds; default now). */
export const signatureHeader = (payload: string, options: { secret?: string; timestamp?: number } = {}) =>
  Stripe.webhooks.generateTestHeaderString({
    payload,
    secret: options.secret ?? TEST_WEBHOOK_SECRET,
    ...(options.timestamp === undefined ? {} : { timestamp: options.timestamp }),
  });

export interface Delivery {
  body: string;
  signature: string | undefined;
}

/** A signed delivery of one event. */
export function signedDelivery(type: string, facts: EventFacts, options: { secret?: string; timestamp?: number } = {}): Delivery {
  const body = stripeEventBody(type, facts);
  return { body, signature: signatureHeader(body, options) };
}

export interface InvokeOptions {
  /** The verified token's claims (user routes); none on the public webhook. */
  claims?: Record<string, unknown>;
  body?: string;
  headers?: Record<string, string>;
}

/** Calls a handler as API Gateway would (payload 2.0), without a server: `path` may carry a query. */
export async function invokeApi(handler: LambdaHandler, method: string, path: string, options: InvokeOptions = {}) {
  const found = findRoute(method, path.split('?')[0] ?? path);
  if (!found) throw new Error(`no route ${method} ${path}`);
  const requestId = `req-${Math.random().toString(36).slice(2)}`;
  const event = buildApiEvent({
    method,
    url: path,
    headers: { 'content-type': 'application/json', ...options.headers },
    body: options.body === undefined ? undefined : Buffer.from(options.body),
    sourceIp: '127.0.0.1',
    route: found.route,
    pathParameters: found.params,
    claims: options.claims,
    requestId,
    now: new Date(),
  });
  const result = (await handler(event, makeLambdaContext({ functionName: 'test', awsRequestId: requestId, region: 'us-east-1', timeoutMs: 10_000 }))) as {
    statusCode: number;
    body?: string;
  };
  return { status: result.statusCode, json: (result.body ? JSON.parse(result.body) : undefined) as Record<string, unknown> | undefined };
}
