/**
 * A local HTTP stand-in of the few Stripe API endpoints the Stripe billing adapter calls, on 127.0.0.1,
 * for stripe-node pointed at it (host, port, protocol): customers (with idempotency keys), Checkout
 * Sessions (create, list by customer and status, retrieve, expire: only an open one, as Stripe), billing
 * portal sessions, and subscriptions (the list newest first, without `status` leaving out canceled ones,
 * as Stripe does; retrieve; cancel, refused for one already canceled, as Stripe refuses it). Answers in Stripe's JSON and error shapes; records every request.
 * A test changes subscriptions as Stripe would (pay a session, cancel at period end, end a period), the
 * JSON rendered by the twin's Stripe shapes (typed against stripe-node's own types).
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { subscriptionJson, type StripeSubscriptionJson } from '../../lambdas/adapters/local-billing/stripeShapes';
import { newSubscription } from '../../lambdas/adapters/local-billing/twin';

export const STAND_IN_SECRET_KEY = 'sk_test_standin';

export interface RecordedRequest {
  method: string;
  path: string;
  /** The form body (or the query of a GET), flat as stripe-node encodes it: `line_items[0][price]`. */
  params: Record<string, string>;
  headers: IncomingMessage['headers'];
}

interface CheckoutRecord {
  id: string;
  customer: string;
  price: string;
  userId: string;
  status: 'open' | 'complete' | 'expired';
  created: number;
}

export interface StripeStandIn {
  url: string;
  /** A stripe-node client that talks to the stand-in. */
  client: Stripe;
  requests: RecordedRequest[];
  subscriptions: Map<string, StripeSubscriptionJson>;
  /** The person pays the Checkout Session: an active subscription for a month from `now`. */
  completeCheckout(sessionId: string, now: Date): StripeSubscriptionJson;
  /** Changes a subscription as the Dashboard, the portal or the billing clock would. */
  update(id: string, change: (subscription: StripeSubscriptionJson) => StripeSubscriptionJson): StripeSubscriptionJson;
  /** Adds a subscription as is (a shape a test builds, e.g. with only `cancel_at`). */
  put(subscription: StripeSubscriptionJson): void;
  /** The next request answers this status and Stripe error instead. */
  failNext(status: number, message: string): void;
  /** The next request to `path` answers 400 (an invalid request), after `meanwhile` runs (a change that raced it). */
  failNextAt(path: string, meanwhile?: () => void): void;
  close(): Promise<void>;
}

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });

const epoch = (date: Date) => Math.floor(date.getTime() / 1000);

