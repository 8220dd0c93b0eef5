import * as z from 'zod';
import { listenAnswers } from './listenValues';
import { campaignSummarySchema, sendWindowSchema } from './campaigns';
import { unsubscribeReasons } from './contacts';
import { storableText } from './common';
import { followUpStepStateSchema, followUpStepSummarySchema, followUpsSchema } from './followUps';
import { gmailAccountTypes } from './profileValues';
import { SEND_BATCH_SIZE, UNSUBSCRIBE_DETAILS_MAX, recipientStatuses, sendModes, sendingMessages } from './sendingValues';

/**
 * Sending (issue 6; spec §2 Compose dialogs / Campaigns / Campaign detail / Settings → Mailbox
 * Integration / Unsubscribe page, §4 capacity and send modes, §5, §8 Sending / Campaigns / Mailbox
 * connection / Unsubscribe, §9; DESIGN §4, §5): the request and response shapes of the send flow, the
 * mailbox connection, tracking, the unsubscribe page and the local outbox. The web imports the types.
 */

export {
  sendModes,
  type SendModeName,
  SEND_BATCH_SIZE,
  sendingMessages,
  campaignMessages,
  sendingApiMessages,
  mailboxErrorCodes,
  type MailboxErrorCode,
  mailboxMessages,
  mailboxErrorMessage,
  unsubscribeMessages,
  UNSUBSCRIBE_DETAILS_MAX,
  recipientStatuses,
  type RecipientStatus,
  outboxMessages,
} from './sendingValues';

// ---------------------------------------------------------------------------------------------------
// GET /api/sending/status: the mailbox, today's and this month's usage, and the user's queue.

export const sendingStatusSchema = z.object({
  mailbox: z.object({
    connected: z.boolean(),
    email: z.string().nullable(),
    account_type: z.enum(gmailAccountTypes),
    /** 500, or 2000 for a Workspace account (spec §9). */
    daily_limit: z.number().int(),
  }),
  today: z.object({
    /** The Pacific date the daily counter counts (YYYY-MM-DD). */
    date: z.string(),
    sent: z.number().int(),
    remaining: z.number().int(),
    /** The next midnight America/Los_Angeles (ISO). */
    resets_at: z.string(),
  }),
  month: z.object({
    month: z.string(),
    used: z.number().int(),
    /** null: unlimited (the Label plan). */
    limit: z.number().int().nullable(),
    remaining: z.number().int().nullable(),
    /** When the plan's monthly limit resets: midnight America/Los_Angeles on the 1st of the next Pacific month (ISO). */
    resets_at: z.string(),
  }),
  /** What can go out today: the smaller of today's and the month's remainder. */
  available_now: z.number().int(),
  /** When the user's next email is due (null: nothing queued). */
  next_send_at: z.string().nullable(),
  /** The pace: seconds between two of the user's emails (60: 60 an hour, spec §9; a demo may run faster). */
  send_interval_seconds: z.number().positive(),
});
export type SendingStatus = z.infer<typeof sendingStatusSchema>;

// ---------------------------------------------------------------------------------------------------
// POST /api/campaigns/{id}/send-check: before the capacity dialog. Who would be skipped, and capacity.

const contactIds = (max: number) => z.array(z.string().min(1).max(100)).min(1, sendingMessages.selectContacts).max(max);

export const sendCheckRequestSchema = z.object({ contact_ids: contactIds(20_000) }).strict();
export type SendCheckRequest = z.infer<typeof sendCheckRequestSchema>;

