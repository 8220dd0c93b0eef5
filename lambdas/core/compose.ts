/**
 * Compose's rules (spec §2 Compose, §4 Email preview / HTML mode, §5): what the writer is asked, how
 * the preview hides the first recipient's name, what a draft stores, and the email one recipient gets.
 * Pure: no SDK, no I/O; the writer and the sanitizer are ports the caller passes in.
 */
import { createHash } from 'node:crypto';
import type { AiTrack, Campaign, ComposeMode, DraftInput, RenderedEmail } from '../../schema/api/campaigns';
import { htmlCampaignDefaults } from '../../schema/api/campaignValues';
import type { Contact } from '../../schema/api/contacts';
import { codePoints, firstNameOf } from '../../schema/email/names';
import type { PlaceholderContext } from '../../schema/email/placeholders';
import { htmlDocument, isHtmlDocument } from '../../schema/email/htmlDocument';
import { composeMessages } from '../../schema/api/campaignValues';
import { WriterError } from './errors';
import type { ArtistDetails, DraftContent, EmailWriter, HtmlSanitizer, WriterRequest, WrittenEmail, WrittenEmailStore } from '../ports';

/** The placeholder the preview shows where the first selected recipient's name was (spec §2). */
export const CONTACT_NAME_PLACEHOLDER = '[CONTACT_NAME]';
/** Where the writer greeted the first recipient by first name ('Hi Mara,'): each recipient's own first name. */
export const FIRST_NAME_PLACEHOLDER = '[FIRST_NAME]';

export { artistDetails } from '../../schema/api/artist';

/** The track fields a campaign stores and the writer reads (spec §3 Campaign form data). */
const TRACK_FIELDS = ['track_name', 'track_url', 'genre', 'mood', 'bpm', 'description', 'ai_tone', 'email_length'] as const;
type TrackFields = Pick<DraftContent, (typeof TRACK_FIELDS)[number]>;

/** The track fields of an AI form or a stored campaign, nothing else; a blank link is none (null). */
export function trackContent(track: AiTrack | TrackFields): TrackFields {
  const fields = Object.fromEntries(TRACK_FIELDS.map((field) => [field, track[field]])) as TrackFields;
  return { ...fields, track_url: fields.track_url?.trim() ? fields.track_url : null };
}

/** The listen page's fields a draft stores (issue 16): never the writer's. */
type ListenFields = Pick<DraftContent, 'track_id' | 'allow_download' | 'listen_days'>;

/** The listen fields of a track form. */
export function listenContent(track: ListenFields): ListenFields {
  return { track_id: track.track_id, allow_download: track.allow_download, listen_days: track.listen_days };
}

/**
 * The writer's brief for one contact. Only these contact fields go in, and only as data. An AI campaign
 * has a link or an uploaded track (an HTML one never reaches the writer); an uploaded track without a
 * link of its own gives the writer the stand-in link that each recipient's listen link replaces.
 */
