import { describe, expect, it } from 'vitest';
import { FOLLOW_UP_DAY_MS, followUpDueAt, followUpForecast, followUpStopReason, followUpsWithin, type FollowUpFacts } from '../../lambdas/core/followUps';
import { followUpMessages, followUpsSchema, followUpStopReasons, NO_FOLLOW_UPS } from '../../schema/api/followUps';

const quiet: FollowUpFacts = {
  status: 'sent',
  answer: null,
  answered_at: null,
  listened_at: null,
  clicked_at: null,
  replied_at: null,
  passed_at: null,
  unsubscribed: false,
  passedOnTrack: false,
};
const AT = '2026-11-28T10:00:00.000Z';

describe('followUpStopReason', () => {
  it('lets a step go to a recipient who did nothing but open (opens never stop a step)', () => {
    expect(followUpStopReason(quiet, 'not_listened')).toBeNull();
    expect(followUpStopReason(quiet, 'not_answered')).toBeNull();
  });

  it.each([
    ['failed', { status: 'failed' }],
    ['failed', { status: 'unknown' }],
    ['failed', { status: 'skipped' }],
    ['unsubscribed', { unsubscribed: true }],
    ['not_for_us', { passedOnTrack: true }],
    ['not_for_us', { answer: 'not_for_us', answered_at: AT }],
    ['answered', { answer: 'interested', answered_at: AT }],
    ['answered', { answer: 'send_wavs', answered_at: AT }],
    ['replied', { replied_at: AT }],
    ['passed', { passed_at: AT }],
    ['listened', { listened_at: AT }],
    ['clicked', { clicked_at: AT }],
  ] as const)('stops the step as %s when %o', (reason, change) => {
    expect(followUpStopReason({ ...quiet, ...change }, 'not_listened')).toBe(reason);
  });

  it("'Not for us' on this track in another campaign stops the step whatever else this email did", () => {
    expect(followUpStopReason({ ...quiet, passedOnTrack: true, clicked_at: AT, listened_at: AT }, 'not_answered')).toBe('not_for_us');
  });

  it("a listen stops the step only under 'Only if they did not listen'", () => {
    const listened = { ...quiet, listened_at: AT };
    expect(followUpStopReason(listened, 'not_listened')).toBe('listened');
    expect(followUpStopReason(listened, 'not_answered')).toBeNull();
    expect(followUpStopReason({ ...listened, answered_at: AT, answer: 'interested' }, 'not_answered')).toBe('answered');
  });

  it('names the strongest reason when several hold (the order of followUpStopReasons)', () => {
    const everything: FollowUpFacts = {
      status: 'sent',
      answer: 'interested',
      answered_at: AT,
      listened_at: AT,
      clicked_at: AT,
      replied_at: AT,
      passed_at: AT,
      unsubscribed: true,
      passedOnTrack: false,
    };
    expect(followUpStopReason(everything, 'not_listened')).toBe('unsubscribed');
    expect(followUpStopReason({ ...everything, unsubscribed: false }, 'not_listened')).toBe('answered');
    expect(followUpStopReasons.indexOf('answered')).toBeLessThan(followUpStopReasons.indexOf('clicked'));
  });
});

describe('followUpDueAt and followUpsWithin', () => {
  const steps = [{ after_days: 4 }, { after_days: 9 }];
  const sent = new Date('2026-11-20T09:00:00.000Z');

  it('puts each step its days after the first email, on the day length given (a demo day is shorter)', () => {
    expect(followUpDueAt(sent, steps, 0).toISOString()).toBe('2026-11-24T09:00:00.000Z');
    expect(followUpDueAt(sent, steps, 1).toISOString()).toBe('2026-11-29T09:00:00.000Z');
    expect(followUpDueAt(sent, steps, 1, 20_000).getTime() - sent.getTime()).toBe(180_000);
    expect(() => followUpDueAt(sent, steps, 2)).toThrow('The campaign has no follow-up 3');
  });

  it('counts the steps that fall due before the month ends, and none after', () => {
    const monthEnd = new Date('2026-12-01T08:00:00.000Z');
    const firstSends = [sent, new Date('2026-11-25T09:00:00.000Z'), new Date('2026-11-28T09:00:00.000Z')];
    // 11-20: steps on 11-24 and 11-29 both count; 11-25: 11-29 counts, 12-04 does not; 11-28: 12-02 and 12-07 do not.
    expect(followUpsWithin(firstSends, steps, monthEnd)).toBe(3);
    expect(followUpsWithin(firstSends, [], monthEnd)).toBe(0);
    expect(followUpsWithin(firstSends, steps, new Date('2027-01-01T08:00:00.000Z'))).toBe(6);
    expect(FOLLOW_UP_DAY_MS).toBe(86_400_000);
  });
});

