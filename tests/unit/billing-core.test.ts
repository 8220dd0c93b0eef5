/**
 * The billing rules (lambdas/core/billing.ts; DESIGN §10, spec §9): every provider status → the profile's
 * billing state, price ids ↔ plans, the sync answer, and the plan table the limits read.
 */
import { describe, expect, it } from 'vitest';
import {
  billingStateOf,
  billingStateOfProfile,
  hasOpenSubscription,
  isHandledEventType,
  priceOfTier,
  subscriptionStateOf,
  tierOfPrice,
  UnknownPriceError,
} from '../../lambdas/core/billing';
import { subscriptionStateSchema } from '../../schema/api/billing';
import { profileUpdateSchema, subscriptionStatuses, type SubscriptionStatus } from '../../schema/api/profile';
import { isPaidTier, paidTiers, planOf, plans } from '../../schema/plans';
import { buildProfile } from '../fakes/builders';
import { buildSubscription, TEST_PRICES } from '../fakes/billing';

const END = '2026-12-26T00:00:00.000Z';

describe('the provider subscription → profile billing state', () => {
  const expected: Record<SubscriptionStatus, 'plan' | 'free'> = {
    none: 'free',
    active: 'plan',
    trialing: 'plan',
    past_due: 'plan',
    canceled: 'free',
    unpaid: 'free',
    incomplete: 'free',
    incomplete_expired: 'free',
    paused: 'free',
  };

  it('covers every status the profile can hold', () => {
    expect(Object.keys(expected).sort()).toEqual([...subscriptionStatuses].sort());
  });

  it.each(subscriptionStatuses.filter((status) => status !== 'none'))('%s on the Expert price', (status) => {
    const state = billingStateOf(buildSubscription({ status, priceId: TEST_PRICES.label, currentPeriodEnd: END, cancelAtPeriodEnd: true }), TEST_PRICES);
    if (expected[status] === 'plan') {
      expect(state).toEqual({ tier: 'label', email_limit: null, subscription_status: status, subscription_end: END, cancel_at_period_end: true });
    } else {
      expect(state).toEqual({ tier: 'free', email_limit: 50, subscription_status: status, subscription_end: null, cancel_at_period_end: false });
    }
  });

  it('an active Pro subscription is Pro with 500 emails and its renewal date', () => {
    expect(billingStateOf(buildSubscription({ status: 'active', priceId: TEST_PRICES.pro, currentPeriodEnd: END }), TEST_PRICES)).toEqual({
      tier: 'pro',
      email_limit: 500,
      subscription_status: 'active',
      subscription_end: END,
      cancel_at_period_end: false,
    });
  });

  it('no subscription at all is Free with status none', () => {
    expect(billingStateOf(null, TEST_PRICES)).toEqual({
      tier: 'free',
      email_limit: 50,
      subscription_status: 'none',
      subscription_end: null,
      cancel_at_period_end: false,
    });
  });

  it('a live subscription on a price config does not name is an error, never a silent Free', () => {
    expect(() => billingStateOf(buildSubscription({ status: 'active', priceId: 'price_other' }), TEST_PRICES)).toThrow(UnknownPriceError);
    expect(() => billingStateOf(buildSubscription({ status: 'past_due', priceId: 'price_other' }), TEST_PRICES)).toThrow(/price_other/);
  });

  it('an ended subscription on an unknown price is still Free (its price no longer matters)', () => {
    expect(billingStateOf(buildSubscription({ status: 'canceled', priceId: 'price_other' }), TEST_PRICES).tier).toBe('free');
  });
});

describe('price ids ↔ plans', () => {
  it('maps each configured price to its plan and back', () => {
    expect(tierOfPrice(TEST_PRICES, 'price_test_pro')).toBe('pro');
    expect(tierOfPrice(TEST_PRICES, 'price_test_label')).toBe('label');
    expect(priceOfTier(TEST_PRICES, 'pro')).toBe('price_test_pro');
    expect(priceOfTier(TEST_PRICES, 'label')).toBe('price_test_label');
  });

  it('refuses an unknown price id', () => {
    expect(() => tierOfPrice(TEST_PRICES, 'price_unknown')).toThrow(UnknownPriceError);
  });
});

