/**
 * The dashboard's and Analytics' figures (lambdas/core/insights.ts): the Pacific days of a period across
 * clock changes and a year's end, the zero-filled series and its sums, spec §9's rounded rates (people
 * only), the dashboard's week and month, what basic analytics (Free) does not send, and an email's
 * listen page as the artist sees it.
 */
import { describe, expect, it } from 'vitest';
import { emptyEmailCounters, emptyStepCounters, followUpStepOf, type EmailCounters } from '../../lambdas/core/counters';
import { percentOf } from '../../schema/api/insightsValues';
import {
  analyticsAnswer,
  dashboardDayRange,
  dashboardFigures,
  daySeries,
  daysOf,
  emailListen,
  figuresByEmail,
  isActivityFilter,
  isAnalyticsPeriod,
  listedCampaigns,
  pacificDayStart,
  periodRange,
  sumDays,
  type CampaignCounters,
  type StoredDay,
  type UserTotals,
} from '../../lambdas/core/insights';

const at = (iso: string) => new Date(iso);
const day = (date: string, counters: Partial<EmailCounters> & { campaigns_sent?: number } = {}): StoredDay => ({
  day: date,
  campaigns_sent: 0,
  ...emptyEmailCounters(),
  ...counters,
});
const totals = (overrides: Partial<UserTotals> = {}): UserTotals => ({ ...emptyEmailCounters(), contacts_count: 0, campaigns_sent: 0, ...overrides });
const campaign = (overrides: Partial<CampaignCounters> = {}): CampaignCounters => ({
  id: '01KAKZ3R000000000000000001',
  track_name: 'Midnight Drive',
  created_at: '2026-11-01T10:00:00.000Z',
  started_sending_at: '2026-11-01T11:00:00.000Z',
  ...emptyEmailCounters(),
  ...emptyStepCounters(),
  follow_up_steps: 0,
  ...overrides,
});

describe('periods: whole Pacific days ending today', () => {
  it("'Last 7 days' is today and the six days before, on the Pacific date (not the UTC one)", () => {
    // 05:00 UTC on Nov 22 is 21:00 PST on Nov 21.
    expect(periodRange('7d', at('2026-11-22T05:00:00.000Z'))).toEqual({ from: '2026-11-15', to: '2026-11-21' });
    expect(daysOf(periodRange('7d', at('2026-11-22T05:00:00.000Z')))).toHaveLength(7);
  });

  it('counts 7, 30, 90 and 365 days for the four periods', () => {
    const now = at('2026-11-21T18:00:00.000Z');
    expect(daysOf(periodRange('7d', now))).toHaveLength(7);
    expect(daysOf(periodRange('30d', now))).toHaveLength(30);
    expect(daysOf(periodRange('3m', now))).toHaveLength(90);
    expect(daysOf(periodRange('1y', now))).toHaveLength(365);
    expect(periodRange('1y', now)).toEqual({ from: '2025-11-22', to: '2026-11-21' });
  });

  it('spans the spring-forward day 2026-03-08 as one day, and starts each day at Pacific midnight (08:00Z in PST, 07:00Z in PDT)', () => {
    // 23:59 PST on March 7, then 03:30 PDT on March 8 (02:00 PST jumped to 03:00 PDT).
    expect(periodRange('7d', at('2026-03-08T07:59:00.000Z')).to).toBe('2026-03-07');
    expect(periodRange('7d', at('2026-03-08T10:30:00.000Z'))).toEqual({ from: '2026-03-02', to: '2026-03-08' });
    expect(daysOf({ from: '2026-03-07', to: '2026-03-09' })).toEqual(['2026-03-07', '2026-03-08', '2026-03-09']);
    expect(pacificDayStart('2026-03-08').toISOString()).toBe('2026-03-08T08:00:00.000Z');
    expect(pacificDayStart('2026-03-09').toISOString()).toBe('2026-03-09T07:00:00.000Z');
  });

  it('spans the fall-back day 2026-11-01 (25 hours) as one day', () => {
    expect(periodRange('7d', at('2026-11-02T07:59:00.000Z')).to).toBe('2026-11-01'); // 23:59 PST on Nov 1
    expect(periodRange('7d', at('2026-11-02T08:00:00.000Z')).to).toBe('2026-11-02'); // 00:00 PST on Nov 2
    expect(daysOf({ from: '2026-10-31', to: '2026-11-02' })).toEqual(['2026-10-31', '2026-11-01', '2026-11-02']);
    expect(pacificDayStart('2026-11-01').toISOString()).toBe('2026-11-01T07:00:00.000Z'); // still PDT at midnight
    expect(pacificDayStart('2026-11-02').toISOString()).toBe('2026-11-02T08:00:00.000Z');
  });

  it('crosses a year end: the last 30 days on 2027-01-10 start on 2026-12-12', () => {
    const range = periodRange('30d', at('2027-01-10T20:00:00.000Z'));
    expect(range).toEqual({ from: '2026-12-12', to: '2027-01-10' });
    const days = daysOf(range);
    expect(days).toHaveLength(30);
    expect(days.slice(19, 22)).toEqual(['2026-12-31', '2027-01-01', '2027-01-02']);
  });

  it('knows the four period ids and the two filters, and nothing else', () => {
    expect(['7d', '30d', '3m', '1y'].every(isAnalyticsPeriod)).toBe(true);
    for (const bad of ['', '1d', '7D', undefined, 7]) expect(isAnalyticsPeriod(bad)).toBe(false);
    expect(isActivityFilter('engaged') && isActivityFilter('all')).toBe(true);
    for (const bad of ['', 'ALL', 'opened', undefined]) expect(isActivityFilter(bad)).toBe(false);
  });
});

