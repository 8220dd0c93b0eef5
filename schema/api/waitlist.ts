import { z } from 'zod';
import { musicStyles, waitlistMessages, waitlistStatuses, WHY_INTERESTED_MAX } from './waitlistConstants';

export { BETA_SPOTS, musicStyles, waitlistMessages, waitlistStatuses, WHY_INTERESTED_MAX } from './waitlistConstants';

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
    email: z.string().trim().min(1, waitlistMessages.required).max(254, 'Email must be at most 254 characters')
      .pipe(z.email('Enter a valid email address')).transform((email) => email.toLowerCase()),
    artist_name: z.string().trim().min(1, waitlistMessages.required).max(100, 'Artist name must be at most 100 characters'),
    music_style: z.string().trim().min(1, waitlistMessages.required).pipe(z.enum(musicStyles, 'Choose a music style from the list')),
    soundcloud_spotify_url: z
      .string()
      .trim()
      .max(500, 'Link must be at most 500 characters')
      .refine((value) => value === '' || /^https?:\/\/[^\s/$.?#][^\s]*$/i.test(value), 'Enter a link that starts with http:// or https://')
      .transform((value) => (value === '' ? null : value))
      .nullish(),
    why_interested: z
      .string()
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
export const waitlistNotesSchema = z.object({ notes: z.string().max(2000, 'Notes must be at most 2000 characters') }).strict();

/** GET /api/admin/waitlist (admins): every entry, newest first. */
export const waitlistListSchema = z.object({ entries: z.array(waitlistEntrySchema) });