export function writerRequestFor(track: (AiTrack | TrackFields) & Pick<ListenFields, 'track_id'>, contact: Contact, artist: ArtistDetails): WriterRequest {
  const { ai_tone, email_length, track_url, ...rest } = trackContent(track);
  return {
    track: { ...rest, track_url: track_url ?? (writerGetsStandIn({ track_url }, track) ? LISTEN_LINK_STAND_IN : '') },
    tone: ai_tone,
    length: email_length,
    artist,
    contact: {
      name: contact.name,
      label_name: contact.label_name,
      contact_type: contact.contact_type,
      genre: contact.genre,
      position: contact.position,
      notes: contact.notes,
      ...(contact.demo_policy ? { demo_policy: contact.demo_policy } : {}),
    },
  };
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * One pattern for every text to hide, each only as a whole word (case-sensitive): 'Ann' is replaced in
 * 'Hi Ann,' and "Ann's", never inside 'Annual' or 'Joanna'. Longest first, so a full name wins over its
 * first word.
 */
function wholeWordsPattern(texts: Iterable<string>): RegExp | undefined {
  const sorted = [...texts].sort((a, b) => b.length - a.length);
  if (sorted.length === 0) return undefined;
  return new RegExp(`(?<![\\p{L}\\p{N}_])(?:${sorted.map(escapeRegExp).join('|')})(?![\\p{L}\\p{N}_])`, 'gu');
}

/** The placeholder the preview shows where the first selected recipient's label was. */
export const LABEL_NAME_PLACEHOLDER = '[LABEL_NAME]';

/**
 * The writer's email for the first selected recipient as the preview shows it (spec §2): their name
 * becomes [CONTACT_NAME] (their first name [FIRST_NAME], so each recipient is greeted by theirs), and beyond the spec their label becomes [LABEL_NAME], so an edited email sent
 * to everyone names each recipient's own label, not the first one's. A label shorter than three
 * characters is left alone (it would match ordinary words). The artist's own name is left alone too: a
 * contact who shares the artist's first name must not turn the sign-off into the recipient's name.
 */
export function withRecipientPlaceholders(email: WrittenEmail, contact: Pick<Contact, 'name' | 'label_name'>, artistName = ''): WrittenEmail {
  const replacement = new Map<string, string>();
  const label = (contact.label_name ?? '').trim().replace(/\s+/g, ' ');
  if (codePoints(label) >= 3) replacement.set(label, LABEL_NAME_PLACEHOLDER);
  // Set after the label: a contact whose name is their label ('Kessa Lune' of 'Kessa Lune') is greeted by name.
  const full = contact.name.trim().replace(/\s+/g, ' ');
  const first = firstNameOf(full);
  if (full !== '' && full !== first) replacement.set(full, CONTACT_NAME_PLACEHOLDER);
  if (first) replacement.set(first, FIRST_NAME_PLACEHOLDER);
  const pattern = wholeWordsPattern(replacement.keys());
  if (!pattern) return { ...email };
  const fill = (text: string) => text.replace(pattern, (match) => replacement.get(match) ?? match);
  const artist = artistName.trim();
  const hide = (text: string) => (artist === '' ? fill(text) : text.split(artist).map(fill).join(artist));
  return { subject: hide(email.subject), body: hide(email.body) };
}

/**
 * The body as stored: an HTML document (or any body of an HTML-mode campaign) is sanitized first, so
 * nothing that runs or phones home is ever stored; plain text is kept as written (it is escaped when
 * rendered). An HTML-mode body that is only a fragment ('<p>Hi</p>') is put in a document first, so it
 * is sent as the HTML the composer previewed, not as escaped text.
 */
export function storedBody(body: string, mode: ComposeMode, sanitizer: HtmlSanitizer): string {
  if (isHtmlDocument(body)) return sanitizer.sanitize(body);
  return mode === 'html' ? sanitizer.sanitize(htmlDocument(body)) : body;
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
    return { mode: 'ai', ...trackContent(input.track), ...listenContent(input.track), released: input.track.released, ...email };
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
    ...listenContent(html),
    released: html.released,
    ...email,
  };
}

/**
 * The draft of an AI preview: the writer's email for the first selected recipient, their name already
 * turned into [CONTACT_NAME]. Personalised: every other recipient gets an email the writer writes for
 * them when the campaign is sent. Throws WriterError when the writer was given the listen-link stand-in
 * and its email does not carry it in a form that becomes [TRACK_URL] (nothing is saved).
 */
export function previewDraftContent(
  track: AiTrack,
  preview: WrittenEmail,
  contact: Pick<Contact, 'id'>,
  totalRecipients: number,
  sanitizer: HtmlSanitizer,
): DraftContent {
  const content = trackContent(track);
  const stored = { subject: withStandInWhole(preview.subject), body: storedBody(withStandInWhole(preview.body), 'ai', sanitizer) };
  if (writerGetsStandIn(content, track)) assertCarriesStandIn(stored);
  return {
    mode: 'ai',
    ...content,
    ...listenContent(track),
    released: track.released,
    // The stand-in link the writer was given shows as [TRACK_URL], which sending fills with each recipient's link.
    email_subject: withStandInAsPlaceholder(stored.subject),
    email_body: withStandInAsPlaceholder(stored.body),
    personalised_by_writer: true,
    preview_contact_id: contact.id,
    total_recipients: totalRecipients,
  };
}

export { newDraftCampaign } from './campaign';

