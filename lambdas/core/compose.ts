/**
 * Compose's rules (spec §2 Compose, §4 Email preview / HTML mode, §5): what the writer is asked, how
 * the preview hides the first recipient's name, what a draft stores, and the email one recipient gets.
 * Pure: no SDK, no I/O; the writer and the sanitizer are ports the caller passes in.
 */
import type { z } from 'zod';
import {
  composeMessages,
  htmlCampaignDefaults,
  type AiTrack,
  type Campaign,
  type ComposeMode,
  type DraftInput,
  type EmailLength,
  type RenderedEmail,
} from '../../schema/api/campaigns';
import type { Contact } from '../../schema/api/contacts';
import type { Tone } from '../../schema/api/options';
import { artistLinks, artistName, type Profile } from '../../schema/api/profile';
import type { PlaceholderContext } from '../../schema/email/placeholders';
import { isHtmlDocument, renderEmail } from '../../schema/email/render';
import type { ArtistDetails, DraftContent, EmailWriter, HtmlSanitizer, WriterRequest, WrittenEmail } from '../ports';

/** The placeholder the preview shows where the first selected recipient's name was (spec §2). */
export const CONTACT_NAME_PLACEHOLDER = '[CONTACT_NAME]';

/** What the artist's emails say about them (spec §5 [ARTIST_NAME], {{SOCIAL_LINKS}}). */
export function artistDetails(profile: Profile): ArtistDetails {
  return { name: artistName(profile), links: artistLinks(profile) };
}

/** The track fields the writer reads: an AI form's track, or a stored campaign's. */
export type WriterTrack = WriterRequest['track'] & { ai_tone: Tone; email_length: EmailLength };

/** The writer's brief for one contact. Only these contact fields go in, and only as data. */
export function writerRequestFor(track: AiTrack | WriterTrack, contact: Contact, artist: ArtistDetails): WriterRequest {
  return {
    track: {
      track_name: track.track_name,
      track_url: track.track_url,
      genre: track.genre,
      mood: track.mood,
      bpm: track.bpm,
      description: track.description,
    },
    tone: track.ai_tone,
    length: track.email_length,
    artist,
    contact: {
      name: contact.name,
      label_name: contact.label_name,
      contact_type: contact.contact_type,
      genre: contact.genre,
      position: contact.position,
      notes: contact.notes,
    },
  };
}

/** Words in front of a name that are not the name people are greeted by ('DJ Kessa Lune' → 'Kessa'). */
const NAME_PREFIXES = new Set(['dj', 'mc', 'dr', 'dr.', 'mr', 'mr.', 'mrs', 'mrs.', 'ms', 'ms.', 'miss', 'mx', 'mx.', 'the']);

