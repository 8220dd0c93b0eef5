import * as z from 'zod';
import { storableText, typedLink } from './common';
import {
  ARTIST_NAME_MAX,
  EMAIL_MAX,
  LINK_MAX,
  musicStyles,
  NOTES_MAX,
  waitlistMessages,
  waitlistEmailError,
  waitlistStatuses,
  WHY_INTERESTED_MAX,
} from './waitlistConstants';

export * from './waitlistConstants';

export const waitlistEntrySchema = z.object({
  id: z.string(),
  email: z.string(),
  artist_name: z.string(),
  music_style: z.string(),
  soundcloud_spotify_url: z.string().nullable(),
  why_interested: z.string().nullable(),
  status: z.enum(waitlistStatuses),
  submitted_at: z.string(),
  approved_at: z.string().nullable(),
  notes: z.string().nullable(),
});
export type WaitlistEntry = z.infer<typeof waitlistEntrySchema>;

/**
 * POST /api/waitlist (public). The web form checks the same schema before sending; the server checks
 * it again. The email is stored trimmed and lower-cased.
 */
export const waitlistJoinSchema = z
  .object({
    email: z
      .string()
      .trim()
      .min(1, waitlistMessages.required)
      .max(EMAIL_MAX, `Email must be at most ${EMAIL_MAX} characters`)
      .superRefine((email, ctx) => {
        const message = waitlistEmailError(email);
        if (message) ctx.addIssue({ code: 'custom', message });
      })
      .transform((email) => email.toLowerCase()),
    artist_name: storableText('Artist name')
      .trim()
      .min(1, waitlistMessages.required)
      .max(ARTIST_NAME_MAX, `Artist name must be at most ${ARTIST_NAME_MAX} characters`),
    music_style: z.string().trim().min(1, waitlistMessages.required).pipe(z.enum(musicStyles, 'Choose a music style from the list')),
    soundcloud_spotify_url: typedLink({ max: LINK_MAX, message: waitlistMessages.badLink, tooLong: `Link must be at most ${LINK_MAX} characters` })
      .transform((value) => (value === '' ? null : value))
      .nullish(),
    why_interested: storableText('Why interested')
      .trim()
      .max(WHY_INTERESTED_MAX, `Tell us in at most ${WHY_INTERESTED_MAX} characters`)
      .transform((value) => (value === '' ? null : value))
      .nullish(),
  })
  .strict();
export type WaitlistJoin = z.input<typeof waitlistJoinSchema>;

/*
 * POST /api/waitlist answers 201 with the stored WaitlistEntry (the caller's own submission, pending).
 * Errors: 400 { message } (a missing or blank required field gives exactly waitlistMessages.required;
 * other problems name the field), 409 { message: waitlistMessages.duplicate }, 429 when the route's
 * throttle refuses the request.
 */

/** GET /api/waitlist/spots (public): the real count of entries, not a hard-coded claim. */
export const waitlistSpotsSchema = z.object({ total: z.number().int(), taken: z.number().int(), remaining: z.number().int() });
export type WaitlistSpots = z.infer<typeof waitlistSpotsSchema>;

/**
 * PATCH /api/admin/waitlist/{id} (admins): pending → approved | rejected, never back. 200 with the
 * updated WaitlistEntry; 409 { message: waitlistMessages.notPending }; 404 { message: waitlistMessages.notFound }.
 */
export const waitlistStatusChangeSchema = z.object({ status: z.enum(['approved', 'rejected']) }).strict();

/** PUT /api/admin/waitlist/{id}/notes (admins): a blank text clears the notes (null). 200 with the updated WaitlistEntry. */
export const waitlistNotesSchema = z.object({ notes: storableText('Notes').max(NOTES_MAX, `Notes must be at most ${NOTES_MAX} characters`) }).strict();

/** GET /api/admin/waitlist page sizes: one page stays far below Lambda's 6 MB response limit. */
export const WAITLIST_PAGE_MAX = 1000;
export const WAITLIST_PAGE_DEFAULT = 500;

/**
 * GET /api/admin/waitlist?limit=&cursor= query (admins). `limit` 1..1000 (default 500); `cursor` is
 * the opaque `next_cursor` of the previous page. A bad limit is a 400; a malformed cursor is a 400
 * { message: 'Invalid cursor' } (checked by the store, which alone knows what a cursor holds).
 */
export const waitlistListQuerySchema = z.object({
  limit: z
    .string()
    .regex(/^[0-9]{1,4}$/, `limit must be a whole number from 1 to ${WAITLIST_PAGE_MAX}`)
    .transform(Number)
    .pipe(
      z
        .number()
        .int()
        .min(1, `limit must be a whole number from 1 to ${WAITLIST_PAGE_MAX}`)
        .max(WAITLIST_PAGE_MAX, `limit must be a whole number from 1 to ${WAITLIST_PAGE_MAX}`),
    )
    .default(WAITLIST_PAGE_DEFAULT),
  cursor: z.string().optional(),
});

export const INVALID_CURSOR = 'Invalid cursor';

/**
 * GET /api/admin/waitlist response: one page of entries, newest first; `next_cursor` is present
 * while more entries may follow (a last page can be empty).
 */
export const waitlistListSchema = z.object({ entries: z.array(waitlistEntrySchema), next_cursor: z.string().optional() });
export type WaitlistListPage = z.infer<typeof waitlistListSchema>;
