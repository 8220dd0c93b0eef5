import * as z from 'zod';
import { storableText } from './common';
import { listenAnswers, listenEventTypes, listenLimits } from './listenValues';

export * from './listenValues';

/**
 * The listen page's bodies (issue 16): POST /api/l/{token}/events (navigator.sendBeacon) and
 * POST /api/l/{token}/answer. Loaded by the first POST only: the page's GET validates no body.
 */

const session = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'A play session id');

/** One beacon: a play started, progress (the furthest percent reached and the seconds heard this session), or a download. */
export const listenEventSchema = z
  .object({
    type: z.enum(listenEventTypes),
    session,
    percent: z.number().min(0).max(100).optional(),
    seconds: z
      .number()
      .min(0)
      .max(24 * 60 * 60)
      .optional(),
  })
  .strict();
export type ListenEvent = z.infer<typeof listenEventSchema>;

export const listenAnswerSchema = z
  .object({
    answer: z.enum(listenAnswers, { message: 'Choose an answer' }),
    note: storableText('Note')
      .trim()
      .max(listenLimits.noteMax, `Must be at most ${listenLimits.noteMax} characters`)
      .nullish()
      .transform((value) => (value === undefined || value === null || value === '' ? null : value)),
  })
  .strict();
export type ListenAnswerInput = z.input<typeof listenAnswerSchema>;
