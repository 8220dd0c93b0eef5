/**
 * The Subscription page (spec §2 Subscription, §4 Subscription and Plan card actions, §6, §8, §9): the
 * sync on load and its fallback, the banner, the stat cards, the plan cards from schema/plans.ts with
 * their actions, Checkout and the billing portal (the browser leaves for the address the server gives),
 * the query flags Checkout returns with, and the sidebar following the plan the sync reports.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { SubscriptionState } from '../../schema/api/billing';
import type { Profile } from '../../schema/api/profile';
import { plans } from '../../schema/plans';
import { createApiClient } from '../../web/src/api/client';
import { browser } from '../../web/src/lib/browser';
import { planAction, periodText } from '../../web/src/pages/subscription/subscriptionView';
import { tourFlagKey } from '../../web/src/tour/tourRules';
import { currentPath, makeFakeAuth, makeProfile, preloadRoutes, renderApp, testUser, toast } from './helpers';

beforeAll(preloadRoutes, 60_000);

const RENEWAL = '2026-12-26T12:00:00.000Z';
const RENEWAL_TEXT = 'December 26, 2026';

type Reply = { status: number; body?: unknown };
type Route = 'POST /api/billing/sync' | 'POST /api/billing/checkout' | 'POST /api/billing/portal';

const json = ({ status, body }: Reply) =>
  new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** The billing API as the page sees it: each route answers with its reply (or a promise of one); calls are recorded. */
function fakeBilling(replies: Partial<Record<Route, Reply | (() => Promise<Reply>)>>) {
  const fetchImpl = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const reply = replies[`${init?.method ?? 'GET'} ${input as string}` as Route];
    if (!reply) return json({ status: 404, body: { message: 'Not Found' } });
    return json(typeof reply === 'function' ? await reply() : reply);
  });
  const calls = (route: Route) =>
    fetchImpl.mock.calls
      .filter(([url, init]) => `${init?.method ?? 'GET'} ${url as string}` === route)
      .map(([, init]) => (init?.body === undefined ? undefined : (JSON.parse(init.body as string) as unknown)));
  return { api: createApiClient(() => Promise.resolve('test-token'), fetchImpl), calls };
}

/** What the provider says about `profile`'s subscription: the same state (a sync that changes nothing). */
const stateOf = (profile: Profile): SubscriptionState => ({
  subscribed: profile.tier !== 'free',
  tier: profile.tier,
  email_limit: profile.email_limit,
  subscription_end: profile.subscription_end,
  subscription_status: profile.subscription_status,
  cancel_at_period_end: profile.cancel_at_period_end,
});

const freeProfile = () => makeProfile({ emails_used: 12, labelfinder_additions_count: 2 });
const proProfile = (overrides: Partial<Profile> = {}) =>
  makeProfile({ tier: 'pro', email_limit: 500, emails_used: 120, subscription_status: 'active', subscription_end: RENEWAL, ...overrides });
const expertProfile = () =>
  makeProfile({
    tier: 'label',
    email_limit: null,
    emails_used: 900,
    subscription_status: 'active',
    subscription_end: RENEWAL,
    labelfinder_additions_count: 40,
  });

function renderSubscription(
  profile: Profile | null,
  { path = '/dashboard/subscription', replies }: { path?: string; replies?: Partial<Record<Route, Reply | (() => Promise<Reply>)>> } = {},
) {
  window.localStorage.setItem(tourFlagKey(testUser.userId), 'true');
  const billing = fakeBilling(replies ?? { 'POST /api/billing/sync': { status: 200, body: profile ? stateOf(profile) : undefined } });
  const auth = makeFakeAuth({ user: testUser, profile, api: billing.api, profileError: profile ? null : 'Request failed (500)' });
  renderApp(path, { auth });
  return { auth, ...billing };
}

/** The page once the sync has settled: the plan banner is up. */
const banner = async (planName: string) => (await screen.findByText(`You're on the ${planName} plan`)).closest('[data-testid="plan-banner"]') as HTMLElement;
const planCard = (name: string) => screen.getByRole('region', { name: `${name} plan` });
const statCard = (label: string) => screen.getByRole('group', { name: label });
const leaving = () => vi.spyOn(browser, 'leaveFor').mockImplementation(() => undefined);

