/**
 * Per-recipient placeholders (spec §5) and template variables: one implementation for the preview and
 * for sending. Pure (no DOM, no html-to-text): the web bundle imports it.
 */
import { genreLabels, isGenre } from '../api/options';
import { isHttpLink } from '../api/links';
import { firstNameOf } from './names';
import { escapeHtml, escapeHtmlLines } from './escape';
import { UNSUBSCRIBE_URL_SOURCE, unsubscribeFooterHtml, unsubscribeFooterText } from './footer';

/** [NAME] … [TRACK_URL]; matched case-insensitively, a space or an underscore between words ([Contact Name]). */
export const placeholderNames = ['NAME', 'CONTACT_NAME', 'FIRST_NAME', 'EMAIL', 'LABEL_NAME', 'TRACK_NAME', 'GENRE', 'ARTIST_NAME', 'TRACK_URL'] as const;
export type PlaceholderName = (typeof placeholderNames)[number];

/** The placeholders that read the recipient: left as written while there is no recipient. */
export const recipientPlaceholderNames: readonly PlaceholderName[] = ['NAME', 'CONTACT_NAME', 'FIRST_NAME', 'EMAIL', 'LABEL_NAME'];

/** The recipient's fields the placeholders read. */
export interface RecipientFields {
  name: string;
  email: string;
  label_name: string | null;
}

export interface PlaceholderContext {
  /** null: no recipient yet (recipient placeholders are left as written, so a preview still shows them). */
  recipient: RecipientFields | null;
  track: { track_name: string; track_url: string | null; genre: string };
  /** Artist name, else full name (spec §5). */
  artistName: string;
}

/** A genre as people read it: an option-list slug becomes its label ('deep-house' → 'Deep House'); other text stays. */
export function genreLabel(genre: string): string {
  const slug = genre.trim().toLowerCase();
  return isGenre(slug) ? genreLabels[slug] : genre;
}

/** The value of each placeholder ('' when missing); a genre slug reads as its label ('deep-house' → 'Deep House'). */
export function placeholderValues(context: PlaceholderContext): Record<PlaceholderName, string> {
  const { recipient, track } = context;
  const name = recipient?.name ?? '';
  const trackUrl = track.track_url ?? '';
  return {
    NAME: name,
    CONTACT_NAME: name,
    // The name the writer greets a person by ('DJ Kessa Lune' → 'Kessa'), else the whole name.
    FIRST_NAME: firstNameOf(name) ?? name,
    EMAIL: recipient?.email ?? '',
    LABEL_NAME: recipient?.label_name ?? '',
    TRACK_NAME: track.track_name,
    GENRE: genreLabel(track.genre),
    ARTIST_NAME: context.artistName,
    // Only an http(s) link goes into an href (the campaign schema refuses others; this keeps it so).
    TRACK_URL: isHttpLink(trackUrl) ? trackUrl.trim() : '',
  };
}

const PLACEHOLDER_WORDS = [...placeholderNames.map((name) => name.replace(/_/g, '[ _]')), UNSUBSCRIBE_URL_SOURCE].join('|');

/**
 * Every placeholder and [UNSUBSCRIBE_URL] in one alternation: the text is scanned once, so a value that
 * itself looks like a placeholder (a contact named '[EMAIL]') is never replaced again. The UI shows one
 * style, [CONTACT_NAME]; the template style, {{contact_name}}, is accepted too, so an email typed or
 * pasted in it is still filled.
 */
const PLACEHOLDER_PATTERN = new RegExp(`\\[(${PLACEHOLDER_WORDS})\\]|\\{\\{\\s*(${PLACEHOLDER_WORDS})\\s*\\}\\}`, 'gi');

/** Whether `text` holds a placeholder in either style: then it is a template, filled per recipient. */
export const hasPlaceholders = (text: string): boolean => text.search(PLACEHOLDER_PATTERN) !== -1;

export interface FillExtras {
  /** Fills [UNSUBSCRIBE_URL] in the same pass (renderEmail); without it, [UNSUBSCRIBE_URL] is left as written. */
  unsubscribeUrl?: string;
}

