/**
 * When a user may send (spec §4 capacity and send modes, §9 rates and limits; DESIGN §4): the Pacific
 * day the daily mailbox limit counts in, when it resets, how much capacity is left today and this month,
 * and the times a send request's emails are spaced at. Pure: the send request, the sender and the
 * dashboard all read the same rules.
 */

/** Spec §9: the daily mailbox limit resets at midnight Pacific Time. */
export const RESET_TIME_ZONE = 'America/Los_Angeles';

/** Spec §9: 60 emails an hour, one a minute per user. */
export const SEND_INTERVAL_MS = 60_000;

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
 * The next reset: the first instant after `at` at which the Pacific date changes. DST-correct: Los
 * Angeles changes its clocks at 02:00, so local midnight always exists and is 07:00 or 08:00 UTC.
 */
export function nextPacificMidnight(at: Date): Date {
  const { year, month, day } = partsAt(at);
  // Date.UTC rolls the day over the month's end.
  const nextDayUtc = Date.UTC(year, month - 1, day + 1);
  for (const offsetHours of [7, 8]) {
    const candidate = new Date(nextDayUtc + offsetHours * 3_600_000);
    const local = partsAt(candidate);
    if (local.hour === 0 && local.minute === 0) return candidate;
  }
  throw new Error(`No Pacific midnight after ${at.toISOString()}`);
}

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
  /** What can go out today: the smaller of the two. */
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
 * Spec §4 send modes: immediate (allowed only when capacity is sufficient), partial (today's remainder
 * now, the rest after the next reset) and scheduled (all after the next reset).
 */
export type SendMode = 'immediate' | 'partial' | 'scheduled';

export interface SendPlanInput {
  mode: SendMode;
  capacity: Capacity;
  /** Emails to schedule. */
  count: number;
  now: Date;
  /**
   * The user's first free sending slot (their cursor: after the last email already queued by another
   * campaign), so two campaigns of one user never share a minute. Default: now.
   */
  firstFreeSlot?: Date;
  /** Spacing between a user's emails (SEND_INTERVAL_MS; a demo or test may run faster). */
  intervalMs?: number;
}

export type SendPlan =
  /** One time per email, in order, at least `intervalMs` apart. */
  | { outcome: 'planned'; times: Date[]; today: number; afterReset: number }
  /** Immediate was asked for without sufficient capacity (spec §5: 'Cannot Send: Insufficient daily capacity…'). */
  | { outcome: 'insufficient' };

export function planSendTimes({ mode, capacity, count, now, firstFreeSlot = now, intervalMs = SEND_INTERVAL_MS }: SendPlanInput): SendPlan {
  if (mode === 'immediate' && capacity.scenario !== 'sufficient') return { outcome: 'insufficient' };
  const today = mode === 'scheduled' ? 0 : Math.min(count, capacity.availableNow);
  const startToday = Math.max(now.getTime(), firstFreeSlot.getTime());
  const reset = nextPacificMidnight(now).getTime();
  const times: Date[] = [];
  for (let i = 0; i < today; i++) times.push(new Date(startToday + i * intervalMs));
  // The rest starts at the reset, or after today's last one should today's run past midnight.
  const lastToday = times.at(-1);
  const afterToday = lastToday ? lastToday.getTime() + intervalMs : startToday;
  const startLater = Math.max(reset, afterToday);
  for (let i = 0; i < count - today; i++) times.push(new Date(startLater + i * intervalMs));
  return { outcome: 'planned', times, today, afterReset: count - today };
}
