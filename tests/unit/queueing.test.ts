/**
 * The send flow's pure rules (lambdas/core/queueing.ts): who of a selection is queued, when the first
 * email may go in each send mode, the plan's and the mailbox's limits, and the sending status.
 */
import { describe, expect, it } from 'vitest';
import { campaignSummarySchema, type Campaign } from '../../schema/api/campaigns';
import { sendingMessages, sendingStatusSchema } from '../../schema/api/sending';
import {
  allUnsubscribed,
  campaignSummary,
  capacityOf,
  eligibilityOf,
  sendingStatus,
  sendStart,
  sortSelection,
  type SelectionFacts,
  type Usage,
} from '../../lambdas/core/queueing';
import { newDraftCampaign } from '../../lambdas/core/campaign';

const at = (iso: string) => new Date(iso);
const facts = (over: Partial<SelectionFacts> = {}): SelectionFacts => ({
  unsubscribed: new Set(),
  contacts: new Set(['a', 'b', 'c', 'd']),
  pitched: new Set(),
  sendAgain: false,
  ...over,
});
const usage = (sentToday: number, usedThisMonth: number, nextSendAt: string | null = null): Usage => ({ sentToday, usedThisMonth, nextSendAt });
const freeProfile = { tier: 'free' as const, gmail_daily_limit: 500 };

describe('who of the selection is queued', () => {
  // Every combination of the three facts and the 'send again' box.
  const cases: [unsubscribed: boolean, contact: boolean, pitched: boolean, sendAgain: boolean, expected: string][] = [];
  for (const unsubscribed of [false, true])
    for (const contact of [false, true])
      for (const pitched of [false, true])
        for (const sendAgain of [false, true]) {
          const expected = unsubscribed ? 'unsubscribed' : !contact ? 'unknown' : pitched && !sendAgain ? 'already_sent' : 'eligible';
          cases.push([unsubscribed, contact, pitched, sendAgain, expected]);
        }

  it.each(cases)('unsubscribed %s, a contact %s, already pitched %s, send again %s → %s', (unsubscribed, contact, pitched, sendAgain, expected) => {
    const id = 'x';
    const result = eligibilityOf(id, {
      unsubscribed: new Set(unsubscribed ? [id] : []),
      contacts: new Set(contact ? [id] : []),
      pitched: new Set(pitched ? [id] : []),
      sendAgain,
    });
    expect(result).toBe(expected);
  });

  it('an unsubscribed address is never queued, even with send again ticked', () => {
    expect(eligibilityOf('a', facts({ unsubscribed: new Set(['a']), pitched: new Set(['a']), sendAgain: true }))).toBe('unsubscribed');
  });

  it('an address sent again one by one (the artist insisted on one who passed) is queued, and only it; never when unsubscribed', () => {
    const one = facts({ pitched: new Set(['a', 'b']), sendAgainIds: new Set(['a']) });
    expect(sortSelection(['a', 'b'], one)).toEqual({ eligible: ['a'], unsubscribed: 0, unknown: 0, alreadySent: 1 });
    expect(eligibilityOf('a', facts({ unsubscribed: new Set(['a']), pitched: new Set(['a']), sendAgainIds: new Set(['a']) }))).toBe('unsubscribed');
  });

  it('keeps the selection’s order, counts each skip by its reason, and counts an id selected twice once', () => {
    const sorted = sortSelection(['d', 'a', 'gone', 'b', 'd', 'c'], facts({ unsubscribed: new Set(['a']), pitched: new Set(['c']) }));
    expect(sorted).toEqual({ eligible: ['d', 'b'], unsubscribed: 1, unknown: 1, alreadySent: 1 });
    expect(sortSelection(['c', 'b'], facts({ pitched: new Set(['c']), sendAgain: true })).eligible).toEqual(['c', 'b']);
  });

  it('“all selected contacts have unsubscribed” only when every one of them has', () => {
    const unsubscribed = new Set(['a', 'b']);
    expect(allUnsubscribed(sortSelection(['a', 'b'], facts({ unsubscribed })))).toBe(true);
    expect(allUnsubscribed(sortSelection(['a', 'b', 'c'], facts({ unsubscribed })))).toBe(false);
    expect(allUnsubscribed(sortSelection(['a', 'c'], facts({ unsubscribed, pitched: new Set(['c']) })))).toBe(false);
    expect(allUnsubscribed(sortSelection(['a', 'gone'], facts({ unsubscribed })))).toBe(false);
  });
});