/** The placeholder values for one recipient of a campaign (spec §5). */
export function placeholderContext(
  campaign: Pick<Campaign, 'track_name' | 'track_url' | 'genre'>,
  contact: Pick<Contact, 'name' | 'email' | 'label_name'>,
  artist: ArtistDetails,
): PlaceholderContext {
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
  sanitizer: HtmlSanitizer;
  /** Where each recipient's written email is kept, so the preview and the send are the same text. */
  written: WrittenEmailStore;
  /** This recipient's unsubscribe link (the preview passes a stand-in). */
  unsubscribeUrl: string;
  /**
   * This recipient's own track link when the campaign has an uploaded track (their listen page,
   * issue 16): [TRACK_URL] and every copy of the campaign's track_url in the email become it.
   */
  trackUrl?: string;
  now: Date;
  /** A follow-up step the writer writes from the first email (the campaign must be personalised by the writer). */
  followUp?: WriterRequest['followUp'];
}

/**
 * The renderer and its html-to-text, loaded by the first email rendered (a recipient preview, a send):
 * a Lambda that lists, reads or saves drafts never evaluates them.
 */
const emailRenderer = () => import('../../schema/email/render');

/** The key of one writer request: a hash of everything the writer reads (track, tone, length, artist, contact). */
export function writerRequestKey(request: WriterRequest): string {
  return createHash('sha256').update(JSON.stringify(request)).digest('base64url').slice(0, 32);
}

/**
 * The email one recipient gets: one implementation for the per-recipient preview and for sending.
 * A campaign still personalised by the writer gets an email written for each recipient (the preview's
 * recipient gets the stored one, which was written for them): written once per writer request and kept,
 * so what the artist previews is what is sent; a model reply that is HTML is sanitized like any stored
 * body. Otherwise the stored subject and body. Either way the placeholders are filled and the §5 footer
 * added by renderEmail. Throws WriterError when the writer fails, and, with a listen link, when the
 * email would go out with a dead link: the stand-in left in it, or (a writer's email) no listen link at all.
 */
export async function recipientEmail(input: RecipientEmailInput): Promise<RenderedEmail> {
  const { campaign, contact, artist, unsubscribeUrl } = input;
  const email =
    campaign.personalised_by_writer && contact.id !== campaign.preview_contact_id
      ? await writtenFor(input)
      : { subject: campaign.email_subject, body: campaign.email_body };
  const { renderEmail } = await emailRenderer();
  const { trackUrl } = input;
  if (trackUrl === undefined) return renderEmail(email, placeholderContext(campaign, contact, artist), { unsubscribeUrl });
  // [TRACK_URL] takes only a website link (a local app's http://127.0.0.1:… is none): a stand-in that is
  // one, replaced with the recipient's link after rendering, as every copy of the campaign's own link is.
  const rendered = renderEmail(email, placeholderContext({ ...campaign, track_url: LISTEN_LINK_STAND_IN }, contact, artist), { unsubscribeUrl });
  const linked = withLinkReplaced(withStandInReplaced(rendered, trackUrl), campaign.track_url, trackUrl);
  // Only the stand-in is the writer's to keep: a link of the campaign's own the model rewrote goes out as written.
  assertListenLinked(linked, trackUrl, campaign.personalised_by_writer && writerGetsStandIn(campaign, campaign));
  return linked;
}

/**
 * What [TRACK_URL] renders as until the recipient's listen link replaces it, and the link the writer is
 * given for an uploaded track without a link of its own; the recipient preview shows it where each
 * recipient's own listen link goes.
 */
export const LISTEN_LINK_STAND_IN = 'https://listen-link.invalid/recipient';

/** Whether the writer is given the stand-in: an uploaded track without a link of its own. */
const writerGetsStandIn = (content: Pick<TrackFields, 'track_url'>, track: Pick<ListenFields, 'track_id'>) =>
  content.track_url === null && track.track_id !== null;

const escapeAttribute = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Where a link ends: the end, a space, a quote, a bracket, or sentence punctuation before a space. */
const LINK_END = String.raw`(?=$|[\s"'<>)\]]|[.,;:!?](?:$|\s))`;

/**
 * Every whole copy of `link` in `text`: one that ends where a link ends, so a longer link that starts
 * with it (`…/new-single-extended`, `…?utm=…`) is left alone.
 */
