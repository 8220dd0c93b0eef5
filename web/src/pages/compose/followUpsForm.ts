import {
  FOLLOW_UP_DEFAULT_DAYS,
  FOLLOW_UP_STEPS_MAX,
  followUpConditions,
  followUpsSchema,
  followUpWriters,
  NO_FOLLOW_UPS,
  type FollowUpCondition,
  type FollowUps,
  type FollowUpWriter,
} from '../../../../schema/api/followUps';

/**
 * Compose's "Follow-ups" (issue 27 §1) as the artist types them: off by default, up to two steps, each
 * "after N days" as typed (a string until checked) with the AI writer or the artist's own text. Pure.
 */
export interface FollowUpStepForm {
  after_days: string;
  writer: FollowUpWriter;
  /** The artist's text, kept while the AI is chosen so switching back loses nothing. */
  text: string;
}

export interface FollowUpsForm {
  on: boolean;
  steps: FollowUpStepForm[];
  condition: FollowUpCondition;
}

/** A new step: the default days of its place (4, then 9), written by the AI. */
export const newFollowUpStep = (index: number): FollowUpStepForm => ({
  after_days: String(FOLLOW_UP_DEFAULT_DAYS[index] ?? FOLLOW_UP_DEFAULT_DAYS[FOLLOW_UP_DEFAULT_DAYS.length - 1]),
  writer: 'ai',
  text: '',
});

/** As Compose opens: off, with one step ready for when it is turned on. */
export const emptyFollowUpsForm: FollowUpsForm = { on: false, steps: [newFollowUpStep(0)], condition: 'not_listened' };

/** The form with one more step (at most FOLLOW_UP_STEPS_MAX). */
export function withStepAdded(form: FollowUpsForm): FollowUpsForm {
  if (form.steps.length >= FOLLOW_UP_STEPS_MAX) return form;
  return { ...form, steps: [...form.steps, newFollowUpStep(form.steps.length)] };
}

/** The form without step `index`; removing the last one turns follow-ups off, ready with one step again. */
export function withStepRemoved(form: FollowUpsForm, index: number): FollowUpsForm {
  const steps = form.steps.filter((_, at) => at !== index);
  return steps.length === 0 ? { ...emptyFollowUpsForm, condition: form.condition } : { ...form, steps };
}

/** What is wrong with each step's fields, by step; empty when the form is sendable. */
export interface FollowUpsErrors {
  steps: { after_days?: string; text?: string }[];
  /** The first error, for the message of a refused send. */
  first: string | null;
}

/** A typed day count: a whole number as typed, or NaN (which the schema refuses with the range message). */
const daysOf = (typed: string) => (/^\s*\d+\s*$/.test(typed) ? Number(typed) : Number.NaN);

/**
 * The follow-ups a send carries, checked by the server's own schema: NO_FOLLOW_UPS when off, the steps
 * when valid, or the errors to show beside each field.
 */
export function followUpsOf(form: FollowUpsForm): { ok: true; followUps: FollowUps } | { ok: false; errors: FollowUpsErrors } {
  if (!form.on) return { ok: true, followUps: NO_FOLLOW_UPS };
  const parsed = followUpsSchema.safeParse({
    steps: form.steps.map((step) => ({ after_days: daysOf(step.after_days), writer: step.writer, text: step.writer === 'own' ? step.text : null })),
    condition: form.condition,
  });
  if (parsed.success) return { ok: true, followUps: parsed.data };
  const errors: FollowUpsErrors = { steps: form.steps.map(() => ({})), first: null };
  for (const issue of parsed.error.issues) {
    const [list, index, field] = issue.path;
    const step = list === 'steps' && typeof index === 'number' ? errors.steps[index] : undefined;
    if (step && (field === 'after_days' || field === 'text')) step[field] ??= issue.message;
    errors.first ??= issue.message;
  }
  return { ok: false, errors };
}

const isString = (value: unknown): value is string => typeof value === 'string';

/** A kept form read back part by part: a part of the wrong shape takes the empty form's. */
export function followUpsFormOf(value: unknown): FollowUpsForm {
  if (value === null || typeof value !== 'object') return emptyFollowUpsForm;
  const stored = value as Record<string, unknown>;
  const steps = (Array.isArray(stored.steps) ? stored.steps : []).slice(0, FOLLOW_UP_STEPS_MAX).map((step: unknown, index): FollowUpStepForm => {
    const fields = (step !== null && typeof step === 'object' ? step : {}) as Record<string, unknown>;
    const fallback = newFollowUpStep(index);
    return {
      after_days: isString(fields.after_days) ? fields.after_days : fallback.after_days,
      writer: followUpWriters.find((writer) => writer === fields.writer) ?? fallback.writer,
      text: isString(fields.text) ? fields.text : '',
    };
  });
  return {
    on: stored.on === true && steps.length > 0,
    steps: steps.length > 0 ? steps : emptyFollowUpsForm.steps,
    condition: followUpConditions.find((condition) => condition === stored.condition) ?? emptyFollowUpsForm.condition,
  };
}

/** Whether the artist has touched the follow-ups (Compose then holds work to keep or discard). */
export const isFollowUpsFormUntouched = (form: FollowUpsForm) => JSON.stringify(form) === JSON.stringify(emptyFollowUpsForm);