/**
 * Replaces every placeholder in `text`. mode 'html': each value is HTML-escaped (so a contact named
 * `<script>` stays text); 'text': values as they are.
 */
export function fillPlaceholders(text: string, context: PlaceholderContext, mode: 'text' | 'html', extras: FillExtras = {}): string {
  const values = placeholderValues(context);
  const encode = mode === 'html' ? escapeHtml : (value: string) => value;
  return text.replace(PLACEHOLDER_PATTERN, (match, bracketed: string | undefined, braced: string | undefined) => {
    const key = (bracketed ?? braced ?? '').toUpperCase().replace(/ /g, '_');
    if (key === 'UNSUBSCRIBE_URL') return extras.unsubscribeUrl === undefined ? match : encode(extras.unsubscribeUrl);
    const name = key as PlaceholderName;
    if (context.recipient === null && recipientPlaceholderNames.includes(name)) return match;
    return encode(values[name]);
  });
}

/** The values of a template's {{variables}} (spec §5). */
export interface TemplateVariableValues {
  track_name: string;
  track_url: string;
  description: string;
  artist_name: string;
  /** The profile's links, in order: website, SoundCloud, Spotify, Instagram (those set). */
  social_links: { label: string; url: string }[];
}

/** {{SOCIAL_LINKS}} in a text body: one 'Label: url' line per link. */
export function socialLinksText(links: { label: string; url: string }[]): string {
  return links.map((link) => `${link.label}: ${link.url}`).join('\n');
}

/** {{SOCIAL_LINKS}} in HTML: escaped links separated by ' · ' ('' when there are none). */
export function socialLinksHtml(links: { label: string; url: string }[], linkColor = '#4f46e5'): string {
  return links
    .map((link) => `<a href="${escapeHtml(link.url)}" style="color:${escapeHtml(linkColor)};text-decoration:underline;">${escapeHtml(link.label)}</a>`)
    .join(' &middot; ');
}

/** {{ name }}: letters and underscores, spaces inside the braces tolerated. */
const TEMPLATE_VARIABLE_PATTERN = /\{\{\s*([A-Za-z_]+)\s*\}\}/g;

/**
 * Fills a campaign template's {{variables}}: {{contact_name}} becomes [CONTACT_NAME] and {{label_name}}
 * [LABEL_NAME] (placeholders filled per recipient later, in the one style the UI shows); {{SOCIAL_LINKS}} the links, one per line (or
 * an HTML list of links); {{UNSUBSCRIBE_FOOTER}} the §5 footer with an [UNSUBSCRIBE_URL] link. Unknown
 * {{variables}} are left as written. mode 'html' escapes the values.
 */
export function applyTemplateVariables(text: string, values: TemplateVariableValues, mode: 'text' | 'html'): string {
  const html = mode === 'html';
  const encode = html ? escapeHtml : (value: string) => value;
  return text.replace(TEMPLATE_VARIABLE_PATTERN, (match, word: string) => {
    switch (word.toLowerCase()) {
      case 'track_name':
        return encode(values.track_name);
      case 'track_url':
        return encode(values.track_url);
      case 'description':
        return html ? escapeHtmlLines(values.description) : values.description;
      case 'artist_name':
        return encode(values.artist_name);
      case 'contact_name':
        return '[CONTACT_NAME]';
      case 'label_name':
        return '[LABEL_NAME]';
      case 'social_links':
        return html ? socialLinksHtml(values.social_links) : socialLinksText(values.social_links);
      case 'unsubscribe_footer':
        return html ? unsubscribeFooterHtml() : unsubscribeFooterText();
      default:
        return match;
    }
  });
}

/**
 * A template's text as the UI shows it: every {{variable}} in the one placeholder style the UI uses
 * ('{{track_name}}' → '[TRACK_NAME]'). Display only; applying the template fills the variables.
 */
export function inShownPlaceholderStyle(text: string): string {
  return text.replace(TEMPLATE_VARIABLE_PATTERN, (_match, word: string) => `[${word.toUpperCase()}]`);
}
