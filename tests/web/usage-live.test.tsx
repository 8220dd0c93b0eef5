/**
 * Issue 25 §4: the sidebar's 'Emails this month' follows sending live. One usage source (UsageProvider)
 * feeds the sidebar and the campaign pages: read again after a batch is queued or a campaign resumed,
 * and polled while emails are queued; nothing is polled when nothing is sending.
 */
import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { contact } from './contacts-fake-server';
import { containerOf, fakeComposeServer, fillTrack, openCompose, recipientBox } from './compose-fake-server';
import { campaign, fakeCampaignsServer, renderCampaigns, sendingCampaign, sendingStatus } from './campaigns-fake-server';
import { makeFakeAuth, makeProfile, preloadRoutes, renderApp, testUser } from './helpers';
import { createApiClient } from '../../web/src/api/client';
import { tourFlagKey } from '../../web/src/tour/tourRules';
import { USAGE_REFRESH_MS, usagePollMs } from '../../web/src/usage/UsageContext';

beforeAll(async () => {
  await preloadRoutes();
  await import('../../web/src/pages/compose/ComposePage');
}, 60_000);

afterEach(() => {
  vi.useRealTimers();
});

const ana = contact(1, { name: 'Ana Vogel', email: 'ana@deeprecords.example', label_name: 'Deep Records' });

const sidebar = () => within(screen.getByRole('navigation', { name: 'Dashboard navigation' }));
const sidebarPercent = () =>
  createWrapper(screen.getByRole('navigation', { name: 'Dashboard navigation' }))
    .findProgressBar()!
    .findPercentageText()!
    .getElement().textContent;

async function advance(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

describe('usage: the sidebar follows sending', { timeout: 60_000 }, () => {
  it('a queued batch updates "Emails this month" at once, and it keeps following while the queue sends', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const server = fakeComposeServer({ contacts: [ana], sending: { monthUsed: 9, monthLimit: 500 } });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await openCompose(server, { gmail_connected: true, emails_used: 9, email_limit: 500 });
    expect(await sidebar().findByText('9 / 500 sent')).toBeInTheDocument();

    await fillTrack(user);
    await user.click(recipientBox(ana.email));
    await user.click(screen.getByRole('button', { name: 'Generate Email Preview' }));
    await within(containerOf('Email Preview')).findByRole('button', { name: 'Edit' });
    await user.click(screen.getByRole('button', { name: 'Send Campaign' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send Campaign' });
    // What the server counts once the batch is in: the first email went out, more are queued.
    server.sending.monthUsed = 10;
    server.sending.nextSendAt = new Date(Date.UTC(2025, 2, 1, 9, 5)).toISOString();
    await user.click(await within(dialog).findByRole('button', { name: 'Start Sending' }));
    expect(await sidebar().findByText('10 / 500 sent')).toBeInTheDocument();

    // Another email goes out while the artist stays on the page: the next poll shows it, no reload.
    server.sending.monthUsed = 11;
    await advance(USAGE_REFRESH_MS);
    expect(await sidebar().findByText('11 / 500 sent')).toBeInTheDocument();

    // The queue is empty: polling stops (what the artist does next refreshes it).
    server.sending.nextSendAt = null;
    await advance(USAGE_REFRESH_MS);
    const reads = server.calls('GET', '/api/sending/status').length;
    server.sending.monthUsed = 12;
    await advance(3 * USAGE_REFRESH_MS);
    expect(server.calls('GET', '/api/sending/status')).toHaveLength(reads);
    expect(sidebar().getByText('11 / 500 sent')).toBeInTheDocument();
  });

  it('Resume on the campaigns list reads the usage again, and the sidebar and the widget agree', async () => {
    const paused = sendingCampaign(1, 30, 5, { sending_status: 'paused', pause_reason: 'user', next_send_at: null });
    const server = fakeCampaignsServer({ campaigns: [paused, campaign(2)], status: sendingStatus({ month: { used: 9, limit: 500 }, next_send_at: null }) });
    const user = userEvent.setup();
    renderCampaigns(server, '/dashboard/campaigns', { emails_used: 9, email_limit: 500 });
    expect(await sidebar().findByText('9 / 500 sent')).toBeInTheDocument();
    expect(sidebarPercent()).toBe('1%');

    server.state.status = sendingStatus({ month: { used: 250, limit: 500 } });
    await user.click(await screen.findByRole('button', { name: /^Resume Track 1/ }));
    expect(await sidebar().findByText('250 / 500 sent')).toBeInTheDocument();
    await waitFor(() => expect(sidebarPercent()).toBe('50%'));
  });

  it('a plan change (an upgrade just synced) reads the usage again: the sidebar shows the new limit', async () => {
    // The server's limit is Pro's once the provider's sync has answered (the upgrade was just paid).
    let synced = false;
    let statusReads = 0;
    const fetchImpl = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const route = `${init?.method ?? 'GET'} ${input as string}`;
      let body: unknown = { message: 'Not Found' };
      if (route === 'GET /api/sending/status') {
        statusReads += 1;
        body = sendingStatus({ month: { used: 12, limit: synced ? 500 : 50 }, next_send_at: null });
      }
      if (route === 'POST /api/billing/sync') {
        // Answered once the sidebar has read the Free limit: what it shows next must come from a new read.
        await vi.waitUntil(() => statusReads > 0);
        synced = true;
        body = { subscribed: true, tier: 'pro', email_limit: 500, subscription_end: null, subscription_status: 'active', cancel_at_period_end: false };
      }
      return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
    });
    window.localStorage.setItem(tourFlagKey(testUser.userId), 'true');
    const free = makeProfile({ emails_used: 12 });
    renderApp('/dashboard/subscription', {
      auth: makeFakeAuth({ user: testUser, profile: free, api: createApiClient(() => Promise.resolve('t'), fetchImpl) }),
    });
    await screen.findByText("You're on the Pro plan");
    expect(await sidebar().findByText('12 / 500 sent')).toBeInTheDocument();
  });

  it('polls at the sending pace (10–60 s) while emails are queued, every 60 s for the usage widget, else never', () => {
    const ready = (next: string | null, seconds: number) => ({
      kind: 'ready' as const,
      status: sendingStatus({ next_send_at: next, send_interval_seconds: seconds }),
    });
    expect(usagePollMs(ready('2025-03-01T09:00:00.000Z', 60), false)).toBe(60_000);
    expect(usagePollMs(ready('2025-03-01T09:00:00.000Z', 2), false)).toBe(10_000);
    expect(usagePollMs(ready('2025-03-01T09:00:00.000Z', 600), false)).toBe(60_000);
    expect(usagePollMs(ready(null, 60), true)).toBe(60_000);
    expect(usagePollMs(ready(null, 60), false)).toBeNull();
    expect(usagePollMs({ kind: 'failed' }, false)).toBeNull();
  });
});
