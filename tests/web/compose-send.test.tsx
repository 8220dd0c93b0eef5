import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryRouter } from 'react-router-dom';
import { NO_FOLLOW_UPS, type FollowUps } from '../../schema/api/followUpValues';
import { createApiClient } from '../../web/src/api/client';
import { AuthContext } from '../../web/src/auth/AuthContext';
import { ConfigContext } from '../../web/src/config/ConfigContext';
import { NotificationsProvider } from '../../web/src/notifications/NotificationsContext';
import { CapacityModal } from '../../web/src/pages/compose/send/CapacityModal';
import { buildCampaign } from '../fakes/builders';
import { composeMessages } from '../../schema/api/campaigns';
import type { Contact } from '../../schema/api/contacts';
import { SEND_BATCH_SIZE, sendingMessages } from '../../schema/api/sending';
import { limitMessages } from '../../schema/sendingLimits';
import { contact, gate, manyContacts, unsubscribe } from './contacts-fake-server';
import { act } from '@testing-library/react';
import { isWithinWindow, nextWindowStart } from '../../lambdas/core/workingHours';
import {
  chooseOption,
  containerOf,
  fakeComposeServer,
  fillTrack,
  formField,
  openCompose,
  recipientBox,
  toast,
  type ComposeServer,
  type FakeSending,
} from './compose-fake-server';
import { currentPath, localConfig, makeFakeAuth, makeProfile, preloadRoutes, testUser } from './helpers';
import { apiMessages, gatewayMessages } from '../../schema/api/serverMessages';

beforeAll(async () => {
  await preloadRoutes();
  await import('../../web/src/pages/compose/ComposePage');
}, 60_000);

const ana = contact(3, { name: 'Ana Vogel', email: 'ana@deeprecords.example', label_name: 'Deep Records' });
const ben = contact(2, { name: 'Ben Ortiz', email: 'ben@nightowl.example', label_name: 'Night Owl' });
const cleo = contact(1, { name: 'Cleo Brandt', email: 'cleo@basement.example', label_name: 'Basement' });
const trio = [ana, ben, cleo];

const connected = { gmail_connected: true } as const;
const sendButton = () => screen.getByRole('button', { name: 'Send Campaign' });
const capacityDialog = () => screen.getByRole('dialog', { name: 'Send Campaign' });

/** Opens Compose, selects `chosen` (or every contact with Select All) and generates the AI preview. */
async function withPreview(server: ComposeServer, chosen: readonly Contact[] | 'all', profile: object = connected): Promise<UserEvent> {
  const user = userEvent.setup();
  await openCompose(server, profile);
  await fillTrack(user);
  if (chosen === 'all') {
    const count = server.contacts.size;
    await screen.findByText(`${count} contacts match your filters (0 selected)`);
    await user.click(screen.getByRole('button', { name: 'Select All' }));
    await screen.findByText(`${count} contacts match your filters (${count} selected)`);
  } else {
    for (const one of chosen) await user.click(recipientBox(one.email));
  }
  await user.click(screen.getByRole('button', { name: 'Generate Email Preview' }));
  await within(containerOf('Email Preview')).findByRole('button', { name: 'Edit' });
  return user;
}

/** Presses Send Campaign and waits for the capacity check to answer. */
async function openCapacity(user: UserEvent) {
  await user.click(sendButton());
  await screen.findByRole('dialog', { name: 'Send Campaign' });
  await waitFor(() => expect(screen.queryByText('Checking sending capacity...')).toBeNull());
  return capacityDialog();
}

const radio = (name: string) => within(capacityDialog()).getByRole('radio', { name });
const valueOf = (dialog: HTMLElement, label: string) => {
  const term = within(dialog).getByText(label, { selector: 'dt > div' });
  return term.closest('dt')!.nextElementSibling!.textContent;
};

/** The progress dialog finishes (Continue, or its own 3 s close), then the success dialog shows. */
async function successDialog(user: UserEvent, title: string) {
  const progress = await screen.findByRole('dialog', { name: 'Sending Campaign' });
  const next = await within(progress).findByRole('button', { name: 'Continue' });
  await user.click(next);
  return screen.findByRole('dialog', { name: title });
}

