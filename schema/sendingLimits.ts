/**
 * Limits in words that are true (issue 23 §5; spec §4 capacity, §5, §9; DESIGN §4, §13): the one pure
 * module the server (lambdas/core/sendingWindow.ts, queueing.ts, the sending API) and the web (the send
 * dialog, the queue panel, a campaign paused at its plan's limit) read, so both count and say the same.
 *
 * - The Pacific day and month: the mailbox's daily limit resets at midnight America/Los_Angeles; the
 *   plan's monthly limit on the 1st of the next Pacific month.
 * - Capacity: what is left today and this month, and which of the two limits binds a request.
 * - The pace: a user's emails go one per send interval (60 an hour), so a campaign takes count ×
 *   interval, whatever the limits allow; "today" is never promised for what the pace cannot do.
 * - The words: the daily limit keeps the spec's 'Cannot Send: Insufficient daily capacity…'; the
 *   monthly limit is named as the plan's, with the date it resets.
 *
 * Free of zod and of I/O; dates are read through Intl in the reset zone, never by hand-written offsets.
 */
import { sendingMessages } from './api/sendingValues';
import { plural } from './plural';

/** Spec §9: the daily limit resets at midnight Pacific Time; the plan's month is the Pacific month (DESIGN §10). */
export const RESET_TIME_ZONE = 'America/Los_Angeles';

/** Spec §9: 60 emails an hour, one a minute per user (a deployment may set another interval: SEND_INTERVAL_SECONDS). */
export const SEND_INTERVAL_MS = 60_000;

// ---------------------------------------------------------------------------------------------------
// The Pacific day and month.

// Built by the first Pacific date read, not at import: loading the time zone's data takes ~10 ms, which a
// Lambda's cold start should pay only on a route that reads a date.
let pacificFormat: Intl.DateTimeFormat | undefined;
const pacificParts = () =>
  (pacificFormat ??= new Intl.DateTimeFormat('en-US', {
    timeZone: RESET_TIME_ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }));