const wholeLink = (link: string) => new RegExp(`${escapeRegExp(link)}${LINK_END}`, 'g');

/**
 * The stand-in as a model may write it: with its scheme, protocol-relative or without one, with a
 * trailing slash, in any case; whole (not inside another link, not followed by a path or a query).
 */
const standInCopies = () => new RegExp(String.raw`(?<![\w.\-/:])(?:(?:https?:)?//)?listen-link\.invalid/recipient/?${LINK_END}`, 'gi');

/** Any trace of the stand-in's host: a copy the replacement did not take is a dead link. */
const STAND_IN_TRACE = /listen-link\.invalid/i;

/**
 * Every copy of the stand-in in a writer's text written out whole (before sanitizing, which may drop a
 * link without a scheme), so plain text makes it a link and each later step finds it as it was given.
 */
const withStandInWhole = (text: string) => text.replace(standInCopies(), LISTEN_LINK_STAND_IN);

/** Every copy of the listen-link stand-in in the text as the [TRACK_URL] placeholder. */
const withStandInAsPlaceholder = (text: string) => text.replace(standInCopies(), '[TRACK_URL]');

/** The rendered email with every copy of the stand-in replaced by the recipient's listen link (escaped in the HTML). */
function withStandInReplaced(email: RenderedEmail, to: string): RenderedEmail {
  const replace = (text: string, link: string) => text.replace(standInCopies(), () => link);
  return { subject: replace(email.subject, to), html: replace(email.html, escapeAttribute(to)), text: replace(email.text, to) };
}

const leftOutListenLink = () => new WriterError('no_listen_link', composeMessages.writerLeftOutListenLink);

/**
 * A written email given the stand-in must carry it in its body, and only in forms that become [TRACK_URL] or the
 * listen link: otherwise the writer's email is refused (WriterError) before it is kept.
 */
function assertCarriesStandIn(email: WrittenEmail): void {
  const carries = standInCopies().test(email.body);
  const leftover = [email.subject, email.body].some((text) => STAND_IN_TRACE.test(text.replace(standInCopies(), '')));
  if (!carries || leftover) throw leftOutListenLink();
}

/**
 * The last word before an email with a listen link leaves: no trace of the stand-in may be left (the
 * preview's own stand-in listen link aside), and a writer's email must link the listen page somewhere.
 */
function assertListenLinked(email: RenderedEmail, listenUrl: string, writers: boolean): void {
  const texts = [email.subject, email.html, email.text].map((text) => text.split(listenUrl).join(''));
  if (texts.some((text) => STAND_IN_TRACE.test(text))) throw leftOutListenLink();
  const linked = email.html.includes(escapeAttribute(listenUrl)) || email.text.includes(listenUrl);
  if (writers && !linked) throw leftOutListenLink();
}

/** The email with every whole copy of the link `from` (as written, and as escaped in HTML) replaced by `to`. */
export function withLinkReplaced(email: RenderedEmail, from: string | null, to: string): RenderedEmail {
  const link = from?.trim() ?? '';
  if (link === '') return email;
  const [plain, escaped] = [wholeLink(link), wholeLink(escapeAttribute(link))];
  const replace = (text: string) => text.replace(plain, () => to).replace(escaped, () => escapeAttribute(to));
  return { subject: replace(email.subject), html: replace(email.html), text: replace(email.text) };
}

/**
 * The writer's email for one recipient, written once per writer request and kept. A reply given the
 * stand-in that does not carry it is refused before it is kept, so a retry asks the writer again.
 */
async function writtenFor({ campaign, contact, artist, writer, sanitizer, written, now, followUp }: RecipientEmailInput): Promise<WrittenEmail> {
  const request: WriterRequest = { ...writerRequestFor(campaign, contact, artist), ...(followUp ? { followUp } : {}) };
  const requestKey = writerRequestKey(request);
  const stored = await written.get(campaign.id, requestKey);
  if (stored) return stored;
  const email = await writer.write(request);
  const kept = { subject: withStandInWhole(email.subject), body: storedBody(withStandInWhole(email.body), 'ai', sanitizer) };
  if (request.track.track_url === LISTEN_LINK_STAND_IN) assertCarriesStandIn(kept);
  return written.putIfAbsent(campaign.id, requestKey, kept, now);
}