const batchStarts = (server: ComposeServer, id: string) => server.bodies('POST', `/api/campaigns/${id}/send`).map((body) => body.batch_start);
const draftId = (server: ComposeServer) => [...server.campaigns.keys()][0]!;

// Each test generates a preview first: whole-page flows, slower than the project's default allows on a busy machine.
const slow = { timeout: 60_000 };

describe('compose: Send Campaign checks', slow, () => {
  it('asks for a preview, then for a contact, before anything is sent', async () => {
    const server = fakeComposeServer({ contacts: trio });
    const user = userEvent.setup();
    await openCompose(server, connected);
    await user.click(sendButton());
    await toast(sendingMessages.previewFirst);

    await fillTrack(user);
    await user.click(recipientBox(ana.email));
    await user.click(screen.getByRole('button', { name: 'Generate Email Preview' }));
    await within(containerOf('Email Preview')).findByRole('button', { name: 'Edit' });
    await user.click(recipientBox(ana.email));
    await user.click(sendButton());
    await toast(sendingMessages.selectContacts);
    expect(screen.queryByRole('dialog', { name: 'Send Campaign' })).toBeNull();
    expect(server.calls('POST', `/api/campaigns/${draftId(server)}/send-check`)).toHaveLength(0);
  });

  it('without a connected mailbox says so with a way to Settings', async () => {
    const server = fakeComposeServer({ contacts: trio });
    const user = await withPreview(server, [ana], { gmail_connected: false });
    await user.click(sendButton());
    const item = await toast('Mailbox not connected');
    expect(item).toHaveTextContent(sendingMessages.mailboxRequired);
    await user.click(within(item).getByRole('link', { name: 'Go to Settings' }));
    await waitFor(() => expect(currentPath()).toBe('/dashboard/settings'));
    expect(server.calls('POST', `/api/campaigns/${draftId(server)}/send-check`)).toHaveLength(0);
  });

  it('when the server says the mailbox is not connected, the dialog says so and offers no send', async () => {
    const server = fakeComposeServer({ contacts: trio, sending: { mailboxConnected: false } });
    const user = await withPreview(server, [ana]);
    const dialog = await openCapacity(user);
    expect(within(dialog).getByText(sendingMessages.mailboxRequired)).toBeInTheDocument();
    expect(within(dialog).getByRole('link', { name: 'Go to Settings' })).toHaveAttribute('href', '/dashboard/settings');
    expect(within(dialog).queryByRole('button', { name: /^(Start Sending|Schedule Campaign)$/ })).toBeNull();
  });

  it('a failed capacity check says so and can be retried', async () => {
    const server = fakeComposeServer({ contacts: trio });
    server.fail.sendCheck = { status: 500, message: apiMessages.internalError };
    const user = await withPreview(server, [ana]);
    const dialog = await openCapacity(user);
    expect(within(dialog).getByText(sendingMessages.capacityCheckFailed)).toBeInTheDocument();
    server.fail.sendCheck = null;
    await user.click(within(dialog).getByRole('button', { name: 'Retry' }));
    expect(await within(dialog).findByRole('radio', { name: 'Send now' })).toBeEnabled();
    expect(within(dialog).queryByText(sendingMessages.capacityCheckFailed)).toBeNull();
  });
});

