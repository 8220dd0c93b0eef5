import { composeModes, type ComposeMode } from '../../../../schema/api/campaigns';
import type { EmailDraft } from './emailDraft';
import { emptyTrackForm, type TrackForm } from './trackForm';

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
}

export const emptyComposeSession: ComposeSession = { mode: 'ai', track: emptyTrackForm, editing: null, campaign_id: null, selected_ids: [] };

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
    };
  } catch {
    return null;
  }
}

/** Whether a session holds nothing of the artist's (the page as it opens). */
export function isEmptyComposeSession(session: ComposeSession): boolean {
  return JSON.stringify(session) === JSON.stringify(emptyComposeSession);
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
