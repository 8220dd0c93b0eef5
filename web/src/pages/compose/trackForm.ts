import {
  DEFAULT_EMAIL_LENGTH,
  DEFAULT_TONE,
  campaignLimits,
  emailLengthLabels,
  emailLengths,
  type AiTrackInput,
  type EmailLength,
  type HtmlTrackInput,
} from '../../../../schema/api/campaigns';
import { normaliseLink } from '../../../../schema/api/links';
import { listenLimits, listenMessages } from '../../../../schema/api/listenValues';
import { type Genre, type Tone } from '../../../../schema/api/options';

/**
 * The Track Information card's values (spec §3 "Campaign form data") as the inputs hold them: text,
 * a genre that may not be chosen yet, bpm as typed. Turned into the API's track shapes below.
 */
export interface TrackForm {
  track_name: string;
  track_url: string;
  genre: Genre | '';
  mood: string;
  bpm: string;
  description: string;
  ai_tone: Tone;
  email_length: EmailLength;
  /** The uploaded track chosen for this campaign (issue 16: 'Upload track' or 'My tracks'); '' when none. */
  track_id: string;
  /** 'Allow downloads' on the recipients' listen pages. */
  allow_download: boolean;
  /** 'Listen link valid for (days)', as typed. */
  listen_days: string;
  /** 'Already released' (issue 28 §2): labels taking unreleased music only are warned before sending. */
  released: boolean;
}

/** Spec §9 defaults: tone professional, email length 150. */
export const emptyTrackForm: TrackForm = {
  track_name: '',
  track_url: '',
  genre: '',
  mood: '',
  bpm: '',
  description: '',
  ai_tone: DEFAULT_TONE,
  email_length: DEFAULT_EMAIL_LENGTH,
  track_id: '',
  allow_download: false,
  listen_days: String(listenLimits.daysDefault),
  released: false,
};

/** 'Listen link valid for (days)': blank or a whole number in range. */
export function listenDaysError(value: string): string | null {
  const n = Number(value.trim());
  return value.trim() === '' || (Number.isInteger(n) && n >= listenLimits.daysMin && n <= listenLimits.daysMax) ? null : listenMessages.listenDaysRange;
}

/** The listen page's fields and whether the track is released, as both modes send them (a blank or bad number: the default, the form shows the error). */
function listenFieldsOf(form: TrackForm) {
  const days = Number(form.listen_days.trim());
  return {
    track_id: form.track_id === '' ? null : form.track_id,
    allow_download: form.allow_download,
    listen_days: form.listen_days.trim() !== '' && listenDaysError(form.listen_days) === null ? days : listenLimits.daysDefault,
    released: form.released,
  };
}

export const toneLabels: Record<Tone, string> = { professional: 'Professional', friendly: 'Friendly', casual: 'Casual' };

/** 'Medium (~150 words)'. */
export const emailLengthOptionLabel = (length: EmailLength) => `${emailLengthLabels[length]} (~${length} words)`;

export const isEmailLength = (value: number): value is EmailLength => (emailLengths as readonly number[]).includes(value);
export { isGenre } from '../../../../schema/api/options';

/** A typed link that is not a website (blank is not an error here: the * says it is needed). */
export const isBadTrackUrl = (value: string) => value.trim() !== '' && normaliseLink(value) === null;

/** The track link as it is sent and stored ('soundcloud.com/…' → 'https://soundcloud.com/…'); '' when blank or not a link. */
export const trackLinkOf = (form: Pick<TrackForm, 'track_url'>) => normaliseLink(form.track_url) ?? '';

/**
 * The track as a draft will store it, for its pitch key (core pitchBasis: the link as stored, else the
 * name); null while neither is given, or while the link typed is not a link yet (no draft could be saved).
 */
export function pitchedTrackOf(form: Pick<TrackForm, 'track_name' | 'track_url'>): { track_name: string; track_url: string | null } | null {
  const link = trackLinkOf(form);
  if (link === '' && (form.track_url.trim() !== '' || form.track_name.trim() === '')) return null;
  return { track_name: form.track_name, track_url: link === '' ? null : link };
}

/** bpm as the server takes it: blank, or a whole number in range. */
export function bpmError(value: string): string | null {
  const text = value.trim();
  if (text === '') return null;
  const n = Number(text);
  return Number.isInteger(n) && n >= campaignLimits.bpmMin && n <= campaignLimits.bpmMax
    ? null
    : `BPM must be a whole number from ${campaignLimits.bpmMin} to ${campaignLimits.bpmMax}`;
}

/**
 * The track link AI mode needs: a website link, or an uploaded track with the link left blank (each email
 * then links to the recipient's own listen page, issue 16).
 */
export const trackLinkReady = (form: Pick<TrackForm, 'track_url' | 'track_id'>) =>
  normaliseLink(form.track_url) !== null || (form.track_id !== '' && form.track_url.trim() === '');

/** The listen page's fields are sendable: no uploaded track, or a link validity in range. */
export const listenFieldsReady = (form: Pick<TrackForm, 'track_id' | 'listen_days'>) => form.track_id === '' || listenDaysError(form.listen_days) === null;

/** AI mode needs a track name, a track link (or an uploaded track), a genre and a description (the * fields). */
export function aiTrackReady(form: TrackForm): boolean {
  return form.track_name.trim() !== '' && form.description.trim() !== '' && trackLinkReady(form) && form.genre !== '' && listenFieldsReady(form);
}

/**
 * The * fields AI mode still needs that the spec's hint (composeMessages.previewNeeds: track name,
 * description, a contact) does not name, so the disabled Generate button says what is missing.
 */
export function missingBeyondHint(form: TrackForm): string[] {
  const missing: string[] = [];
  if (!trackLinkReady(form)) missing.push('Track URL');
  if (form.genre === '') missing.push('Genre');
  if (!listenFieldsReady(form)) missing.push('Listen link valid for (days)');
  return missing;
}

const optional = (value: string) => (value.trim() === '' ? null : value.trim());

/** The form as AI mode sends it; call only when aiTrackReady (the server checks again). */
export function aiTrackOf(form: TrackForm): AiTrackInput {
  return {
    track_name: form.track_name,
    track_url: trackLinkOf(form),
    genre: form.genre as Genre,
    mood: optional(form.mood),
    bpm: optional(form.bpm),
    description: form.description,
    ai_tone: form.ai_tone,
    email_length: form.email_length,
    ...listenFieldsOf(form),
  };
}

/** The form as HTML mode sends it: blanks are left out, so the server uses the defaults of spec §5. */
export function htmlTrackOf(form: TrackForm): HtmlTrackInput {
  const track: HtmlTrackInput = {
    ai_tone: form.ai_tone,
    email_length: form.email_length,
    mood: optional(form.mood),
    bpm: optional(form.bpm),
    ...listenFieldsOf(form),
  };
  if (form.track_name.trim() !== '') track.track_name = form.track_name;
  // A link that is none is sent as typed, so the server names it instead of dropping it.
  if (form.track_url.trim() !== '') track.track_url = normaliseLink(form.track_url) ?? form.track_url.trim();
  if (form.genre !== '') track.genre = form.genre;
  if (form.description.trim() !== '') track.description = form.description;
  return track;
}
