/**
 * The twin's records as the JSON Stripe sends (API version basil and later: the period on the
 * subscription item, an invoice's subscription under `parent.subscription_details`), typed against
 * stripe-node's own types so a field the twin names differently does not compile. Only the fields a
 * webhook handler or the adapter reads are rendered; Stripe sends many more.
 */
import type Stripe from 'stripe';
import type { TwinCheckoutSession, TwinSubscription } from './twinStore';

export type StripeSubscriptionJson = Pick<
  Stripe.Subscription,
  | 'id'
  | 'object'
  | 'customer'
  | 'status'
  | 'cancel_at'
  | 'cancel_at_period_end'
  | 'canceled_at'
  | 'ended_at'
  | 'created'
  | 'start_date'
  | 'billing_cycle_anchor'
  | 'currency'
  | 'livemode'
  | 'metadata'
  | 'latest_invoice'
  | 'collection_method'
> & {
  items: {
    object: 'list';
    data: (Pick<
      Stripe.SubscriptionItem,
      'id' | 'object' | 'created' | 'current_period_start' | 'current_period_end' | 'subscription' | 'quantity' | 'metadata'
    > & {
      price: Pick<Stripe.Price, 'id' | 'object' | 'currency' | 'type'>;
    })[];
    has_more: false;
    url: string;
  };
};

export type StripeInvoiceJson = Pick<
  Stripe.Invoice,
  | 'id'
  | 'object'
  | 'customer'
  | 'status'
  | 'billing_reason'
  | 'attempt_count'
  | 'attempted'
  | 'amount_due'
  | 'amount_paid'
  | 'amount_remaining'
  | 'currency'
  | 'created'
  | 'period_start'
  | 'period_end'
  | 'livemode'
> & {
  parent: { type: 'subscription_details'; quote_details: null; subscription_details: { subscription: string; metadata: null } };
};

export type StripeCheckoutSessionJson = Pick<
  Stripe.Checkout.Session,
  | 'id'
  | 'object'
  | 'customer'
  | 'client_reference_id'
  | 'subscription'
  | 'mode'
  | 'status'
  | 'payment_status'
  | 'success_url'
  | 'cancel_url'
  | 'created'
  | 'livemode'
>;

export type StripeEventObject = StripeSubscriptionJson | StripeInvoiceJson | StripeCheckoutSessionJson;

/** An event as Stripe posts it to a webhook endpoint. */
export interface StripeEventJson {
  id: string;
  object: 'event';
  api_version: string;
  created: number;
  livemode: false;
  pending_webhooks: number;
  request: { id: null; idempotency_key: null };
  type: string;
  data: { object: StripeEventObject; previous_attributes?: Record<string, unknown> };
}

export function subscriptionJson(subscription: TwinSubscription): StripeSubscriptionJson {
  return {
    id: subscription.id,
    object: 'subscription',
    customer: subscription.customer,
    status: subscription.status,
    cancel_at: subscription.cancelAt,
    cancel_at_period_end: subscription.cancelAtPeriodEnd,
    canceled_at: subscription.canceledAt,
    ended_at: subscription.endedAt,
    created: subscription.created,
    start_date: subscription.created,
    billing_cycle_anchor: subscription.billingCycleAnchor,
    currency: 'usd',
    livemode: false,
    metadata: {},
    latest_invoice: subscription.latestInvoice,
    collection_method: 'charge_automatically',
    items: {
      object: 'list',
      data: [
        {
          // One item per subscription, named after it.
          id: subscription.id.replace(/^sub_/, 'si_'),
          object: 'subscription_item',
          created: subscription.created,
          current_period_start: subscription.currentPeriodStart,
          current_period_end: subscription.currentPeriodEnd,
          subscription: subscription.id,
          quantity: 1,
          metadata: {},
          price: { id: subscription.priceId, object: 'price', currency: 'usd', type: 'recurring' },
        },
      ],
      has_more: false,
      url: `/v1/subscription_items?subscription=${subscription.id}`,
    },
  };
}

export interface InvoiceFacts {
  id: string;
  subscription: TwinSubscription;
  paid: boolean;
  billingReason: 'subscription_create' | 'subscription_cycle' | 'subscription_update';
  amountCents: number;
  created: number;
}

export function invoiceJson(facts: InvoiceFacts): StripeInvoiceJson {
  const { subscription } = facts;
  return {
    id: facts.id,
    object: 'invoice',
    customer: subscription.customer,
    status: facts.paid ? 'paid' : 'open',
    billing_reason: facts.billingReason,
    attempt_count: Math.max(1, subscription.failedPaymentAttempts),
    attempted: true,
    amount_due: facts.amountCents,
    amount_paid: facts.paid ? facts.amountCents : 0,
    amount_remaining: facts.paid ? 0 : facts.amountCents,
    currency: 'usd',
    created: facts.created,
    period_start: subscription.currentPeriodStart,
    period_end: subscription.currentPeriodEnd,
    livemode: false,
    parent: { type: 'subscription_details', quote_details: null, subscription_details: { subscription: subscription.id, metadata: null } },
  };
}

export function checkoutSessionJson(session: TwinCheckoutSession): StripeCheckoutSessionJson {
  return {
    id: session.id,
    object: 'checkout.session',
    customer: session.customer,
    client_reference_id: session.userId,
    subscription: session.subscription,
    mode: 'subscription',
    status: session.status,
    payment_status: session.status === 'complete' ? 'paid' : 'unpaid',
    success_url: session.successUrl,
    cancel_url: session.cancelUrl,
    created: session.created,
    livemode: false,
  };
}
