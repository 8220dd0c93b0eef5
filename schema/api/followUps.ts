import * as z from 'zod';
import { storableText } from './common';
import {
  FOLLOW_UP_STEPS_MAX,
  followUpConditions,
  followUpLimits,
  followUpMessages,
  followUpStopReasons,
  followUpWriters,
  type FollowUps,
} from './followUpValues';

export * from './followUpValues';

/**
 * A campaign's follow-ups (issue 27 §1), as Compose sends them and the campaign stores them: up to two
 * steps, each some days after the first email, written by the AI writer or the artist (the same
 * placeholders as the first email), and which engagement stops them. Off (no steps) by default.
 */
export const followUpStepSchema = z
  .object({
    after_days: z
      .number({ message: followUpMessages.daysRange })
      .int(followUpMessages.daysRange)
      .min(followUpLimits.daysMin, followUpMessages.daysRange)
      .max(followUpLimits.daysMax, followUpMessages.daysRange),
    writer: z.enum(followUpWriters),
    /** The artist's text ('own'); null when the AI writes the step. */
    text: storableText('Follow-up')
      .max(followUpLimits.textMax, `Must be at most ${followUpLimits.textMax} characters`)
      .nullish()
      .transform((value) => (value === undefined || value === null || value.trim() === '' ? null : value)),
  })
  .strict()
  // Checked even when the days are wrong too, so a form shows every problem at once.
  .refine((step) => step.writer === 'ai' || step.text !== null, {
    message: followUpMessages.textRequired,
    path: ['text'],
    // (An issue of the object itself, an unknown key, may come without a path.)
    when: ({ issues }) => issues.every((issue) => !['writer', 'text'].includes(String(issue.path?.[0]))),
  });

export const followUpsSchema = z
  .object({
    steps: z.array(followUpStepSchema).max(FOLLOW_UP_STEPS_MAX, followUpMessages.tooMany),
    condition: z.enum(followUpConditions).default('not_listened'),
  })
  .strict()
  .check((ctx) => {
    // Checked even when another field is wrong, between two days that are each valid.
    const steps = (ctx.value as { steps?: unknown }).steps;
    if (!Array.isArray(steps)) return;
    const days = steps.map((step) => (step as { after_days?: unknown } | null)?.after_days);
    days.forEach((after, index) => {
      const before = days[index - 1];
      if (typeof before === 'number' && typeof after === 'number' && Number.isInteger(before) && Number.isInteger(after) && after <= before) {
        ctx.issues.push({ code: 'custom', message: followUpMessages.daysOrder, path: ['steps', index, 'after_days'], input: after });
      }
    });
  });
export type FollowUpsInput = z.input<typeof followUpsSchema>;

/** The follow-ups as a campaign answers them (already checked when they were sent). */
export const storedFollowUpsSchema: z.ZodType<FollowUps> = z.object({
  steps: z.array(z.object({ after_days: z.number().int(), writer: z.enum(followUpWriters), text: z.string().nullable() })),
  condition: z.enum(followUpConditions),
});

/**
 * One step (1 or 2) of one email as the campaign page shows it: sent, stopped (and why: a step that
 * failed, or whose first email did not go, is 'failed'), or waiting until `due_at`, null while the first
 * email is still to be sent (its day counts from when it goes).
 */
export const followUpStepStateSchema = z.discriminatedUnion('state', [
  z.object({ step: z.number().int(), state: z.literal('sent'), sent_at: z.string() }),
  z.object({ step: z.number().int(), state: z.literal('stopped'), reason: z.enum(followUpStopReasons) }),
  z.object({ step: z.number().int(), state: z.literal('waiting'), due_at: z.string().nullable() }),
]);
export type FollowUpStepState = z.infer<typeof followUpStepStateSchema>;

/**
 * One step of a campaign, counted over its emails: how many went, how many were stopped (by reason, in
 * the order of followUpStopReasons, only the reasons that occur), how many wait, and the earliest time a
 * waiting step is due (null: none waits with a due time).
 */
export const followUpStepSummarySchema = z.object({
  step: z.number().int(),
  after_days: z.number().int(),
  sent: z.number().int(),
  stopped: z.number().int(),
  stopped_by_reason: z.array(z.object({ reason: z.enum(followUpStopReasons), count: z.number().int() })),
  waiting: z.number().int(),
  next_due_at: z.string().nullable(),
});
export type FollowUpStepSummary = z.infer<typeof followUpStepSummarySchema>;