describe('compose: the capacity dialog', slow, () => {
  it('sufficient: Send now is chosen, the remainder option is off; capacities and the reset are shown', async () => {
    const server = fakeComposeServer({ contacts: trio, sending: { sentToday: 20, monthLimit: null } });
    const user = await withPreview(server, trio);
    const dialog = await openCapacity(user);
    expect(server.bodies('POST', `/api/campaigns/${draftId(server)}/send-check`)).toEqual([{ contact_ids: trio.map((c) => c.id) }]);
    expect(radio('Send now')).toBeEnabled();
    expect(radio('Send now')).toBeChecked();
    expect(radio("Send today's remainder now, the rest tomorrow")).toBeDisabled();
    expect(radio('Schedule for tomorrow')).toBeEnabled();
    expect(valueOf(dialog, "Today's mailbox capacity")).toBe('480 of 500 left');
    expect(valueOf(dialog, "This month's plan capacity")).toBe('Unlimited');
    expect(valueOf(dialog, 'Mailbox limit resets')).toMatch(/^Midnight Pacific Time \(.+ your time\)$/);
    // No monthly limit on this plan: no plan reset to show.
    expect(within(dialog).queryByText('Plan limit resets')).toBeNull();
    expect(within(dialog).queryByText(sendingMessages.insufficientCapacity)).toBeNull();
    // The time at the pace, and when the last should go: never a promise of 'today'.
    expect(within(dialog).getByText('Enough capacity')).toBeInTheDocument();
    const notice = within(dialog).getByText(/^All 3 emails are within your limits\./);
    expect(notice).toHaveTextContent(/^All 3 emails are within your limits\. At 60 emails an hour they take about 3 min; the last should go out around .+\.$/);
    expect(notice.closest('[data-testid="capacity-notice"]')).not.toHaveTextContent(/today/i);
  });

  it("partial by the mailbox's day: Send now is off with the spec's text, the remainder option is chosen", async () => {
    const server = fakeComposeServer({ contacts: trio, sending: { sentToday: 498 } });
    const user = await withPreview(server, trio);
    const dialog = await openCapacity(user);
    expect(radio('Send now')).toBeDisabled();
    expect(within(dialog).getByText(sendingMessages.insufficientCapacity)).toBeInTheDocument();
    expect(radio("Send today's remainder now, the rest tomorrow")).toBeEnabled();
    expect(radio("Send today's remainder now, the rest tomorrow")).toBeChecked();
    expect(radio('Schedule for tomorrow')).toBeEnabled();
    expect(within(dialog).getByText('Partial capacity today')).toBeInTheDocument();
    expect(
      within(dialog).getByText(
        /^2 of 3 emails fit your Gmail mailbox's daily limit; the rest go after it resets at midnight Pacific Time\. At 60 emails an hour, the last should go out around .+\.$/,
      ),
    ).toBeInTheDocument();
  });

  it("partial by the plan's month: named as the plan's, with the day it resets and an Upgrade, never 'tomorrow'", async () => {
    const server = fakeComposeServer({ contacts: trio, sending: { monthLimit: 50, monthUsed: 48 } });
    const user = await withPreview(server, trio);
    const dialog = await openCapacity(user);
    expect(radio('Send now')).toBeDisabled();
    // The fake server's clock is 1 March 2025: the plan's limit resets on 1 April.
    expect(
      within(dialog).getByText("Cannot Send: Insufficient monthly capacity (2 emails left on your plan this month). Your plan's limit resets on April 1."),
    ).toBeInTheDocument();
    expect(radio("Send this month's remainder now, the rest next month")).toBeChecked();
    expect(radio('Schedule for tomorrow')).toBeEnabled();
    expect(
      within(dialog).getByText("2 after midnight Pacific Time, the rest when your plan's limit resets on April 1 (or as soon as you upgrade)."),
    ).toBeInTheDocument();
    expect(valueOf(dialog, "This month's plan capacity")).toBe('2 of 50 left');
    expect(valueOf(dialog, 'Plan limit resets')).toBe('April 1 (Pacific Time)');
    expect(
      within(dialog).getByText(
        "2 of 3 emails fit your plan's limit this month (about 2 min at 60 emails an hour). The rest wait until your plan's limit resets on April 1, or until you upgrade.",
      ),
    ).toBeInTheDocument();
    expect(within(dialog).getByRole('link', { name: 'Upgrade' })).toHaveAttribute('href', '/dashboard/subscription');
    expect(within(dialog).getByTestId('capacity-notice')).not.toHaveTextContent(/tomorrow/i);
  });

  it.each([
    ['Free', 50],
    ['Pro', 500],
  ])('%s at its limit of %i on 28 November: no sending capacity left this month, resets on December 1, with Upgrade', async (_plan, limit) => {
    const server = fakeComposeServer({ contacts: trio, sending: { monthLimit: limit, monthUsed: limit }, startsAt: Date.UTC(2026, 10, 28, 20) });
    const user = await withPreview(server, trio);
    const dialog = await openCapacity(user);
    expect(within(dialog).getByText('Monthly plan limit reached')).toBeInTheDocument();
    expect(within(dialog).getByText(limitMessages.monthlyExhausted('December 1'))).toHaveTextContent(
      "No sending capacity left this month. Your plan's limit resets on December 1.",
    );
    const upgrade = within(dialog).getByRole('link', { name: 'Upgrade' });
    expect(upgrade).toHaveAttribute('href', '/dashboard/subscription');
    await user.click(upgrade);
    await waitFor(() => expect(currentPath()).toBe('/dashboard/subscription'));
  });

  it.each([
    ['Free', 50],
    ['Pro', 500],
  ])('%s at its limit: Send now says so in the same words, and no word promises today or tomorrow', async (_plan, limit) => {
    const server = fakeComposeServer({ contacts: trio, sending: { monthLimit: limit, monthUsed: limit }, startsAt: Date.UTC(2026, 10, 28, 20) });
    const user = await withPreview(server, trio);
    const dialog = await openCapacity(user);
    expect(radio('Send now')).toBeDisabled();
    expect(within(dialog).getByText("Cannot Send: No sending capacity left this month. Your plan's limit resets on December 1.")).toBeInTheDocument();
    expect(radio("Send this month's remainder now, the rest next month")).toBeDisabled();
    expect(radio('Queue for when your plan allows')).toBeChecked();
    expect(within(dialog).getByText("Nothing goes out before your plan's limit resets on December 1, or until you upgrade.")).toBeInTheDocument();
    expect(valueOf(dialog, 'Plan limit resets')).toBe('December 1 (Pacific Time)');
    expect(within(dialog).getByTestId('capacity-notice')).not.toHaveTextContent(/today|tomorrow/i);
    expect(within(dialog).getByRole('radiogroup', { name: 'When to send' })).not.toHaveTextContent(/today|tomorrow/i);
  });

  it('exhausted: only Schedule for tomorrow', async () => {
    const server = fakeComposeServer({ contacts: trio, sending: { sentToday: 500 } });
    const user = await withPreview(server, trio);
    const dialog = await openCapacity(user);
    expect(radio('Send now')).toBeDisabled();
    expect(radio("Send today's remainder now, the rest tomorrow")).toBeDisabled();
    expect(radio('Schedule for tomorrow')).toBeChecked();
    expect(valueOf(dialog, "Today's mailbox capacity")).toBe('0 of 500 left');
    expect(within(dialog).getByRole('button', { name: 'Schedule Campaign' })).toBeEnabled();
  });

  it("counts the unsubscribed and those who already received the track; 'Send again anyway' adds them back", async () => {
    const gone = unsubscribe(1, { contact_email: cleo.email, contact_name: cleo.name });
    const server = fakeComposeServer({ contacts: trio, unsubscribes: [gone], sending: { alreadySent: new Set([ben.id]), sentToday: 499 } });
    const user = await withPreview(server, trio);
    const dialog = await openCapacity(user);
    expect(valueOf(dialog, 'Unsubscribed (skipped)')).toBe('1');
    expect(valueOf(dialog, 'Already received this track')).toBe('1');
    expect(screen.getByTestId('requested-count')).toHaveTextContent('1');
    // One left today, one to send: sufficient.
    expect(radio('Send now')).toBeChecked();

    await user.click(within(dialog).getByRole('checkbox', { name: /Send again anyway/ }));
    expect(screen.getByTestId('requested-count')).toHaveTextContent('2');
    // Two to send with one left: partial now.
    expect(radio('Send now')).toBeDisabled();
    expect(radio("Send today's remainder now, the rest tomorrow")).toBeChecked();

    await user.click(within(dialog).getByRole('button', { name: 'Start Sending' }));
    await successDialog(user, sendingMessages.started);
    expect(server.bodies('POST', `/api/campaigns/${draftId(server)}/send`)).toEqual([
      { contact_ids: trio.map((c) => c.id), mode: 'partial', send_again: true, batch_start: 0, total: 3, send_window: null },
    ]);
  });

  it('when every selected contact has unsubscribed, says so and offers no send', async () => {
    const server = fakeComposeServer({
      contacts: [ana, ben],
      unsubscribes: [unsubscribe(1, { contact_email: ana.email }), unsubscribe(2, { contact_email: ben.email.toUpperCase() })],
    });
    const user = await withPreview(server, [ana, ben]);
    const dialog = await openCapacity(user);
    expect(within(dialog).getByText(sendingMessages.allUnsubscribed)).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: /^(Start Sending|Schedule Campaign)$/ })).toBeNull();
    expect(within(dialog).queryByRole('radio')).toBeNull();
  });
});

