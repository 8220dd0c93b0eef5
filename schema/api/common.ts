import { z } from 'zod';

/** Every error the API returns has this body; `requestId` is set on 500s so support can find the log. */
export const apiErrorSchema = z.object({
  message: z.string(),
  requestId: z.string().optional(),
  /** A machine-readable reason where the web reacts to more than the message (e.g. an Upgrade action). */
  code: z.string().optional(),
});
export type ApiError = z.infer<typeof apiErrorSchema>;

export const healthSchema = z.object({ ok: z.literal(true), version: z.string() });
export type Health = z.infer<typeof healthSchema>;
