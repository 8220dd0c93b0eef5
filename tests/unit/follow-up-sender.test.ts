/**
 * The sender's rules for a due follow-up step (lambdas/core/followUpSender.ts): first emails go first,
 * the stop rules at the claim, and each reason a step waits — the mailbox gone (until it is connected
 * again), the mailbox's day, the plan's month (until the next month, reason 'follow_up_month'), a
 * paused campaign, the recipient's hours, the pace — in that order.
 */
import { describe, expect, it } from 'vitest';
import { decideFollowUp, FOLLOW_UP_RECHECK_MS, leavesSlotFree, withFollowUp } from '../../lambdas/core/followUpSender';
import { nextPacificMonthStart, STALE_CLAIM_MS } from '../../lambdas/core/sender';
import { nextPacificMidnight } from '../../lambdas/core/sendingWindow';
import type { FollowUpItem, RecipientRecord, SenderFollowUp, SenderView, SendingCampaign } from '../../lambdas/ports';
import { buildContact, buildMailbox, buildProfile, buildRecipient, buildSendingCampaign } from '../fakes/builders';

const INTERVAL = 60_000;
const NOW = new Date('2026-11-24T18:00:00.000Z'); // a Tuesday, 10:00 in Los Angeles
const SLOT = NOW.toISOString();
const tick = { dueAt: SLOT, slot: SLOT };
const iso = (ms: number) => new Date(ms).toISOString();

const campaign = (overrides: Partial<SendingCampaign> = {}): SendingCampaign =>
  buildSendingCampaign({
    id: 'C1',
    status: 'completed',
    sending_status: 'sending',
    follow_ups: { steps: [{ after_days: 4, writer: 'ai', text: null }], condition: 'not_listened' },
    ...overrides,
  });
const contact = buildContact({ id: 'addr-1', name: 'Mara Velvet', email: 'mara@label.test' });
const recipient = (overrides: Partial<RecipientRecord> = {}): RecipientRecord =>
  buildRecipient({ campaign_id: 'C1', user_id: 'u1', contact, status: 'sent', sent_at: iso(NOW.getTime() - 4 * 86_400_000), ...overrides });
const item = (overrides: Partial<FollowUpItem> = {}): FollowUpItem => ({
  campaign_id: 'C1',
  position: 0,
  step: 1,
  due_at: iso(NOW.getTime() - 1000),
  status: 'pending',
  claimed_at: null,
  token: null,
  attempts: 0,
  address_id: 'addr-1',
  track_key: 'track-1',
  ...overrides,
});
const profile = buildProfile({ id: 'u1', gmail_connected: true, tier: 'pro' });
const mailbox = buildMailbox({ email: 'artist@gmail.test', dailyLimit: 500 });

function view(followUp: Partial<SenderFollowUp> = {}, overrides: Partial<SenderView> = {}): SenderView {
  return {
    cursor: { queue: {}, due_at: SLOT, last_slot: iso(NOW.getTime() - 2 * INTERVAL), daily_limit_refusals: 0 },
    profile,
    mailbox,
    sentToday: 0,
    usedThisMonth: 0,
    head: undefined,
    followUp: { item: item(), campaign: campaign(), recipient: recipient(), ...followUp },
    ...overrides,
  };
}
const decideFor = (v: SenderView) => decideFollowUp(v.followUp!, v, tick, NOW, INTERVAL);

