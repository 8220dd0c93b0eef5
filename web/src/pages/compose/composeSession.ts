import { composeModes, htmlCampaignDefaults, type Campaign, type ComposeMode } from '../../../../schema/api/campaigns';
import { isGenre } from '../../../../schema/api/options';
import { htmlTemplateKinds, type HtmlTemplateKind } from '../../../../schema/email/htmlTemplates';
import type { EmailDraft } from './emailDraft';
import { emptyFollowUpsForm, followUpsFormOf, type FollowUpsForm } from './followUpsForm';
import { emptyTrackForm, isEmailLength, type TrackForm } from './trackForm';

export type DesignedHtmlKind = Exclude<HtmlTemplateKind, 'custom'>;

/**
 * HTML mode's work: the template chosen, the subject and accent typed in its form, and the subject and
 * HTML of each template's composer (what the artist edited), so leaving Compose loses none of it.
 */
export interface HtmlSession {
  kind: HtmlTemplateKind;
  /** Where 'Back to Templates' returns from Custom HTML. */
  last_designed: DesignedHtmlKind;
  /** null while the subject follows the track name. */
  typed_subject: string | null;
  /** null while the accent is the template's default. */
  accent: { colour: string; text: string } | null;
  drafts: Partial<Record<HtmlTemplateKind, EmailDraft>>;
}

/** HTML mode as it opens: nothing of the artist's in it. */
export const emptyHtmlSession: HtmlSession = { kind: 'minimal', last_designed: 'minimal', typed_subject: null, accent: null, drafts: {} };

/**
 * What the artist has put into Compose, kept in the browser's sessionStorage per signed-in user, so a
 * visit to Contacts (or a reload) comes back to the same track, recipients, email and draft. Session
 * storage: it lasts as long as the tab, and another user signing in on it never sees this one's work.
 */
export interface ComposeSession {
  mode: ComposeMode;
  track: TrackForm;
  /** The email being edited in AI mode, when it was. */
  editing: EmailDraft | null;
  /** The draft campaign of this session: later previews and saves rewrite it instead of adding one. */
  campaign_id: string | null;
  selected_ids: string[];
  /** HTML mode's template, subject and HTML; null until the artist changes anything there. */
  html: HtmlSession | null;
  /** The follow-ups (issue 27 §1), off until the artist turns them on. */
  follow_ups: FollowUpsForm;
}

export const emptyComposeSession: ComposeSession = {
  mode: 'ai',
  track: emptyTrackForm,
  editing: null,
  campaign_id: null,
  selected_ids: [],
  html: null,
  follow_ups: emptyFollowUpsForm,
};

/** Where a draft opens back in Compose (the Campaigns list and a draft's page link here). */
export const DRAFT_PARAM = 'draft';
export const composeDraftPath = (campaignId: string) => `/dashboard/compose?${DRAFT_PARAM}=${encodeURIComponent(campaignId)}`;

const keyOf = (userId: string) => `trackpitch.compose.${userId}`;

/** Storage may be absent or refuse (private modes, a full quota): the page then works as before, without keeping. */
function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.sessionStorage;
  } catch {
    return null;
  }
}

const isString = (value: unknown): value is string => typeof value === 'string';

/** The stored track form, field by field: a field of the wrong type (an older shape, an edit by hand) takes the empty form's. */
function trackOf(value: unknown): TrackForm {
  const stored = (value !== null && typeof value === 'object' ? value : {}) as Record<string, unknown>;
  const track: Record<string, unknown> = { ...emptyTrackForm };
  for (const [field, empty] of Object.entries(emptyTrackForm)) {
    if (typeof stored[field] === typeof empty) track[field] = stored[field];
  }
  return track as unknown as TrackForm;
}

const isEmailDraft = (value: unknown): value is EmailDraft =>
  value !== null && typeof value === 'object' && isString((value as Record<string, unknown>).subject) && isString((value as Record<string, unknown>).body);

const kindOf = (value: unknown) => htmlTemplateKinds.find((kind) => kind === value);

