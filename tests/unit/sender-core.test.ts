/**
 * The sender's decisions (lambdas/core/sender.ts): every branch of `decide`, the back-off, the stale
 * claim rule, the Pacific day and month limits (DST included), pacing, the head of a user's queue, the
 * track key, and the email as the mailer gets it.
 */
import { describe, expect, it } from 'vitest';
import {
  backoffMs,
  BATCH_GRACE_MS,
  completesAt,
  dailyLimitRetryAt,
  decide,
  dueShard,
  emailTokenFor,
  headOf,
  heldAtMonthlyLimit,
  MAX_ATTEMPTS,
  messageIdOf,
  nextPacificMonthStart,
  outgoingEmail,
  pitchKey,
  recipientDetails,
  recipientOpensAt,
  STALE_CLAIM_MS,
} from '../../lambdas/core/sender';
import type { RecipientRecord, SenderQueueEntry, SenderView, SendingCampaign } from '../../lambdas/ports';
import { DUE_SHARDS } from '../../schema/table';
import { buildContact, buildMailbox, buildProfile, buildRecipient, buildSendingCampaign } from '../fakes/builders';

const INTERVAL = 60_000;
const NOW = new Date('2026-11-21T18:00:00.000Z');
const TICK = '2026-11-21T17:59:30.000Z';
const minutes = (n: number) => n * 60_000;
const iso = (ms: number) => new Date(ms).toISOString();
/** A tick dispatched for the cursor's due time `dueAt` in the slot `slot` (default: now, on the grid). */
const tickAt = (dueAt: string, slot: string = NOW.toISOString()) => ({ dueAt, slot });

const contact = buildContact({ id: 'addr-1', name: 'Mara Velvet', email: 'mara@label.test', label_name: 'Velvet Records' });

/** Campaign C1 sending three recipients since 17:00, with a link to the track. */
function campaign(overrides: Partial<SendingCampaign> = {}): SendingCampaign {
  return buildSendingCampaign({
    id: 'C1',
    track_name: 'Midnight Drive',
    track_url: 'https://music.test/midnight',
    email_subject: 'Hi [CONTACT_NAME]',
    email_body: 'Listen: https://music.test/midnight',
    total_recipients: 3,
    status: 'sending',
    sending_status: 'sending',
    total_queued: 3,
    started_sending_at: '2026-11-21T17:00:00.000Z',
    send_after: '2026-11-21T17:00:00.000Z',
    queued_through: 3,
    last_batch_at: '2026-11-21T17:00:00.000Z',
    created_at: '2026-11-21T17:00:00.000Z',
    updated_at: '2026-11-21T17:00:00.000Z',
    ...overrides,
  });
}

const recipient = (overrides: Partial<RecipientRecord> = {}): RecipientRecord => buildRecipient({ campaign_id: 'C1', user_id: 'u1', contact, ...overrides });

const mailbox = buildMailbox({ email: 'artist@gmail.test', dailyLimit: 500 });
const profile = buildProfile({ id: 'u1', artist_name: 'DJ Ada', gmail_connected: true, email_limit: 50 });

const entry = (overrides: Partial<SenderQueueEntry> = {}): SenderQueueEntry => ({
  position: 0,
  send_after: '2026-11-21T17:00:00.000Z',
  queued_at: '2026-11-21T17:00:00.000Z',
  ...overrides,
});

function view(overrides: Partial<SenderView> & { camp?: SendingCampaign | undefined; rcpt?: RecipientRecord | undefined; position?: number } = {}): SenderView {
  const { camp = campaign(), rcpt = recipient(), position = 0, ...rest } = overrides;
  const hasCamp = 'camp' in overrides ? overrides.camp : camp;
  const hasRcpt = 'rcpt' in overrides ? overrides.rcpt : rcpt;
  return {
    cursor: { queue: { C1: entry({ position }) }, due_at: TICK, last_slot: iso(NOW.getTime() - minutes(2)), daily_limit_refusals: 0 },
    profile,
    mailbox,
    sentToday: 0,
    usedThisMonth: 0,
    head: { campaignId: 'C1', position, campaign: hasCamp, recipient: hasRcpt },
    ...rest,
  };
}

