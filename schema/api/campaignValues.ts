/**
 * Compose's values, limits and texts (spec §3, §5, §8 Compose, §9): free of zod, so a Lambda that answers
 * a campaign, or queues one, loads no schema until a route parses a body. campaigns.ts re-exports them.
 */
import type { Campaign } from './campaigns';

/** Spec §3/§9: 100 Short, 150 Medium (default), 250 Long. Read as words (see EmailLength docs in the note). */
export const emailLengths = [100, 150, 250] as const;
export type EmailLength = (typeof emailLengths)[number];
export const emailLengthLabels: Record<EmailLength, string> = { 100: 'Short', 150: 'Medium', 250: 'Long' };
export const DEFAULT_EMAIL_LENGTH: EmailLength = 150;
export const DEFAULT_TONE = 'professional' as const;

/** AI mode: the writer writes the email; HTML mode: a template or the artist's own HTML. */
export const composeModes = ['ai', 'html'] as const;
export type ComposeMode = (typeof composeModes)[number];

/** Statuses a campaign can have. Compose creates drafts; the sending issue moves them on. */
export const campaignStatuses = ['draft', 'scheduled', 'sending', 'paused', 'completed'] as const;
export type CampaignStatus = (typeof campaignStatuses)[number];

export const campaignLimits = {
  trackName: 200,
  trackUrl: 500,
  genre: 50,
  mood: 50,
  bpmMin: 1,
  bpmMax: 999,
  description: 2000,
  subject: 300,
  /** An HTML body (templates with inline CSS are ~6 KB; a custom one may be larger). */
  body: 100_000,
  /** Recipients of one campaign: the most contacts a user can select. */
  recipients: 20_000,
  templateName: 100,
  listName: 100,
  /** Contact ids in one saved list (22 characters each: ~250 KB, under DynamoDB's 400 KB item). */
  listContactIds: 10_000,
  /** Characters of a template's body shown in the save-template dialog (spec §9). */
  templatePreviewChars: 100,
} as const;

/** Spec §5: defaults of an HTML-mode campaign's track fields. */
export const htmlCampaignDefaults = {
  track_name: 'HTML Email Campaign',
  genre: 'Electronic',
  description: 'HTML Email',
  ai_tone: 'professional',
} as const;

/** Texts of spec §5 and §8 (Compose) that the server returns or the web shows; tests find them by these words. */
export const composeMessages = {
  previewNeeds: 'Please fill in track name, description, and select at least one contact.',
  invalidPreviewFormat: 'Invalid email preview format received',
  writerBusy: 'The AI writer is busy right now. Please wait a minute and try again.',
  writerTimeout: 'The AI writer took too long to answer. Please try again.',
  writerFailed: 'The AI writer could not write this email. Please try again.',
  /** Beyond the spec (issue 16): the writer's email lost the listen link, so it is not sent or saved. */
  writerLeftOutListenLink: 'The AI writer left out the listen link. Please try again.',
  generateFailed: 'Failed to generate email preview.',
  createPreviewFailed: 'Failed to create email preview.',
  saveEmailFailed: 'Failed to save email changes.',
  emailUpdatedTitle: 'Email updated',
  emailUpdated: 'Your email changes have been saved.',
  saveListFailed: 'Failed to save contact list',
  listSaved: 'Contact list saved successfully',
  listLoaded: 'List Loaded',
  listNameRequired: 'Please enter a name for your list',
  saveTemplateFailed: 'Failed to save template',
  templateSaved: 'Template saved successfully!',
  templateNameRequired: 'Please enter a template name.',
  templateApplied: 'Template Applied',
  templatesLoadFailed: 'Failed to load campaign templates',
  htmlPreviewCreated: 'HTML Email Preview Created',
  subjectAndBodyRequired: 'Please enter a subject and an HTML body.',
  /** AI mode's edited email is plain text or HTML: the same rule, in words that fit both. */
  emailSubjectAndBodyRequired: 'Please enter a subject and an email body.',
  /** HTML mode needs no track fields, only recipients. */
  selectRecipient: 'Please select at least one contact.',
  /** The same text aiTrackSchema gives a blank track_url. */
  trackUrlRequired: 'Track URL is required',
  trackUrlInvalid: 'Enter a track link such as https://soundcloud.com/you/track',
  campaignNotFound: 'Campaign not found.',
  notDraft: 'Only a draft campaign can be changed.',
  notDraftDelete: 'Only a draft campaign can be deleted: a sent campaign keeps its history.',
  templateNotFound: 'Template not found.',
  listNotFound: 'Contact list not found.',
  contactNotFound: 'That contact no longer exists.',
} as const;

/** Every Compose text: the server answers a problem worded with one of these with that text alone. */
export const composeSpecTexts: ReadonlySet<string> = new Set(Object.values(composeMessages));

/** Emails of a campaign not yet sent, failed, skipped or unknown (spec §9 queue ETA: pending ÷ 60 h). */
export const pendingEmails = (campaign: Pick<Campaign, 'total_queued' | 'emails_sent' | 'emails_failed' | 'emails_skipped' | 'emails_unknown'>) =>
  Math.max(0, campaign.total_queued - campaign.emails_sent - campaign.emails_failed - campaign.emails_skipped - campaign.emails_unknown);
