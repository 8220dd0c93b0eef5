/**
 * Follow-up steps (issue 27 §1, DESIGN §14): their limits, defaults and the words the artist reads, free
 * of zod so the sender and the campaign page's chunk load none. followUps.ts adds the body schema.
 */

/** At most two steps: past two or three follow-ups, replies stop rising and unsubscribes and complaints climb. */
export const FOLLOW_UP_STEPS_MAX = 2;
/** 'After N days', 1–30; the steps' defaults are 4 and 9 days after the first email. */
export const followUpLimits = { daysMin: 1, daysMax: 30, textMax: 5000 } as const;
export const FOLLOW_UP_DEFAULT_DAYS = [4, 9] as const;

/** Who writes a step: the AI writer (a short, polite nudge written from the first email) or the artist. */
export const followUpWriters = ['ai', 'own'] as const;
export type FollowUpWriter = (typeof followUpWriters)[number];
export const followUpWriterLabels: Record<FollowUpWriter, string> = {
  ai: 'Written by AI',
  own: 'My own text',
};

/**
 * Which engagement stops the steps besides an answer: a listen (25 % or more) stops them ('Only if they
 * did not listen', the default), or only an answer does ('Only if they did not answer').
 */
export const followUpConditions = ['not_listened', 'not_answered'] as const;
export type FollowUpCondition = (typeof followUpConditions)[number];
export const followUpConditionLabels: Record<FollowUpCondition, string> = {
  not_listened: 'Only if they did not listen',
  not_answered: 'Only if they did not answer',
};

/**
 * Why a step did not go, in the order the sender checks (the first that holds is the one shown). Opens
 * are never a reason: mail privacy proxies open every email.
 */
export const followUpStopReasons = ['failed', 'unsubscribed', 'not_for_us', 'answered', 'replied', 'passed', 'listened', 'clicked'] as const;
export type FollowUpStopReason = (typeof followUpStopReasons)[number];
export const followUpStopReasonLabels: Record<FollowUpStopReason, string> = {
  // The first email did not go (failed, skipped, outcome unknown), or the step itself failed.
  failed: 'Sending failed',
  unsubscribed: 'Unsubscribed',
  not_for_us: "Answered 'Not for us' to this track",
  answered: 'Answered on the listen page',
  replied: 'Marked Replied',
  passed: 'Marked Passed',
  listened: 'Listened',
  clicked: 'Clicked a link',
};

/** One step: some days after the first email, written by the AI writer or the artist (`text`, with the first email's placeholders). */
export interface FollowUpStep {
  after_days: number;
  writer: FollowUpWriter;
  /** The artist's text; null when the AI writes the step. */
  text: string | null;
}

/** A campaign's follow-ups: the steps, in order, and which engagement stops them. */
export interface FollowUps {
  steps: FollowUpStep[];
  condition: FollowUpCondition;
}

/** No follow-ups: what a campaign has until the artist turns them on. */
export const NO_FOLLOW_UPS: FollowUps = { steps: [], condition: 'not_listened' };

export const followUpMessages = {
  tooMany: `At most ${FOLLOW_UP_STEPS_MAX} follow-ups`,
  daysRange: `Follow-ups go ${followUpLimits.daysMin} to ${followUpLimits.daysMax} days after the first email`,
  daysOrder: 'Each follow-up must come at least a day after the one before',
  textRequired: 'Write the follow-up, or let the AI write it',
} as const;