describe('decide: is the tick current?', () => {
  it('drops a tick when there is no cursor, the cursor is not due, or it is due at another time', () => {
    expect(decide(view({ cursor: undefined }), tickAt(TICK), NOW, INTERVAL)).toEqual({ kind: 'stale' });
    expect(decide(view({ cursor: { queue: {}, due_at: null, last_slot: null, daily_limit_refusals: 0 } }), tickAt(TICK), NOW, INTERVAL)).toEqual({
      kind: 'stale',
    });
    // A duplicate of a tick whose claim already moved the cursor on.
    expect(decide(view(), tickAt('2026-11-21T17:58:30.000Z'), NOW, INTERVAL)).toEqual({ kind: 'stale' });
  });

  it('drops a tick that arrives before the cursor is due', () => {
    const future = iso(NOW.getTime() + 1000);
    expect(
      decide(view({ cursor: { queue: { C1: entry() }, due_at: future, last_slot: null, daily_limit_refusals: 0 } }), tickAt(future), NOW, INTERVAL),
    ).toEqual({ kind: 'stale' });
  });

  it('goes idle when nothing is queued', () => {
    expect(
      decide(view({ cursor: { queue: {}, due_at: TICK, last_slot: null, daily_limit_refusals: 0 }, head: undefined }), tickAt(TICK), NOW, INTERVAL),
    ).toEqual({ kind: 'idle' });
  });

  it('pauses everything when the mailbox (or the profile) is gone', () => {
    expect(decide(view({ mailbox: undefined }), tickAt(TICK), NOW, INTERVAL)).toEqual({ kind: 'pause', reason: 'mailbox_disconnected' });
    expect(decide(view({ profile: undefined }), tickAt(TICK), NOW, INTERVAL)).toEqual({ kind: 'pause', reason: 'mailbox_disconnected' });
  });
});

describe('decide: which campaign, and is it ready?', () => {
  it('waits for the first scheduled campaign when none is due yet', () => {
    const queue = { C1: entry({ send_after: '2026-11-22T08:00:00.000Z' }), C2: entry({ send_after: '2026-11-21T20:00:00.000Z' }) };
    expect(decide(view({ cursor: { queue, due_at: TICK, last_slot: null, daily_limit_refusals: 0 }, head: undefined }), tickAt(TICK), NOW, INTERVAL)).toEqual({
      kind: 'wait',
      until: new Date('2026-11-21T20:00:00.000Z'),
      reason: 'scheduled',
    });
  });

  it('forgets a campaign that no longer exists', () => {
    expect(decide(view({ camp: undefined }), tickAt(TICK), NOW, INTERVAL)).toEqual({ kind: 'forget', campaignId: 'C1' });
  });

  it('waits one interval when the campaign reads paused (pause and the cursor settle together)', () => {
    expect(decide(view({ camp: campaign({ sending_status: 'paused' }) }), tickAt(TICK), NOW, INTERVAL)).toEqual({
      kind: 'wait',
      until: new Date(NOW.getTime() + INTERVAL),
      reason: 'settling',
    });
  });

  it('completes a campaign whose every position is processed and every batch is in', () => {
    expect(decide(view({ position: 3, rcpt: undefined }), tickAt(TICK), NOW, INTERVAL)).toEqual({ kind: 'complete', campaignId: 'C1' });
    // Nothing eligible at all (every selected contact skipped at queueing).
    expect(decide(view({ position: 0, camp: campaign({ total_queued: 0 }), rcpt: undefined }), tickAt(TICK), NOW, INTERVAL)).toEqual({
      kind: 'complete',
      campaignId: 'C1',
    });
  });

  it('waits for the send flow while batches are still coming, and gives up on them after the grace time', () => {
    const waiting = campaign({ total_recipients: 250, queued_through: 100, total_queued: 3, last_batch_at: iso(NOW.getTime() - minutes(1)) });
    expect(decide(view({ position: 3, camp: waiting, rcpt: undefined }), tickAt(TICK), NOW, INTERVAL)).toEqual({
      kind: 'wait',
      until: new Date(NOW.getTime() + INTERVAL),
      reason: 'batches',
    });
    const abandoned = { ...waiting, last_batch_at: iso(NOW.getTime() - BATCH_GRACE_MS) };
    expect(decide(view({ position: 3, camp: abandoned, rcpt: undefined }), tickAt(TICK), NOW, INTERVAL)).toEqual({ kind: 'complete', campaignId: 'C1' });
  });
});

