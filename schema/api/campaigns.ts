import * as z from 'zod';
import { storableText, typedLink } from './common';
import { contactTypes, genres, tones } from './options';
import { campaignTemplateSchema, TEMPLATE_BODY_MAX } from './templates';
import { listenLimits, listenMessages } from './listenValues';
import { FOLLOW_UP_STEPS_MAX, followUpStepSchema, storedFollowUpsSchema } from './followUps';
import { campaignLimits, composeMessages, composeModes, campaignStatuses, DEFAULT_EMAIL_LENGTH, DEFAULT_TONE } from './campaignValues';
import { sendWindowProblem, type Weekday } from '../../lambdas/core/workingHours';

/**
 * Compose: campaign drafts, the AI preview, per-recipient previews, user templates and saved contact
 * lists (spec §2 Compose, §3 campaigns / campaign_templates / email_templates / saved_contact_lists,
 * §4 Email preview and HTML mode, §5, §8 Compose, §9). Sending (issue 6) adds statuses and counters; its API is sending.ts.
 */

export {
  emailLengths,
  type EmailLength,
  emailLengthLabels,
  DEFAULT_EMAIL_LENGTH,
  DEFAULT_TONE,
  composeModes,
  type ComposeMode,
  campaignStatuses,
  type CampaignStatus,
  campaignLimits,
  htmlCampaignDefaults,
  composeMessages,
  composeSpecTexts,
  pendingEmails,
} from './campaignValues';

/** Free text named as the form names it ('Track name'), for the message of a character that cannot be stored. */
const text = (field: string, max: number, required?: string) => {
  const base = storableText(field).trim().max(max, `Must be at most ${max} characters`);
  return required ? base.min(1, required) : base;
};
const nullableText = (field: string, max: number) =>
  text(field, max)
    .nullish()
    .transform((value) => (value === undefined || value === null || value === '' ? null : value));

/** The track link as typed ('soundcloud.com/…' included), stored as the link; blank stays ''. */
const trackUrl = typedLink({ max: campaignLimits.trackUrl, message: composeMessages.trackUrlInvalid });

/** bpm as the form sends it: a number, a numeric string or blank; stored as an integer or null (spec §5). */
const bpm = z
  .union([z.number(), z.string(), z.null()])
  .optional()
  .transform((value, ctx) => {
    if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) return null;
    const n = typeof value === 'number' ? value : Number.parseInt(value, 10);
    if (!Number.isFinite(n) || n < campaignLimits.bpmMin || n > campaignLimits.bpmMax) {
      ctx.addIssue({ code: 'custom', message: `bpm must be a whole number from ${campaignLimits.bpmMin} to ${campaignLimits.bpmMax}` });
      return z.NEVER;
    }
    return Math.trunc(n);
  });

/** The listen page's fields of a track form (issue 16): the uploaded track (blank: none), downloads, link validity. */
const listenFields = {
  track_id: z
    .string()
    .trim()
    .max(100)
    .nullish()
    .transform((value) => (value === undefined || value === null || value === '' ? null : value)),
  allow_download: z.boolean().default(false),
  listen_days: z
    .number({ message: listenMessages.listenDaysRange })
    .int(listenMessages.listenDaysRange)
    .min(listenLimits.daysMin, listenMessages.listenDaysRange)
    .max(listenLimits.daysMax, listenMessages.listenDaysRange)
    .default(listenLimits.daysDefault),
};

/** What the artist says of the track (issue 28 §2): the pre-send check reads it against each label's demo policy. */
const trackFactFields = {
  /** The track is already released ('unreleased only' labels are warned of). */
  released: z.boolean().default(false),
};

/**
 * Spec §3 "Campaign form data" as AI mode needs it: track name, link, genre and description are
 * required (the Track Information card's * fields); mood and bpm optional. An uploaded track (issue 16)
 * stands for the link: each email then links to the recipient's own listen page, so the link may be blank.
 */
