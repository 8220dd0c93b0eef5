/**
 * When a user may send (spec §4 capacity and send modes, §9 rates and limits; DESIGN §4): the Pacific
 * day the daily mailbox limit counts in, when it resets, how much capacity is left today and this month,
 * and the times a send request's emails are spaced at. Pure: the send request, the sender and the
 * dashboard all read the same rules.
 */
import { nextPacificMidnight, SEND_INTERVAL_MS, type Capacity } from '../../schema/sendingLimits';

// The Pacific day and month, capacity and the pace live in schema/sendingLimits.ts, which the web reads
// too: one source for both.
export {
  RESET_TIME_ZONE,
  SEND_INTERVAL_MS,
  pacificDate,
  pacificMonth,
  nextPacificMidnight,
  nextPacificMonthStart,
  sendingCapacity,
  type CapacityScenario,
  type CapacityInput,
  type Capacity,
} from '../../schema/sendingLimits';

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
