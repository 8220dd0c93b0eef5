import * as z from 'zod';
import { demoPolicyLimits, demoSubmitMethods, needsSubmitUrl, type DemoPolicy } from './demoPolicyValues';
import { genres } from './options';

export * from './demoPolicyValues';

const { responseDays, maxEmailWords } = demoPolicyLimits;

/**
 * A demo policy as stored on a directory entry or a contact and as the API returns it (./demoPolicyValues.ts
 * says what each field means): a web form or a platform always comes with its page.
 */
export const demoPolicySchema = z
  .object({
    submit_by: z.enum(demoSubmitMethods),
    submit_url: z.string().min(1).max(demoPolicyLimits.submitUrl).nullable(),
    private_streaming_only: z.boolean(),
    download_wanted: z.boolean(),
    attachments_refused: z.boolean(),
    unreleased_only: z.boolean(),
    genres: z.array(z.enum(genres)),
    response_days: z.number().int().min(responseDays.min).max(responseDays.max).nullable(),
    max_email_words: z.number().int().min(maxEmailWords.min).max(maxEmailWords.max).nullable(),
  })
  .refine((policy) => !needsSubmitUrl(policy.submit_by) || policy.submit_url !== null, {
    message: 'A web form or a platform needs its link.',
    path: ['submit_url'],
  }) satisfies z.ZodType<DemoPolicy>;
