/**
 * Limits in words that are true (issue 23 §5; schema/sendingLimits.ts, the module the server and the web
 * both read): the plan's month resets on the 1st of the next Pacific month, the mailbox's day at Pacific
 * midnight; the limit that binds is named (the spec's daily words kept where the day binds); a campaign's
 * time counts the pace (60 an hour), so nothing the pace cannot do is promised for 'today'.
 */
import { describe, expect, it } from 'vitest';
import { sendingMessages } from '../../schema/api/sendingValues';
import {
  bindingLimit,
  capacityWords,
  durationAtPace,
  durationWords,
  firstSendAt,
  immediateRefusal,
  lastSendAt,
  limitMessages,
  nextPacificMidnight,
  nextPacificMonthStart,
  pacificDate,
  paceWords,
  resetDayWords,
  SEND_INTERVAL_MS,
  sendingCapacity,
  type CapacityInput,
  type CapacityWordsInput,
} from '../../schema/sendingLimits';

const at = (iso: string) => new Date(iso);
/** 28 November 2026, 12:00 in Los Angeles. */
const nov28 = at('2026-11-28T20:00:00Z');
const iso = (date: Date) => date.toISOString();

const free = (usedThisMonth: number, requested: number): CapacityInput => ({ dailyLimit: 500, sentToday: 0, monthlyLimit: 50, usedThisMonth, requested });
const pro = (usedThisMonth: number, requested: number, sentToday = 0): CapacityInput => ({
  dailyLimit: 500,
  sentToday,
  monthlyLimit: 500,
  usedThisMonth,
  requested,
});
const expertWorkspace = (requested: number, sentToday = 0): CapacityInput => ({
  dailyLimit: 2000,
  sentToday,
  monthlyLimit: null,
  usedThisMonth: 12_000,
  requested,
});

/** The dialog's words for a request at `now`, times in UTC so the test reads them plainly. */
function wordsFor(input: CapacityInput, now: Date, over: Partial<CapacityWordsInput> = {}) {
  return capacityWords({
    requested: input.requested,
    capacity: sendingCapacity(input),
    dailyLimit: input.dailyLimit,
    dayResetsAt: nextPacificMidnight(now),
    monthResetsAt: nextPacificMonthStart(now),
    intervalMs: SEND_INTERVAL_MS,
    start: now,
    formatTime: (time) => time.toISOString(),
    ...over,
  });
}

describe("the plan's month resets on the 1st of the next Pacific month", () => {
  it.each([
    // 28 November: 1 December, midnight PST (08:00 UTC).
    ['2026-11-28T20:00:00Z', '2026-12-01T08:00:00Z', 'December 1'],
    // 23:30 on 30 November in Los Angeles is already 1 December in UTC: still December 1.
    ['2026-12-01T07:30:00Z', '2026-12-01T08:00:00Z', 'December 1'],
    // Exactly at the turn: the next one.
    ['2026-12-01T08:00:00Z', '2027-01-01T08:00:00Z', 'January 1'],
    // A month that starts in PDT (07:00 UTC), and one that ends across the spring change.
    ['2026-10-15T12:00:00Z', '2026-11-01T07:00:00Z', 'November 1'],
    ['2027-03-20T12:00:00Z', '2027-04-01T07:00:00Z', 'April 1'],
  ])('after %s: %s (%s)', (now, reset, words) => {
    expect(iso(nextPacificMonthStart(at(now)))).toBe(iso(at(reset)));
    expect(resetDayWords(nextPacificMonthStart(at(now)))).toBe(words);
    expect(resetDayWords(iso(at(reset)))).toBe(words);
  });
});

