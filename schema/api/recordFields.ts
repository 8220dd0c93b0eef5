/**
 * The fields of each stored record as its schema has them, listed without zod: the stores read and the
 * API answers exactly these, and a Lambda that only reads loads no schema at start. A unit test
 * (tests/unit/record-fields.test.ts) holds each list to its schema's keys.
 */
import type { Campaign } from './campaigns';
import type { Contact, ContactInput, Unsubscribe } from './contacts';
import type { OutboxMessageSummary } from './sending';

/**
 * A campaign's fields, as the store reads them and the API answers them: campaignSchema's keys, listed
 * without zod (a unit test holds the two together).
 */
export const campaignFields = [
  'id',
  'mode',
  'track_name',
  'track_url',
  'genre',
  'mood',
  'bpm',
  'description',
  'ai_tone',
  'email_length',
  'status',
  'sending_status',
  'total_recipients',
  'total_queued',
  'next_send_at',
  'emails_sent',
  'emails_opened',
  'emails_clicked',
  'emails_unsubscribed',
  'emails_failed',
  'emails_skipped',
  'emails_unknown',
  'emails_machine_opened',
  'track_id',
  'allow_download',
  'listen_days',
  'released',
  'emails_listened',
  'emails_answered',
  'emails_downloaded',
  'send_after',
  'pause_reason',
  'follow_ups',
  'send_window',
  'email_subject',
  'email_body',
  'personalised_by_writer',
  'preview_contact_id',
  'started_sending_at',
  'completed_sending_at',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof Campaign)[];

/** A campaign summary's fields: every campaign field but email_body (what the campaigns list and the dashboard read). */
export const campaignSummaryFields = campaignFields.filter((field): field is Exclude<(typeof campaignFields)[number], 'email_body'> => field !== 'email_body');

/** A contact's fields (contactSchema). */
export const contactFields = [
  'id',
  'name',
  'email',
  'label_name',
  'contact_type',
  'position',
  'genre',
  'website_url',
  'notes',
  'genre_focus',
  'time_zone',
  'created_at',
  'last_answer',
  'demo_policy',
  'label_size',
] as const satisfies readonly (keyof Contact)[];

/**
 * The fields a person writes on a contact (contactInputSchema): what the edit form replaces and what a
 * CSV column can be mapped to (genre_focus, created_at and the answer are the app's).
 */
export const contactInputFields = [
  'name',
  'email',
  'label_name',
  'contact_type',
  'position',
  'genre',
  'website_url',
  'notes',
  'time_zone',
] as const satisfies readonly (keyof ContactInput)[];
export type ContactInputField = (typeof contactInputFields)[number];

/** An unsubscribed address's fields (unsubscribeSchema). */
export const unsubscribeFields = [
  'id',
  'contact_name',
  'contact_email',
  'unsubscribed_at',
  'unsubscribe_reason',
  'unsubscribe_reason_details',
  'campaign_id',
  'track_name',
] as const satisfies readonly (keyof Unsubscribe)[];

/** A local outbox message's summary fields (outboxMessageSummarySchema). */
export const outboxSummaryFields = [
  'id',
  'sent_at',
  'from',
  'to',
  'subject',
  'campaign_id',
  'thread_id',
] as const satisfies readonly (keyof OutboxMessageSummary)[];