describe('a due follow-up step', () => {
  it('goes in this slot when nothing stops or holds it', () => {
    expect(decideFor(view())).toMatchObject({ kind: 'follow_up_send', slot: NOW, nextDueAt: new Date(NOW.getTime() + INTERVAL), dailyLimit: 500 });
  });

  it('is stopped with the first reason that holds, and dropped when its campaign or email is gone', () => {
    expect(decideFor(view({ recipient: recipient({ answer: 'interested', answered_at: SLOT }) }))).toMatchObject({
      kind: 'follow_up_stop',
      reason: 'answered',
    });
    expect(decideFor(view({ passedOnTrack: true, recipient: recipient({ replied_at: SLOT }) }))).toMatchObject({
      kind: 'follow_up_stop',
      reason: 'not_for_us',
    });
    expect(decideFor(view({ unsubscribed: true }))).toMatchObject({ kind: 'follow_up_stop', reason: 'unsubscribed' });
    expect(decideFor(view({ campaign: undefined }))).toEqual({ kind: 'follow_up_drop', item: item() });
    expect(decideFor(view({ recipient: undefined }))).toEqual({ kind: 'follow_up_drop', item: item() });
  });

  it('claimed and never recorded: waits out the stale-claim time, then is unknown (never sent again)', () => {
    const claimedAt = NOW.getTime() - 1000;
    expect(decideFor(view({ item: item({ status: 'sending', claimed_at: iso(claimedAt) }) }))).toEqual({
      kind: 'wait',
      until: new Date(claimedAt + STALE_CLAIM_MS),
      reason: 'follow_up',
    });
    expect(decideFor(view({ item: item({ status: 'sending', claimed_at: iso(NOW.getTime() - STALE_CLAIM_MS) }) }))).toMatchObject({
      kind: 'follow_up_unknown',
    });
  });

  it('waits while the mailbox is gone, and stays a step (neither stopped nor dropped) until it is connected again', () => {
    const decision = decideFor(view({}, { mailbox: undefined }));
    expect(decision).toEqual({ kind: 'wait', until: new Date(NOW.getTime() + FOLLOW_UP_RECHECK_MS), reason: 'follow_up_paused' });
    expect(decideFor(view({}, { profile: undefined }))).toMatchObject({ kind: 'wait', reason: 'follow_up_paused' });
  });

  it('at the mailbox’s daily limit waits for Pacific midnight; past the plan’s month, for the next month', () => {
    expect(decideFor(view({}, { sentToday: 500 }))).toEqual({ kind: 'wait', until: nextPacificMidnight(NOW), reason: 'follow_up' });
    const free = buildProfile({ id: 'u1', gmail_connected: true, tier: 'free' });
    const month = decideFor(view({}, { profile: free, usedThisMonth: 50 }));
    expect(month).toEqual({ kind: 'wait', until: nextPacificMonthStart(NOW), reason: 'follow_up_month' });
    expect(decideFor(view({}, { profile: free, usedThisMonth: 49 }))).toMatchObject({ kind: 'follow_up_send', monthlyLimit: 50 });
  });

  it('of a paused campaign is put back for an hour; outside the recipient’s hours, until they open', () => {
    expect(decideFor(view({ campaign: campaign({ sending_status: 'paused' }) }))).toEqual({
      kind: 'follow_up_delay',
      item: item(),
      until: new Date(NOW.getTime() + FOLLOW_UP_RECHECK_MS),
    });
    // Mon–Fri 9:00–17:00 in Tokyo: Wednesday 03:00 there now, so it waits for 09:00 Tokyo (00:00 UTC).
    const windowed = campaign({ send_window: { days: [1, 2, 3, 4, 5], start_hour: 9, end_hour: 17 } });
    const tokyo = recipient({ contact: { ...contact, time_zone: 'Asia/Tokyo' } });
    expect(decideFor(view({ campaign: windowed, recipient: tokyo }))).toEqual({
      kind: 'follow_up_delay',
      item: item(),
      until: new Date('2026-11-25T00:00:00.000Z'),
    });
  });

  it('keeps the pace: a slot already used waits for the next one', () => {
    const v = view({}, { cursor: { queue: {}, due_at: SLOT, last_slot: SLOT, daily_limit_refusals: 0 } });
    expect(decideFor(v)).toMatchObject({ kind: 'wait', reason: 'follow_up' });
  });
});

describe('withFollowUp: first emails go first', () => {
  it('a first email ready in the slot keeps it; a step takes only a slot left free', () => {
    const send = { kind: 'send' } as unknown as Parameters<typeof withFollowUp>[0];
    expect(withFollowUp(send, view(), tick, NOW, INTERVAL)).toBe(send);
    expect(leavesSlotFree({ kind: 'idle' })).toBe(true);
    expect(withFollowUp({ kind: 'idle' }, view(), tick, NOW, INTERVAL)).toMatchObject({ kind: 'follow_up_send' });
  });

  it('a step not yet due brings an idle cursor’s next tick to its time', () => {
    const dueAt = new Date(NOW.getTime() + 3 * 86_400_000);
    expect(withFollowUp({ kind: 'idle' }, view({ item: item({ due_at: dueAt.toISOString() }) }), tick, NOW, INTERVAL)).toEqual({
      kind: 'wait',
      until: dueAt,
      reason: 'follow_up',
    });
  });
});