describe('decide: the head recipient', () => {
  it('moves past a position that is already final or missing, without counting it again', () => {
    for (const status of ['sent', 'failed', 'skipped', 'unknown'] as const) {
      expect(decide(view({ rcpt: recipient({ status }) }), tickAt(TICK), NOW, INTERVAL)).toEqual({
        kind: 'advance',
        head: { campaignId: 'C1', position: 0 },
        completes: false,
      });
    }
    expect(decide(view({ position: 2, rcpt: undefined }), tickAt(TICK), NOW, INTERVAL)).toEqual({
      kind: 'advance',
      head: { campaignId: 'C1', position: 2 },
      completes: true,
    });
  });

  it('records a claim older than the stale time as unknown (never retried) and waits for a younger one', () => {
    const claimedAt = (ago: number) => recipient({ status: 'sending', claimed_at: iso(NOW.getTime() - ago), token: 't' });
    const unknown = decide(view({ rcpt: claimedAt(STALE_CLAIM_MS) }), tickAt(TICK), NOW, INTERVAL);
    expect(unknown).toMatchObject({ kind: 'advance', head: { campaignId: 'C1', position: 0 }, mark: { status: 'unknown', from: 'sending' } });
    expect(decide(view({ rcpt: claimedAt(minutes(1)) }), tickAt(TICK), NOW, INTERVAL)).toEqual({
      kind: 'wait',
      until: new Date(NOW.getTime() - minutes(1) + STALE_CLAIM_MS),
      reason: 'in_flight',
    });
    // A claim without a time can only be unknown.
    expect(decide(view({ rcpt: recipient({ status: 'sending', claimed_at: null }) }), tickAt(TICK), NOW, INTERVAL)).toMatchObject({
      kind: 'advance',
      mark: { status: 'unknown' },
    });
  });

  it('waits for a retry time in the future and sends once it has come', () => {
    const later = iso(NOW.getTime() + minutes(4));
    expect(decide(view({ rcpt: recipient({ retry_at: later, attempts: 3 }) }), tickAt(TICK), NOW, INTERVAL)).toEqual({
      kind: 'wait',
      until: new Date(later),
      reason: 'retry',
    });
    expect(decide(view({ rcpt: recipient({ retry_at: iso(NOW.getTime()), attempts: 3 }) }), tickAt(TICK), NOW, INTERVAL)).toMatchObject({ kind: 'send' });
  });

  it('sends with the limits of the profile: the mailbox daily limit and the plan monthly limit', () => {
    const decision = decide(view(), tickAt(TICK), NOW, INTERVAL);
    expect(decision).toMatchObject({ kind: 'send', completes: false, dailyLimit: 500, monthlyLimit: 50 });
    if (decision.kind === 'send') expect(decision.recipient.position).toBe(0);
    expect(decide(view({ position: 2, rcpt: recipient({ position: 2 }) }), tickAt(TICK), NOW, INTERVAL)).toMatchObject({ kind: 'send', completes: true });
  });
});

describe('decide: limits and pacing', () => {
  it('waits for the next Pacific midnight when today is used up', () => {
    expect(decide(view({ sentToday: 500 }), tickAt(TICK), NOW, INTERVAL)).toEqual({
      kind: 'wait',
      until: new Date('2026-11-22T08:00:00.000Z'),
      reason: 'daily_limit',
    });
    expect(decide(view({ sentToday: 499 }), tickAt(TICK), NOW, INTERVAL)).toMatchObject({ kind: 'send' });
  });

  it.each([
    // The fall-back day (1 November 2026, 25 hours): the next midnight is PST.
    ['2026-11-01T20:00:00.000Z', '2026-11-02T08:00:00.000Z'],
    // The day before it: that midnight is still PDT.
    ['2026-10-31T20:00:00.000Z', '2026-11-01T07:00:00.000Z'],
    // The spring-forward day (8 March 2026): after 02:00 the next midnight is PDT.
    ['2026-03-08T12:00:00.000Z', '2026-03-09T07:00:00.000Z'],
  ])('at %s a used-up day waits until %s (DST-correct)', (now, midnight) => {
    const at = new Date(now);
    const tick = iso(at.getTime() - 1000);
    const v = view({ sentToday: 500, cursor: { queue: { C1: entry() }, due_at: tick, last_slot: null, daily_limit_refusals: 0 } });
    expect(decide(v, tickAt(tick), at, INTERVAL)).toEqual({ kind: 'wait', until: new Date(midnight), reason: 'daily_limit' });
  });

  it('waits until one interval after the last claim, and not a moment longer', () => {
    const last = NOW.getTime() - 20_000;
    const paced = view({ cursor: { queue: { C1: entry() }, due_at: TICK, last_slot: iso(last), daily_limit_refusals: 0 } });
    expect(decide(paced, tickAt(TICK), NOW, INTERVAL)).toEqual({ kind: 'wait', until: new Date(last + INTERVAL), reason: 'pacing' });
    const exactly = view({ cursor: { queue: { C1: entry() }, due_at: TICK, last_slot: iso(NOW.getTime() - INTERVAL), daily_limit_refusals: 0 } });
    expect(decide(exactly, tickAt(TICK), NOW, INTERVAL)).toMatchObject({ kind: 'send' });
    // A faster interval (SEND_INTERVAL_SECONDS for a demo) paces by that.
    expect(decide(paced, tickAt(TICK), NOW, 10_000)).toMatchObject({ kind: 'send' });
  });
});

