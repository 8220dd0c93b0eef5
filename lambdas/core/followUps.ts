/**
 * Follow-up steps (issue 27 §1; DESIGN §14): when a step is due, whether it may still go, and how many
 * may go this month. Pure: the sender checks a step at claim time with `followUpStopReason` (the
 * guarantee; stop events also cancel steps eagerly), the capacity dialog counts with `followUpForecast`,
 * and the campaign page shows each email's steps (`followUpStepStates`) and each step's counts
 * (`followUpStepSummaries`).
 */
import type { FollowUpCondition, FollowUpStep, FollowUpStepState, FollowUpStepSummary, FollowUpStopReason } from '../../schema/api/followUps';
import { followUpStopReasons } from '../../schema/api/followUpValues';
import type { ListenAnswer } from '../../schema/api/listenValues';
import type { FollowUpItem, FollowUpOutcomeFacts } from '../ports';

/** A follow-up day: a day, or less for a demo (FOLLOW_UP_DAY_SECONDS locally). */
export const FOLLOW_UP_DAY_MS = 24 * 60 * 60_000;

/** When step `step` (0-based) of an email sent at `firstSentAt` falls due. */
export function followUpDueAt(firstSentAt: Date, steps: readonly Pick<FollowUpStep, 'after_days'>[], step: number, dayMs = FOLLOW_UP_DAY_MS): Date {
  const at = steps[step];
  if (at === undefined) throw new RangeError(`The campaign has no follow-up ${step + 1}`);
  return new Date(firstSentAt.getTime() + at.after_days * dayMs);
}

/** What is known of the first email and its recipient when a step falls due. */
export interface FollowUpFacts {
  /** The first email's status: only a sent one is followed up. */
  status: string;
  answer: ListenAnswer | null;
  answered_at: string | null;
  /** Reached 25 % on the listen page. */
  listened_at: string | null;
  /** A person's click (link scanners are not counted as clicks). */
  clicked_at: string | null;
  /** The artist's marks. */
  replied_at?: string | null;
  passed_at?: string | null;
  /** The address is on the artist's unsubscribe list now. */
  unsubscribed: boolean;
  /** The address answered 'Not for us' to this track, in any campaign. */
  passedOnTrack: boolean;
}

/**
 * Why the step must not go, or null when it may. Checked in the order of followUpStopReasons, so the
 * reason shown is the strongest. Opens never stop a step (mail privacy proxies open every email);
 * listening stops it unless the artist chose 'Only if they did not answer'.
 */
export function followUpStopReason(facts: FollowUpFacts, condition: FollowUpCondition): FollowUpStopReason | null {
  if (facts.status !== 'sent') return 'failed';
  if (facts.unsubscribed) return 'unsubscribed';
  if (facts.passedOnTrack || facts.answer === 'not_for_us') return 'not_for_us';
  if (facts.answered_at !== null) return 'answered';
  if (facts.replied_at) return 'replied';
  if (facts.passed_at) return 'passed';
  if (condition === 'not_listened' && facts.listened_at !== null) return 'listened';
  if (facts.clicked_at !== null) return 'clicked';
  return null;
}

/**
 * How many steps may fall due before `until` (the plan's month end) for first emails planned at
 * `firstSendTimes`: the capacity dialog's "up to N follow-ups later this month". An upper bound: a step
 * that is stopped never goes.
 */
export function followUpsWithin(
  firstSendTimes: readonly Date[],
  steps: readonly Pick<FollowUpStep, 'after_days'>[],
  until: Date,
  dayMs = FOLLOW_UP_DAY_MS,
): number {
  let count = 0;
  for (const sentAt of firstSendTimes) {
    for (let step = 0; step < steps.length; step++) if (followUpDueAt(sentAt, steps, step, dayMs) < until) count++;
  }
  return count;
}

/** The capacity dialog's count of a send's follow-up steps (issue 27 §1). */
export interface FollowUpForecast {
  /** Steps that may go before the plan's month ends: due by then, within what the month leaves after the first emails. */
  thisMonth: number;
  /** The rest: due after the month ends, or past the month's allowance; they wait for next month's. */
  nextMonth: number;
}

/**
 * How many of a send's steps may go this month ("up to N follow-ups later this month") and how many wait
 * for the next. First emails go first (the sender gives a step only a slot no first email wants), so the
 * month's allowance (`monthRemaining`, null: unlimited) serves the first emails planned before `monthEnd`
 * before any step; a step due this month beyond what is left waits for the next month, as the sender
 * makes it ('follow_up_month'). An upper bound: a stopped step never goes.
 */
export function followUpForecast(input: {
  /** When each first email should go, in order (core planSendTimes). */
  firstSendTimes: readonly Date[];
  steps: readonly Pick<FollowUpStep, 'after_days'>[];
  /** When the plan's month ends (its limit resets). */
  monthEnd: Date;
  /** What the plan's month has left before this send; null: unlimited. */
  monthRemaining: number | null;
  dayMs?: number;
}): FollowUpForecast {
  const { firstSendTimes, steps, monthEnd, monthRemaining, dayMs = FOLLOW_UP_DAY_MS } = input;
  const firstThisMonth = firstSendTimes.filter((at) => at < monthEnd).slice(0, monthRemaining ?? undefined);
  const due = followUpsWithin(firstThisMonth, steps, monthEnd, dayMs);
  const thisMonth = monthRemaining === null ? due : Math.min(due, Math.max(0, monthRemaining - firstThisMonth.length));
  return { thisMonth, nextMonth: firstSendTimes.length * steps.length - thisMonth };
}