/** The forms of a contact's name the writer may have used: the full name, and the first name. Longest first. */
export function nameForms(contactName: string): string[] {
  const full = contactName.trim().replace(/\s+/g, ' ');
  if (full === '') return [];
  const words = full.split(' ');
  const first = words.find((word) => !NAME_PREFIXES.has(word.toLowerCase()));
  const forms = new Set([full]);
  // A one-letter "first name" ('J. Smith') would match too much; the full name still matches.
  if (first && [...first.replace(/[^\p{L}\p{N}]/gu, '')].length >= 2) forms.add(first);
  return [...forms].sort((a, b) => b.length - a.length);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * One pattern for every form of the name, each only as a whole word (case-sensitive): 'Ann' is replaced
 * in 'Hi Ann,' and "Ann's", never inside 'Annual' or 'Joanna'. Longest first, so the full name wins over
 * its first word.
 */
function namePattern(contactName: string): RegExp | undefined {
  const forms = nameForms(contactName);
  if (forms.length === 0) return undefined;
  return new RegExp(`(?<![\\p{L}\\p{N}_])(?:${forms.map(escapeRegExp).join('|')})(?![\\p{L}\\p{N}_])`, 'gu');
}

/** The writer's email with the contact's name turned into [CONTACT_NAME] (spec §2: the preview). */
export function withNamePlaceholder(email: WrittenEmail, contactName: string): WrittenEmail {
  const pattern = namePattern(contactName);
  if (!pattern) return { ...email };
  const hide = (text: string) => text.replace(pattern, CONTACT_NAME_PLACEHOLDER);
  return { subject: hide(email.subject), body: hide(email.body) };
}

/**
 * The body as stored: an HTML document (or any body of an HTML-mode campaign) is sanitized first, so
 * nothing that runs or phones home is ever stored; plain text is kept as written (it is escaped when
 * rendered).
 */
export function storedBody(body: string, mode: ComposeMode, sanitizer: HtmlSanitizer): string {
  return mode === 'html' || isHtmlDocument(body) ? sanitizer.sanitize(body) : body;
}

const orDefault = (value: string | undefined, fallback: string) => (value === undefined || value.trim() === '' ? fallback : value);

/**
 * A draft's content from a written email (POST /api/campaigns, PUT /api/campaigns/{id}): HTML mode takes
 * the §5 defaults for blank track fields; the body is sanitized when it is HTML. Such an email goes to
 * every recipient as it is (placeholders filled), so it is not the writer's.
 */
export function draftContent(input: DraftInput, sanitizer: HtmlSanitizer): DraftContent {
  const email = {
    email_subject: input.email_subject,
    email_body: storedBody(input.email_body, input.mode, sanitizer),
    personalised_by_writer: false,
    preview_contact_id: null,
    total_recipients: input.total_recipients,
  };
  if (input.mode === 'ai') {
    return { mode: 'ai', ...trackContent(input.track), ...email };
  }
  const html = input.track;
  return {
    mode: 'html',
    track_name: orDefault(html.track_name, htmlCampaignDefaults.track_name),
    track_url: html.track_url === undefined || html.track_url === '' ? null : html.track_url,
    genre: orDefault(html.genre, htmlCampaignDefaults.genre),
    mood: html.mood,
    bpm: html.bpm,
    description: orDefault(html.description, htmlCampaignDefaults.description),
    ai_tone: html.ai_tone,
    email_length: html.email_length,
    ...email,
  };
}

/** An AI form's track fields as a campaign stores them. */
export function trackContent(track: AiTrack): Pick<DraftContent, 'track_name' | 'track_url' | 'genre' | 'mood' | 'bpm' | 'description' | 'ai_tone' | 'email_length'> {
  return {
    track_name: track.track_name,
    track_url: track.track_url,
    genre: track.genre,
    mood: track.mood,
    bpm: track.bpm,
    description: track.description,
    ai_tone: track.ai_tone,
    email_length: track.email_length,
  };
}

/**
 * The draft of an AI preview: the writer's email for the first selected recipient, their name already
 * turned into [CONTACT_NAME]. Personalised: every other recipient gets an email the writer writes for
 * them when the campaign is sent.
 */
export function previewDraftContent(track: AiTrack, preview: WrittenEmail, contact: Pick<Contact, 'id'>, totalRecipients: number, sanitizer: HtmlSanitizer): DraftContent {
  return {
    mode: 'ai',
    ...trackContent(track),
    email_subject: preview.subject,
    email_body: storedBody(preview.body, 'ai', sanitizer),
    personalised_by_writer: true,
    preview_contact_id: contact.id,
    total_recipients: totalRecipients,
  };
}

/** The placeholder values for one recipient of a campaign (spec §5). */
export function placeholderContext(campaign: Pick<Campaign, 'track_name' | 'track_url' | 'genre'>, contact: Pick<Contact, 'name' | 'email' | 'label_name'>, artist: ArtistDetails): PlaceholderContext {
  return {
    recipient: { name: contact.name, email: contact.email, label_name: contact.label_name },
    track: { track_name: campaign.track_name, track_url: campaign.track_url, genre: campaign.genre },
    artistName: artist.name,
  };
}

export interface RecipientEmailInput {
  campaign: Campaign;
  contact: Contact;
  artist: ArtistDetails;
  writer: EmailWriter;
  /** This recipient's unsubscribe link (the preview passes a stand-in). */
  unsubscribeUrl: string;
}

/**
 * The email one recipient gets: one implementation for the per-recipient preview and for sending.
 * A campaign still personalised by the writer gets a new email written for each recipient (the preview's
 * recipient gets the stored one, which was written for them); otherwise the stored subject and body.
 * Either way the placeholders are filled and the §5 footer added by renderEmail. Throws WriterError
 * when the writer fails.
 */
export async function recipientEmail({ campaign, contact, artist, writer, unsubscribeUrl }: RecipientEmailInput): Promise<RenderedEmail> {
  const context = placeholderContext(campaign, contact, artist);
  const email =
    campaign.personalised_by_writer && contact.id !== campaign.preview_contact_id
      ? await writer.write(writerRequestFor(campaignTrack(campaign), contact, artist))
      : { subject: campaign.email_subject, body: campaign.email_body };
  return renderEmail(email, context, { unsubscribeUrl });
}

/** A stored campaign's track as the writer reads it (an AI campaign always has a link). */
function campaignTrack(campaign: Campaign): WriterTrack {
  return {
    track_name: campaign.track_name,
    track_url: campaign.track_url ?? '',
    genre: campaign.genre,
    mood: campaign.mood,
    bpm: campaign.bpm,
    description: campaign.description,
    ai_tone: campaign.ai_tone,
    email_length: campaign.email_length,
  };
}

/** A user template's card text (spec §2 template cards): the body's first line that is not a greeting. */
export const USER_TEMPLATE_DESCRIPTION = 'Your saved template';
const DESCRIPTION_MAX = 120;
const GREETING = /^(hi|hello|hey|dear|hiya|greetings)\b/i;

export function userTemplateDescription(body: string): string {
  const lines = body
    .replace(/<[^>]*>/g, ' ')
    .split(/\r?\n/)
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter((line) => line !== '' && !/^\{\{\w+\}\}$/.test(line));
  const line = lines.find((candidate) => !GREETING.test(candidate)) ?? lines[0];
  if (!line) return USER_TEMPLATE_DESCRIPTION;
  return line.length <= DESCRIPTION_MAX ? line : `${line.slice(0, DESCRIPTION_MAX - 1).trimEnd()}…`;
}

/** A ULID (26 Crockford base-32 characters): the shape of campaign, user template and saved list ids. */
const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;
export const isUlid = (id: string): boolean => ULID.test(id);

/**
 * The spec's own text for a form problem (§5, §8), when the request has one: a required field missing
 * or blank gives `required`'s message, and a validation issue carrying a spec text gives that text
 * alone (not prefixed by the field's path). Undefined: describe the problems field by field.
 */
export function formMessage(
  schema: z.ZodType,
  body: unknown,
  required: readonly { path: readonly string[]; message: string }[] = [],
): string | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  for (const field of required) {
    const value = field.path.reduce<unknown>((at, name) => (at !== null && typeof at === 'object' ? (at as Record<string, unknown>)[name] : undefined), body);
    if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) return field.message;
  }
  const result = schema.safeParse(body);
  if (result.success) return undefined;
  return result.error.issues.find((issue) => SPEC_TEXTS.has(issue.message))?.message;
}

const SPEC_TEXTS = new Set<string>(Object.values(composeMessages));
