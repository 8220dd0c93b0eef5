/**
 * The pre-send check of one recipient (issue 28 §2, DESIGN §16): what in this email, this track or
 * their history goes against the recipient's demo policy, as warnings the artist reads before sending.
 * 'form_only' and 'passed' skip the recipient unless the artist insists; the others only warn. Pure: the
 * preview, the send dialog and the writer's prompt share it.
 */
import type { Campaign } from '../../schema/api/campaigns';
import type { DemoPolicy } from '../../schema/api/demoPolicyValues';
import { genreLabels, isGenre } from '../../schema/api/options';
import { countWords } from './writerPrompt';

export const preSendWarningKinds = ['form_only', 'private_links_only', 'download_wanted', 'unreleased_only', 'too_long', 'genre_not_taken', 'passed'] as const;
export type PreSendWarningKind = (typeof preSendWarningKinds)[number];

export interface PreSendWarning {
  kind: PreSendWarningKind;
  /** What is wrong, in plain words the UI shows as it is. */
  message: string;
  /** The recipient is left out unless the artist insists (form_only and passed). */
  skipByDefault: boolean;
  /** form_only: where the label takes demos instead. */
  formUrl?: string;
}

export interface PreSendInput {
  /** The recipient's policy; none known: no policy warning (a pass still warns). */
  policy: DemoPolicy | null | undefined;
  email: { text: string; html?: string; wordCount: number };
  track: {
    /** The email links the track on a public streaming page (not the private listen page, not a secret link). */
    publicStreamingUrl: boolean;
    /** Downloads are on for the track's listen page. */
    allowDownload: boolean;
    /** The artist says the track is already released. */
    released: boolean;
    /** The app's genre id ('deep-house'); '' when not given. */
    genre: string;
    /** For the messages ('Passed on Harbour Lights on Nov 3'); 'this track' without it. */
    name?: string;
  };
  /** When the recipient passed on this track (the artist's mark). */
  passedOn?: { at: string };
  /** The zone the date of a pass is shown in (the artist's); UTC without it. */
  timeZone?: string;
}

/** Hosts whose track pages anyone can open (a SoundCloud link with a secret `s-…` part is private). */
const PUBLIC_STREAMING_HOSTS = [
  'soundcloud.com',
  'on.soundcloud.com',
  'open.spotify.com',
  'spotify.com',
  'youtube.com',
  'music.youtube.com',
  'youtu.be',
  'bandcamp.com',
  'mixcloud.com',
  'music.apple.com',
  'beatport.com',
  'deezer.com',
  'tidal.com',
];

/** Whether a link is a public streaming page: a known streaming host, and not a SoundCloud secret link. */
export function isPublicStreamingUrl(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return false;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return false;
  const host = parsed.hostname.toLowerCase().replace(/^(www|m)\./, '');
  const known = PUBLIC_STREAMING_HOSTS.some((public_) => host === public_ || host.endsWith(`.${public_}`));
  if (!known) return false;
  const secretSoundCloud = host.endsWith('soundcloud.com') && parsed.pathname.split('/').some((part) => /^s-[A-Za-z0-9]+$/.test(part));
  return !secretSoundCloud;
}

/** Every http(s) link written in the email's text or its HTML (href values and bare links alike). */
function linksIn(email: PreSendInput['email']): string[] {
  const text = `${email.text}\n${email.html ?? ''}`.replace(/&amp;/g, '&');
  return text.match(/https?:\/\/[^\s"'<>()]+/gi) ?? [];
}

const passedDate = (at: string, timeZone = 'UTC') => new Date(at).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone });

export const preSendMessages = {
  webFormOnly: 'Takes demos only through their web form, not by email.',
  platformOnly: 'Takes demos only through a submission platform, not by email.',
  privateLinksOnly: 'Takes private streaming links only, and this email links a public streaming page. Send the private listen page instead.',
  downloadWanted: 'Wants a download link, and downloads are off for this track.',
  unreleasedOnly: 'Takes unreleased music only, and this track is released.',
  tooLong: (max: number, words: number) => `Prefers emails under ${max} words; this one has ${words}.`,
  genreNotTaken: (genre: string, taken: string) => `Does not take ${genre} (takes ${taken}).`,
  passed: (track: string, date: string) => `Passed on ${track} on ${date}.`,
} as const;

/**
 * "Passed on <track> on <date>.", the date in the artist's zone: the check's warning, and the recipients
 * picker's note before a draft exists (web/src/pages/compose/useTrackPitches.ts).
 */