export const aiTrackSchema = z
  .object({
    track_name: text('Track name', campaignLimits.trackName, composeMessages.previewNeeds),
    track_url: trackUrl,
    genre: z.enum(genres, { message: 'Choose a genre from the list' }),
    mood: nullableText('Mood', campaignLimits.mood),
    bpm,
    description: text('Description', campaignLimits.description, composeMessages.previewNeeds),
    ai_tone: z.enum(tones).default(DEFAULT_TONE),
    email_length: z.union([z.literal(100), z.literal(150), z.literal(250)]).default(DEFAULT_EMAIL_LENGTH),
    ...listenFields,
    ...trackFactFields,
  })
  .strict()
  .refine((track) => track.track_url !== '' || track.track_id !== null, { message: composeMessages.trackUrlRequired, path: ['track_url'] });
export type AiTrack = z.output<typeof aiTrackSchema>;
export type AiTrackInput = z.input<typeof aiTrackSchema>;

/** The same fields in HTML mode: all optional; blanks take the defaults of spec §5 on the server. */
export const htmlTrackSchema = z
  .object({
    track_name: text('Track name', campaignLimits.trackName).optional(),
    track_url: trackUrl.optional(),
    genre: text('Genre', campaignLimits.genre).optional(),
    mood: nullableText('Mood', campaignLimits.mood),
    bpm,
    description: text('Description', campaignLimits.description).optional(),
    ai_tone: z.enum(tones).default(DEFAULT_TONE),
    email_length: z.union([z.literal(100), z.literal(150), z.literal(250)]).default(DEFAULT_EMAIL_LENGTH),
    ...listenFields,
    ...trackFactFields,
  })
  .strict();
export type HtmlTrackInput = z.input<typeof htmlTrackSchema>;

/**
 * A campaign's send window (issue 27 §2): null is "Any time"; else "Recipient's working hours", on these
 * ISO weekdays (1 Monday … 7 Sunday) from start_hour:00 to end_hour:00 on the recipient's clock (their
 * zone, else the artist's). Stored as given (days sorted, once each); a window that never opens is refused.
 */
export const sendWindowSchema = z
  .object({
    days: z
      .array(z.number().int())
      .max(7)
      .transform((days) => [...new Set(days)].sort((a, b) => a - b) as Weekday[]),
    start_hour: z.number().int(),
    end_hour: z.number().int(),
  })
  .strict()
  .superRefine((window, ctx) => {
    const problem = sendWindowProblem({ days: window.days, startHour: window.start_hour, endHour: window.end_hour });
    if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
  });
export type CampaignSendWindow = z.output<typeof sendWindowSchema>;

export const pauseReasons = ['user', 'mailbox_disconnected', 'monthly_limit'] as const;
export type PauseReason = (typeof pauseReasons)[number];