describe('compose: queueing the campaign', { timeout: 120_000 }, () => {
  it('queues 250 recipients in 3 batches of 100 in order, with real progress, then Campaign Started! and a reset form', async () => {
    const many = manyContacts(250);
    const server = fakeComposeServer({ contacts: many });
    const user = await withPreview(server, 'all');
    const id = draftId(server);
    const dialog = await openCapacity(user);
    const second = gate();
    server.hold.sendBatch[100] = second.promise;
    await user.click(within(dialog).getByRole('button', { name: 'Start Sending' }));

    const progress = await screen.findByRole('dialog', { name: 'Sending Campaign' });
    expect(await within(progress).findByText('Queueing 200 of 250')).toBeInTheDocument();
    expect(batchStarts(server, id)).toEqual([0, 100]);
    second.open();

    const success = await successDialog(user, sendingMessages.started);
    const bodies = server.bodies('POST', `/api/campaigns/${id}/send`);
    expect(bodies.map((body) => body.batch_start)).toEqual([0, 100, 200]);
    expect(bodies.map((body) => (body.contact_ids as string[]).length)).toEqual([SEND_BATCH_SIZE, SEND_BATCH_SIZE, 50]);
    expect(bodies.every((body) => body.total === 250 && body.mode === 'immediate' && body.send_again === false)).toBe(true);
    // Together the batches are the selection, once each, in list order (newest first).
    const listOrder = [...many].sort((a, b) => (a.created_at < b.created_at ? 1 : -1)).map((c) => c.id);
    expect(bodies.flatMap((body) => body.contact_ids as string[])).toEqual(listOrder);

    expect(valueOf(success, 'Queued')).toBe('250 emails');
    expect(valueOf(success, 'Skipped')).toBe('None');
    expect(valueOf(success, 'Estimated sending time')).toBe('about 4 h 10 min (60 emails an hour)');
    expect(server.campaigns.get(id)!.status).toBe('sending');

    // The form started afresh behind the dialog.
    await user.click(within(success).getByRole('button', { name: 'Close' }));
    expect(screen.getByRole('textbox', { name: 'Track Name *' })).toHaveValue('');
    expect(screen.queryByText(composeMessages.trackUrlRequired)).toBeNull();
    expect(screen.getByText('250 contacts match your filters (0 selected)')).toBeInTheDocument();
    expect(within(containerOf('Email Preview')).getByText('No email preview yet')).toBeInTheDocument();
    // The next preview makes a new draft, not a rewrite of the sent campaign.
    await fillTrack(user);
    await user.click(recipientBox(many[many.length - 1]!.email));
    await user.click(screen.getByRole('button', { name: 'Generate Email Preview' }));
    await within(containerOf('Email Preview')).findByRole('button', { name: 'Edit' });
    const regenerate = server.bodies('POST', '/api/campaigns/generate-preview');
    expect(regenerate[regenerate.length - 1]).not.toHaveProperty('campaign_id');
  });

  it('a failed batch shows the error; Retry continues from that batch', async () => {
    const server = fakeComposeServer({ contacts: manyContacts(250) });
    server.fail.sendBatch = { batch_start: 100, status: 500, message: apiMessages.internalError };
    const user = await withPreview(server, 'all');
    const id = draftId(server);
    const dialog = await openCapacity(user);
    await user.click(within(dialog).getByRole('button', { name: 'Start Sending' }));

    const progress = await screen.findByRole('dialog', { name: 'Sending Campaign' });
    expect(await within(progress).findByText(sendingMessages.failedToSend(apiMessages.internalError))).toBeInTheDocument();
    expect(batchStarts(server, id)).toEqual([0, 100]);
    await user.click(within(progress).getByRole('button', { name: 'Retry' }));
    await successDialog(user, sendingMessages.started);
    expect(batchStarts(server, id)).toEqual([0, 100, 100, 200]);
  });

  it('Stop after a failed batch: Campaign completed with errors, with what was queued and the numbered errors', async () => {
    const server = fakeComposeServer({ contacts: manyContacts(101) });
    server.fail.sendBatch = { batch_start: 100, status: 500, message: apiMessages.internalError };
    const user = await withPreview(server, 'all');
    const id = draftId(server);
    await user.click(within(await openCapacity(user)).getByRole('button', { name: 'Start Sending' }));
    const progress = await screen.findByRole('dialog', { name: 'Sending Campaign' });
    await within(progress).findByText(sendingMessages.failedToSend(apiMessages.internalError));
    await user.click(within(progress).getByRole('button', { name: 'Stop' }));

    const summary = await screen.findByRole('dialog', { name: sendingMessages.completedWithErrors });
    expect(within(summary).getByText('100/101 emails queued successfully')).toBeInTheDocument();
    expect(
      within(within(summary).getByRole('list', { name: 'Errors' }))
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([`Contacts 101–101: ${sendingMessages.failedToSend(apiMessages.internalError)}`]);
    expect(server.campaigns.get(id)!.status).toBe('sending');
    // The campaign has left draft: Compose starts afresh.
    expect(screen.getByRole('textbox', { name: 'Track Name *' })).toHaveValue('');
  });

  it('a 429 gives the daily-limit toast', async () => {
    const server = fakeComposeServer({ contacts: trio });
    server.fail.sendBatch = { batch_start: 0, status: 429, message: gatewayMessages.tooManyRequests };
    const user = await withPreview(server, trio);
    await user.click(within(await openCapacity(user)).getByRole('button', { name: 'Start Sending' }));
    const item = await toast(sendingMessages.dailyLimitTitle);
    expect(item).toHaveTextContent(sendingMessages.dailyLimit);
    // Nothing was queued: Cancel goes back to Compose with the draft as it was.
    const progress = screen.getByRole('dialog', { name: 'Sending Campaign' });
    await user.click(within(progress).getByRole('button', { name: 'Cancel' }));
    expect(within(containerOf('Email Preview')).getByRole('button', { name: 'Edit' })).toBeInTheDocument();
    expect(server.campaigns.get(draftId(server))!.status).toBe('draft');
  });

  it("a message with 'Daily Gmail sending limit reached' gives the daily-limit toast too", async () => {
    const server = fakeComposeServer({ contacts: trio });
    server.fail.sendBatch = { batch_start: 0, status: 400, message: `${sendingMessages.dailyLimitProvider} for today` };
    const user = await withPreview(server, trio);
    await user.click(within(await openCapacity(user)).getByRole('button', { name: 'Start Sending' }));
    expect(await toast(sendingMessages.dailyLimitTitle)).toHaveTextContent(sendingMessages.dailyLimit);
  });

  it("the send window: 'Any time' by default (sent as null); 'Recipient's working hours' starts Mon–Fri 9:00–17:00, days and hours editable, sent with the batch", async () => {
    const server = fakeComposeServer({ contacts: trio });
    const user = await withPreview(server, trio);
    const id = draftId(server);
    const dialog = await openCapacity(user);
    expect(radio('Any time')).toBeChecked();
    expect(within(dialog).queryByText('Days')).toBeNull();
    await user.click(radio("Recipient's working hours"));
    const days = () => formField('Days').findControl()!.findMultiselect()!;
    const tokens = () =>
      days()
        .findTokens()
        .map((token) => token.findLabel().getElement().textContent);
    expect(tokens()).toEqual(['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday']);
    expect(formField('From').findControl()!.findSelect()!.findTrigger().getElement()).toHaveTextContent('09:00');
    expect(formField('Until').findControl()!.findSelect()!.findTrigger().getElement()).toHaveTextContent('17:00');
    // Saturday added; 10:00 to 16:00.
    act(() => days().openDropdown());
    act(() => days().selectOptionByValue('6'));
    act(() => days().closeDropdown());
    chooseOption('From', '10');
    chooseOption('Until', '16');
    // A window that ends before it starts never opens: said, and nothing can be sent.
    chooseOption('Until', '8');
    expect(within(dialog).getByText('The window must end after it starts.')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Start Sending' })).toBeDisabled();
    chooseOption('Until', '16');
    await user.click(within(dialog).getByRole('button', { name: 'Start Sending' }));
    await successDialog(user, sendingMessages.started);
    expect(server.bodies('POST', `/api/campaigns/${id}/send`)[0]).toMatchObject({ send_window: { days: [1, 2, 3, 4, 5, 6], start_hour: 10, end_hour: 16 } });
  });

  it("with working hours the dialog counts the windows: the finish, and a line per zone whose window opens later, in the artist's time", async () => {
    const kai = contact(4, { name: 'Kai Mori', email: 'kai@tokyo.example', label_name: 'Tokyo Tapes', time_zone: 'Asia/Tokyo' });
    const lia = contact(5, { name: 'Lia Stone', email: 'lia@sydney.example', label_name: 'Harbour', time_zone: 'Australia/Sydney' });
    const server = fakeComposeServer({ contacts: [kai, lia] });
    const user = await withPreview(server, [kai, lia], { ...connected, time_zone: 'Europe/London' });
    const dialog = await openCapacity(user);
    expect(within(dialog).queryByTestId('working-hours-notice')).toBeNull();
    await user.click(radio("Recipient's working hours"));
    const notice = within(dialog).getByTestId('working-hours-notice');
    expect(notice).toHaveTextContent(/Counting their working hours, the last should go out around .+\./);
    // The lines say when each zone's window opens in London, as the core counts it from now.
    const now = new Date();
    const window = { days: [1, 2, 3, 4, 5] as const, startHour: 9, endHour: 17 };
    for (const [zone, place] of [
      ['Asia/Tokyo', 'Tokyo'],
      ['Australia/Sydney', 'Sydney'],
    ] as const) {
      const line = within(notice).queryByText(new RegExp(`^${place} recipients start (\\w{3} )?\\d\\d:\\d\\d your time$`));
      const opensLater = !isWithinWindow(new Date(now.getTime() + 60_000), { ...window, days: [...window.days] }, zone);
      expect(line !== null, `${zone} line`).toBe(opensLater);
      if (line) {
        const opens = nextWindowStart(new Date(now.getTime() + 60_000), { ...window, days: [...window.days] }, zone)!;
        const hhmm = opens.toLocaleTimeString('en-GB', { timeZone: 'Europe/London', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
        expect(line.textContent).toContain(`${hhmm} your time`);
      }
    }
  });

  it('scheduled: Campaign Scheduled! with the first email after the reset; View campaign opens it', async () => {
    const server = fakeComposeServer({ contacts: trio, sending: { alreadySent: new Set([cleo.id]) } });
    const user = await withPreview(server, trio);
    const id = draftId(server);
    const dialog = await openCapacity(user);
    await user.click(radio('Schedule for tomorrow'));
    await user.click(within(dialog).getByRole('button', { name: 'Schedule Campaign' }));
    const success = await successDialog(user, sendingMessages.scheduled);
    expect(server.bodies('POST', `/api/campaigns/${id}/send`)[0]).toMatchObject({ mode: 'scheduled', send_again: false, send_window: null });
    expect(valueOf(success, 'Queued')).toBe('2 emails');
    expect(valueOf(success, 'Skipped')).toBe('1 already received this track');
    const resetsAt = server.campaigns.get(id)!.send_after!;
    expect(valueOf(success, 'First email goes out')).toBe(new Date(resetsAt).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }));
    await user.click(within(success).getByRole('button', { name: 'View campaign' }));
    await waitFor(() => expect(currentPath()).toBe(`/dashboard/campaigns/${id}`));
  });
});

describe("the capacity dialog's follow-ups (issue 27 §1)", () => {
  /** 10:00 PST on November 20: the plan's month ends on December 1 (08:00 UTC). */
  const NOW = Date.parse('2026-11-20T18:00:00.000Z');
  const DRAFT = '01KAKZ3R0000000000000000DR';
  const text = 'Hi [CONTACT_NAME], did [TRACK_NAME] reach you?';
  const stepsAfter = (...days: number[]): FollowUps => ({ steps: days.map((after_days) => ({ after_days, writer: 'own', text })), condition: 'not_listened' });

  beforeEach(() => {
    // The dialog's clock and the fake server's status agree on the day, whatever day the test runs.
    vi.useFakeTimers({ now: NOW, toFake: ['Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** The dialog alone, for the three contacts, with these follow-ups (the coordinator's SendCampaign passes the campaign's). */
  async function dialogWith(followUps: FollowUps | undefined, sending: Partial<FakeSending> = {}) {
    const server = fakeComposeServer({ contacts: trio, sending, startsAt: NOW });
    server.campaigns.set(DRAFT, buildCampaign({ id: DRAFT }));
    const api = createApiClient(() => Promise.resolve('user-id-token'), server.fetchImpl);
    render(
      <ConfigContext.Provider value={localConfig}>
        <MemoryRouter>
          <NotificationsProvider>
            <AuthContext.Provider value={makeFakeAuth({ user: testUser, profile: makeProfile({ gmail_connected: true }), api })}>
              <CapacityModal
                campaignId={DRAFT}
                contactIds={trio.map((c) => c.id)}
                {...(followUps ? { followUps } : {})}
                onCancel={() => undefined}
                onConfirm={() => undefined}
              />
            </AuthContext.Provider>
          </NotificationsProvider>
        </MemoryRouter>
      </ConfigContext.Provider>,
    );
    await screen.findByRole('dialog', { name: 'Send Campaign' });
    await waitFor(() => expect(screen.queryByText('Checking sending capacity...')).toBeNull());
    return capacityDialog();
  }

  const notice = (dialog: HTMLElement) => within(dialog).getByTestId('follow-ups-notice');

  it('counts the steps due before the month ends: 3 emails with steps 4 and 9 days later bring up to 6 this month, none waiting', async () => {
    const dialog = await dialogWith(stepsAfter(4, 9));
    expect(notice(dialog)).toHaveTextContent('Up to 6 follow-ups later this month');
    expect(notice(dialog)).not.toHaveTextContent("next month's allowance");
  });

  it("a step falling past the month's end waits for next month's allowance, and says so with the plan's reset day", async () => {
    const dialog = await dialogWith(stepsAfter(4, 12));
    expect(notice(dialog)).toHaveTextContent('Up to 3 follow-ups later this month');
    expect(notice(dialog)).toHaveTextContent("3 more wait for next month's allowance: your plan's limit resets on December 1.");
  });

  it("first emails go first: with 2 emails left this month, both go to first emails and every step waits for next month's", async () => {
    const dialog = await dialogWith(stepsAfter(4, 9), { monthLimit: 50, monthUsed: 48 });
    expect(notice(dialog)).toHaveTextContent('No follow-ups this month');
    expect(notice(dialog)).toHaveTextContent("6 more wait for next month's allowance");
  });

  it('counts on the server’s follow-up day (a 20 s demo day puts every step in the month); an unlimited plan’s later steps just fall due later', async () => {
    expect(notice(await dialogWith(stepsAfter(4, 12), { followUpDaySeconds: 20 }))).toHaveTextContent('Up to 6 follow-ups later this month');
    cleanup();
    const unlimited = notice(await dialogWith(stepsAfter(4, 12), { monthLimit: null }));
    expect(unlimited).toHaveTextContent('Up to 3 follow-ups later this month');
    expect(unlimited).toHaveTextContent('3 more fall due after this month.');
  });

  it('without follow-ups the dialog is as before: no follow-ups notice', async () => {
    const dialog = await dialogWith(undefined);
    expect(within(dialog).getByTestId('capacity-notice')).toBeInTheDocument();
    expect(within(dialog).queryByTestId('follow-ups-notice')).toBeNull();
    cleanup();
    expect(within(await dialogWith(NO_FOLLOW_UPS)).queryByTestId('follow-ups-notice')).toBeNull();
  });
});
