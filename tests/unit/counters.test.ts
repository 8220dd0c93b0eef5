import { describe, expect, it } from 'vitest';
import { campaignSentAt, counterDay, counterDayRange, countersFromLogs, emptyDay, emptyTotals, type LoggedEmail } from '../../lambdas/core/counters';

const at = (iso: string) => new Date(iso);

const email = (overrides: Partial<LoggedEmail> = {}): LoggedEmail => ({
  status: 'sent',
  sent_at: '2026-11-21T18:00:00.000Z',
  opened_at: null,
  open_count: 0,
  machine_opened_at: null,
  machine_open_count: 0,
  clicked_at: null,
  click_count: 0,
  ...overrides,
});

describe('counterDay: the Pacific day an event counts on', () => {
  it('is the Los Angeles date, not the UTC one', () => {
    expect(counterDay(at('2026-11-22T07:59:59.999Z'))).toBe('2026-11-21'); // 23:59:59 PST
    expect(counterDay(at('2026-11-22T08:00:00.000Z'))).toBe('2026-11-22'); // 00:00 PST
  });

  it('moves midnight with daylight saving time: 07:00 UTC in summer, 08:00 UTC in winter', () => {
    expect(counterDay(at('2026-07-01T06:59:59.999Z'))).toBe('2026-06-30');
    expect(counterDay(at('2026-07-01T07:00:00.000Z'))).toBe('2026-07-01');
  });

  it('gets the 23-hour spring-forward day and the 25-hour fall-back day right', () => {
    // 2026-03-08: 02:00 PST becomes 03:00 PDT. The day runs 08:00Z to 07:00Z next day.
    expect(counterDay(at('2026-03-08T08:00:00.000Z'))).toBe('2026-03-08');
    expect(counterDay(at('2026-03-08T10:30:00.000Z'))).toBe('2026-03-08'); // 03:30 PDT, past the skipped hour
    expect(counterDay(at('2026-03-09T06:59:59.999Z'))).toBe('2026-03-08');
    expect(counterDay(at('2026-03-09T07:00:00.000Z'))).toBe('2026-03-09');
    // 2026-11-01: 02:00 PDT becomes 01:00 PST. The day runs 07:00Z to 08:00Z next day.
    expect(counterDay(at('2026-11-01T07:00:00.000Z'))).toBe('2026-11-01');
    expect(counterDay(at('2026-11-01T09:30:00.000Z'))).toBe('2026-11-01'); // 01:30 PST, the repeated hour
    expect(counterDay(at('2026-11-02T07:59:59.999Z'))).toBe('2026-11-01');
    expect(counterDay(at('2026-11-02T08:00:00.000Z'))).toBe('2026-11-02');
  });
});

describe('counterDayRange: the days of an analytics period', () => {
  it('ends today (Pacific) and spans exactly the period, across month, year and DST changes', () => {
    expect(counterDayRange(at('2026-11-21T18:00:00.000Z'), 7)).toEqual({ from: '2026-11-15', to: '2026-11-21' });
    // 06:30 UTC on 1 January is still 31 December in Los Angeles.
    expect(counterDayRange(at('2027-01-01T06:30:00.000Z'), 30)).toEqual({ from: '2026-12-02', to: '2026-12-31' });
    // Over the spring-forward day: still 7 calendar days.
    expect(counterDayRange(at('2026-03-10T12:00:00.000Z'), 7)).toEqual({ from: '2026-03-04', to: '2026-03-10' });
    // A year is 365 days up to today (≤ 366 items, leap years included).
    expect(counterDayRange(at('2028-03-01T20:00:00.000Z'), 365)).toEqual({ from: '2027-03-03', to: '2028-03-01' });
    expect(counterDayRange(at('2026-11-21T18:00:00.000Z'), 1)).toEqual({ from: '2026-11-21', to: '2026-11-21' });
  });
});