/** The stored HTML work, part by part: a part of the wrong shape is left out. */
function htmlOf(value: unknown): HtmlSession | null {
  if (value === null || typeof value !== 'object') return null;
  const stored = value as Record<string, unknown>;
  const lastDesigned = kindOf(stored.last_designed);
  const accent = stored.accent as Record<string, unknown> | null | undefined;
  const drafts: HtmlSession['drafts'] = {};
  if (stored.drafts !== null && typeof stored.drafts === 'object') {
    for (const [kind, draft] of Object.entries(stored.drafts)) {
      const known = kindOf(kind);
      if (known && isEmailDraft(draft)) drafts[known] = { subject: draft.subject, body: draft.body };
    }
  }
  return {
    kind: kindOf(stored.kind) ?? 'minimal',
    last_designed: lastDesigned && lastDesigned !== 'custom' ? lastDesigned : 'minimal',
    typed_subject: isString(stored.typed_subject) ? stored.typed_subject : null,
    accent: accent && isString(accent.colour) && isString(accent.text) ? { colour: accent.colour, text: accent.text } : null,
    drafts,
  };
}

/** The user's kept session, or null when there is none (or it cannot be read). */
export function readComposeSession(userId: string): ComposeSession | null {
  const text = storage()?.getItem(keyOf(userId));
  if (!text) return null;
  try {
    const stored = JSON.parse(text) as Record<string, unknown>;
    const editing = stored.editing as Record<string, unknown> | null | undefined;
    return {
      mode: composeModes.find((mode) => mode === stored.mode) ?? 'ai',
      track: trackOf(stored.track),
      editing: editing && isString(editing.subject) && isString(editing.body) ? { subject: editing.subject, body: editing.body } : null,
      campaign_id: isString(stored.campaign_id) ? stored.campaign_id : null,
      selected_ids: Array.isArray(stored.selected_ids) ? stored.selected_ids.filter(isString) : [],
      html: htmlOf(stored.html),
      follow_ups: followUpsFormOf(stored.follow_ups),
    };
  } catch {
    return null;
  }
}

/** HTML mode's work, or null when it holds nothing of the artist's (so opening HTML mode is not work to discard). */
export function htmlWorkOf(html: HtmlSession): HtmlSession | null {
  return JSON.stringify(html) === JSON.stringify(emptyHtmlSession) ? null : html;
}

/** Whether a session holds nothing of the artist's (the page as it opens). */
export function isEmptyComposeSession(session: ComposeSession): boolean {
  return JSON.stringify({ ...session, html: session.html && htmlWorkOf(session.html) }) === JSON.stringify(emptyComposeSession);
}

/** A value the server filled in for a blank HTML-mode field: the form shows the blank again. */
const typedInHtml = (value: string, filled: string) => (value === filled ? '' : value);

/**
 * The compose session a saved draft opens as: its mode, track fields, email (an HTML draft's in the
 * Custom HTML composer) and the draft itself, which later saves rewrite. A draft keeps no recipient
 * list: the contact an AI preview was written for is selected again, the others are chosen anew.
 */
export function sessionFromDraft(draft: Campaign): ComposeSession {
  const html = draft.mode === 'html';
  const track: TrackForm = {
    track_name: html ? typedInHtml(draft.track_name, htmlCampaignDefaults.track_name) : draft.track_name,
    track_url: draft.track_url ?? '',
    genre: isGenre(draft.genre) ? draft.genre : '',
    mood: draft.mood ?? '',
    bpm: draft.bpm === null ? '' : String(draft.bpm),
    description: html ? typedInHtml(draft.description, htmlCampaignDefaults.description) : draft.description,
    ai_tone: draft.ai_tone,
    email_length: isEmailLength(draft.email_length) ? draft.email_length : emptyTrackForm.email_length,
    track_id: draft.track_id ?? '',
    allow_download: draft.allow_download,
    listen_days: String(draft.listen_days),
    released: draft.released,
  };
  return {
    mode: draft.mode,
    track,
    editing: null,
    campaign_id: draft.id,
    selected_ids: draft.preview_contact_id === null ? [] : [draft.preview_contact_id],
    html: html ? { ...emptyHtmlSession, kind: 'custom', drafts: { custom: { subject: draft.email_subject, body: draft.email_body } } } : null,
    follow_ups: emptyFollowUpsForm,
  };
}

/** Keeps the session; an empty one is removed rather than kept. */
export function saveComposeSession(userId: string, session: ComposeSession): void {
  try {
    if (isEmptyComposeSession(session)) storage()?.removeItem(keyOf(userId));
    else storage()?.setItem(keyOf(userId), JSON.stringify(session));
  } catch {
    // A full quota: the work stays on the page, only not kept across a visit elsewhere.
  }
}

/** 'Discard' and a sent campaign: the next visit starts afresh. */
export function clearComposeSession(userId: string): void {
  try {
    storage()?.removeItem(keyOf(userId));
  } catch {
    // Nothing kept that could be removed.
  }
}