function partsAt(at: Date): { year: number; month: number; day: number; hour: number; minute: number } {
  const parts = Object.fromEntries(
    pacificParts()
      .formatToParts(at)
      .map((part) => [part.type, part.value]),
  );
  return { year: Number(parts.year), month: Number(parts.month), day: Number(parts.day), hour: Number(parts.hour), minute: Number(parts.minute) };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The Pacific calendar date of an instant, 'YYYY-MM-DD': the key of the day's sending counter. */
export function pacificDate(at: Date): string {
  const { year, month, day } = partsAt(at);
  return `${year}-${pad(month)}-${pad(day)}`;
}

/** The Pacific calendar month of an instant, 'YYYY-MM': the key of the month's plan usage. */
export function pacificMonth(at: Date): string {
  return pacificDate(at).slice(0, 7);
}

/**
 * Midnight in Los Angeles at the start of a calendar day (month 1-based; Date.UTC rolls a day or month
 * over). DST-correct: Los Angeles changes its clocks at 02:00, so local midnight always exists and is
 * 07:00 or 08:00 UTC.
 */
function pacificMidnightOf(year: number, month: number, day: number): Date {
  const dayUtc = Date.UTC(year, month - 1, day);
  for (const offsetHours of [7, 8]) {
    const candidate = new Date(dayUtc + offsetHours * 3_600_000);
    const local = partsAt(candidate);
    if (local.hour === 0 && local.minute === 0) return candidate;
  }
  throw new Error(`No Pacific midnight on ${String(year)}-${pad(month)}-${pad(day)}`);
}

/** The next reset of the daily mailbox limit: the first instant after `at` at which the Pacific date changes. */
export function nextPacificMidnight(at: Date): Date {
  const { year, month, day } = partsAt(at);
  return pacificMidnightOf(year, month, day + 1);
}

/** The next reset of the plan's monthly limit: midnight Pacific on the 1st of the next Pacific month. */
export function nextPacificMonthStart(at: Date): Date {
  const { year, month } = partsAt(at);
  return pacificMidnightOf(year, month + 1, 1);
}

let resetDayFormat: Intl.DateTimeFormat | undefined;

/** A reset's Pacific calendar day as the words say it: 'December 1'. */
export function resetDayWords(reset: Date | string): string {
  resetDayFormat ??= new Intl.DateTimeFormat('en-US', { timeZone: RESET_TIME_ZONE, month: 'long', day: 'numeric' });
  return resetDayFormat.format(typeof reset === 'string' ? new Date(reset) : reset);
}

// ---------------------------------------------------------------------------------------------------
// Capacity, and which limit binds.

/** Spec §4: exhausted when nothing is left; partial when less is left than asked for; sufficient otherwise. */
export type CapacityScenario = 'exhausted' | 'partial' | 'sufficient';

export interface CapacityInput {
  /** The mailbox's daily limit (500, or 2000 for a Workspace account). */
  dailyLimit: number;
  /** Sent today (this Pacific day). */
  sentToday: number;
  /** The plan's monthly email limit; null: unlimited (the Label plan). */
  monthlyLimit: number | null;
  usedThisMonth: number;
  /** Emails the send request would queue. */
  requested: number;
}

export interface Capacity {
  todayRemaining: number;
  /** null: unlimited. */
  monthRemaining: number | null;
  /** What the limits let out before the next reset: the smaller of the two (not what the pace gets out today). */
  availableNow: number;
  scenario: CapacityScenario;
}

export function sendingCapacity({ dailyLimit, sentToday, monthlyLimit, usedThisMonth, requested }: CapacityInput): Capacity {
  const todayRemaining = Math.max(0, dailyLimit - sentToday);
  const monthRemaining = monthlyLimit === null ? null : Math.max(0, monthlyLimit - usedThisMonth);
  const availableNow = monthRemaining === null ? todayRemaining : Math.min(todayRemaining, monthRemaining);
  const scenario: CapacityScenario = availableNow === 0 ? 'exhausted' : availableNow < requested ? 'partial' : 'sufficient';
  return { todayRemaining, monthRemaining, availableNow, scenario };
}

/**
 * Which limit stops a request of `requested` emails (at least one) going out in full: 'monthly' when the
 * plan's month has fewer left (waiting for tomorrow would not help, so it is named even when the day is
 * short too); else 'daily' when the mailbox's day has fewer left; 'none' when both cover it.
 */
export type BindingLimit = 'none' | 'daily' | 'monthly';

export function bindingLimit(capacity: Pick<Capacity, 'todayRemaining' | 'monthRemaining'>, requested: number): BindingLimit {
  const wanted = Math.max(1, requested);
  if (capacity.monthRemaining !== null && capacity.monthRemaining < wanted) return 'monthly';
  if (capacity.todayRemaining < wanted) return 'daily';
  return 'none';
}

// ---------------------------------------------------------------------------------------------------
// The pace.

/** Emails an hour at an interval: 60 at spec §9's one a minute. */
export const emailsPerHour = (intervalMs: number) => Math.round(3_600_000 / intervalMs);

/** How long `count` emails take at the pace: one per interval. */
export const durationAtPace = (count: number, intervalMs: number) => Math.max(0, count) * intervalMs;

/** When the last of `count` emails goes, the first at `start` (nothing to send: `start`). */
export const lastSendAt = (start: Date, count: number, intervalMs: number) => new Date(start.getTime() + Math.max(0, count - 1) * intervalMs);

/**
 * When a send's first email can go: now, or the user's next sending slot when their queue is busy, after
 * the `queuedAhead` emails of their other campaigns (a user's campaigns go out in the order queued).
 */
export function firstSendAt({
  now,
  nextSendAt,
  queuedAhead,
  intervalMs,
}: {
  now: Date;
  nextSendAt: string | null;
  queuedAhead: number;
  intervalMs: number;
}): Date {
  const slot = nextSendAt === null ? now.getTime() : Math.max(now.getTime(), Date.parse(nextSendAt));
  return new Date(slot + Math.max(0, queuedAhead) * intervalMs);
}

/** A duration in words, to the nearest minute: 'about 8 h 20 min', 'about 2 h', 'about 45 min', 'less than a minute'. */
export function durationWords(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 1) return 'less than a minute';
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours === 0) return `about ${rest} min`;
  return rest === 0 ? `about ${hours} h` : `about ${hours} h ${rest} min`;
}

/** The pace in words: '60 emails an hour' (or, at an interval over an hour, 'one email every 2 h'). */
export function paceWords(intervalMs: number): string {
  const perHour = emailsPerHour(intervalMs);
  if (perHour >= 1) return `${perHour.toLocaleString('en-US')} email${perHour === 1 ? '' : 's'} an hour`;
  return `one email every ${durationWords(intervalMs).replace(/^about /, '')}`;
}

// ---------------------------------------------------------------------------------------------------
// The words.

export const limitMessages = {
  /** The plan's month is used up (the Free plan at 50 of 50, Pro at 500 of 500). */
  monthlyExhausted: (resetDay: string) => `No sending capacity left this month. Your plan's limit resets on ${resetDay}.`,
  /** The mailbox's day is used up: it resets at midnight Pacific Time (spec §9). */
  dailyExhausted: (dailyLimit: number) =>
    `Your Gmail mailbox's daily limit of ${dailyLimit.toLocaleString('en-US')} emails is reached. It resets at midnight Pacific Time.`,
  /** Immediate mode refused by the plan's month with nothing left (the API's 400). */
  cannotSendMonthlyExhausted: (resetDay: string) => `Cannot Send: No sending capacity left this month. Your plan's limit resets on ${resetDay}.`,
  /** Immediate mode refused by the plan's month with fewer left than asked for (the API's 400). */
  cannotSendMonthly: (left: number, resetDay: string) =>
    `Cannot Send: Insufficient monthly capacity (${plural(left, 'email', 'emails', 'en-US')} left on your plan this month). Your plan's limit resets on ${resetDay}.`,
} as const;