describe('which limit binds', () => {
  it("the plan's month when it has fewer left than asked, even when the day is short too (tomorrow would not help)", () => {
    expect(bindingLimit(sendingCapacity(free(50, 1)), 1)).toBe('monthly');
    expect(bindingLimit(sendingCapacity({ ...free(48, 3), sentToday: 500 }), 3)).toBe('monthly');
    expect(bindingLimit(sendingCapacity(pro(500, 1)), 1)).toBe('monthly');
  });

  it("the mailbox's day when the month covers the request; none when both do", () => {
    expect(bindingLimit(sendingCapacity(pro(10, 20, 490)), 20)).toBe('daily');
    expect(bindingLimit(sendingCapacity(expertWorkspace(2001)), 2001)).toBe('daily');
    expect(bindingLimit(sendingCapacity(pro(10, 20)), 20)).toBe('none');
    expect(bindingLimit(sendingCapacity(expertWorkspace(2000)), 2000)).toBe('none');
  });
});

describe('the immediate-mode refusal (the API answers it)', () => {
  it('a Free user at 50 of 50 on 28 November: no capacity left this month, resets on December 1, never today or tomorrow', () => {
    const refusal = immediateRefusal(sendingCapacity(free(50, 3)), 3, nov28);
    expect(refusal).toBe("Cannot Send: No sending capacity left this month. Your plan's limit resets on December 1.");
    expect(refusal).not.toMatch(/today|tomorrow/i);
  });

  it('a Pro user at its limit of 500, and one with a few left', () => {
    expect(immediateRefusal(sendingCapacity(pro(500, 1)), 1, nov28)).toBe(
      "Cannot Send: No sending capacity left this month. Your plan's limit resets on December 1.",
    );
    expect(immediateRefusal(sendingCapacity(pro(499, 2)), 2, nov28)).toBe(
      "Cannot Send: Insufficient monthly capacity (1 email left on your plan this month). Your plan's limit resets on December 1.",
    );
  });

  it("the mailbox's day binding keeps the spec's words", () => {
    expect(immediateRefusal(sendingCapacity(pro(10, 20, 490)), 20, nov28)).toBe(sendingMessages.insufficientCapacity);
    expect(immediateRefusal(sendingCapacity(pro(10, 1, 500)), 1, nov28)).toBe('Cannot Send: Insufficient daily capacity. Please try again tomorrow.');
  });
});

describe('the pace (60 an hour)', () => {
  it('500 recipients take about 8 h 20 min; the last goes 499 minutes after the first', () => {
    expect(durationWords(durationAtPace(500, SEND_INTERVAL_MS))).toBe('about 8 h 20 min');
    expect(iso(lastSendAt(nov28, 500, SEND_INTERVAL_MS))).toBe('2026-11-29T04:19:00.000Z');
    expect(paceWords(SEND_INTERVAL_MS)).toBe('60 emails an hour');
  });

  it('says durations to the nearest minute', () => {
    expect(durationWords(durationAtPace(120, SEND_INTERVAL_MS))).toBe('about 2 h');
    expect(durationWords(durationAtPace(45, SEND_INTERVAL_MS))).toBe('about 45 min');
    expect(durationWords(durationAtPace(2000, SEND_INTERVAL_MS))).toBe('about 33 h 20 min');
    expect(durationWords(20_000)).toBe('less than a minute');
    // A faster demo pace (SEND_INTERVAL_SECONDS=5): 720 an hour.
    expect(paceWords(5_000)).toBe('720 emails an hour');
    expect(durationWords(durationAtPace(500, 5_000))).toBe('about 42 min');
  });

  it("starts after the user's next slot and the emails of their other campaigns still to go", () => {
    expect(iso(firstSendAt({ now: nov28, nextSendAt: null, queuedAhead: 0, intervalMs: SEND_INTERVAL_MS }))).toBe(iso(nov28));
    expect(iso(firstSendAt({ now: nov28, nextSendAt: '2026-11-28T20:00:30.000Z', queuedAhead: 10, intervalMs: SEND_INTERVAL_MS }))).toBe(
      '2026-11-28T20:10:30.000Z',
    );
    // A due time already passed is now.
    expect(iso(firstSendAt({ now: nov28, nextSendAt: '2026-11-28T19:00:00.000Z', queuedAhead: 0, intervalMs: SEND_INTERVAL_MS }))).toBe(iso(nov28));
  });
});

