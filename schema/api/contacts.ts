import * as z from 'zod';
import { listenAnswers } from './listenValues';
import { demoPolicySchema } from './demoPolicy';
import { characterMessages, hasInvisibleOrControl } from './characters';
import { storableText, timeZoneField } from './common';
import { normaliseLink } from './links';
import { contactTypes } from './options';
import { plural } from '../plural';

/**
 * Contacts, CSV import and unsubscribes: the API contract (spec §3 contacts and unsubscribes, §5, §8).
 * One contact per email per user: the server enforces it on add, edit, import and directory add.
 */

/**
 * Spec §5: text without spaces or @, an @, text, a dot, text. Used by the form, the CSV import and the
 * server for contacts. Deliberately looser than the waitlist's EMAIL_PATTERN: a contact list holds
 * whatever addresses people already use (e.g. non-ASCII domains), and the spec defines this rule.
 */
export const CONTACT_EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * The one email rule of contacts (the form, the CSV import, the directory import and add), surrounding
 * spaces ignored: null for an address a contact can have, else why not. An invisible or control character
 * (./characters) is named as such, since the address looks right; anything else off the spec §5 pattern
 * gets the spec's 'Please enter a valid email address.'.
 */
export function contactEmailError(value: string): string | null {
  const email = value.trim();
  if (hasInvisibleOrControl(email)) return characterMessages.invisibleInEmail;
  return CONTACT_EMAIL_PATTERN.test(email) ? null : contactMessages.invalidEmail;
}

/**
 * Whether a value is an address a contact can have (contactEmailError finds nothing): false for the
 * directory's 'No email' default and anything else that cannot be sent to.
 */
export const isContactEmail = (value: string) => contactEmailError(value) === null;

// Kept in a module without zod: the tracking Lambda hashes addresses without loading any schema.
export { normaliseEmail } from './emailAddress';

/** Spec §9 and §2: limits of the CSV import and of bulk operations. */
export const contactLimits = {
  csvMaxBytes: 5 * 1024 * 1024,
  csvMaxRows: 5000,
  /** Rows per POST /api/contacts/import request (spec §9 batch 100). */
  importBatch: 100,
  /** The most rows one import request accepts (the web sends `importBatch`; a script may send more). */
  importRequestMax: 500,
  /** Ids per POST /api/contacts/bulk-delete request (spec §9). */
  bulkDeleteBatch: 100,
  /** Contacts per GET /api/contacts page: default and maximum. */
  pageDefault: 500,
  pageMax: 1000,
  name: 200,
  email: 254,
  labelName: 200,
  position: 100,
  genre: 300,
  websiteUrl: 500,
  notes: 2000,
} as const;

/** Texts of spec §5 and §8 that the server returns or the web shows; tests find them by these words. */
export const contactMessages = {
  nameAndEmailRequired: 'Please fill in name and email fields.',
  invalidEmail: 'Please enter a valid email address.',
  duplicateEmail: 'A contact with this email already exists.',
  notFound: 'Contact not found.',
  noneFound: 'None of these contacts exist.',
  unsubscribeNotFound: 'This address is not on your unsubscribed list.',
  invalidCursor: 'Invalid cursor',
  // §8 toasts
  loadFailed: 'Failed to load contacts.',
  unsubscribedLoadFailed: 'Failed to fetch unsubscribed contacts',
  resubscribeFailed: 'Failed to resubscribe contact',
  resubscribed: 'Contact resubscribed successfully',
  resubscribeNeedsRequest: 'Confirm that they asked you to add them back: they unsubscribed themselves.',
  deleteManyFailed: 'Failed to delete contacts.',
  deletedManyTitle: 'Contacts deleted',
  deletedMany: (n: number) => `${plural(n, 'contact')} ${n === 1 ? 'has' : 'have'} been removed.`,
  addFailed: 'Failed to add contact.',
  added: 'Contact added!',
  updateFailed: 'Failed to update contact.',
  updated: 'Contact updated!',
  deleteFailed: 'Failed to delete contact.',
  deleted: 'Contact deleted',
  invalidWebsite: 'Enter a website such as https://label.com',
} as const;

/** Free text named as the form names it ('Name', 'Notes'), for the message of a character that cannot be stored. */
const requiredText = (max: number, field: string) =>
  storableText(field).trim().min(1, contactMessages.nameAndEmailRequired).max(max, `Must be at most ${max} characters`);

