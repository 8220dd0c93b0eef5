import type { FollowUpStepState } from '../../../../schema/api/followUps';
import { followUpStopReasonLabels } from '../../../../schema/api/followUpValues';
import { formatDateTime } from './campaignView';

/**
 * What the campaign page says about follow-up steps (issue 27 §1): a step's name and one email's step,
 * as pure functions of what the server answers.
 */

export const FOLLOW_UPS_TITLE = 'Follow-ups';

/** What the card says while the campaign is paused. */
export const FOLLOW_UPS_PAUSED = 'Paused: the waiting follow-ups go once you resume sending.';

/** 'Follow-up 1'. */
export const followUpName = (step: number) => `Follow-up ${step}`;

/** 'Follow-up 1 · after 4 days'. */
export const followUpHeading = (step: number, afterDays: number) => `${followUpName(step)} · after ${afterDays} day${afterDays === 1 ? '' : 's'}`;

/**
 * One email's step: 'Follow-up 1: Sent <date>', 'Follow-up 1: Stopped — Answered on the listen page',
 * 'Follow-up 1: Waiting until <date>'. A waiting step's time is when it is planned: once past (the pace,
 * a pause or the send window holds it), it is still waiting, 'due <date>'; before the first email goes,
 * it waits for it.
 */
export function followUpStateText(state: FollowUpStepState, now: number): string {
  const name = followUpName(state.step);
  switch (state.state) {
    case 'sent':
      return `${name}: Sent ${formatDateTime(state.sent_at)}`;
    case 'stopped':
      return `${name}: Stopped — ${followUpStopReasonLabels[state.reason]}`;
    case 'waiting':
      if (state.due_at === null) return `${name}: Waiting for the first email to go`;
      return Date.parse(state.due_at) > now
        ? `${name}: Waiting until ${formatDateTime(state.due_at)}`
        : `${name}: Waiting, due ${formatDateTime(state.due_at)}`;
  }
}