/** Whether a server's message is one of the refusals above or the spec's: shown word for word. */
export const isCannotSend = (message: string) => message.startsWith('Cannot Send: ');

/**
 * The immediate-mode refusal for a request the limits do not cover: the spec's words when the mailbox's
 * day binds ('…Please try again tomorrow.' is true then), the plan's month and its reset date otherwise.
 */
export function immediateRefusal(capacity: Pick<Capacity, 'todayRemaining' | 'monthRemaining'>, requested: number, now: Date): string {
  return refusalWords(capacity, requested, nextPacificMonthStart(now));
}

/** The same refusal, with the plan's reset as the status tells it (the send dialog's words for 'Send now'). */
export function refusalWords(capacity: Pick<Capacity, 'todayRemaining' | 'monthRemaining'>, requested: number, monthResetsAt: Date | string): string {
  if (bindingLimit(capacity, requested) !== 'monthly') return sendingMessages.insufficientCapacity;
  const left = capacity.monthRemaining ?? 0;
  const resetDay = resetDayWords(monthResetsAt);
  return left === 0 ? limitMessages.cannotSendMonthlyExhausted(resetDay) : limitMessages.cannotSendMonthly(left, resetDay);
}

// ---------------------------------------------------------------------------------------------------
// The send dialog's words (spec §4 capacity scenarios): what the limits let out, which one binds and
// when it resets, and how long the pace takes. A time of day is the reader's to format (`formatTime`).

export interface CapacityWordsInput {
  /** Emails the send would queue (at least one). */
  requested: number;
  capacity: Pick<Capacity, 'todayRemaining' | 'monthRemaining' | 'availableNow'>;
  /** The mailbox's daily limit (500, or 2000 for a Workspace account). */
  dailyLimit: number;
  /** The next resets: the mailbox's day (midnight Pacific) and the plan's month (the 1st, Pacific). */
  dayResetsAt: Date | string;
  monthResetsAt: Date | string;
  intervalMs: number;
  /** When the first email can go (firstSendAt). */
  start: Date;
  formatTime: (at: Date) => string;
}

export interface CapacityWords {
  type: 'success' | 'info' | 'warning';
  header: string;
  text: string;
  /** The plan's month binds: the Upgrade action is offered. */
  upgrade: boolean;
}

const instant = (at: Date | string) => (typeof at === 'string' ? new Date(at) : at);

/**
 * The capacity dialog's notice. Sufficient says how long the pace takes and when the last email should
 * go, never 'today' (500 at 60 an hour take 8 h 20 min; 2,000 on a Workspace mailbox take 33 h 20 min).
 * Partial and exhausted name the limit that binds: the Gmail mailbox's day (resets at midnight Pacific
 * Time) or the plan's month (resets on the 1st, with an Upgrade).
 */
export function capacityWords({
  requested,
  capacity,
  dailyLimit,
  dayResetsAt,
  monthResetsAt,
  intervalMs,
  start,
  formatTime,
}: CapacityWordsInput): CapacityWords {
  const binding = bindingLimit(capacity, requested);
  const pace = paceWords(intervalMs);
  const planReset = resetDayWords(instant(monthResetsAt));
  if (binding === 'none') {
    const last = formatTime(lastSendAt(start, requested, intervalMs));
    const text =
      requested === 1
        ? `Your email is within your limits. It should go out around ${last}.`
        : `All ${requested.toLocaleString('en-US')} emails are within your limits. At ${pace} they take ${durationWords(durationAtPace(requested, intervalMs))}; the last should go out around ${last}.`;
    return { type: 'success', header: 'Enough capacity', text, upgrade: false };
  }
  if (capacity.availableNow <= 0) {
    return binding === 'monthly'
      ? { type: 'warning', header: 'Monthly plan limit reached', text: limitMessages.monthlyExhausted(planReset), upgrade: true }
      : {
          type: 'warning',
          header: 'No sending capacity left today',
          text: `${limitMessages.dailyExhausted(dailyLimit)} Schedule the campaign to start then.`,
          upgrade: false,
        };
  }
  const fits = capacity.availableNow;
  const some = `${fits.toLocaleString('en-US')} of ${requested.toLocaleString('en-US')} emails`;
  if (binding === 'monthly') {
    return {
      type: 'info',
      header: 'Partial capacity this month',
      text: `${some} fit your plan's limit this month (${durationWords(durationAtPace(fits, intervalMs))} at ${pace}). The rest wait until your plan's limit resets on ${planReset}, or until you upgrade.`,
      upgrade: true,
    };
  }
  // The mailbox's day binds: the rest start at its reset, or after the first part should that run past it.
  const afterFirst = start.getTime() + fits * intervalMs;
  const restStart = new Date(Math.max(instant(dayResetsAt).getTime(), afterFirst));
  const last = formatTime(lastSendAt(restStart, requested - fits, intervalMs));
  return {
    type: 'info',
    header: 'Partial capacity today',
    text: `${some} fit your Gmail mailbox's daily limit; the rest go after it resets at midnight Pacific Time. At ${pace}, the last should go out around ${last}.`,
    upgrade: false,
  };
}