describe('decide: the plan’s monthly limit, read from the tier at send time', () => {
  const onPlan = (tier: 'free' | 'pro' | 'label') => ({ ...profile, tier });
  // 18:00Z on 21 November: the next Pacific month starts at 08:00Z on 1 December (PST).
  const monthStart = new Date('2026-12-01T08:00:00.000Z');
  const held = campaign({ sending_status: 'paused', pause_reason: 'monthly_limit', resume_position: 0 });

  it.each([
    ['free', 49, 50],
    ['pro', 50, 500],
    ['pro', 499, 500],
  ] as const)('%s with %i used this month sends, held to the plan’s %i', (tier, used, limit) => {
    expect(decide(view({ usedThisMonth: used, profile: onPlan(tier) }), tickAt(TICK), NOW, INTERVAL)).toMatchObject({ kind: 'send', monthlyLimit: limit });
  });

  it.each([
    ['free', 50],
    ['pro', 500],
  ] as const)('%s with %i used holds every campaign at the limit until the next Pacific month', (tier, used) => {
    expect(decide(view({ usedThisMonth: used, profile: onPlan(tier) }), tickAt(TICK), NOW, INTERVAL)).toEqual({ kind: 'hold', until: monthStart });
  });

  it('the tier decides, not the stored email_limit (a copy the webhook keeps in step)', () => {
    expect(decide(view({ usedThisMonth: 60, profile: { ...onPlan('pro'), email_limit: 50 } }), tickAt(TICK), NOW, INTERVAL)).toMatchObject({
      kind: 'send',
      monthlyLimit: 500,
    });
    expect(decide(view({ usedThisMonth: 50, profile: { ...onPlan('free'), email_limit: 500 } }), tickAt(TICK), NOW, INTERVAL)).toMatchObject({ kind: 'hold' });
  });

  it('a downgrade to Free with more than 50 already sent this month holds the queued campaign at once', () => {
    expect(decide(view({ usedThisMonth: 120, profile: onPlan('free') }), tickAt(TICK), NOW, INTERVAL)).toEqual({ kind: 'hold', until: monthStart });
  });

  it('the Label plan has no monthly cap, but its mailbox’s daily limit still applies', () => {
    expect(decide(view({ usedThisMonth: 100_000, profile: onPlan('label') }), tickAt(TICK), NOW, INTERVAL)).toMatchObject({ kind: 'send', monthlyLimit: null });
    expect(decide(view({ usedThisMonth: 100_000, sentToday: 500, profile: onPlan('label') }), tickAt(TICK), NOW, INTERVAL)).toEqual({
      kind: 'wait',
      until: new Date('2026-11-22T08:00:00.000Z'),
      reason: 'daily_limit',
    });
  });

  it('the hold lasts until the first instant of the next Pacific month, not UTC’s', () => {
    // 23:55 on 30 November in Los Angeles (PST) is already December in UTC: the month resets at 08:00Z.
    const lateNow = new Date('2026-12-01T07:55:00.000Z');
    const tick = iso(lateNow.getTime() - 1000);
    const v = view({ usedThisMonth: 50, cursor: { queue: { C1: entry() }, due_at: tick, last_slot: null, daily_limit_refusals: 0 } });
    expect(decide(v, tickAt(tick), lateNow, INTERVAL)).toEqual({ kind: 'hold', until: monthStart });
  });

  it('a held campaign at the head while the month is still used up holds again, so the cursor’s other campaigns pause too', () => {
    // A campaign queued after the hold (scheduled, so never capacity-checked) is still sending behind it:
    // a plain wait would leave it sending, without a pause reason, until the month turns.
    const v = view({ camp: held, usedThisMonth: 50, cursor: { queue: { C1: entry(), C2: entry() }, due_at: TICK, last_slot: null, daily_limit_refusals: 0 } });
    expect(decide(v, tickAt(TICK), NOW, INTERVAL)).toEqual({ kind: 'hold', until: monthStart });
    expect(decide(view({ camp: held, usedThisMonth: 120 }), tickAt(TICK), NOW, INTERVAL)).toEqual({ kind: 'hold', until: monthStart });
  });

  it('a held campaign is released once the plan allows: after an upgrade, or in a new Pacific month (its counter starts at 0)', () => {
    expect(decide(view({ camp: held, usedThisMonth: 50, profile: onPlan('pro') }), tickAt(TICK), NOW, INTERVAL)).toEqual({ kind: 'release' });
    expect(decide(view({ camp: held, usedThisMonth: 50, profile: onPlan('label') }), tickAt(TICK), NOW, INTERVAL)).toEqual({ kind: 'release' });
    expect(decide(view({ camp: held, usedThisMonth: 0 }), tickAt(TICK), NOW, INTERVAL)).toEqual({ kind: 'release' });
  });

  it('only a hold is released by the sender: a campaign the artist paused stays paused', () => {
    const byArtist = campaign({ sending_status: 'paused', pause_reason: 'user' });
    expect(decide(view({ camp: byArtist, usedThisMonth: 0 }), tickAt(TICK), NOW, INTERVAL)).toMatchObject({ kind: 'wait', reason: 'settling' });
    expect(heldAtMonthlyLimit(byArtist)).toBe(false);
    expect(heldAtMonthlyLimit(held)).toBe(true);
  });
});