describe('plan card actions (spec §4)', () => {
  it("the current plan: 'Current Plan'; a paid plan that is not: upgrade to it; the Free card of a paid user: cancel", () => {
    expect(planAction('free', 'free')).toEqual({ kind: 'current' });
    expect(planAction('pro', 'free')).toEqual({ kind: 'upgrade', tier: 'pro' });
    expect(planAction('label', 'free')).toEqual({ kind: 'upgrade', tier: 'label' });
    expect(planAction('free', 'pro')).toEqual({ kind: 'cancel' });
    expect(planAction('pro', 'pro')).toEqual({ kind: 'current' });
    expect(planAction('label', 'pro')).toEqual({ kind: 'upgrade', tier: 'label' });
    expect(planAction('pro', 'label')).toEqual({ kind: 'upgrade', tier: 'pro' });
    expect(planAction('free', 'label')).toEqual({ kind: 'cancel' });
  });

  it("the banner's period line: renews, cancels, or none without a paid period", () => {
    expect(periodText(proProfile())).toBe(`Renews on ${RENEWAL_TEXT}`);
    expect(periodText(proProfile({ cancel_at_period_end: true }))).toBe(`Cancels on ${RENEWAL_TEXT}`);
    expect(periodText(freeProfile())).toBeNull();
    expect(periodText(proProfile({ subscription_end: null }))).toBeNull();
    expect(periodText(proProfile({ subscription_end: 'not a date' }))).toBeNull();
  });
});

describe('a free user', () => {
  it('sees the heading, the Free banner with the emails left, the three stat cards and no Manage Billing', async () => {
    const { calls } = renderSubscription(freeProfile());
    expect(await screen.findByRole('heading', { name: 'Subscription', level: 1 })).toBeInTheDocument();
    expect(screen.getByText('Manage your subscription and upgrade for more features')).toBeInTheDocument();
    const free = await banner('Free');
    expect(free).toHaveTextContent('Emails remaining: 38');
    expect(free).not.toHaveTextContent(/Renews on|Cancels on/);
    expect(calls('POST /api/billing/sync')).toEqual([undefined]);

    expect(statCard('Emails Used')).toHaveTextContent('Emails Used12of 50 this month');
    expect(statCard('LabelFinder Access')).toHaveTextContent('LabelFinder AccessLimited2 of 5 contacts added');
    expect(statCard('Analytics')).toHaveTextContent('AnalyticsBasicOpen tracking only');
    expect(screen.queryByRole('button', { name: 'Manage Billing' })).toBeNull();
  });

  it("'Back to Dashboard' goes to /dashboard", async () => {
    renderSubscription(freeProfile());
    await banner('Free');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Back to Dashboard' }));
    await waitFor(() => expect(currentPath()).toBe('/dashboard'));
  });

  it("'Choose Your Plan' shows every plan of the plan table with its price, emails, features and limitations", async () => {
    renderSubscription(freeProfile());
    await banner('Free');
    expect(screen.getByRole('heading', { name: 'Choose Your Plan', level: 2 })).toBeInTheDocument();
    expect(screen.getAllByRole('heading', { level: 3 }).map((heading) => heading.textContent)).toEqual(['Free', 'Pro', 'Expert']);
    for (const plan of plans) {
      const card = planCard(plan.name);
      expect(card).toHaveTextContent(`$${plan.priceUsd} ${plan.period}`);
      expect(card).toHaveTextContent(plan.monthlyEmails === null ? 'Unlimited emails' : `${plan.monthlyEmails} emails per month`);
      for (const feature of plan.features) expect(within(card).getByText(feature)).toBeInTheDocument();
      for (const limitation of plan.limitations) expect(within(card).getByText(limitation).closest('li')).toHaveTextContent(`Limitation: ${limitation}`);
    }
    expect(within(planCard('Pro')).getByText('Most Popular')).toBeInTheDocument();
    expect(screen.getAllByText('Most Popular')).toHaveLength(1);
  });

  it("the Free card is the current plan (badge and disabled button); Pro and Expert offer 'Upgrade to {name}'; no Cancel Subscription", async () => {
    renderSubscription(freeProfile());
    await banner('Free');
    expect(within(planCard('Free')).getByText('Current Plan', { selector: 'span:not(button *)' })).toBeInTheDocument();
    expect(within(planCard('Free')).getByRole('button', { name: 'Current Plan' })).toBeDisabled();
    expect(within(planCard('Pro')).getByRole('button', { name: 'Upgrade to Pro' })).toBeEnabled();
    expect(within(planCard('Expert')).getByRole('button', { name: 'Upgrade to Expert' })).toBeEnabled();
    expect(screen.queryByRole('button', { name: 'Cancel Subscription' })).toBeNull();
    expect(screen.getAllByRole('button', { name: 'Current Plan' })).toHaveLength(1);
  });
});