export const campaignSchema = z.object({
  id: z.string(),
  mode: z.enum(composeModes),
  track_name: z.string(),
  /** Null for an HTML campaign without a link. */
  track_url: z.string().nullable(),
  genre: z.string(),
  mood: z.string().nullable(),
  bpm: z.number().int().nullable(),
  description: z.string(),
  ai_tone: z.enum(tones),
  email_length: z.union([z.literal(100), z.literal(150), z.literal(250)]),
  status: z.enum(campaignStatuses),
  sending_status: z.enum(['sending', 'paused']).nullable(),
  total_recipients: z.number().int(),
  total_queued: z.number().int(),
  next_send_at: z.string().nullable(),
  emails_sent: z.number().int(),
  emails_opened: z.number().int(),
  emails_clicked: z.number().int(),
  emails_unsubscribed: z.number().int(),
  /** Sending outcomes besides sent (issue 6): given up after retries or refused; not sent (unsubscribed, already pitched, gone); outcome unknown (a crash after the provider call: never retried). */
  emails_failed: z.number().int(),
  emails_skipped: z.number().int(),
  emails_unknown: z.number().int(),
  /** Opens by mail-privacy proxies and link scanners, counted apart from emails_opened (people). */
  emails_machine_opened: z.number().int(),
  /**
   * The listen page (issue 16): the uploaded track the emails link to (each recipient their own
   * `/l/<token>`; null: the emails link to track_url), whether its page offers a download, and how many
   * days a link stays valid. Recipients who listened (25 %+), answered, and downloaded.
   */
  track_id: z.string().nullable(),
  allow_download: z.boolean(),
  listen_days: z.number().int(),
  /** The artist says the track is already released (issue 28 §2); false for campaigns stored before. */
  released: z.boolean(),
  emails_listened: z.number().int(),
  emails_answered: z.number().int(),
  emails_downloaded: z.number().int(),
  /** Nothing is sent before this time (scheduled mode: the next Pacific midnight); null until queued. */
  send_after: z.string().nullable(),
  /**
   * Why a paused campaign is paused: the artist; the mailbox lost its authorization; or the plan's
   * monthly limit is reached (the sender goes on by itself when the plan allows: the next Pacific month,
   * or a plan change).
   */
  pause_reason: z.enum(pauseReasons).nullable(),
  /** Follow-up steps (issue 27 §1), set by the first send batch; none until then. */
  follow_ups: storedFollowUpsSchema,
  /** When recipients may get the email: null, any time; else their working hours (sendWindowSchema). */
  send_window: z.object({ days: z.array(z.number().int()), start_hour: z.number().int(), end_hour: z.number().int() }).nullable(),
  email_subject: z.string(),
  /** Plain text (turned into HTML with line breaks when sent) or a sanitized HTML document. */
  email_body: z.string(),
  /**
   * True while the email is the AI writer's, unedited: each recipient then gets an email the writer
   * writes for them. Once the artist edits and saves (or the email came from a template or HTML), every
   * recipient gets that email with the placeholders filled.
   */
  personalised_by_writer: z.boolean(),
  /** The contact the AI preview was written for (its name became [CONTACT_NAME]). */
  preview_contact_id: z.string().nullable(),
  started_sending_at: z.string().nullable(),
  completed_sending_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Campaign = z.infer<typeof campaignSchema>;

/** A campaign without its email body: what the campaigns list and the dashboard read. */
export const campaignSummarySchema = campaignSchema.omit({ email_body: true });
export type CampaignSummary = z.infer<typeof campaignSummarySchema>;
export const campaignListSchema = z.object({ campaigns: z.array(campaignSummarySchema) });

const recipientCount = z.number().int().min(1, composeMessages.previewNeeds).max(campaignLimits.recipients, `At most ${campaignLimits.recipients} recipients`);

const contactId = z.string().min(1).max(100);

/**
 * POST /api/campaigns/generate-preview (spec §7 generate-email-preview): the writer writes the email for
 * `contact_id` (the first selected recipient), the contact's name becomes [CONTACT_NAME], and the draft
 * campaign is created, or, with `campaign_id`, that draft is rewritten. Nothing is saved when the writer
 * fails. Answer: the campaign (its email_subject and email_body are the preview).
 */
export const generatePreviewSchema = z
  .object({
    campaign_id: z.string().min(1).max(100).optional(),
    track: aiTrackSchema,
    contact_id: contactId,
    total_recipients: recipientCount,
  })
  .strict();
export type GeneratePreviewRequest = z.input<typeof generatePreviewSchema>;

const subject = text('Subject', campaignLimits.subject, composeMessages.subjectAndBodyRequired);
const body = storableText('Email body')
  .max(campaignLimits.body, `Must be at most ${campaignLimits.body} characters`)
  .refine((value) => value.trim() !== '', composeMessages.subjectAndBodyRequired);

/**
 * POST /api/campaigns (create a draft) and PUT /api/campaigns/{id} (replace a draft's content): an HTML
 * preview ('Create Preview', spec §4 HTML mode) or an AI-mode email the artist wrote or took from a
 * template. HTML is sanitized on the server before it is stored.
 */
export const draftInputSchema = z.discriminatedUnion('mode', [
  z
    .object({
      mode: z.literal('ai'),
      track: aiTrackSchema,
      email_subject: subject,
      email_body: body,
      total_recipients: recipientCount,
    })
    .strict(),
  z
    .object({
      mode: z.literal('html'),
      track: htmlTrackSchema,
      email_subject: subject,
      email_body: body,
      total_recipients: recipientCount,
    })
    .strict(),
]);
export type DraftInput = z.output<typeof draftInputSchema>;
export type DraftInputBody = z.input<typeof draftInputSchema>;

/** PATCH /api/campaigns/{id}: the preview card's Save (spec §4: updates the campaign's subject and body). */
export const emailUpdateSchema = z.object({ email_subject: subject, email_body: body }).strict();
export type EmailUpdate = z.infer<typeof emailUpdateSchema>;

/** Drafts per POST /api/campaigns/bulk-delete request. */
export const DRAFT_BULK_DELETE_MAX = 100;

/**
 * POST /api/campaigns/bulk-delete: the Campaigns page's 'Delete Selected' of drafts. Answer: the ids that
 * were the caller's drafts and are deleted (a sent campaign or another user's id is left out); 404 when none were.
 */
export const draftBulkDeleteSchema = z
  .object({
    ids: z
      .array(z.string().min(1).max(100))
      .min(1, 'Select at least one draft.')
      .max(DRAFT_BULK_DELETE_MAX, `At most ${DRAFT_BULK_DELETE_MAX} drafts per request.`),
  })
  .strict();
export const draftBulkDeleteResultSchema = z.object({ deleted: z.array(z.string()) });
export type DraftBulkDeleteResult = z.infer<typeof draftBulkDeleteResultSchema>;

/** POST /api/campaigns/{id}/recipient-preview: the email one selected recipient will get. */
export const recipientPreviewRequestSchema = z
  .object({
    contact_id: contactId,
    /**
     * A follow-up step to show instead of the first email (issue 27 §1): its number and the step as Compose
     * holds it (a campaign's steps are stored only when it is sent).
     */
    follow_up: z
      .object({ number: z.number().int().min(1).max(FOLLOW_UP_STEPS_MAX), step: followUpStepSchema })
      .strict()
      .optional(),
  })
  .strict();
export type RecipientPreviewRequest = z.input<typeof recipientPreviewRequestSchema>;

/** A recipient's final email: the subject, the HTML that is sent, and its plain-text part. */
export const renderedEmailSchema = z.object({ subject: z.string(), html: z.string(), text: z.string() });
export type RenderedEmail = z.infer<typeof renderedEmailSchema>;
export const recipientPreviewSchema = renderedEmailSchema.extend({
  contact_id: z.string(),
  /** When the recipient passed on this track ('Not for us', issue 28 §2): the pre-send check skips them; null: they did not. */
  passed_at: z.string().nullable(),
});
export type RecipientPreview = z.infer<typeof recipientPreviewSchema>;

// ---------------------------------------------------------------------------------------------------
// Templates: GET /api/templates (system first, then the user's, each by name), POST, DELETE /{id}.

export const templateListSchema = z.object({ templates: z.array(campaignTemplateSchema) });

/** The save-template dialog (spec §2): name required ('Please enter a template name.'). */
export const templateInputSchema = z
  .object({
    name: text('Template name', campaignLimits.templateName, composeMessages.templateNameRequired),
    subject: subject,
    body: body.refine((value) => value.length <= TEMPLATE_BODY_MAX, `Must be at most ${TEMPLATE_BODY_MAX} characters`),
    ai_tone: z.enum(tones).default(DEFAULT_TONE),
  })
  .strict();
export type TemplateInput = z.input<typeof templateInputSchema>;

// ---------------------------------------------------------------------------------------------------
// Saved contact lists: GET /api/contact-lists (newest first), POST, DELETE /{id}.

export const savedContactListSchema = z.object({
  id: z.string(),
  name: z.string(),
  contact_types: z.array(z.enum(contactTypes)),
  /** Genre keys of the recipient filter (lower-cased, trimmed). */
  selected_genres: z.array(z.string()),
  contact_ids: z.array(z.string()),
  created_at: z.string(),
});
export type SavedContactList = z.infer<typeof savedContactListSchema>;
export const savedContactListsSchema = z.object({ lists: z.array(savedContactListSchema) });

export const contactListInputSchema = z
  .object({
    name: text('List name', campaignLimits.listName, composeMessages.listNameRequired),
    contact_types: z.array(z.enum(contactTypes)).max(contactTypes.length),
    selected_genres: z.array(storableText('Genre').trim().toLowerCase().min(1).max(100)).max(500),
    contact_ids: z.array(contactId).max(campaignLimits.listContactIds, `A list holds at most ${campaignLimits.listContactIds} contacts`),
  })
  .strict();
export type ContactListInput = z.input<typeof contactListInputSchema>;