describe("followUpForecast: the capacity dialog's 'up to N follow-ups later this month'", () => {
  const steps = [{ after_days: 4 }, { after_days: 9 }];
  const monthEnd = new Date('2026-12-01T08:00:00.000Z');
  const at = (day: string) => new Date(`2026-${day}T09:00:00.000Z`);
  // 11-20: steps on 11-24 and 11-29; 11-25: 11-29 and 12-04; 11-28: 12-02 and 12-07.
  const firstSends = [at('11-20'), at('11-25'), at('11-28')];

  it('unlimited: the steps due before the month ends go this month, the rest after it', () => {
    expect(followUpForecast({ firstSendTimes: firstSends, steps, monthEnd, monthRemaining: null })).toEqual({ thisMonth: 3, nextMonth: 3 });
  });

  it("first emails go first: steps take only what the month's allowance leaves after them; the rest wait for next month's", () => {
    // 4 left: the 3 first emails take 3, one step may go.
    expect(followUpForecast({ firstSendTimes: firstSends, steps, monthEnd, monthRemaining: 4 })).toEqual({ thisMonth: 1, nextMonth: 5 });
    // 2 left: only the first two emails go this month, and nothing is left for their steps.
    expect(followUpForecast({ firstSendTimes: firstSends, steps, monthEnd, monthRemaining: 2 })).toEqual({ thisMonth: 0, nextMonth: 6 });
    // Plenty left: the steps due this month all fit.
    expect(followUpForecast({ firstSendTimes: firstSends, steps, monthEnd, monthRemaining: 100 })).toEqual({ thisMonth: 3, nextMonth: 3 });
  });

  it("a first email planned past the month's end brings no step this month", () => {
    const later = [at('11-20'), at('11-25'), new Date('2026-12-02T09:00:00.000Z')];
    expect(followUpForecast({ firstSendTimes: later, steps, monthEnd, monthRemaining: 100 })).toEqual({ thisMonth: 3, nextMonth: 3 });
  });

  it('counts on the follow-up day given (a 20 s demo day puts every step in the month), and nothing without steps', () => {
    expect(followUpForecast({ firstSendTimes: firstSends, steps, monthEnd, monthRemaining: null, dayMs: 20_000 })).toEqual({ thisMonth: 6, nextMonth: 0 });
    expect(followUpForecast({ firstSendTimes: firstSends, steps: [], monthEnd, monthRemaining: null })).toEqual({ thisMonth: 0, nextMonth: 0 });
  });
});

describe('followUpsSchema', () => {
  it('takes up to two steps of 1–30 days in order, AI-written or the artist’s own text', () => {
    const parsed = followUpsSchema.parse({
      steps: [
        { after_days: 4, writer: 'ai' },
        { after_days: 9, writer: 'own', text: 'Hi [CONTACT_NAME], just checking you got this.' },
      ],
    });
    expect(parsed.condition).toBe('not_listened');
    expect(parsed.steps[0]).toEqual({ after_days: 4, writer: 'ai', text: null });
    expect(followUpsSchema.parse({ steps: [] })).toEqual(NO_FOLLOW_UPS);
  });

  it.each([
    [
      {
        steps: [
          { after_days: 1, writer: 'ai' },
          { after_days: 2, writer: 'ai' },
          { after_days: 3, writer: 'ai' },
        ],
      },
      followUpMessages.tooMany,
    ],
    [{ steps: [{ after_days: 0, writer: 'ai' }] }, followUpMessages.daysRange],
    [{ steps: [{ after_days: 31, writer: 'ai' }] }, followUpMessages.daysRange],
    [{ steps: [{ after_days: 2.5, writer: 'ai' }] }, followUpMessages.daysRange],
    [
      {
        steps: [
          { after_days: 9, writer: 'ai' },
          { after_days: 9, writer: 'ai' },
        ],
      },
      followUpMessages.daysOrder,
    ],
    [{ steps: [{ after_days: 4, writer: 'own', text: '   ' }] }, followUpMessages.textRequired],
  ])('refuses %o with a message the form shows', (input, message) => {
    const result = followUpsSchema.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.message)).toContain(message);
  });

  it('refuses an unknown field or condition', () => {
    expect(followUpsSchema.safeParse({ steps: [], condition: 'not_opened' }).success).toBe(false);
    expect(followUpsSchema.safeParse({ steps: [{ after_days: 4, writer: 'ai', extra: 1 }] }).success).toBe(false);
  });
});