describe('percentOf: spec §9 rates, rounded', () => {
  it('rounds to the nearest whole percent', () => {
    expect(percentOf(1, 3)).toBe(33);
    expect(percentOf(2, 3)).toBe(67);
    expect(percentOf(1, 8)).toBe(13); // 12.5 rounds up
    expect(percentOf(0, 5)).toBe(0);
    expect(percentOf(5, 5)).toBe(100);
  });

  it('is null when nothing was sent', () => {
    expect(percentOf(0, 0)).toBeNull();
  });
});

describe('the day series', () => {
  it('has every day of the range, zero-filled, from sparse items, and sums them', () => {
    const range = { from: '2026-12-30', to: '2027-01-02' };
    const series = daySeries(range, [day('2027-01-01', { emails_sent: 3, emails_opened: 1 }), day('2026-12-30', { emails_clicked: 2 })]);
    expect(series).toEqual([
      { day: '2026-12-30', ...emptyEmailCounters(), emails_clicked: 2 },
      { day: '2026-12-31', ...emptyEmailCounters() },
      { day: '2027-01-01', ...emptyEmailCounters(), emails_sent: 3, emails_opened: 1 },
      { day: '2027-01-02', ...emptyEmailCounters() },
    ]);
    expect(sumDays(series)).toEqual({ ...emptyEmailCounters(), emails_sent: 3, emails_opened: 1, emails_clicked: 2 });
  });
});

