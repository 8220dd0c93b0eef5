/**
 * The plan table (spec §6, §9; DESIGN §10): the one list the landing page's pricing cards, the
 * Subscription page, the limits and the billing adapters read. Free of imports and of zod, so the web
 * app's first load can bundle it. Price ids are not here: they are deployment config (the server maps a
 * paid tier to its price id and back), never sent by the browser.
 */
import type { Tier } from './api/profileValues';

export type AnalyticsDepth = 'basic' | 'full';

export interface Plan {
  tier: Tier;
  /** What the plan screens call it: the `label` tier is Expert (spec §3). */
  name: string;
  /** US dollars a month; 0 for Free. */
  priceUsd: number;
  /** The price's period as the cards show it. */
  period: 'forever' | 'per month';
  /** Emails a Pacific calendar month; null: no monthly cap (the mailbox's daily limit still applies). */
  monthlyEmails: number | null;
  /** LabelFinder entries a user may add to their contacts, in total. */
  directoryAdditions: number;
  /** basic: opens only; full: every figure. */
  analytics: AnalyticsDepth;
  /** AI writer calls a preview may make, per UTC hour and per Pacific month (each is billed per token). */
  aiPreviews: { perHour: number; perMonth: number };
  /** Marked 'Most Popular'. */
  popular: boolean;
  features: readonly string[];
  limitations: readonly string[];
}

export const plans = [
  {
    tier: 'free',
    name: 'Free',
    priceUsd: 0,
    period: 'forever',
    monthlyEmails: 50,
    directoryAdditions: 5,
    analytics: 'basic',
    aiPreviews: { perHour: 20, perMonth: 200 },
    popular: false,
    features: ['Basic AI email generation', 'Mailbox integration', 'Contact management'],
    limitations: ['No LabelFinder database access', 'Basic analytics only'],
  },
  {
    tier: 'pro',
    name: 'Pro',
    priceUsd: 29,
    period: 'per month',
    monthlyEmails: 500,
    directoryAdditions: 1000,
    analytics: 'full',
    aiPreviews: { perHour: 60, perMonth: 2000 },
    popular: true,
    features: ['Advanced AI personalization', 'Full LabelFinder access', 'Advanced analytics and tracking', 'Priority support'],
    limitations: [],
  },
  {
    tier: 'label',
    name: 'Expert',
    priceUsd: 99,
    period: 'per month',
    monthlyEmails: null,
    directoryAdditions: 1000,
    analytics: 'full',
    aiPreviews: { perHour: 120, perMonth: 10000 },
    popular: false,
    features: ['Unlimited emails', 'Full LabelFinder access', 'Team collaboration', 'Custom branding', 'API access', 'Dedicated support'],
    limitations: [],
  },
] as const satisfies readonly Plan[];

export type PaidTier = Exclude<Tier, 'free'>;
export const paidTiers: readonly PaidTier[] = ['pro', 'label'];
export const isPaidTier = (tier: string): tier is PaidTier => (paidTiers as readonly string[]).includes(tier);

export function planOf(tier: Tier): Plan {
  const plan = plans.find((candidate) => candidate.tier === tier);
  if (!plan) throw new Error(`No plan for tier ${tier}`);
  return plan;
}

/** The plan's price as the cards print it: '$0', '$29'. */
export const priceLabel = (plan: Pick<Plan, 'priceUsd'>) => `$${plan.priceUsd}`;

/** The plan's monthly emails as the cards print them: '50 emails per month', 'Unlimited emails'. */
export const monthlyEmailsLabel = (plan: Pick<Plan, 'monthlyEmails'>) =>
  plan.monthlyEmails === null ? 'Unlimited emails' : `${plan.monthlyEmails.toLocaleString('en-US')} emails per month`;