describe('a paying user', () => {
  it("Pro: 'Renews on {date}', Manage Billing, the Free card's Cancel Subscription, Pro current, Upgrade to Expert", async () => {
    renderSubscription(proProfile());
    const pro = await banner('Pro');
    expect(pro).toHaveTextContent(`Renews on ${RENEWAL_TEXT}`);
    expect(pro).toHaveTextContent('Emails remaining: 380');
    expect(statCard('Emails Used')).toHaveTextContent('120of 500 this month');
    expect(statCard('LabelFinder Access')).toHaveTextContent('Full0 of 1,000 contacts added');
    expect(statCard('Analytics')).toHaveTextContent('Advanced');
    expect(screen.getByRole('button', { name: 'Manage Billing' })).toBeEnabled();
    expect(within(planCard('Free')).getByRole('button', { name: 'Cancel Subscription' })).toBeEnabled();
    expect(within(planCard('Pro')).getByRole('button', { name: 'Current Plan' })).toBeDisabled();
    expect(within(planCard('Expert')).getByRole('button', { name: 'Upgrade to Expert' })).toBeEnabled();
    expect(screen.queryByText('Your last payment failed')).toBeNull();
  });

  it("Expert: unlimited emails everywhere, and the Pro card reads 'Upgrade to Pro'", async () => {
    renderSubscription(expertProfile());
    const expert = await banner('Expert');
    expect(expert).toHaveTextContent('Emails remaining: Unlimited');
    expect(expert).toHaveTextContent(`Renews on ${RENEWAL_TEXT}`);
    expect(statCard('Emails Used')).toHaveTextContent('900of Unlimited this month');
    expect(within(planCard('Expert')).getByRole('button', { name: 'Current Plan' })).toBeDisabled();
    expect(within(planCard('Pro')).getByRole('button', { name: 'Upgrade to Pro' })).toBeEnabled();
    expect(within(planCard('Free')).getByRole('button', { name: 'Cancel Subscription' })).toBeEnabled();
  });

  it("cancelled at period end: 'Cancels on {date}' instead of 'Renews on'", async () => {
    renderSubscription(proProfile({ cancel_at_period_end: true }));
    const pro = await banner('Pro');
    expect(pro).toHaveTextContent(`Cancels on ${RENEWAL_TEXT}`);
    expect(pro).not.toHaveTextContent('Renews on');
  });

  it('a failed renewal payment (past_due): a warning that the payment failed, with Manage Billing; the plan is kept', async () => {
    const leave = leaving();
    const { calls } = renderSubscription(proProfile({ subscription_status: 'past_due' }), {
      replies: {
        'POST /api/billing/sync': { status: 200, body: stateOf(proProfile({ subscription_status: 'past_due' })) },
        'POST /api/billing/portal': { status: 200, body: { url: 'https://billing.example/portal/session' } },
      },
    });
    await banner('Pro');
    const warning = screen.getByText('Your last payment failed').closest('[data-testid="payment-failed"]') as HTMLElement;
    expect(warning).toHaveTextContent('We could not take the payment for your Pro plan.');
    await userEvent.setup().click(within(warning).getByRole('button', { name: 'Manage Billing' }));
    await waitFor(() => expect(leave).toHaveBeenCalledWith('https://billing.example/portal/session'));
    expect(calls('POST /api/billing/portal')).toHaveLength(1);
  });
});

