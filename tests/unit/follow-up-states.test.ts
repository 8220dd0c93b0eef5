/**
 * The campaign page's follow-ups (issue 27 §1) as the core computes them: each email's steps
 * (followUpStepStates) and each step counted over the emails (followUpStepSummaries).
 */
import { describe, expect, it } from 'vitest';
import { FOLLOW_UP_DAY_MS, followUpStepStates, followUpStepSummaries, type EmailFollowUpFacts } from '../../lambdas/core/followUps';
import type { FollowUpStepState } from '../../schema/api/followUps';

const SENT_AT = '2026-11-28T10:00:00.000Z';
const LATER = '2026-11-30T10:00:00.000Z';
const STEPS = [{ after_days: 4 }, { after_days: 9 }];
const sent: EmailFollowUpFacts = { status: 'sent', sent_at: SENT_AT, follow_up_1: null, follow_up_2: null };
const daysAfter = (iso: string, days: number, dayMs = FOLLOW_UP_DAY_MS) => new Date(Date.parse(iso) + days * dayMs).toISOString();

describe('followUpStepStates', () => {
  it('has one entry per step of the campaign, none without steps', () => {
    expect(followUpStepStates(sent, [])).toEqual([]);
    expect(followUpStepStates(sent, STEPS.slice(0, 1))).toHaveLength(1);
    expect(followUpStepStates(sent, STEPS)).toHaveLength(2);
  });

  it('what the recipient did already stops the waiting steps at once (Mark Replied, an answer, a click; a listen only under its condition)', () => {
    const stopped = (reason: string) => [
      { step: 1, state: 'stopped', reason },
      { step: 2, state: 'stopped', reason },
    ];
    expect(followUpStepStates({ ...sent, replied_at: LATER }, STEPS, FOLLOW_UP_DAY_MS, 'not_listened')).toEqual(stopped('replied'));
    expect(followUpStepStates({ ...sent, answer: 'interested', answered_at: LATER }, STEPS, FOLLOW_UP_DAY_MS, 'not_answered')).toEqual(stopped('answered'));
    expect(followUpStepStates({ ...sent, answer: 'not_for_us', answered_at: LATER }, STEPS, FOLLOW_UP_DAY_MS, 'not_answered')).toEqual(stopped('not_for_us'));
    expect(followUpStepStates({ ...sent, clicked_at: LATER }, STEPS, FOLLOW_UP_DAY_MS, 'not_answered')).toEqual(stopped('clicked'));
    expect(followUpStepStates({ ...sent, listened_at: LATER }, STEPS, FOLLOW_UP_DAY_MS, 'not_listened')).toEqual(stopped('listened'));
    // 'Only if they did not answer': a listen leaves the steps waiting.
    expect(followUpStepStates({ ...sent, listened_at: LATER }, STEPS, FOLLOW_UP_DAY_MS, 'not_answered')[0]).toMatchObject({ state: 'waiting' });
    // A step already sent stays sent; the next one is stopped.
    expect(followUpStepStates({ ...sent, replied_at: LATER, follow_up_1: { state: 'sent', at: LATER } }, STEPS, FOLLOW_UP_DAY_MS, 'not_listened')).toEqual([
      { step: 1, state: 'sent', sent_at: LATER },
      { step: 2, state: 'stopped', reason: 'replied' },
    ]);
  });

  it('a step not settled of a sent email waits until its days after the first email, at the configured day length', () => {
    expect(followUpStepStates(sent, STEPS)).toEqual([
      { step: 1, state: 'waiting', due_at: daysAfter(SENT_AT, 4) },
      { step: 2, state: 'waiting', due_at: daysAfter(SENT_AT, 9) },
    ]);
    // FOLLOW_UP_DAY_SECONDS=20: a day lasts 20 s.
    expect(followUpStepStates(sent, STEPS, 20_000)).toEqual([
      { step: 1, state: 'waiting', due_at: '2026-11-28T10:01:20.000Z' },
      { step: 2, state: 'waiting', due_at: '2026-11-28T10:03:00.000Z' },
    ]);
  });

  it.each(['pending', 'sending'])('a first email still %s: its steps wait with no due time', (status) => {
    expect(followUpStepStates({ ...sent, status, sent_at: null }, STEPS)).toEqual([
      { step: 1, state: 'waiting', due_at: null },
      { step: 2, state: 'waiting', due_at: null },
    ]);
  });

  it.each(['failed', 'skipped', 'unknown'])('a first email %s: every step is stopped as failed', (status) => {
    expect(followUpStepStates({ ...sent, status, sent_at: null }, STEPS)).toEqual([
      { step: 1, state: 'stopped', reason: 'failed' },
      { step: 2, state: 'stopped', reason: 'failed' },
    ]);
  });

  it('a settled step is its outcome: sent (when), stopped (why); a failed or unknown step shows failed', () => {
    expect(
      followUpStepStates({ ...sent, follow_up_1: { state: 'sent', at: LATER }, follow_up_2: { state: 'stopped', at: LATER, reason: 'listened' } }, STEPS),
    ).toEqual([
      { step: 1, state: 'sent', sent_at: LATER },
      { step: 2, state: 'stopped', reason: 'listened' },
    ]);
    expect(followUpStepStates({ ...sent, follow_up_1: { state: 'failed', at: LATER }, follow_up_2: { state: 'unknown', at: LATER } }, STEPS)).toEqual([
      { step: 1, state: 'stopped', reason: 'failed' },
      { step: 2, state: 'stopped', reason: 'failed' },
    ]);
    // Step 1 settled, step 2 still waiting.
    expect(followUpStepStates({ ...sent, follow_up_1: { state: 'stopped', at: LATER, reason: 'replied' } }, STEPS)).toEqual([
      { step: 1, state: 'stopped', reason: 'replied' },
      { step: 2, state: 'waiting', due_at: daysAfter(SENT_AT, 9) },
    ]);
  });
});