export const passedMessage = (trackName: string | null | undefined, at: string, timeZone?: string) =>
  preSendMessages.passed(trackName?.trim() || 'this track', passedDate(at, timeZone));

/** The warnings for one recipient, in the order above (skipping ones first); none: nothing to say. */
export function preSendWarnings(input: PreSendInput): PreSendWarning[] {
  const { policy, email, track, passedOn } = input;
  const warnings: PreSendWarning[] = [];
  const warn = (kind: PreSendWarningKind, message: string, extra: Partial<PreSendWarning> = {}) =>
    warnings.push({ kind, message, skipByDefault: kind === 'form_only' || kind === 'passed', ...extra });

  if (passedOn) warn('passed', passedMessage(track.name, passedOn.at, input.timeZone));
  if (!policy) return warnings;

  if (policy.submit_by !== 'email') {
    const message = policy.submit_by === 'web_form' ? preSendMessages.webFormOnly : preSendMessages.platformOnly;
    warn('form_only', message, policy.submit_url ? { formUrl: policy.submit_url } : {});
  }
  if (policy.private_streaming_only && (track.publicStreamingUrl || linksIn(email).some(isPublicStreamingUrl))) {
    warn('private_links_only', preSendMessages.privateLinksOnly);
  }
  if (policy.download_wanted && !track.allowDownload) warn('download_wanted', preSendMessages.downloadWanted);
  if (policy.unreleased_only && track.released) warn('unreleased_only', preSendMessages.unreleasedOnly);
  if (policy.max_email_words !== null && email.wordCount > policy.max_email_words) {
    warn('too_long', preSendMessages.tooLong(policy.max_email_words, email.wordCount));
  }
  const genre = track.genre.trim();
  if (policy.genres.length > 0 && genre !== '' && !(policy.genres as readonly string[]).includes(genre)) {
    const name = isGenre(genre) ? genreLabels[genre] : genre;
    warn('genre_not_taken', preSendMessages.genreNotTaken(name, policy.genres.map((taken) => genreLabels[taken]).join(', ')));
  }
  // The skipping warnings first, so a list shows why a recipient is left out before what it only warns of.
  return warnings.sort((a, b) => Number(b.skipByDefault) - Number(a.skipByDefault));
}

/** Whether the check leaves the recipient out: a skipping warning (form only, passed) and the artist did not tick "Send anyway". */
export const leftOutByCheck = (warnings: readonly PreSendWarning[], sendAnyway: boolean): boolean => !sendAnyway && warnings.some((w) => w.skipByDefault);

/** What the check reads of a campaign: its track facts and its email as stored. */
export type PreSendCampaign = Pick<Campaign, 'track_name' | 'track_url' | 'genre' | 'track_id' | 'allow_download' | 'released' | 'email_body'>;

/** A stored body as words a reader reads: an HTML document's text without its tags, styles and head. */
const readableText = (body: string) =>
  body
    .replace(/<(head|style|script)[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/gi, ' ');

/**
 * The check's input for one recipient of a campaign, the same in the preview, the send dialog and the send
 * route. A campaign with an uploaded track sends each recipient their private listen page in place of
 * every copy of its track link (lambdas/core/compose.ts recipientEmail), so only a campaign without one
 * carries its link as written; the check's own host list says whether that link is public.
 */
export function campaignPreSendInput(
  campaign: PreSendCampaign,
  recipient: { policy: DemoPolicy | null | undefined; passedAt: string | null },
  timeZone?: string,
): PreSendInput {
  const uploaded = campaign.track_id !== null;
  const link = campaign.track_url?.trim() ?? '';
  const body = uploaded && link !== '' ? campaign.email_body.split(link).join('') : campaign.email_body;
  return {
    policy: recipient.policy,
    email: { text: body, wordCount: countWords(readableText(campaign.email_body)) },
    track: {
      publicStreamingUrl: !uploaded && link !== '' && isPublicStreamingUrl(link),
      // Downloads are offered only on an uploaded track's listen page.
      allowDownload: uploaded && campaign.allow_download,
      released: campaign.released,
      // An HTML campaign's free-text genre ('Electronic' by default) names no genre a policy lists.
      genre: isGenre(campaign.genre) ? campaign.genre : '',
      name: campaign.track_name,
    },
    ...(recipient.passedAt ? { passedOn: { at: recipient.passedAt } } : {}),
    ...(timeZone ? { timeZone } : {}),
  };
}
