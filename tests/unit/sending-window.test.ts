import { describe, expect, it } from 'vitest';
import {
  nextPacificMidnight,
  pacificDate,
  pacificMonth,
  planSendTimes,
  SEND_INTERVAL_MS,
  sendingCapacity,
  type Capacity,
} from '../../lambdas/core/sendingWindow';

const at = (iso: string) => new Date(iso);
const pacificClock = (instant: Date) =>
  new Intl.DateTimeFormat('en-US', { timeZone: 'America/Los_Angeles', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(instant);

describe('the Pacific day (spec §9: the daily limit resets at midnight America/Los_Angeles)', () => {
  it('dates an instant by the Pacific calendar, not UTC', () => {
    // 07:30 UTC on 22 November is still 21 November in Los Angeles (PST, UTC−8).
    expect(pacificDate(at('2026-11-22T07:30:00Z'))).toBe('2026-11-21');
    expect(pacificDate(at('2026-11-22T08:00:00Z'))).toBe('2026-11-22');
    // In summer (PDT, UTC−7) the day changes an hour earlier in UTC.
    expect(pacificDate(at('2026-07-01T06:59:59Z'))).toBe('2026-06-30');
    expect(pacificDate(at('2026-07-01T07:00:00Z'))).toBe('2026-07-01');
    expect(pacificMonth(at('2026-12-01T07:59:00Z'))).toBe('2026-11');
    expect(pacificMonth(at('2027-01-01T08:00:00Z'))).toBe('2027-01');
  });

  it.each([
    // An ordinary winter day: midnight PST is 08:00 UTC.
    ['2026-11-22T12:00:00Z', '2026-11-23T08:00:00Z'],
    // The spring-forward day (8 March 2026): that day's midnight is still PST, the next is PDT.
    ['2026-03-08T04:00:00Z', '2026-03-08T08:00:00Z'],
    ['2026-03-08T12:00:00Z', '2026-03-09T07:00:00Z'],
    // The fall-back day (1 November 2026): its midnight is PDT, the next is PST (a 25-hour day).
    ['2026-10-31T12:00:00Z', '2026-11-01T07:00:00Z'],
    ['2026-11-01T12:00:00Z', '2026-11-02T08:00:00Z'],
    // Exactly at midnight: the next one, a day later.
    ['2026-11-02T08:00:00Z', '2026-11-03T08:00:00Z'],
    // Month and year ends.
    ['2026-12-31T20:00:00Z', '2027-01-01T08:00:00Z'],
    ['2028-02-28T20:00:00Z', '2028-02-29T08:00:00Z'],
  ])('the next reset after %s is %s', (from, expected) => {
    expect(nextPacificMidnight(at(from))).toEqual(at(expected));
  });

  it('over two years of instants, the next reset is the first instant of the next Pacific day, at 00:00 local', () => {
    let seed = 20261122;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const start = Date.UTC(2026, 0, 1);
    for (let i = 0; i < 500; i++) {
      const instant = new Date(start + Math.floor(random() * 2 * 365 * 86_400_000));
      const reset = nextPacificMidnight(instant);
      expect(reset.getTime()).toBeGreaterThan(instant.getTime());
      expect(reset.getTime() - instant.getTime()).toBeLessThanOrEqual(25 * 3_600_000);
      expect(pacificClock(reset)).toBe('00:00');
      expect(pacificDate(new Date(reset.getTime() - 1))).toBe(pacificDate(instant));
      expect(pacificDate(reset)).not.toBe(pacificDate(instant));
    }
  });
});

describe('sending capacity (spec §4 scenarios)', () => {
  it('is the smaller of the mailbox’s day and the plan’s month', () => {
    expect(sendingCapacity({ dailyLimit: 500, sentToday: 20, monthlyLimit: 50, usedThisMonth: 45, requested: 3 })).toEqual({
      todayRemaining: 480,
      monthRemaining: 5,
      availableNow: 5,
      scenario: 'sufficient',
    });
    expect(sendingCapacity({ dailyLimit: 500, sentToday: 498, monthlyLimit: 500, usedThisMonth: 10, requested: 3 })).toMatchObject({
      availableNow: 2,
      scenario: 'partial',
    });
  });

  it('exhausted when nothing is left today or this month; an unlimited plan is limited by the mailbox only', () => {
    expect(sendingCapacity({ dailyLimit: 500, sentToday: 500, monthlyLimit: 500, usedThisMonth: 0, requested: 1 }).scenario).toBe('exhausted');
    expect(sendingCapacity({ dailyLimit: 500, sentToday: 0, monthlyLimit: 50, usedThisMonth: 50, requested: 1 }).scenario).toBe('exhausted');
    // Over the limit (a limit lowered after use) counts as nothing left, never negative.
    expect(sendingCapacity({ dailyLimit: 500, sentToday: 0, monthlyLimit: 50, usedThisMonth: 60, requested: 1 })).toMatchObject({
      monthRemaining: 0,
      availableNow: 0,
    });
    expect(sendingCapacity({ dailyLimit: 2000, sentToday: 100, monthlyLimit: null, usedThisMonth: 99_999, requested: 1900 })).toEqual({
      todayRemaining: 1900,
      monthRemaining: null,
      availableNow: 1900,
      scenario: 'sufficient',
    });
  });

  it('at the boundary: exactly what is left is sufficient, one more is partial', () => {
    const input = { dailyLimit: 500, sentToday: 490, monthlyLimit: null, usedThisMonth: 0 };
    expect(sendingCapacity({ ...input, requested: 10 }).scenario).toBe('sufficient');
    expect(sendingCapacity({ ...input, requested: 11 }).scenario).toBe('partial');
  });
});

describe('send times (spec §4 modes, §9: one a minute per user)', () => {
  const now = at('2026-11-22T18:00:00Z'); // 10:00 in Los Angeles
  const reset = at('2026-11-23T08:00:00Z');
  const capacity = (availableNow: number, requested: number): Capacity =>
    sendingCapacity({ dailyLimit: 500, sentToday: 500 - availableNow, monthlyLimit: null, usedThisMonth: 0, requested });
  const iso = (times: Date[]) => times.map((time) => time.toISOString());

  it('immediate: every email from now, a minute apart; refused unless capacity is sufficient', () => {
    const plan = planSendTimes({ mode: 'immediate', capacity: capacity(10, 3), count: 3, now });
    expect(plan).toEqual({ outcome: 'planned', times: [now, at('2026-11-22T18:01:00Z'), at('2026-11-22T18:02:00Z')], today: 3, afterReset: 0 });
    expect(planSendTimes({ mode: 'immediate', capacity: capacity(2, 3), count: 3, now })).toEqual({ outcome: 'insufficient' });
    expect(planSendTimes({ mode: 'immediate', capacity: capacity(0, 3), count: 3, now })).toEqual({ outcome: 'insufficient' });
  });

  it('partial: today’s remainder now, the rest from the next reset, still a minute apart', () => {
    const plan = planSendTimes({ mode: 'partial', capacity: capacity(2, 4), count: 4, now });
    expect(plan.outcome === 'planned' && iso(plan.times)).toEqual([
      '2026-11-22T18:00:00.000Z',
      '2026-11-22T18:01:00.000Z',
      reset.toISOString(),
      '2026-11-23T08:01:00.000Z',
    ]);
    expect(plan).toMatchObject({ today: 2, afterReset: 2 });
  });

  it('scheduled: everything from the next reset', () => {
    const plan = planSendTimes({ mode: 'scheduled', capacity: capacity(500, 2), count: 2, now });
    expect(plan.outcome === 'planned' && iso(plan.times)).toEqual([reset.toISOString(), '2026-11-23T08:01:00.000Z']);
    expect(plan).toMatchObject({ today: 0, afterReset: 2 });
  });

  it('starts after the user’s emails already queued (two campaigns never share a minute), and any interval can be used', () => {
    const firstFreeSlot = at('2026-11-22T18:30:00Z');
    const plan = planSendTimes({ mode: 'immediate', capacity: capacity(10, 2), count: 2, now, firstFreeSlot, intervalMs: 5_000 });
    expect(plan.outcome === 'planned' && iso(plan.times)).toEqual(['2026-11-22T18:30:00.000Z', '2026-11-22T18:30:05.000Z']);
  });

  it('never spaces a user’s emails closer than the interval, in any mode and capacity', () => {
    for (const mode of ['immediate', 'partial', 'scheduled'] as const) {
      for (const [available, count] of [
        [0, 5],
        [3, 5],
        [5, 5],
        [500, 30],
      ] as const) {
        const plan = planSendTimes({ mode, capacity: capacity(available, count), count, now, firstFreeSlot: at('2026-11-23T07:59:30Z') });
        if (plan.outcome !== 'planned') continue;
        expect(plan.times).toHaveLength(count);
        for (let i = 1; i < plan.times.length; i++) {
          expect(plan.times[i]!.getTime() - plan.times[i - 1]!.getTime()).toBeGreaterThanOrEqual(SEND_INTERVAL_MS);
        }
        // Nothing beyond today's remainder is due before the reset.
        expect(plan.times.slice(plan.today).every((time) => time >= reset)).toBe(true);
      }
    }
  });
});