describe('the Pacific month rollover', () => {
  it.each([
    ['2026-01-31T10:00:00.000Z', '2026-02-01T08:00:00.000Z'],
    // The last hours of 31 October in Los Angeles are 1 November in UTC; the month starts in PDT.
    ['2026-11-01T05:00:00.000Z', '2026-11-01T07:00:00.000Z'],
    // Early on 1 November (PDT) the next month start is 1 December (PST).
    ['2026-11-01T07:00:00.000Z', '2026-12-01T08:00:00.000Z'],
    ['2026-12-31T23:00:00.000Z', '2027-01-01T08:00:00.000Z'],
    // Spring: March starts in PST, April in PDT.
    ['2026-03-15T12:00:00.000Z', '2026-04-01T07:00:00.000Z'],
  ])('after %s the next month starts at %s', (now, start) => {
    expect(nextPacificMonthStart(new Date(now)).toISOString()).toBe(start);
  });
});

describe('back-off', () => {
  it('waits 1, 2, 4, 8 and 16 minutes after the 1st to 5th failure', () => {
    expect([1, 2, 3, 4, 5].map(backoffMs)).toEqual([1, 2, 4, 8, 16].map(minutes));
    expect(backoffMs(9)).toBe(minutes(16));
    expect(backoffMs(0)).toBe(minutes(1));
    expect(MAX_ATTEMPTS).toBe(5);
  });
});

describe('decide: the pace, counted in slots', () => {
  const slot = '2026-11-21T18:01:00.000Z';
  const cursorAt = (lastSlot: string | null) => ({ queue: { C1: entry() }, due_at: TICK, last_slot: lastSlot, daily_limit_refusals: 0 });

  it('sends in the slot one interval after the last claim’s slot, however late that claim ran, and makes the next slot due', () => {
    // The last claim was in the 18:00 slot (it ran at 18:00:04.8); the 18:01 slot may send at 18:01:00.2.
    const now = new Date('2026-11-21T18:01:00.200Z');
    const decision = decide(view({ cursor: cursorAt('2026-11-21T18:00:00.000Z') }), tickAt(TICK, slot), now, INTERVAL);
    expect(decision).toMatchObject({ kind: 'send', slot: new Date(slot), nextDueAt: new Date('2026-11-21T18:02:00.000Z') });
  });

  it('never sends twice in one slot', () => {
    const decision = decide(view({ cursor: cursorAt(slot) }), tickAt(TICK, slot), new Date('2026-11-21T18:01:30.000Z'), INTERVAL);
    expect(decision).toEqual({ kind: 'wait', until: new Date('2026-11-21T18:02:00.000Z'), reason: 'pacing' });
  });
});

describe('decide: a recipient that must wait waits alone', () => {
  const later = iso(NOW.getTime() + minutes(4));
  const earlier = iso(NOW.getTime() - minutes(1));

  it('takes a waiting recipient whose time has come before the next position', () => {
    const queue = { C1: entry({ position: 2, waiting: { 0: earlier, 1: later } }) };
    expect(headOf(queue, NOW)).toEqual({ campaignId: 'C1', position: 0, waited: true });
    expect(headOf({ C1: entry({ position: 2, waiting: { 1: later } }) }, NOW)).toEqual({ campaignId: 'C1', position: 2 });
  });

  it('takes the waiting recipient due first, then the lower position', () => {
    const queue = { C1: entry({ position: 9, waiting: { 5: earlier, 3: earlier, 1: iso(NOW.getTime() - minutes(0.5)) } }) };
    expect(headOf(queue, NOW)).toEqual({ campaignId: 'C1', position: 3, waited: true });
  });

  it('sends a waiting recipient whose time has come', () => {
    const v = view({
      cursor: { queue: { C1: entry({ position: 3, waiting: { 1: earlier } }) }, due_at: TICK, last_slot: null, daily_limit_refusals: 0 },
      head: { campaignId: 'C1', position: 1, waited: true, campaign: campaign(), recipient: recipient({ position: 1, attempts: 1, retry_at: earlier }) },
    });
    expect(decide(v, tickAt(TICK), NOW, INTERVAL)).toMatchObject({ kind: 'send', head: { campaignId: 'C1', position: 1, waited: true }, completes: true });
  });

  it('steps the campaign aside until its first waiting recipient is ready when only waiting ones are left', () => {
    const v = view({
      cursor: {
        queue: { C1: entry({ position: 3, waiting: { 1: later, 0: iso(NOW.getTime() + minutes(8)) } }) },
        due_at: TICK,
        last_slot: null,
        daily_limit_refusals: 0,
      },
      position: 3,
      rcpt: undefined,
    });
    expect(decide(v, tickAt(TICK), NOW, INTERVAL)).toEqual({ kind: 'defer', campaignId: 'C1', until: new Date(later) });
  });
});