/** Optional text: blank becomes null (spec §7: "empty optional fields null"). */
const optionalText = (max: number, field: string) =>
  storableText(field)
    .trim()
    .max(max, `Must be at most ${max} characters`)
    .transform((value) => (value === '' ? null : value))
    .nullable()
    .optional()
    .transform((value) => value ?? null);

const emailField = z
  .string()
  .trim()
  .min(1, contactMessages.nameAndEmailRequired)
  .max(contactLimits.email, `Must be at most ${contactLimits.email} characters`)
  .superRefine((value, ctx) => {
    const message = contactEmailError(value);
    if (message) ctx.addIssue({ code: 'custom', message });
  });

/** A website as people type it ('https://…', 'http://…' or a bare 'label.com'), stored as the link normaliseLink makes. */
const websiteField = optionalText(Number.POSITIVE_INFINITY, 'Website')
  .refine((value) => value === null || normaliseLink(value) !== null, contactMessages.invalidWebsite)
  .transform((value) => (value === null ? null : normaliseLink(value)))
  // The limit applies to what is stored ('label.com' is stored as 'https://label.com'), so an edit of a
  // saved contact never fails on a website it did not touch.
  .refine((value) => value === null || value.length <= contactLimits.websiteUrl, `Must be at most ${contactLimits.websiteUrl} characters`);

export const contactSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  label_name: z.string().nullable(),
  contact_type: z.enum(contactTypes),
  position: z.string().nullable(),
  /** Comma-separated genres as the user typed them (spec §3); filters split and trim them. */
  genre: z.string().nullable(),
  website_url: z.string().nullable(),
  notes: z.string().nullable(),
  /** Set when the contact came from the LabelFinder directory. */
  genre_focus: z.string().nullable(),
  /** The recipient's IANA time zone (issue 27 §2); null: not known (their window is read in the artist's zone). */
  time_zone: z.string().nullable(),
  created_at: z.string(),
  /** The contact's latest one-click answer on a listen page (issue 16); absent until they answer. */
  last_answer: z
    .object({
      answer: z.enum(listenAnswers),
      note: z.string().nullable(),
      answered_at: z.string(),
      campaign_id: z.string(),
      track_name: z.string(),
    })
    .optional(),
  /** The demo policy of the directory entry the contact was added from (issue 28 §2); absent for one typed by hand or imported. */
  demo_policy: demoPolicySchema.optional(),
  /**
   * The label size of the directory entry the contact was added from ('Independent', free text as the
   * directory stores it); absent for one typed by hand or imported. The pipeline board filters by it.
   */
  label_size: z.string().nullable().optional(),
});
export type Contact = z.infer<typeof contactSchema>;

/** POST /api/contacts and PUT /api/contacts/{id} (the edit form sends every field). Unknown fields refused. */
export const contactInputSchema = z
  .object({
    name: requiredText(contactLimits.name, 'Name'),
    email: emailField,
    label_name: optionalText(contactLimits.labelName, 'Label/Company'),
    contact_type: z.enum(contactTypes).default('Label'),
    position: optionalText(contactLimits.position, 'Position'),
    genre: optionalText(contactLimits.genre, 'Genre'),
    website_url: websiteField,
    notes: optionalText(contactLimits.notes, 'Notes'),
    time_zone: timeZoneField,
  })
  .strict();
export type ContactInput = z.infer<typeof contactInputSchema>;
export type ContactInputBody = z.input<typeof contactInputSchema>;

/** GET /api/contacts?limit=&cursor= : newest first, one page per request. */
export const contactListQuerySchema = z
  .object({
    limit: z.coerce
      .number()
      .int('limit must be a whole number')
      .min(1, 'limit must be at least 1')
      .max(contactLimits.pageMax, `limit must be at most ${contactLimits.pageMax}`)
      .default(contactLimits.pageDefault),
    cursor: z.string().optional(),
  })
  .strict();

/** One page of contacts; `next_cursor` is present while more may follow. */
export const contactListSchema = z.object({ contacts: z.array(contactSchema), next_cursor: z.string().optional() });
export type ContactListPage = z.infer<typeof contactListSchema>;