/**
 * The follow-up steps of an email sent at `sentAt` (issue 27 §1): one pending item per step of the
 * campaign, due its days later, with the keys its stop rules check (the address and the track).
 */
export function followUpItemsFor(input: {
  steps: readonly Pick<FollowUpStep, 'after_days'>[];
  campaignId: string;
  position: number;
  sentAt: Date;
  addressId: string;
  trackKey: string;
  dayMs?: number;
}): FollowUpItem[] {
  const { steps, campaignId, position, sentAt, addressId, trackKey, dayMs = FOLLOW_UP_DAY_MS } = input;
  return steps.map((_, index) => ({
    campaign_id: campaignId,
    position,
    step: index + 1,
    due_at: followUpDueAt(sentAt, steps, index, dayMs).toISOString(),
    status: 'pending',
    claimed_at: null,
    token: null,
    attempts: 0,
    address_id: addressId,
    track_key: trackKey,
  }));
}

/** One email as the campaign's list reads it: the first email's status and time, and its steps' outcomes. */
export interface EmailFollowUpFacts extends Partial<Pick<FollowUpFacts, 'answer' | 'answered_at' | 'listened_at' | 'clicked_at' | 'replied_at' | 'passed_at'>> {
  status: string;
  sent_at: string | null;
  follow_up_1: FollowUpOutcomeFacts | null;
  follow_up_2: FollowUpOutcomeFacts | null;
}

/**
 * What became of each step of one email (issue 27 §1), one entry per step of the campaign. A settled step
 * is its outcome (a step that failed or whose outcome is unknown shows 'failed', as does every step of a
 * first email that did not go). A step not settled waits: until `followUpDueAt` of the first email's
 * sent time, computed rather than read from the step's FOLLOWUP item, which is keyed by due time in the
 * user's partition (finding a campaign's items would read every step the user has waiting). It is the
 * step's planned time: a pause, the pace or the send window may send it later. While the first email is
 * still to go, its steps wait with no due time.
 */
export function followUpStepStates(
  email: EmailFollowUpFacts,
  steps: readonly Pick<FollowUpStep, 'after_days'>[],
  dayMs = FOLLOW_UP_DAY_MS,
  condition?: FollowUpCondition,
): FollowUpStepState[] {
  const outcomes = [email.follow_up_1, email.follow_up_2];
  // What this email's recipient did already stops its waiting steps (the sender stops them at their claim,
  // the guarantee): said now, so a Mark Replied or an answer shows at once. An unsubscribe or 'Not for us'
  // in another campaign lives elsewhere: those show when the step falls due.
  const stopsNow =
    condition === undefined
      ? null
      : followUpStopReason(
          {
            status: email.status,
            answer: email.answer ?? null,
            answered_at: email.answered_at ?? null,
            listened_at: email.listened_at ?? null,
            clicked_at: email.clicked_at ?? null,
            replied_at: email.replied_at ?? null,
            passed_at: email.passed_at ?? null,
            unsubscribed: false,
            passedOnTrack: false,
          },
          condition,
        );
  return steps.map((_, index): FollowUpStepState => {
    const step = index + 1;
    const outcome = outcomes[index] ?? null;
    if (outcome?.state === 'sent') return { step, state: 'sent', sent_at: outcome.at };
    if (outcome?.state === 'stopped') return { step, state: 'stopped', reason: outcome.reason ?? 'failed' };
    if (outcome !== null) return { step, state: 'stopped', reason: 'failed' };
    if (email.status === 'pending' || email.status === 'sending') return { step, state: 'waiting', due_at: null };
    if (stopsNow !== null && stopsNow !== 'failed') return { step, state: 'stopped', reason: stopsNow };
    if (email.status === 'sent' && email.sent_at !== null) {
      return { step, state: 'waiting', due_at: followUpDueAt(new Date(email.sent_at), steps, index, dayMs).toISOString() };
    }
    return { step, state: 'stopped', reason: 'failed' };
  });
}

/**
 * Each step counted over a campaign's emails (their `followUpStepStates`): sent, stopped (by reason, in
 * the order of followUpStopReasons), waiting, and the earliest due time of a waiting step (its planned
 * time, which may have passed while the step waits for a slot or a paused campaign).
 */
export function followUpStepSummaries(
  steps: readonly Pick<FollowUpStep, 'after_days'>[],
  emails: readonly (readonly FollowUpStepState[])[],
): FollowUpStepSummary[] {
  return steps.map(({ after_days }, index) => {
    const summary: FollowUpStepSummary = { step: index + 1, after_days, sent: 0, stopped: 0, stopped_by_reason: [], waiting: 0, next_due_at: null };
    const byReason = new Map<FollowUpStopReason, number>();
    for (const states of emails) {
      const state = states[index];
      if (state?.state === 'sent') summary.sent++;
      if (state?.state === 'stopped') {
        summary.stopped++;
        byReason.set(state.reason, (byReason.get(state.reason) ?? 0) + 1);
      }
      if (state?.state === 'waiting') {
        summary.waiting++;
        // ISO times in UTC compare as strings.
        if (state.due_at !== null && (summary.next_due_at === null || state.due_at < summary.next_due_at)) summary.next_due_at = state.due_at;
      }
    }
    summary.stopped_by_reason = followUpStopReasons.flatMap((reason) => {
      const count = byReason.get(reason);
      return count === undefined ? [] : [{ reason, count }];
    });
    return summary;
  });
}