describe('the sync on load', () => {
  it('shows a loading state until the sync answers, then what it says', async () => {
    let answer!: (reply: Reply) => void;
    renderSubscription(freeProfile(), {
      replies: { 'POST /api/billing/sync': () => new Promise<Reply>((resolve) => (answer = resolve)) },
    });
    expect(await screen.findByText('Checking your subscription with the payment provider')).toBeInTheDocument();
    expect(screen.queryByText(/You're on the/)).toBeNull();
    expect(screen.queryByRole('button', { name: /Upgrade to/ })).toBeNull();
    answer({ status: 200, body: stateOf(freeProfile()) });
    await banner('Free');
  });

  it('a plan the provider reports (paid a moment ago) goes into the shared profile: the page and the sidebar show Pro at once', async () => {
    const paid = proProfile({ emails_used: 12 });
    const { auth } = renderSubscription(freeProfile(), { replies: { 'POST /api/billing/sync': { status: 200, body: stateOf(paid) } } });
    await banner('Pro');
    expect(auth.patchProfile).toHaveBeenCalledWith({
      tier: 'pro',
      email_limit: 500,
      subscription_end: RENEWAL,
      subscription_status: 'active',
      cancel_at_period_end: false,
    });
    const sidebar = screen.getByRole('navigation', { name: 'Dashboard navigation' });
    await waitFor(() => expect(within(sidebar).getByText('12 / 500 sent')).toBeInTheDocument());
    expect(within(sidebar).getByText('Pro')).toBeInTheDocument();
  });

  it('when the sync fails, the page says it uses cached data and shows the profile', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { auth } = renderSubscription(proProfile(), {
      replies: { 'POST /api/billing/sync': { status: 503, body: { message: 'Billing is not available yet.' } } },
    });
    const pro = await banner('Pro');
    expect(screen.getByText('Could not sync with the payment provider. Showing cached subscription data.')).toBeInTheDocument();
    expect(pro).toHaveTextContent(`Renews on ${RENEWAL_TEXT}`);
    expect(auth.patchProfile).not.toHaveBeenCalled();
    expect(within(planCard('Expert')).getByRole('button', { name: 'Upgrade to Expert' })).toBeEnabled();
  });

  it("without a profile: 'Failed to load profile' (title Error) with Retry", async () => {
    const { auth } = renderSubscription(null, { replies: { 'POST /api/billing/sync': { status: 500, body: { message: 'x' } } } });
    expect(await screen.findByText('Failed to load profile')).toBeInTheDocument();
    const alert = screen.getByText('Failed to load profile').closest('[data-testid="profile-error"]') as HTMLElement;
    expect(within(alert).getByText('Error')).toBeInTheDocument();
    await userEvent.setup().click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(auth.refreshProfile).toHaveBeenCalled();
  });
});

describe('returning from Checkout', () => {
  it("success=true: 'Subscription activated! Welcome to your new plan.', the plan synced, and the flag leaves the URL", async () => {
    const paid = proProfile();
    const { calls } = renderSubscription(freeProfile(), {
      path: '/dashboard/subscription?success=true',
      replies: { 'POST /api/billing/sync': { status: 200, body: stateOf(paid) } },
    });
    await toast('Subscription activated! Welcome to your new plan.');
    await banner('Pro');
    await waitFor(() => expect(currentPath()).toBe('/dashboard/subscription'));
    expect(calls('POST /api/billing/sync')).toHaveLength(1);
    expect(screen.getAllByText('Subscription activated! Welcome to your new plan.')).toHaveLength(1);
  });

  it("canceled=true: 'Subscription canceled. You can try again anytime.' and the flag leaves the URL (other parameters stay)", async () => {
    renderSubscription(freeProfile(), { path: '/dashboard/subscription?canceled=true&from=checkout' });
    await toast('Subscription canceled. You can try again anytime.');
    await waitFor(() => expect(currentPath()).toBe('/dashboard/subscription?from=checkout'));
    expect(screen.queryByText('Subscription activated! Welcome to your new plan.')).toBeNull();
  });
});

describe('Checkout and the billing portal', () => {
  it("'Upgrade to Pro' asks for a Checkout page for the Pro plan and leaves for it; every plan button waits meanwhile", async () => {
    const leave = leaving();
    let answer!: (reply: Reply) => void;
    const { calls } = renderSubscription(freeProfile(), {
      replies: {
        'POST /api/billing/sync': { status: 200, body: stateOf(freeProfile()) },
        'POST /api/billing/checkout': () => new Promise<Reply>((resolve) => (answer = resolve)),
      },
    });
    await banner('Free');
    await userEvent.setup().click(within(planCard('Pro')).getByRole('button', { name: 'Upgrade to Pro' }));
    expect(calls('POST /api/billing/checkout')).toEqual([{ tier: 'pro' }]);
    await waitFor(() => expect(within(planCard('Expert')).getByRole('button', { name: 'Upgrade to Expert' })).toBeDisabled());
    expect(within(planCard('Pro')).getByRole('button', { name: /Upgrade to Pro|Opening checkout/ })).toBeDisabled();
    expect(leave).not.toHaveBeenCalled();
    answer({ status: 200, body: { url: 'https://checkout.example/c/pay/cs_1' } });
    await waitFor(() => expect(leave).toHaveBeenCalledWith('https://checkout.example/c/pay/cs_1'));
    expect(within(planCard('Expert')).getByRole('button', { name: 'Upgrade to Expert' })).toBeDisabled();
  });

  it('works from the keyboard: Tab to Upgrade to Expert, Enter', async () => {
    const leave = leaving();
    const { calls } = renderSubscription(freeProfile(), {
      replies: {
        'POST /api/billing/sync': { status: 200, body: stateOf(freeProfile()) },
        'POST /api/billing/checkout': { status: 200, body: { url: 'https://checkout.example/c/pay/cs_2' } },
      },
    });
    await banner('Free');
    const user = userEvent.setup();
    const target = within(planCard('Expert')).getByRole('button', { name: 'Upgrade to Expert' });
    for (let i = 0; i < 200 && document.activeElement !== target; i++) await user.tab();
    expect(target).toHaveFocus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(leave).toHaveBeenCalledWith('https://checkout.example/c/pay/cs_2'));
    expect(calls('POST /api/billing/checkout')).toEqual([{ tier: 'label' }]);
  });

  it("a Pro subscriber's 'Upgrade to Expert' asks the server too (it answers with the portal for a subscriber)", async () => {
    const leave = leaving();
    const { calls } = renderSubscription(proProfile(), {
      replies: {
        'POST /api/billing/sync': { status: 200, body: stateOf(proProfile()) },
        'POST /api/billing/checkout': { status: 200, body: { url: 'https://billing.example/portal/switch' } },
      },
    });
    await banner('Pro');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Upgrade to Expert' }));
    await waitFor(() => expect(leave).toHaveBeenCalledWith('https://billing.example/portal/switch'));
    expect(calls('POST /api/billing/checkout')).toEqual([{ tier: 'label' }]);
  });

  it("a Checkout failure: 'Failed to start checkout process. Please try again.', the browser stays and the buttons work again", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const leave = leaving();
    renderSubscription(freeProfile(), {
      replies: {
        'POST /api/billing/sync': { status: 200, body: stateOf(freeProfile()) },
        'POST /api/billing/checkout': { status: 502, body: { message: 'The payment provider did not answer.' } },
      },
    });
    await banner('Free');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Upgrade to Pro' }));
    await toast('Failed to start checkout process. Please try again.');
    expect(leave).not.toHaveBeenCalled();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Upgrade to Pro' })).toBeEnabled());
    expect(screen.getByRole('button', { name: 'Upgrade to Expert' })).toBeEnabled();
  });

  it.each(['Manage Billing', 'Cancel Subscription'])('%s opens the billing portal; the buttons wait while the browser leaves', async (name) => {
    const leave = leaving();
    const { calls } = renderSubscription(proProfile(), {
      replies: {
        'POST /api/billing/sync': { status: 200, body: stateOf(proProfile()) },
        'POST /api/billing/portal': { status: 200, body: { url: 'https://billing.example/portal/p1' } },
      },
    });
    await banner('Pro');
    await userEvent.setup().click(screen.getByRole('button', { name }));
    await waitFor(() => expect(leave).toHaveBeenCalledWith('https://billing.example/portal/p1'));
    expect(calls('POST /api/billing/portal')).toEqual([undefined]);
    expect(calls('POST /api/billing/checkout')).toEqual([]);
    expect(screen.getByRole('button', { name: 'Manage Billing' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Upgrade to Expert' })).toBeDisabled();
  });

  it("Cancel Subscription opens the portal; a portal failure says 'Failed to access billing portal'", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const leave = leaving();
    const { calls } = renderSubscription(proProfile(), {
      replies: {
        'POST /api/billing/sync': { status: 200, body: stateOf(proProfile()) },
        'POST /api/billing/portal': { status: 500, body: { message: 'Internal server error' } },
      },
    });
    await banner('Pro');
    await userEvent.setup().click(within(planCard('Free')).getByRole('button', { name: 'Cancel Subscription' }));
    await toast('Failed to access billing portal');
    expect(calls('POST /api/billing/portal')).toHaveLength(1);
    expect(leave).not.toHaveBeenCalled();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Manage Billing' })).toBeEnabled());
  });
});