/** POST /api/contacts/bulk-delete: up to 100 ids. */
export const bulkDeleteSchema = z
  .object({
    ids: z
      .array(z.string().min(1).max(100))
      .min(1, 'Select at least one contact.')
      .max(contactLimits.bulkDeleteBatch, `At most ${contactLimits.bulkDeleteBatch} contacts per request.`),
  })
  .strict();

/**
 * What was deleted: the ids among those sent that were the caller's contacts. An id that is not (already
 * deleted, or never the caller's) is left out; when none were, the answer is a 404.
 */
export const bulkDeleteResultSchema = z.object({ deleted: z.array(z.string()) });
export type BulkDeleteResult = z.infer<typeof bulkDeleteResultSchema>;

/**
 * Spec §3 "CSV import contact": the mapped columns of one CSV row. Besides the spec's five, every other
 * field a contact has (issue 25), so no column of a file has to be dropped.
 */
export const csvContactSchema = z
  .object({
    email: emailField,
    /** Missing or blank: the part of the email before the @. */
    name: optionalText(contactLimits.name, 'Name'),
    label_name: optionalText(contactLimits.labelName, 'Label/Company'),
    contact_type: z.enum(contactTypes).default('Label'),
    position: optionalText(contactLimits.position, 'Position'),
    genre: optionalText(contactLimits.genre, 'Genre'),
    website_url: websiteField,
    notes: optionalText(contactLimits.notes, 'Notes'),
    time_zone: timeZoneField,
  })
  .strict();
export type CsvContact = z.input<typeof csvContactSchema>;

/**
 * POST /api/contacts/import: one batch of rows (the web sends 100 per request, with progress). Each row
 * is checked on its own (csvContactSchema), so one bad row does not turn the batch down.
 */
export const contactImportSchema = z
  .object({
    contacts: z
      .array(z.unknown())
      .min(1, 'No contacts to import')
      .max(contactLimits.importRequestMax, `At most ${contactLimits.importRequestMax} contacts per request.`),
  })
  .strict();

/** A row of an import batch that was not imported: its position in the batch (from 1) and why. */
export const rejectedImportRowSchema = z.object({ row: z.number().int(), reason: z.string() });
export type RejectedImportRow = z.infer<typeof rejectedImportRowSchema>;

/**
 * The rows that became contacts; how many were skipped because a contact with that email already
 * existed (or the same email came twice in the batch); and the rows turned down, with why. Re-sending a
 * batch creates nothing twice.
 */
export const contactImportResultSchema = z.object({
  created: z.array(contactSchema),
  skipped: z.number().int(),
  rejected: z.array(rejectedImportRowSchema),
});
export type ContactImportResult = z.infer<typeof contactImportResultSchema>;

/** Spec §5: the unsubscribe page's five optional reasons. */
export const unsubscribeReasons = ['Too many emails', 'Not interested', 'Never signed up', 'Wrong genre', 'Other'] as const;

/** An address that unsubscribed from the user's emails (spec §3 unsubscribes, with the campaign's track name). */
export const unsubscribeSchema = z.object({
  /** Derived from the user and the address: the same address always has the same id. */
  id: z.string(),
  contact_name: z.string().nullable(),
  contact_email: z.string(),
  unsubscribed_at: z.string(),
  unsubscribe_reason: z.string().nullable(),
  unsubscribe_reason_details: z.string().nullable(),
  campaign_id: z.string().nullable(),
  /** The track name of the campaign the address unsubscribed from, kept at unsubscribe time. */
  track_name: z.string().nullable(),
});
export type Unsubscribe = z.infer<typeof unsubscribeSchema>;

/** GET /api/unsubscribes: every unsubscribed address, newest first. */
export const unsubscribeListSchema = z.object({ unsubscribes: z.array(unsubscribeSchema) });

/** GET /api/unsubscribes/count: for the tab label before the list is opened. */
export const unsubscribeCountSchema = z.object({ count: z.number().int() });

/**
 * DELETE /api/unsubscribes/{id}: the address unsubscribed itself, so the artist confirms the recipient
 * asked to be added back (issue 26); the server keeps who confirmed it and when.
 */
export const resubscribeRequestSchema = z.object({ recipient_asked: z.literal(true, { message: contactMessages.resubscribeNeedsRequest }) });
