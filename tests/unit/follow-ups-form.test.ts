import { describe, expect, it } from 'vitest';
import { followUpMessages, NO_FOLLOW_UPS } from '../../schema/api/followUpValues';
import {
  emptyFollowUpsForm,
  followUpsFormOf,
  followUpsOf,
  isFollowUpsFormUntouched,
  withStepAdded,
  withStepRemoved,
  type FollowUpsForm,
} from '../../web/src/pages/compose/followUpsForm';

const on = (steps: FollowUpsForm['steps'], condition: FollowUpsForm['condition'] = 'not_listened'): FollowUpsForm => ({ on: true, steps, condition });

describe("Compose's follow-ups form (issue 27 §1)", () => {
  it('sends none while off, whatever the steps hold', () => {
    expect(followUpsOf({ ...emptyFollowUpsForm, steps: [{ after_days: 'x', writer: 'own', text: '' }] })).toEqual({ ok: true, followUps: NO_FOLLOW_UPS });
  });

  it('turned on: the typed days as numbers, the AI step without text, the own step with it', () => {
    const form = on(
      [
        { after_days: ' 4 ', writer: 'ai', text: 'kept while the AI writes, never sent' },
        { after_days: '9', writer: 'own', text: 'Hi [FIRST_NAME]' },
      ],
      'not_answered',
    );
    expect(followUpsOf(form)).toEqual({
      ok: true,
      followUps: {
        steps: [
          { after_days: 4, writer: 'ai', text: null },
          { after_days: 9, writer: 'own', text: 'Hi [FIRST_NAME]' },
        ],
        condition: 'not_answered',
      },
    });
  });

  it('names each problem beside its step and field, with the server’s words', () => {
    const badDays = followUpsOf(
      on([
        { after_days: '2.5', writer: 'own', text: '   ' },
        { after_days: '2', writer: 'ai', text: '' },
      ]),
    );
    expect(badDays).toEqual({
      ok: false,
      errors: { steps: [{ after_days: followUpMessages.daysRange, text: followUpMessages.textRequired }, {}], first: followUpMessages.daysRange },
    });
    // Every problem at once: a missing text does not hide steps out of order.
    const outOfOrder = followUpsOf(
      on([
        { after_days: '5', writer: 'own', text: '' },
        { after_days: '5', writer: 'ai', text: '' },
      ]),
    );
    expect(outOfOrder).toEqual({
      ok: false,
      errors: { steps: [{ text: followUpMessages.textRequired }, { after_days: followUpMessages.daysOrder }], first: followUpMessages.textRequired },
    });
    expect(followUpsOf(on([{ after_days: '', writer: 'ai', text: '' }]))).toMatchObject({ ok: false, errors: { first: followUpMessages.daysRange } });
    expect(followUpsOf(on([{ after_days: '31', writer: 'ai', text: '' }]))).toMatchObject({ ok: false, errors: { first: followUpMessages.daysRange } });
  });

  it('adds steps at their default days up to two, and removing the last turns them off', () => {
    const two = withStepAdded({ ...emptyFollowUpsForm, on: true });
    expect(two.steps.map((step) => step.after_days)).toEqual(['4', '9']);
    expect(withStepAdded(two)).toBe(two);
    const one = withStepRemoved(two, 0);
    expect(one).toMatchObject({ on: true, steps: [{ after_days: '9' }] });
    expect(withStepRemoved({ ...one, condition: 'not_answered' }, 0)).toEqual({ ...emptyFollowUpsForm, condition: 'not_answered' });
  });

  it('reads a kept form back part by part; junk takes the empty form’s parts', () => {
    expect(followUpsFormOf(null)).toEqual(emptyFollowUpsForm);
    expect(followUpsFormOf('x')).toEqual(emptyFollowUpsForm);
    expect(followUpsFormOf({ on: true, steps: [], condition: 'sometimes' })).toEqual(emptyFollowUpsForm);
    expect(
      followUpsFormOf({
        on: true,
        steps: [{ after_days: 5, writer: 'robot', text: 'kept' }, { after_days: '12', writer: 'own', text: 7 }, { after_days: '20' }],
        condition: 'not_answered',
      }),
    ).toEqual(
      on(
        [
          { after_days: '4', writer: 'ai', text: 'kept' },
          { after_days: '12', writer: 'own', text: '' },
        ],
        'not_answered',
      ),
    );
    expect(isFollowUpsFormUntouched(followUpsFormOf(JSON.parse(JSON.stringify(emptyFollowUpsForm))))).toBe(true);
    expect(isFollowUpsFormUntouched({ ...emptyFollowUpsForm, on: true })).toBe(false);
  });
});