describe("decide: the recipient's working hours (issue 27 §2)", () => {
  const everyDay = { days: [1, 2, 3, 4, 5, 6, 7], start_hour: 9, end_hour: 17 };
  const weekdays = { days: [1, 2, 3, 4, 5], start_hour: 9, end_hour: 17 };
  /** The head recipient (position 0) living in `zone`, of a campaign sent in `window`. */
  const viewIn = (zone: string | null, window: SendingCampaign['send_window'], extra: Partial<SenderView> = {}) =>
    view({ camp: campaign({ send_window: window }), rcpt: recipient({ contact: { ...contact, time_zone: zone } }), ...extra });

  it('any time (no window): sends whatever the hour on the recipient’s clock', () => {
    // 18:00 UTC is 03:00 on Sunday in Tokyo.
    expect(decide(viewIn('Asia/Tokyo', null), tickAt(TICK), NOW, INTERVAL)).toMatchObject({ kind: 'send', warning: null });
  });

  it('inside the window on the recipient’s clock: sends (New York, Saturday 13:00)', () => {
    expect(decide(viewIn('America/New_York', everyDay), tickAt(TICK), NOW, INTERVAL)).toMatchObject({ kind: 'send', head: { position: 0 } });
  });

  it('a zone 13 h ahead (Tonga, Sunday 07:00): waits alone until its window opens, Monday 09:00 there, and the slot is not taken', () => {
    expect(decide(viewIn('Pacific/Tongatapu', everyDay), tickAt(TICK), NOW, INTERVAL)).toEqual({
      kind: 'postpone',
      head: { campaignId: 'C1', position: 0 },
      // Sunday 09:00 in Tonga (UTC+13) is 20:00 UTC on Saturday.
      until: new Date('2026-11-21T20:00:00.000Z'),
      hasWaiting: false,
      warning: null,
    });
    // Weekdays only: Monday 09:00 in Tonga is Sunday 20:00 UTC.
    expect(decide(viewIn('Pacific/Tongatapu', weekdays), tickAt(TICK), NOW, INTERVAL)).toMatchObject({
      kind: 'postpone',
      until: new Date('2026-11-22T20:00:00.000Z'),
    });
  });

  it('a window spanning a DST change: Berlin on the night the clocks go back opens at 09:00 CET (08:00 UTC), not 07:00 UTC', () => {
    /** The head in `zone` decided at `at` (the cursor due then). */
    const decideAt = (zone: string, at: Date) =>
      decide(
        viewIn(zone, everyDay, { cursor: { queue: { C1: entry() }, due_at: at.toISOString(), last_slot: null, daily_limit_refusals: 0 } }),
        tickAt(at.toISOString(), at.toISOString()),
        at,
        INTERVAL,
      );
    // Saturday 18:00 CEST.
    expect(decideAt('Europe/Berlin', new Date('2026-10-24T16:00:00.000Z'))).toMatchObject({ kind: 'postpone', until: new Date('2026-10-25T08:00:00.000Z') });
    // New York springs forward on 8 March 2026: Sunday 09:00 EDT is 13:00 UTC (14:00 UTC the day before, EST).
    expect(decideAt('America/New_York', new Date('2026-03-08T02:00:00.000Z'))).toMatchObject({ kind: 'postpone', until: new Date('2026-03-08T13:00:00.000Z') });
  });

  it('the end hour is excluded: at 17:00 sharp the recipient waits for the next window', () => {
    // 18:00 UTC is 17:00 in Lagos (UTC+1, no DST).
    expect(decide(viewIn('Africa/Lagos', everyDay), tickAt(TICK), NOW, INTERVAL)).toMatchObject({
      kind: 'postpone',
      until: new Date('2026-11-22T08:00:00.000Z'),
    });
  });

  it("a recipient without a zone is read on the artist's clock (the profile's zone), else UTC", () => {
    const tokyoArtist = { profile: { ...profile, time_zone: 'Asia/Tokyo' } };
    expect(decide(viewIn(null, everyDay, tokyoArtist), tickAt(TICK), NOW, INTERVAL)).toMatchObject({
      kind: 'postpone',
      until: new Date('2026-11-22T00:00:00.000Z'),
      warning: null,
    });
    // No zone anywhere: UTC, where 18:00 is past 17:00.
    expect(decide(viewIn(null, everyDay), tickAt(TICK), NOW, INTERVAL)).toMatchObject({ kind: 'postpone', until: new Date('2026-11-22T09:00:00.000Z') });
  });

  it("an unknown zone falls back to the artist's with a warning, never an error", () => {
    const newYorkArtist = { profile: { ...profile, time_zone: 'America/New_York' } };
    expect(decide(viewIn('Mars/Olympus_Mons', everyDay, newYorkArtist), tickAt(TICK), NOW, INTERVAL)).toMatchObject({
      kind: 'send',
      warning: 'Unknown time zone "Mars/Olympus_Mons": using America/New_York.',
    });
    const tokyoArtist = { profile: { ...profile, time_zone: 'Asia/Tokyo' } };
    expect(decide(viewIn('Mars/Olympus_Mons', everyDay, tokyoArtist), tickAt(TICK), NOW, INTERVAL)).toMatchObject({
      kind: 'postpone',
      warning: 'Unknown time zone "Mars/Olympus_Mons": using Asia/Tokyo.',
    });
  });

  it('a waiting recipient whose time came is read against its window again; the entry’s waiting map is joined, not replaced', () => {
    const earlier = iso(NOW.getTime() - minutes(1));
    const cursor = { queue: { C1: entry({ position: 3, waiting: { 1: earlier } }) }, due_at: TICK, last_slot: null, daily_limit_refusals: 0 };
    const waited = (zone: string) => ({
      cursor,
      head: {
        campaignId: 'C1',
        position: 1,
        waited: true,
        campaign: campaign({ send_window: everyDay }),
        recipient: recipient({ position: 1, retry_at: earlier, contact: { ...contact, time_zone: zone } }),
      },
    });
    expect(decide(view(waited('Asia/Tokyo')), tickAt(TICK), NOW, INTERVAL)).toMatchObject({
      kind: 'postpone',
      head: { position: 1, waited: true },
      hasWaiting: true,
    });
    expect(decide(view(waited('America/Chicago')), tickAt(TICK), NOW, INTERVAL)).toMatchObject({ kind: 'send', head: { position: 1, waited: true } });
  });

  it('recipientOpensAt: now inside the window or without one, else the next opening; the reason is named for the queue', () => {
    const tokyo = { contact: { ...contact, time_zone: 'Asia/Tokyo' } };
    expect(recipientOpensAt({ send_window: null }, tokyo, { time_zone: null }, NOW)).toEqual({ at: NOW, zone: null, warning: null });
    expect(recipientOpensAt({ send_window: everyDay }, tokyo, { time_zone: null }, NOW)).toEqual({
      at: new Date('2026-11-22T00:00:00.000Z'),
      zone: 'Asia/Tokyo',
      warning: null,
    });
    expect(recipientDetails.outsideWindow).toBe('Outside working hours');
  });
});