describe('followUpStepSummaries', () => {
  const waiting = (step: number, due_at: string | null): FollowUpStepState => ({ step, state: 'waiting', due_at });
  const stopped = (step: number, reason: 'answered' | 'clicked' | 'failed'): FollowUpStepState => ({ step, state: 'stopped', reason });

  it('counts each step: sent, stopped by reason in the order of the reasons, waiting, and the earliest due of a waiting one', () => {
    const emails: FollowUpStepState[][] = [
      [{ step: 1, state: 'sent', sent_at: LATER }, waiting(2, '2026-12-09T10:00:00.000Z')],
      [stopped(1, 'clicked'), waiting(2, '2026-12-07T10:00:00.000Z')],
      [stopped(1, 'answered'), stopped(2, 'answered')],
      [stopped(1, 'clicked'), waiting(2, null)],
      [waiting(1, '2026-12-03T10:00:00.000Z'), waiting(2, '2026-12-08T10:00:00.000Z')],
      [waiting(1, null), waiting(2, null)],
      [stopped(1, 'failed'), stopped(2, 'failed')],
    ];
    expect(followUpStepSummaries(STEPS, emails)).toEqual([
      {
        step: 1,
        after_days: 4,
        sent: 1,
        stopped: 4,
        stopped_by_reason: [
          { reason: 'failed', count: 1 },
          { reason: 'answered', count: 1 },
          { reason: 'clicked', count: 2 },
        ],
        waiting: 2,
        next_due_at: '2026-12-03T10:00:00.000Z',
      },
      {
        step: 2,
        after_days: 9,
        sent: 0,
        stopped: 2,
        stopped_by_reason: [
          { reason: 'failed', count: 1 },
          { reason: 'answered', count: 1 },
        ],
        waiting: 5,
        next_due_at: '2026-12-07T10:00:00.000Z',
      },
    ]);
  });

  it('no emails: every step at zero with no next due; no steps: nothing', () => {
    expect(followUpStepSummaries(STEPS.slice(0, 1), [])).toEqual([
      { step: 1, after_days: 4, sent: 0, stopped: 0, stopped_by_reason: [], waiting: 0, next_due_at: null },
    ]);
    expect(followUpStepSummaries([], [[], []])).toEqual([]);
  });
});