describe('countersFromLogs: what the logs say', () => {
  it('counts each email once per kind on the day it happened, and every open and click on the totals', () => {
    const counters = countersFromLogs(
      [
        // Opened twice by a person (first at 23:30 PST on the 21st), clicked three times on the 22nd.
        email({ opened_at: '2026-11-22T07:30:00.000Z', open_count: 2, clicked_at: '2026-11-22T09:00:00.000Z', click_count: 3 }),
        // Opened by a privacy proxy on delivery, twice.
        email({ machine_opened_at: '2026-11-21T18:00:05.000Z', machine_open_count: 2 }),
        // Failed: not sent; never counted as sent.
        email({ status: 'failed', sent_at: null }),
        // Listened to 25 % on the 22nd (two plays, one download), answered on the 23rd.
        email({ listened_at: '2026-11-22T20:00:00.000Z', play_count: 2, download_count: 1, first_answered_at: '2026-11-23T20:00:00.000Z' }),
      ],
      [{ unsubscribed_at: '2026-11-23T12:00:00.000Z' }],
    );
    expect(counters.totals).toEqual({
      emails_sent: 3,
      emails_opened: 1,
      emails_machine_opened: 1,
      emails_clicked: 1,
      emails_unsubscribed: 1,
      emails_listened: 1,
      emails_answered: 1,
      open_count: 2,
      machine_open_count: 2,
      click_count: 3,
      play_count: 2,
      download_count: 1,
      contacts_count: 0,
      campaigns_sent: 0,
    });
    expect(Object.fromEntries(counters.days)).toEqual({
      '2026-11-21': { ...emptyDay(), emails_sent: 3, emails_opened: 1, emails_machine_opened: 1 },
      '2026-11-22': { ...emptyDay(), emails_clicked: 1, emails_listened: 1 },
      '2026-11-23': { ...emptyDay(), emails_unsubscribed: 1, emails_answered: 1 },
    });
  });

  it('puts a machine open without a time (logs from before the counters) on the day the email was sent', () => {
    const counters = countersFromLogs([email({ sent_at: '2026-11-20T10:00:00.000Z', machine_open_count: 1 })], []);
    expect(counters.days.get('2026-11-20')).toEqual({ ...emptyDay(), emails_sent: 1, emails_machine_opened: 1 });
  });

  it('sets the contacts to how many there are and counts each sent campaign on the Pacific day it was first queued; drafts never', () => {
    const counters = countersFromLogs([email({ sent_at: '2026-11-22T07:30:00.000Z' })], [], {
      contacts: 42,
      campaigns: [
        // Created the day before: counted on the day it was queued.
        { status: 'sending', created_at: '2026-11-20T12:00:00.000Z', started_sending_at: '2026-11-22T07:59:59.999Z' }, // 23:59:59 PST on the 21st
        { status: 'completed', created_at: '2026-11-22T08:00:00.000Z', started_sending_at: '2026-11-22T08:00:00.000Z' }, // 00:00 PST on the 22nd
        { status: 'scheduled', created_at: '2026-11-22T20:00:00.000Z', started_sending_at: '2026-11-22T20:00:00.000Z' },
        { status: 'draft', created_at: '2026-11-22T09:00:00.000Z', started_sending_at: null },
        { status: 'draft', created_at: '2026-11-23T09:00:00.000Z' },
      ],
    });
    expect(counters.totals).toEqual({ ...emptyTotals(), emails_sent: 1, contacts_count: 42, campaigns_sent: 3 });
    expect(Object.fromEntries(counters.days)).toEqual({
      '2026-11-21': { ...emptyDay(), emails_sent: 1, campaigns_sent: 1 },
      '2026-11-22': { ...emptyDay(), campaigns_sent: 2 },
    });
  });

  it('counts a sent campaign without started_sending_at (written before it was kept) on the day it was created', () => {
    expect(campaignSentAt({ status: 'completed', created_at: '2026-11-20T12:00:00.000Z' })).toBe('2026-11-20T12:00:00.000Z');
    expect(campaignSentAt({ status: 'sending', created_at: '2026-11-20T12:00:00.000Z', started_sending_at: null })).toBe('2026-11-20T12:00:00.000Z');
    expect(campaignSentAt({ status: 'draft', created_at: '2026-11-20T12:00:00.000Z', started_sending_at: '2026-11-21T12:00:00.000Z' })).toBeUndefined();
    const counters = countersFromLogs([], [], { contacts: 0, campaigns: [{ status: 'completed', created_at: '2026-11-20T12:00:00.000Z' }] });
    expect(Object.fromEntries(counters.days)).toEqual({ '2026-11-20': { ...emptyDay(), campaigns_sent: 1 } });
  });

  it('is all zeros for an account with no logs', () => {
    const counters = countersFromLogs([], []);
    expect(counters.totals).toEqual(emptyTotals());
    expect(counters.days.size).toBe(0);
  });
});