describe('dailyLimitRetryAt: Gmail’s rolling 24 hours', () => {
  it('tries again in an hour, then backs off to 2, 4, 8, 16 and at most 24 hours', () => {
    const hours = [0, 1, 2, 3, 4, 5, 9].map((refusals) => (dailyLimitRetryAt(NOW, refusals).getTime() - NOW.getTime()) / 3_600_000);
    expect(hours).toEqual([1, 2, 4, 8, 16, 24, 24]);
  });
});

describe('headOf: a user’s campaigns in the order queued', () => {
  it('takes the earliest queued campaign that is due; a scheduled one does not block it', () => {
    const queue = {
      late: entry({ queued_at: '2026-11-21T17:30:00.000Z', position: 4 }),
      scheduled: entry({ queued_at: '2026-11-21T16:00:00.000Z', send_after: '2026-11-22T08:00:00.000Z' }),
      early: entry({ queued_at: '2026-11-21T17:10:00.000Z', position: 7 }),
    };
    expect(headOf(queue, NOW)).toEqual({ campaignId: 'early', position: 7 });
    expect(headOf(queue, new Date('2026-11-22T08:00:00.000Z'))).toEqual({ campaignId: 'scheduled', position: 0 });
    expect(headOf({ scheduled: queue.scheduled }, NOW)).toBeUndefined();
    expect(headOf({}, NOW)).toBeUndefined();
  });

  it('breaks a tie of queue times by campaign id (stable)', () => {
    expect(headOf({ B: entry(), A: entry() }, NOW)?.campaignId).toBe('A');
  });
});

describe('pitchKey: the "already sent this track" key', () => {
  it('is the same for the same link whatever its case and spaces, and 22 base64url characters', () => {
    const key = pitchKey({ track_url: 'https://Music.test/Midnight', track_name: 'A' });
    expect(key).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(pitchKey({ track_url: '  https://music.test/midnight ', track_name: 'B' })).toBe(key);
    expect(pitchKey({ track_url: 'https://music.test/other', track_name: 'A' })).not.toBe(key);
  });

  it('uses the track name when there is no link, never colliding with a link', () => {
    const byName = pitchKey({ track_url: null, track_name: ' Midnight Drive ' });
    expect(pitchKey({ track_url: '', track_name: 'midnight drive' })).toBe(byName);
    expect(pitchKey({ track_url: 'midnight drive', track_name: 'x' })).not.toBe(byName);
  });
});