describe('the dashboard figures', () => {
  const now = at('2026-11-03T18:00:00.000Z'); // Nov 3, Pacific

  it('reads this Pacific month and the last 7 days (reaching into last month when the month is young)', () => {
    expect(dashboardDayRange(now)).toEqual({ from: '2026-10-28', to: '2026-11-03' });
    expect(dashboardDayRange(at('2026-11-20T18:00:00.000Z'))).toEqual({ from: '2026-11-01', to: '2026-11-20' });
  });

  it('counts the week as today and the six days before, and the month as this Pacific month', () => {
    const days = [
      day('2026-10-27', { emails_sent: 100, campaigns_sent: 100 }), // 8 days ago: neither
      day('2026-10-28', { emails_sent: 2, campaigns_sent: 1 }), // in the week, last month
      day('2026-11-01', { emails_sent: 3, campaigns_sent: 2 }),
      day('2026-11-03', { emails_sent: 4, campaigns_sent: 4 }),
    ];
    const figures = dashboardFigures(totals({ emails_sent: 200, emails_opened: 50, contacts_count: 12, campaigns_sent: 9 }), days, now);
    expect(figures).toEqual({
      total_contacts: 12,
      emails_sent: 200,
      emails_opened: 50,
      emails_machine_opened: 0,
      average_open_rate: 25,
      total_campaigns: 9,
      campaigns_this_month: 6,
      emails_this_week: 9,
    });
  });

  it('takes the month of the Pacific date: at 21:00 PST on Nov 30 (05:00Z Dec 1) it is still November', () => {
    const figures = dashboardFigures(
      totals(),
      [day('2026-11-30', { campaigns_sent: 2 }), day('2026-12-01', { campaigns_sent: 5 })],
      at('2026-12-01T05:00:00.000Z'),
    );
    expect(figures.campaigns_this_month).toBe(2);
  });

  it('counts people only in the open rate; machine opens are their own figure; no rate before the first send', () => {
    const figures = dashboardFigures(totals({ emails_sent: 4, emails_opened: 1, emails_machine_opened: 3 }), [], now);
    expect(figures).toMatchObject({ average_open_rate: 25, emails_opened: 1, emails_machine_opened: 3 });
    expect(dashboardFigures(totals(), [], now).average_open_rate).toBeNull();
  });

  it('never shows fewer than 0 contacts or campaigns (a count short of what an old account had before its rebuild)', () => {
    expect(dashboardFigures(totals({ contacts_count: -2, campaigns_sent: -1 }), [], now)).toMatchObject({ total_contacts: 0, total_campaigns: 0 });
  });
});

describe('the analytics answer', () => {
  const now = at('2026-11-21T18:00:00.000Z');
  const days = [day('2026-11-20', { emails_sent: 3, emails_opened: 1, emails_machine_opened: 2, emails_clicked: 1, emails_unsubscribed: 1 })];
  const campaigns = [
    campaign({ id: '01KAKZ3R000000000000000001', created_at: '2026-11-01T10:00:00.000Z', emails_sent: 3, emails_opened: 2, emails_clicked: 1 }),
    campaign({ id: '01KAKZ3R000000000000000002', created_at: '2026-11-10T10:00:00.000Z', emails_sent: 0 }),
    campaign({ id: '01KAKZ3R000000000000000003', created_at: '2026-11-15T10:00:00.000Z', emails_sent: 6, emails_unsubscribed: 1 }),
  ];

  it('full: every figure, the period totals, and the campaigns that sent, newest first, with their rates', () => {
    const answer = analyticsAnswer({ period: '7d', now, depth: 'full', days, campaigns });
    expect(answer).toMatchObject({ period: '7d', from: '2026-11-15', to: '2026-11-21', depth: 'full' });
    expect(answer.days).toHaveLength(7);
    expect(answer.days.find((d) => d.day === '2026-11-20')).toEqual({
      day: '2026-11-20',
      emails_sent: 3,
      emails_opened: 1,
      emails_machine_opened: 2,
      emails_clicked: 1,
      emails_unsubscribed: 1,
      emails_listened: 0,
      emails_answered: 0,
    });
    expect(answer.totals).toEqual({
      emails_sent: 3,
      emails_opened: 1,
      emails_machine_opened: 2,
      emails_clicked: 1,
      emails_unsubscribed: 1,
      emails_listened: 0,
      emails_answered: 0,
    });
    expect(answer.campaigns.map((c) => [c.id, c.open_rate, c.click_rate, c.emails_unsubscribed])).toEqual([
      ['01KAKZ3R000000000000000003', 0, 0, 1],
      ['01KAKZ3R000000000000000001', 67, 33, 0],
    ]);
  });

  it('basic (Free): opens only; clicks, unsubscribes and the click rate are null everywhere', () => {
    const answer = analyticsAnswer({ period: '7d', now, depth: 'basic', days, campaigns });
    expect(answer.depth).toBe('basic');
    expect(answer.totals).toEqual({
      emails_sent: 3,
      emails_opened: 1,
      emails_machine_opened: 2,
      emails_clicked: null,
      emails_unsubscribed: null,
      emails_listened: null,
      emails_answered: null,
    });
    expect(answer.days.every((d) => d.emails_clicked === null && d.emails_unsubscribed === null)).toBe(true);
    expect(answer.campaigns.map((c) => [c.open_rate, c.click_rate, c.emails_clicked, c.emails_unsubscribed])).toEqual([
      [0, null, null, null],
      [67, null, null, null],
    ]);
  });

  it('lists only campaigns that sent something, newest first (same time: the later id first)', () => {
    const same = '2026-11-05T10:00:00.000Z';
    const listed = listedCampaigns([
      campaign({ id: 'A', created_at: same, emails_sent: 1 }),
      campaign({ id: 'B', created_at: same, emails_sent: 1 }),
      campaign({ id: 'C', created_at: '2026-11-06T10:00:00.000Z', emails_sent: 0 }),
    ]);
    expect(listed.map((c) => c.id)).toEqual(['B', 'A']);
  });
});