export const sendCheckSchema = z.object({
  selected: z.number().int(),
  /** On the user's unsubscribe list: never queued. */
  unsubscribed: z.number().int(),
  /** Already received this track from this artist: skipped unless `send_again` (DESIGN §6). */
  already_sent: z.number().int(),
  /** Not among the user's contacts any more (deleted since selected): never queued. */
  unknown: z.number().int(),
  /** Emails of the user's other campaigns still to go: this one's go after them (one pace per user). */
  queued_ahead: z.number().int(),
  status: sendingStatusSchema,
  /** How long a follow-up's day lasts (FOLLOW_UP_DAY_SECONDS; a day by default): the dialog counts the steps due this month with it (issue 27 §1). */
  follow_up_day_seconds: z.number().positive(),
  /** The selected contacts counted in `already_sent`: the pre-send check does not count them twice (issue 28 §2). */
  already_sent_ids: z.array(z.string()),
  /** The selected contacts who passed on this track ('Not for us'), with when: skipped unless the artist insists. */
  passed: z.array(z.object({ contact_id: z.string(), passed_at: z.string() })),
});
export type SendCheck = z.infer<typeof sendCheckSchema>;

// ---------------------------------------------------------------------------------------------------
// POST /api/campaigns/{id}/send: queue one batch (≤ 100) of the selection. The first batch (batch_start
// 0) turns the draft into a sending (or scheduled) campaign; the others add to its queue. A batch
// already queued (a retry) is answered with what it queued before and queues nothing twice.

export const sendBatchRequestSchema = z
  .object({
    contact_ids: contactIds(SEND_BATCH_SIZE),
    mode: z.enum(sendModes),
    /** Send to contacts who already received this track from this artist (DESIGN §6). */
    send_again: z.boolean().default(false),
    /** The campaign's send window (issue 27 §2), read from the first batch: null (the default) is "Any time". */
    send_window: sendWindowSchema.nullable().default(null),
    /** Index of this batch's first contact in the whole selection. */
    batch_start: z.number().int().min(0),
    /** Size of the whole selection (every batch carries it). */
    total: z.number().int().min(1).max(20_000),
    /** The campaign's follow-up steps (issue 27 §1), taken from the first batch; none when absent. */
    follow_ups: followUpsSchema.optional(),
    /**
     * The contacts of this batch the artist ticked "Send anyway" for (issue 28 §2): the pre-send check
     * leaves out a form-only label or a contact who passed on the track unless listed here.
     */
    send_anyway_ids: z.array(z.string().min(1).max(100)).max(SEND_BATCH_SIZE).default([]),
  })
  .strict();
export type SendBatchRequest = z.input<typeof sendBatchRequestSchema>;

export const sendBatchSchema = z.object({
  queued: z.number().int(),
  skipped_unsubscribed: z.number().int(),
  skipped_already_sent: z.number().int(),
  skipped_unknown: z.number().int(),
  campaign: campaignSummarySchema,
});
export type SendBatchResult = z.infer<typeof sendBatchSchema>;

// POST /api/campaigns/{id}/pause and /resume answer the campaign summary.

// ---------------------------------------------------------------------------------------------------
// GET /api/campaigns/{id}/emails: the campaign's recipients and their outcome (no content);
// GET /api/campaigns/{id}/emails/{position}: one email with its content (the expandable view).

export const campaignEmailSchema = z.object({
  position: z.number().int(),
  recipient_name: z.string().nullable(),
  recipient_email: z.string(),
  /** The recipient's time zone as queued (issue 27 §2; null: the artist's), for the queue's working-hours estimate. */
  time_zone: z.string().nullable(),
  status: z.enum(recipientStatuses),
  subject: z.string().nullable(),
  sent_at: z.string().nullable(),
  opened_at: z.string().nullable(),
  open_count: z.number().int(),
  machine_open_count: z.number().int(),
  clicked_at: z.string().nullable(),
  click_count: z.number().int(),
  /** The listen page (issue 16): the furthest milestone (0/25/50/75/100), plays, downloads, first and latest play. */
  listen_max_percent: z.number().int(),
  play_count: z.number().int(),
  download_count: z.number().int(),
  listen_seconds: z.number().int(),
  first_listened_at: z.string().nullable(),
  last_listened_at: z.string().nullable(),
  /** The recipient's current one-click answer and note. */
  answer: z.enum(listenAnswers).nullable(),
  answer_note: z.string().nullable(),
  answered_at: z.string().nullable(),
  /** When the artist marked it "Replied" (gmail.send cannot read replies, issue 27); null: not marked. */
  replied_at: z.string().nullable(),
  /** Why it failed or was skipped, in words; for a pending one, why it waits. */
  detail: z.string().nullable(),
  /** Provider attempts so far, and when a recipient put back to wait alone is tried again. */
  attempts: z.number().int(),
  retry_at: z.string().nullable(),
  /** One entry per follow-up step of the campaign (issue 27 §1), in step order; none without steps. */
  follow_ups: z.array(followUpStepStateSchema),
});
export type CampaignEmail = z.infer<typeof campaignEmailSchema>;
/** The emails, and each follow-up step counted over them (the campaign page's "Follow-ups"; none without steps). */
export const campaignEmailListSchema = z.object({ emails: z.array(campaignEmailSchema), follow_ups: z.array(followUpStepSummarySchema) });
export type CampaignEmailList = z.infer<typeof campaignEmailListSchema>;
export const campaignEmailContentSchema = campaignEmailSchema.extend({ html: z.string().nullable(), text: z.string().nullable() });
export type CampaignEmailContent = z.infer<typeof campaignEmailContentSchema>;