describe("the send dialog's words", () => {
  it('500 within the limits: the time at the pace and the last send, not "today"', () => {
    const words = wordsFor(pro(0, 500), nov28);
    expect(words).toEqual({
      type: 'success',
      header: 'Enough capacity',
      text: 'All 500 emails are within your limits. At 60 emails an hour they take about 8 h 20 min; the last should go out around 2026-11-29T04:19:00.000Z.',
      upgrade: false,
    });
  });

  it('an Expert on a Workspace mailbox (2,000 a day) is never told 2,000 today: the pace takes 33 h 20 min', () => {
    const words = wordsFor(expertWorkspace(2000), nov28);
    expect(words.text).toBe(
      'All 2,000 emails are within your limits. At 60 emails an hour they take about 33 h 20 min; the last should go out around 2026-11-30T05:19:00.000Z.',
    );
    expect(`${words.header} ${words.text}`).not.toMatch(/today/i);
    // Indeed past today's end in Los Angeles.
    expect(pacificDate(lastSendAt(nov28, 2000, SEND_INTERVAL_MS))).not.toBe(pacificDate(nov28));
  });

  it('a Free user at 50 of 50: no capacity left this month, resets on December 1, with Upgrade', () => {
    const words = wordsFor(free(50, 3), nov28);
    expect(words).toEqual({
      type: 'warning',
      header: 'Monthly plan limit reached',
      text: limitMessages.monthlyExhausted('December 1'),
      upgrade: true,
    });
    expect(words.text).toBe("No sending capacity left this month. Your plan's limit resets on December 1.");
    expect(`${words.header} ${words.text}`).not.toMatch(/today|tomorrow/i);
  });

  it('a Pro user at 500 of 500: the same words', () => {
    expect(wordsFor(pro(500, 10), nov28)).toMatchObject({
      header: 'Monthly plan limit reached',
      text: limitMessages.monthlyExhausted('December 1'),
      upgrade: true,
    });
  });

  it("partial by the plan's month: what fits, at the pace, and the rest at the plan's reset or an upgrade", () => {
    expect(wordsFor(free(48, 3), nov28)).toEqual({
      type: 'info',
      header: 'Partial capacity this month',
      text: "2 of 3 emails fit your plan's limit this month (about 2 min at 60 emails an hour). The rest wait until your plan's limit resets on December 1, or until you upgrade.",
      upgrade: true,
    });
  });

  it("by the mailbox's day: named as the Gmail mailbox's limit with its reset at midnight Pacific Time", () => {
    expect(wordsFor(pro(0, 3, 500), nov28)).toEqual({
      type: 'warning',
      header: 'No sending capacity left today',
      text: "Your Gmail mailbox's daily limit of 500 emails is reached. It resets at midnight Pacific Time. Schedule the campaign to start then.",
      upgrade: false,
    });
    // 300 left today of 500 wanted at 20:00 in Los Angeles: the 300 run past midnight, the rest follow them.
    const evening = at('2026-11-29T04:00:00Z');
    const words = wordsFor(pro(0, 500, 200), evening);
    expect(words).toMatchObject({ type: 'info', header: 'Partial capacity today', upgrade: false });
    expect(words.text).toBe(
      "300 of 500 emails fit your Gmail mailbox's daily limit; the rest go after it resets at midnight Pacific Time. At 60 emails an hour, the last should go out around 2026-11-29T12:19:00.000Z.",
    );
    // Early in the day the rest wait for the reset: 3 now, 2 from midnight.
    expect(wordsFor(pro(0, 5, 497), nov28).text).toMatch(/the last should go out around 2026-11-29T08:01:00\.000Z\.$/);
  });
});