describe('listens and answers by email: the first email and each follow-up step (issue 27 §1)', () => {
  const withSteps = campaign({
    emails_sent: 10,
    emails_listened: 6,
    emails_answered: 4,
    emails_listened_step1: 2,
    emails_answered_step1: 1,
    emails_listened_step2: 1,
    emails_answered_step2: 2,
    follow_up_steps: 2,
  });

  it("counts each step's own, and the first email's as the campaign's less its steps'", () => {
    expect(figuresByEmail(withSteps)).toEqual([
      { step: 0, emails_listened: 3, emails_answered: 1 },
      { step: 1, emails_listened: 2, emails_answered: 1 },
      { step: 2, emails_listened: 1, emails_answered: 2 },
    ]);
    expect(figuresByEmail({ ...withSteps, follow_up_steps: 1, emails_listened_step2: 0, emails_answered_step2: 0 })).toEqual([
      { step: 0, emails_listened: 4, emails_answered: 3 },
      { step: 1, emails_listened: 2, emails_answered: 1 },
    ]);
    // Never below 0, whatever an old item holds.
    expect(figuresByEmail({ ...withSteps, emails_listened: 1 })?.[0]).toEqual({ step: 0, emails_listened: 0, emails_answered: 1 });
  });

  it('is null for a campaign without follow-ups and on basic analytics (Free), where listens and answers are not sent', () => {
    expect(figuresByEmail(campaign({ emails_sent: 3, emails_listened: 2 }))).toBeNull();
    const now = at('2026-11-21T18:00:00.000Z');
    const full = analyticsAnswer({ period: '7d', now, depth: 'full', days: [], campaigns: [withSteps] });
    expect(full.campaigns[0]?.by_email).toHaveLength(3);
    const basic = analyticsAnswer({ period: '7d', now, depth: 'basic', days: [], campaigns: [withSteps] });
    expect(basic.campaigns[0]?.by_email).toBeNull();
  });

  it("reads a token's step as a step only when it is one (1 or 2); the first email's token has none", () => {
    expect([1, 2, undefined, 0, 3, '1', 1.5].map(followUpStepOf)).toEqual([1, 2, null, null, null, null, null]);
  });
});

describe("emailListen: an email's listen page as the artist sees it (issue 16)", () => {
  it('reads an email nobody listened to (no listen attributes yet) as nothing played, downloaded or answered', () => {
    expect(emailListen({})).toEqual({ listen_max_percent: 0, play_count: 0, download_count: 0, answer: null, answer_note: null });
  });

  it('keeps what the listen page wrote', () => {
    expect(emailListen({ listen_max_percent: 75, play_count: 2, download_count: 1, answer: 'send_wavs', answer_note: 'Lossless please' })).toEqual({
      listen_max_percent: 75,
      play_count: 2,
      download_count: 1,
      answer: 'send_wavs',
      answer_note: 'Lossless please',
    });
  });

  it('never shows a milestone past 100 %, a negative or broken count, an unknown answer, or a note without its answer', () => {
    expect(emailListen({ listen_max_percent: 250, play_count: -3, download_count: 1.5, answer: 'maybe', answer_note: 'orphan note' })).toEqual({
      listen_max_percent: 100,
      play_count: 0,
      download_count: 0,
      answer: null,
      answer_note: null,
    });
    expect(emailListen({ answer: 'interested', answer_note: '' }).answer_note).toBeNull();
    expect(emailListen({ answer: 'not_for_us', answer_note: null })).toMatchObject({ answer: 'not_for_us', answer_note: null });
  });
});