// PUT /api/campaigns/{id}/emails/{position}/replied marks a sent email "Replied", DELETE unmarks it:
// both answer the email (campaignEmailSchema). An email not sent (yet) is a 409.

// ---------------------------------------------------------------------------------------------------
// GET /api/contacts/{id}/emails: the emails sent to one of the user's contacts, newest first (its card).

export const contactEmailSchema = campaignEmailSchema
  .pick({ position: true, subject: true, replied_at: true, answer: true })
  .extend({ campaign_id: z.string(), track_name: z.string(), sent_at: z.string() });
export type ContactEmail = z.infer<typeof contactEmailSchema>;
export const contactEmailListSchema = z.object({ emails: z.array(contactEmailSchema) });
export type ContactEmailList = z.infer<typeof contactEmailListSchema>;

// ---------------------------------------------------------------------------------------------------
// Mailbox: POST /api/mailbox/connect → { authUrl } (the browser goes there); DELETE /api/mailbox.

export const mailboxConnectSchema = z.object({ authUrl: z.string() });

// ---------------------------------------------------------------------------------------------------
// Unsubscribe (public): GET /api/unsubscribe?token= (never unsubscribes), POST /api/unsubscribe,
// POST /api/unsubscribe/one-click?token= (RFC 8058).

export const unsubscribeLookupSchema = z.object({
  artistName: z.string(),
  alreadyUnsubscribed: z.boolean(),
});
export type UnsubscribeLookup = z.infer<typeof unsubscribeLookupSchema>;

export const unsubscribeSubmitSchema = z
  .object({
    token: z.string().min(1).max(200),
    reason: z.enum(unsubscribeReasons).nullable().optional(),
    reasonDetails: storableText('Details').trim().max(UNSUBSCRIBE_DETAILS_MAX).nullable().optional(),
  })
  .strict();
export type UnsubscribeSubmit = z.input<typeof unsubscribeSubmitSchema>;

// ---------------------------------------------------------------------------------------------------
// Local outbox (local runtime only): GET /api/local/outbox, GET /api/local/outbox/{id}.

export const outboxMessageSummarySchema = z.object({
  id: z.string(),
  sent_at: z.string(),
  from: z.string(),
  to: z.string(),
  subject: z.string(),
  campaign_id: z.string(),
  /** The conversation it was filed in: a new thread's id is its first message's; a follow-up sent into it joins it (issue 27). */
  thread_id: z.string(),
});
export type OutboxMessageSummary = z.infer<typeof outboxMessageSummarySchema>;
export const outboxListSchema = z.object({ messages: z.array(outboxMessageSummarySchema) });
export const outboxMessageSchema = outboxMessageSummarySchema.extend({
  html: z.string(),
  text: z.string(),
  /** Every header as sent (List-Unsubscribe, Message-ID, …), in order. */
  headers: z.array(z.tuple([z.string(), z.string()])),
  /** The raw MIME message as the mailbox would transmit it. */
  raw: z.string(),
});
export type OutboxMessage = z.infer<typeof outboxMessageSchema>;