describe('limits', () => {
  it('capacity is the smaller of the mailbox’s day (its own daily limit) and the plan’s month (the tier’s: Free 50, Pro 500)', () => {
    expect(capacityOf({ tier: 'free', gmail_daily_limit: 500 }, usage(0, 45), 5)).toMatchObject({ availableNow: 5, scenario: 'sufficient' });
    expect(capacityOf({ tier: 'free', gmail_daily_limit: 500 }, usage(0, 45), 6)).toMatchObject({ availableNow: 5, scenario: 'partial' });
    expect(capacityOf({ tier: 'pro', gmail_daily_limit: 2000 }, usage(1999, 0), 2)).toMatchObject({ availableNow: 1, scenario: 'partial' });
    expect(capacityOf({ tier: 'pro', gmail_daily_limit: 2000 }, usage(0, 450), 60)).toMatchObject({
      monthRemaining: 50,
      availableNow: 50,
      scenario: 'partial',
    });
    expect(capacityOf({ tier: 'label', gmail_daily_limit: 500 }, usage(0, 10_000), 500)).toMatchObject({
      monthRemaining: null,
      availableNow: 500,
      scenario: 'sufficient',
    });
  });
});

describe('when the first email may go (spec §4 send modes)', () => {
  const now = at('2026-11-22T18:00:00Z'); // 10:00 in Los Angeles
  const reset = at('2026-11-23T08:00:00Z');
  const profile = { tier: 'pro' as const, gmail_daily_limit: 500 };

  it('immediate: now when today’s capacity covers every email, exactly at the boundary too', () => {
    expect(sendStart({ mode: 'immediate', capacity: capacityOf(profile, usage(490, 0), 10), requested: 10, now })).toEqual({
      outcome: 'start',
      sendAfter: now,
    });
  });

  it('immediate: refused with one email more than is left today, or this month, in words naming the limit that binds', () => {
    // The mailbox's day: the spec's words ('…try again tomorrow' is true then).
    const daily = { outcome: 'insufficient', message: sendingMessages.insufficientCapacity };
    expect(sendStart({ mode: 'immediate', capacity: capacityOf(profile, usage(490, 0), 11), requested: 11, now })).toEqual(daily);
    expect(sendStart({ mode: 'immediate', capacity: capacityOf(profile, usage(500, 0), 1), requested: 1, now })).toEqual(daily);
    // The plan's month (Pro, 500): its reset on the 1st of the next Pacific month, never 'tomorrow'.
    expect(sendStart({ mode: 'immediate', capacity: capacityOf(profile, usage(0, 995), 6), requested: 6, now })).toEqual({
      outcome: 'insufficient',
      message: "Cannot Send: No sending capacity left this month. Your plan's limit resets on December 1.",
    });
    expect(sendStart({ mode: 'immediate', capacity: capacityOf(profile, usage(0, 497), 6), requested: 6, now })).toEqual({
      outcome: 'insufficient',
      message: "Cannot Send: Insufficient monthly capacity (3 emails left on your plan this month). Your plan's limit resets on December 1.",
    });
  });

  it('immediate with nothing to send needs no capacity', () => {
    expect(sendStart({ mode: 'immediate', capacity: capacityOf(profile, usage(500, 0), 0), requested: 0, now })).toEqual({ outcome: 'start', sendAfter: now });
  });

  it('partial: now, whatever is left (the pipeline waits for the reset by itself)', () => {
    expect(sendStart({ mode: 'partial', capacity: capacityOf(profile, usage(490, 0), 50), requested: 50, now })).toEqual({ outcome: 'start', sendAfter: now });
    expect(sendStart({ mode: 'partial', capacity: capacityOf(profile, usage(500, 0), 50), requested: 50, now })).toEqual({ outcome: 'start', sendAfter: now });
  });

  it('scheduled: the next Pacific midnight, even with capacity left today', () => {
    expect(sendStart({ mode: 'scheduled', capacity: capacityOf(profile, usage(0, 0), 5), requested: 5, now })).toEqual({ outcome: 'start', sendAfter: reset });
    // In summer the reset is 07:00 UTC.
    const summer = at('2026-07-01T06:30:00Z'); // 23:30 on 30 June in Los Angeles
    expect(sendStart({ mode: 'scheduled', capacity: capacityOf(profile, usage(0, 0), 5), requested: 5, now: summer })).toEqual({
      outcome: 'start',
      sendAfter: at('2026-07-01T07:00:00Z'),
    });
  });
});