describe('the sync answer (spec §7 sync-subscription)', () => {
  it('says subscribed for a paid plan, with the shape the schema checks', () => {
    const state = subscriptionStateOf(billingStateOf(buildSubscription({ status: 'past_due', currentPeriodEnd: END }), TEST_PRICES));
    expect(state).toEqual({
      subscribed: true,
      tier: 'pro',
      email_limit: 500,
      subscription_end: END,
      subscription_status: 'past_due',
      cancel_at_period_end: false,
    });
    expect(subscriptionStateSchema.parse(state)).toEqual(state);
  });

  it('says not subscribed for Free', () => {
    const state = subscriptionStateOf(billingStateOf(buildSubscription({ status: 'canceled' }), TEST_PRICES));
    expect(state.subscribed).toBe(false);
    expect(subscriptionStateSchema.parse(state)).toEqual(state);
  });

  it("reads a stored profile's billing fields", () => {
    const profile = buildProfile({ tier: 'label', email_limit: null, subscription_status: 'active', subscription_end: END, cancel_at_period_end: true });
    expect(subscriptionStateOf(billingStateOfProfile(profile))).toEqual({
      subscribed: true,
      tier: 'label',
      email_limit: null,
      subscription_end: END,
      subscription_status: 'active',
      cancel_at_period_end: true,
    });
  });

  it("answers the tier's limit, not a stale stored one, as GET /api/profile does", () => {
    expect(billingStateOfProfile(buildProfile({ tier: 'pro', email_limit: 50 })).email_limit).toBe(500);
  });
});

describe('one subscription per customer', () => {
  it('a customer whose subscription has not ended (unpaid, incomplete, paused too) is sent to the portal, not to a second Checkout', () => {
    const open = subscriptionStatuses.filter((status) => status !== 'none' && hasOpenSubscription(buildSubscription({ status })));
    expect(open.sort()).toEqual(['active', 'incomplete', 'past_due', 'paused', 'trialing', 'unpaid']);
    expect(hasOpenSubscription(null)).toBe(false);
  });
});

describe('the webhook event types', () => {
  it('handles the six subscription events and ignores others', () => {
    for (const type of [
      'checkout.session.completed',
      'customer.subscription.created',
      'customer.subscription.updated',
      'customer.subscription.deleted',
      'invoice.paid',
      'invoice.payment_failed',
    ]) {
      expect(isHandledEventType(type), type).toBe(true);
    }
    expect(isHandledEventType('customer.created')).toBe(false);
    expect(isHandledEventType('charge.succeeded')).toBe(false);
  });
});

describe('the plan table (spec §9)', () => {
  it('Free, Pro and Expert with their prices, emails and additions', () => {
    expect(plans.map((plan) => [plan.tier, plan.name, plan.priceUsd, plan.monthlyEmails, plan.directoryAdditions, plan.analytics, plan.popular])).toEqual([
      ['free', 'Free', 0, 50, 5, 'basic', false],
      ['pro', 'Pro', 29, 500, 1000, 'full', true],
      ['label', 'Expert', 99, null, 1000, 'full', false],
    ]);
    expect(paidTiers).toEqual(['pro', 'label']);
    expect(isPaidTier('free')).toBe(false);
    expect(planOf('label').monthlyEmails).toBeNull();
  });
});

describe('PATCH /api/profile cannot change billing', () => {
  it.each([
    ['tier', 'label'],
    ['email_limit', 100000],
    ['subscription_status', 'active'],
    ['subscription_end', END],
    ['cancel_at_period_end', false],
    ['billing_synced_at', END],
  ])('refuses %s', (field, value) => {
    const result = profileUpdateSchema.safeParse({ full_name: 'Ada', [field]: value });
    expect(result.success).toBe(false);
  });
});