describe('small rules', () => {
  it('spreads users over the DUE shards, the same shard every time', () => {
    const shards = Array.from({ length: 200 }, (_, i) => dueShard(`user-${i}`));
    expect(new Set(shards)).toEqual(new Set(Array.from({ length: DUE_SHARDS }, (_, i) => i)));
    expect(dueShard('user-7')).toBe(dueShard('user-7'));
  });

  it('completes at the last position only when every batch is in and no other recipient waits', () => {
    const all = { queued_through: 3, total_recipients: 3, total_queued: 3 };
    expect(completesAt(all, entry({ position: 2 }), { position: 2 })).toBe(true);
    expect(completesAt(all, entry({ position: 1 }), { position: 1 })).toBe(false);
    expect(completesAt({ queued_through: 100, total_recipients: 150, total_queued: 100 }, entry({ position: 99 }), { position: 99 })).toBe(false);
    // Position 0 still waits: the last position does not finish the campaign.
    expect(completesAt(all, entry({ position: 2, waiting: { 0: NOW.toISOString() } }), { position: 2 })).toBe(false);
    // The last waiting recipient, with every position processed, does.
    expect(completesAt(all, entry({ position: 3, waiting: { 0: NOW.toISOString() } }), { position: 0, waited: true })).toBe(true);
    expect(completesAt(all, entry({ position: 3, waiting: { 0: NOW.toISOString(), 1: NOW.toISOString() } }), { position: 0, waited: true })).toBe(false);
    // A waiting recipient taken while the campaign still has positions ahead.
    expect(completesAt(all, entry({ position: 2, waiting: { 0: NOW.toISOString() } }), { position: 0, waited: true })).toBe(false);
  });

  it('makes a Message-ID from the campaign, the position and the token', () => {
    expect(messageIdOf('C1', 12, 'abcdefghijklmnop')).toBe('<C1.12.abcdefgh@trackpitch>');
  });
});

describe('outgoingEmail', () => {
  it('sends from the artist name and the mailbox, with tracked links, the pixel and the one-click unsubscribe URL', () => {
    const token = 'T'.repeat(43);
    const rendered = {
      subject: 'Hi Mara',
      html: `<html><body><a href="https://music.test/midnight">Listen</a> <a href="https://app.test/unsubscribe?token=${token}">Unsubscribe</a></body></html>`,
      text: 'Listen: https://music.test/midnight',
    };
    const { email, links } = outgoingEmail({
      userId: 'u1',
      campaign: campaign(),
      recipient: recipient({ position: 1 }),
      profile,
      mailbox,
      rendered,
      token,
      appUrl: 'https://app.test',
    });
    const item = { ...emailTokenFor({ userId: 'u1', campaign: campaign(), recipient: recipient({ position: 1 }), profile, token, now: NOW }), links };
    expect(email.from).toEqual({ name: 'DJ Ada', email: 'artist@gmail.test' });
    expect(email.to).toEqual({ name: 'Mara Velvet', email: 'mara@label.test' });
    expect(email.subject).toBe('Hi Mara');
    expect(email.text).toBe(rendered.text);
    expect(email.html).toContain(`href="https://app.test/api/t/c/${token}/0"`);
    expect(email.html).toContain(`href="https://app.test/unsubscribe?token=${token}"`);
    expect(email.html).toContain(`<img src="https://app.test/api/t/o/${token}" width="1" height="1" alt="" style="display:none">`);
    expect(email.listUnsubscribeUrl).toBe(`https://app.test/api/unsubscribe/one-click?token=${token}`);
    expect(email.messageId).toBe(`<C1.1.TTTTTTTT@trackpitch>`);
    expect(email.meta).toEqual({ userId: 'u1', campaignId: 'C1', position: 1 });
    expect(item).toEqual({
      token,
      user_id: 'u1',
      campaign_id: 'C1',
      position: 1,
      contact_id: 'addr-1',
      contact_email: 'mara@label.test',
      contact_name: 'Mara Velvet',
      artist_name: 'DJ Ada',
      track_name: 'Midnight Drive',
      links: ['https://music.test/midnight'],
      created_at: NOW.toISOString(),
    });
    expect(email.replyTo).toBeUndefined();
  });

  it('a reply to the first email goes in its thread, under "Re: <first subject>", answering its Message-ID', () => {
    const { email } = outgoingEmail({
      userId: 'u1',
      campaign: campaign(),
      recipient: recipient({ position: 1 }),
      profile,
      mailbox,
      rendered: { subject: 'A nudge', html: '<p>Just checking in</p>', text: 'Just checking in' },
      token: 'U'.repeat(43),
      appUrl: 'https://app.test',
      replyingTo: { thread: { threadId: '18c2f0a9d1e2b3c4', inReplyTo: '<C1.1.TTTTTTTT@trackpitch>' }, subject: 'Hi Mara' },
    });
    expect(email.subject).toBe('Re: Hi Mara');
    expect(email.replyTo).toEqual({ threadId: '18c2f0a9d1e2b3c4', inReplyTo: '<C1.1.TTTTTTTT@trackpitch>' });
    // The step is an email of its own: its own Message-ID.
    expect(email.messageId).toBe('<C1.1.UUUUUUUU@trackpitch>');
  });
});
