import * as z from 'zod';
import { characterMessages, hasNulOrLoneSurrogate } from './characters';
import { normaliseLink, type LinkField } from './links';
import { canonicalTimeZone, TIME_ZONE_MAX_LENGTH, timeZoneMessages } from '../timeZones';

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

/**
 * A free-text field (a name, notes, a description, a subject, a body): a string that refuses NUL and
 * unpaired surrogates (./characters) with a message naming the field as the form does ('Name contains a
 * character that cannot be stored.'). Chain the field's own rules after it: `storableText('Name').trim().max(200)`.
 */
export const storableText = (field: string) => z.string().refine((value) => !hasNulOrLoneSurrogate(value), characterMessages.cannotStore(field));

/**
 * A link field as people type it (schema/api/links.ts normaliseLink): blank stays '', anything else
 * becomes the link stored ('soundcloud.com/norvik' → 'https://soundcloud.com/norvik'), or is refused
 * with `message`. The limit applies to what is stored.
 */
export const typedLink = ({
  max,
  message,
  field = 'website',
  tooLong = `Must be at most ${max} characters`,
}: {
  max: number;
  message: string;
  field?: LinkField;
  tooLong?: string;
}) =>
  z
    .string()
    .trim()
    .refine((value) => value === '' || normaliseLink(value, field) !== null, message)
    .transform((value) => (value === '' ? '' : (normaliseLink(value, field) ?? value)))
    .refine((value) => value.length <= max, tooLong);

/**
 * A time zone (issue 27 §2: a recipient's, or the artist's on their profile), an IANA name Intl knows, stored in its canonical spelling
 * ('europe/berlin' → 'Europe/Berlin'); blank or missing: null (not known). An unknown name is refused
 * with the name in the message.
 */
export const timeZoneField = z
  .string()
  .trim()
  .max(TIME_ZONE_MAX_LENGTH, `Time zone must be at most ${TIME_ZONE_MAX_LENGTH} characters`)
  .nullable()
  .optional()
  .transform((value, ctx) => {
    if (value == null || value === '') return null;
    const zone = canonicalTimeZone(value);
    if (zone === null) {
      ctx.addIssue({ code: 'custom', message: timeZoneMessages.unknown(value) });
      return z.NEVER;
    }
    return zone;
  });