export async function startStripeStandIn(): Promise<StripeStandIn> {
  const requests: RecordedRequest[] = [];
  const subscriptions = new Map<string, StripeSubscriptionJson>();
  const checkouts = new Map<string, CheckoutRecord>();
  const idempotent = new Map<string, unknown>();
  let failure: { status: number; message: string } | undefined;
  let failureAt: { path: string; meanwhile?: () => void } | undefined;
  let counter = 0;
  const nextId = (prefix: string) => `${prefix}_standin_${String(++counter).padStart(6, '0')}`;

  const error = (status: number, message: string, type = 'invalid_request_error') => ({ status, body: { error: { type, message } } });

  function answer(method: string, path: string, params: Record<string, string>, headers: IncomingMessage['headers']): { status: number; body: unknown } {
    if (headers.authorization !== `Bearer ${STAND_IN_SECRET_KEY}`) return error(401, 'Invalid API Key provided');
    if (failure) {
      const { status, message } = failure;
      failure = undefined;
      return error(status, message, status >= 500 ? 'api_error' : 'invalid_request_error');
    }
    if (failureAt?.path === path) {
      const { meanwhile } = failureAt;
      failureAt = undefined;
      meanwhile?.();
      return error(400, 'The stand-in refused this request.');
    }
    if (method === 'POST' && path === '/v1/customers') {
      const key = headers['idempotency-key'];
      const replay = typeof key === 'string' ? idempotent.get(key) : undefined;
      if (replay) return { status: 200, body: replay };
      const customer = {
        id: nextId('cus'),
        object: 'customer',
        email: params.email ?? null,
        metadata: { userId: params['metadata[userId]'] },
        created: epoch(new Date()),
      };
      if (typeof key === 'string') idempotent.set(key, customer);
      return { status: 200, body: customer };
    }
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      const id = nextId('cs_test');
      const customer = params.customer;
      const price = params['line_items[0][price]'];
      if (!customer || !price || params.mode !== 'subscription') return error(400, 'customer, mode subscription and a line item price are required');
      const record: CheckoutRecord = { id, customer, price, userId: params.client_reference_id ?? '', status: 'open', created: epoch(new Date()) };
      checkouts.set(id, record);
      return { status: 200, body: { ...sessionJson(record), success_url: params.success_url, cancel_url: params.cancel_url } };
    }
    if (method === 'GET' && path === '/v1/checkout/sessions') {
      const data = [...checkouts.values()]
        .filter((c) => (!params.customer || c.customer === params.customer) && (!params.status || c.status === params.status))
        .reverse()
        .map(sessionJson);
      return { status: 200, body: { object: 'list', data, has_more: false, url: '/v1/checkout/sessions' } };
    }
    const sessionPath = /^\/v1\/checkout\/sessions\/([^/]+)(\/expire)?$/.exec(path);
    if (sessionPath) {
      const record = checkouts.get(sessionPath[1]!);
      if (!record) return error(404, `No such checkout.session: '${sessionPath[1]}'`);
      if (method === 'GET' && !sessionPath[2]) return { status: 200, body: sessionJson(record) };
      if (method === 'POST' && sessionPath[2]) {
        if (record.status !== 'open') return error(400, 'Only Checkout Sessions with a status in ["open"] can be expired.');
        record.status = 'expired';
        return { status: 200, body: sessionJson(record) };
      }
    }
    const subscriptionPath = /^\/v1\/subscriptions\/([^/]+)$/.exec(path);
    if (subscriptionPath) {
      const subscription = subscriptions.get(subscriptionPath[1]!);
      if (!subscription) return error(404, `No such subscription: '${subscriptionPath[1]}'`);
      if (method === 'GET') return { status: 200, body: subscription };
      if (method === 'DELETE') {
        if (subscription.status === 'canceled') return error(400, 'A canceled subscription can only update its cancellation_details and metadata.');
        const now = epoch(new Date());
        const canceled: StripeSubscriptionJson = {
          ...subscription,
          status: 'canceled',
          canceled_at: now,
          ended_at: now,
          cancel_at: null,
          cancel_at_period_end: false,
        };
        subscriptions.set(canceled.id, canceled);
        return { status: 200, body: canceled };
      }
    }
    if (method === 'POST' && path === '/v1/billing_portal/sessions') {
      const id = nextId('bps');
      if (!params.customer) return error(400, 'Missing required param: customer.');
      return {
        status: 200,
        body: {
          id,
          object: 'billing_portal.session',
          customer: params.customer,
          return_url: params.return_url,
          url: `https://billing.stripe.com/p/session/test_${id}`,
        },
      };
    }
    if (method === 'GET' && path === '/v1/subscriptions') {
      const status = params.status;
      const data = [...subscriptions.values()]
        .filter((s) => s.customer === params.customer)
        .filter((s) => (status === 'all' ? true : status ? s.status === status : s.status !== 'canceled'))
        .sort((a, b) => b.created - a.created || (a.id < b.id ? 1 : -1));
      return { status: 200, body: { object: 'list', data, has_more: false, url: '/v1/subscriptions' } };
    }
    return error(404, `Unrecognized request URL (${method}: ${path}).`);
  }

  const sessionJson = (record: CheckoutRecord) => ({
    id: record.id,
    object: 'checkout.session',
    mode: 'subscription',
    customer: record.customer,
    client_reference_id: record.userId || null,
    status: record.status,
    created: record.created,
    url: record.status === 'open' ? `https://checkout.stripe.com/c/pay/${record.id}` : null,
  });

  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const method = req.method ?? 'GET';
      const body = await readBody(req);
      // stripe-node sends a GET's and a DELETE's params in the query, a POST's in the form body.
      const params = Object.fromEntries(
        method === 'GET' || method === 'DELETE' ? [...url.searchParams, ...new URLSearchParams(body)] : new URLSearchParams(body),
      );
      requests.push({ method, path: url.pathname, params, headers: req.headers });
      const { status, body: reply } = answer(method, url.pathname, params, req.headers);
      const text = JSON.stringify(reply);
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${counter}` }).end(text);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const client = new Stripe(STAND_IN_SECRET_KEY, { host: '127.0.0.1', port, protocol: 'http', maxNetworkRetries: 0, telemetry: false });

  return {
    url: `http://127.0.0.1:${port}`,
    client,
    requests,
    subscriptions,
    completeCheckout(sessionId, now) {
      const checkout = checkouts.get(sessionId);
      if (!checkout) throw new Error(`no stand-in Checkout Session ${sessionId}`);
      // Stripe's page of an expired or paid session takes no payment.
      if (checkout.status !== 'open') throw new Error(`stand-in Checkout Session ${sessionId} is ${checkout.status}`);
      checkout.status = 'complete';
      const at = epoch(now);
      const subscription = subscriptionJson(
        newSubscription({ id: nextId('sub'), latestInvoice: nextId('in') }, { customer: checkout.customer, priceId: checkout.price }, at),
      );
      subscriptions.set(subscription.id, subscription);
      return subscription;
    },
    update(id, change) {
      const current = subscriptions.get(id);
      if (!current) throw new Error(`no stand-in subscription ${id}`);
      const next = change(structuredClone(current));
      subscriptions.set(id, next);
      return next;
    },
    put(subscription) {
      subscriptions.set(subscription.id, subscription);
    },
    failNext(status, message) {
      failure = { status, message };
    },
    failNextAt(path, meanwhile) {
      failureAt = { path, ...(meanwhile ? { meanwhile } : {}) };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