describe('the sending status', () => {
  const now = at('2026-11-22T07:30:00Z'); // still 21 November in Los Angeles
  const connected = { ...freeProfile, gmail_connected: true, gmail_email: 'nova@gmail.example', gmail_account_type: 'free' as const };

  it('a new user: nothing sent, the whole day and month left, nothing due', () => {
    const status = sendingStatus({ ...freeProfile, gmail_connected: false, gmail_email: null, gmail_account_type: 'free' }, usage(0, 0), now, 60_000);
    expect(sendingStatusSchema.parse(status)).toEqual({
      mailbox: { connected: false, email: null, account_type: 'free', daily_limit: 500 },
      today: { date: '2026-11-21', sent: 0, remaining: 500, resets_at: '2026-11-22T08:00:00.000Z' },
      month: { month: '2026-11', used: 0, limit: 50, remaining: 50, resets_at: '2026-12-01T08:00:00.000Z' },
      available_now: 50,
      next_send_at: null,
      send_interval_seconds: 60,
    });
  });

  it('counts today’s and this month’s emails; available now is the smaller remainder', () => {
    const status = sendingStatus({ ...connected, tier: 'pro' }, usage(480, 490, '2026-11-22T07:31:00.000Z'), now, 60_000);
    expect(status).toMatchObject({
      mailbox: { connected: true, email: 'nova@gmail.example', daily_limit: 500 },
      today: { sent: 480, remaining: 20 },
      month: { used: 490, limit: 500, remaining: 10 },
      available_now: 10,
      next_send_at: '2026-11-22T07:31:00.000Z',
    });
  });

  it('at the limits: nothing remains, never less than nothing', () => {
    expect(sendingStatus(connected, usage(500, 50), now, 60_000)).toMatchObject({ today: { remaining: 0 }, month: { remaining: 0 }, available_now: 0 });
    expect(sendingStatus(connected, usage(0, 51), now, 60_000)).toMatchObject({ month: { remaining: 0 }, available_now: 0 });
  });

  it('the Label plan: no monthly limit, the mailbox’s day is the only one', () => {
    const status = sendingStatus({ ...connected, tier: 'label', gmail_daily_limit: 2000, gmail_account_type: 'workspace' }, usage(100, 50_000), now, 60_000);
    expect(status).toMatchObject({
      mailbox: { account_type: 'workspace', daily_limit: 2000 },
      month: { used: 50_000, limit: null, remaining: null },
      available_now: 1900,
    });
  });
});

describe('campaign summaries', () => {
  it('are the contract’s fields without the email body and without internal attributes', () => {
    const draft = newDraftCampaign(
      '01KAKZ3R0000000000000000AA',
      {
        mode: 'ai',
        track_name: 'Night Drive',
        track_url: null,
        genre: 'House',
        mood: null,
        bpm: null,
        description: 'd',
        ai_tone: 'professional',
        email_length: 150,
        email_subject: 's',
        email_body: 'the body',
        personalised_by_writer: false,
        preview_contact_id: null,
        total_recipients: 1,
        track_id: null,
        allow_download: false,
        listen_days: 90,
        released: false,
      },
      '2026-11-22T00:00:00.000Z',
    );
    const stored = { ...draft, queued_through: 1, resume_position: 0 } as Campaign;
    const summary = campaignSummary(stored);
    expect(summary).not.toHaveProperty('email_body');
    expect(summary).not.toHaveProperty('queued_through');
    expect(campaignSummarySchema.strict().parse(summary)).toEqual(summary);
  });
});
