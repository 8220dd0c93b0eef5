/**
 * The pitch pipeline of a track (issue 28 §1, DESIGN §16), pure: what the PITCHED item of (track,
 * address) says. The item is written by the claim (who, which track, when), the send's record, and in
 * the same transactions as the open, the listen, the answer and the artist's Replied mark; the artist's
 * own mark (Signed, Passed) sits beside those facts and wins over the stage they give, which is kept as
 * `derived_stage`. The board, the Tracks page's counts, the Dashboard's to-dos and a contact's tracks are
 * all read from these items alone.
 */
import type { ListenAnswer } from '../../schema/api/listenValues';
import { isListenAnswer } from '../../schema/api/listenValues';
import type { ContactTrackList, PipelineEntry, PipelineMark, PipelineStage, PipelineTodo, PipelineTrack } from '../../schema/api/pipeline';
import type { Campaign } from '../../schema/api/campaigns';
import type { PitchSnapshot, RecipientRecord } from '../ports';

/** The PITCHED item as stored (the table's attribute names). Every fact is optional: older items lack the later ones. */
export interface PipelineItem {
  track_key: string;
  address_id: string;
  /** The claim's snapshot: the track and the contact as they were when pitched (the board needs no other read). */
  track_name: string;
  track_url: string | null;
  track_id: string | null;
  contact_id: string | null;
  name: string;
  email: string;
  company: string | null;
  label_size: string | null;
  campaign_id: string;
  pitched_at: string | null;
  /** Claimed and not sent yet (a retry waiting): the Queued stage. */
  awaiting_send: boolean;
  sent_at: string | null;
  opened_at: string | null;
  listened_at: string | null;
  answer: ListenAnswer | null;
  answer_note: string | null;
  answered_at: string | null;
  replied_at: string | null;
  /** Stops the track's follow-ups and refuses a later pitch of it ('Not for us', or the artist's Passed). */
  passed_at: string | null;
  mark_stage: PipelineMark | null;
  mark_note: string | null;
  mark_on: string | null;
  mark_set_at: string | null;
  todo_done_at: string | null;
}

/** The stored attributes the reads project (no keys: the item carries its track key and address id). */
export const PIPELINE_ITEM_FIELDS = [
  'track_key',
  'address_id',
  'track_name',
  'track_url',
  'track_id',
  'contact_id',
  'name',
  'email',
  'company',
  'label_size',
  'campaign_id',
  'pitched_at',
  'awaiting_send',
  'sent_at',
  'opened_at',
  'listened_at',
  'answer',
  'answer_note',
  'answered_at',
  'replied_at',
  'passed_at',
  'mark_stage',
  'mark_note',
  'mark_on',
  'mark_set_at',
  'todo_done_at',
] as const satisfies readonly (keyof PipelineItem)[];

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/**
 * An item as read. The keys give what an item from before the pipeline lacks: the track key and address
 * id from its sort key (`PITCHED#<track key>#<addressId>`); the name falls back to the email.
 */
export function pipelineItemOf(stored: Record<string, unknown>): PipelineItem {
  const [, keyTrack = '', keyAddress = ''] = typeof stored.SK === 'string' ? stored.SK.split('#') : [];
  const email = text(stored.email) ?? '';
  const mark = stored.mark_stage === 'signed' || stored.mark_stage === 'passed' ? stored.mark_stage : null;
  return {
    track_key: text(stored.track_key) ?? keyTrack,
    address_id: text(stored.address_id) ?? keyAddress,
    track_name: text(stored.track_name) ?? '',
    track_url: text(stored.track_url),
    track_id: text(stored.track_id),
    contact_id: text(stored.contact_id),
    name: text(stored.name) ?? email,
    email,
    company: text(stored.company),
    label_size: text(stored.label_size),
    campaign_id: text(stored.campaign_id) ?? '',
    pitched_at: text(stored.pitched_at),
    awaiting_send: stored.awaiting_send === true,
    sent_at: text(stored.sent_at),
    opened_at: text(stored.opened_at),
    listened_at: text(stored.listened_at),
    answer: isListenAnswer(stored.answer) ? stored.answer : null,
    answer_note: text(stored.answer_note),
    answered_at: text(stored.answered_at),
    replied_at: text(stored.replied_at),
    passed_at: text(stored.passed_at),
    mark_stage: mark,
    mark_note: mark ? text(stored.mark_note) : null,
    mark_on: mark ? text(stored.mark_on) : null,
    mark_set_at: mark ? text(stored.mark_set_at) : null,
    todo_done_at: text(stored.todo_done_at),
  };
}

/**
 * The stage of a contact for a track. Derived: the furthest of what happened, in the board's order
 * (Queued: claimed, not sent yet; Pitched; Opened by a person; Listened to 25 %; Answered; Replied, the
 * artist's Replied mark). The artist's Signed or Passed wins over it; the derived stage is kept beside.
 */
export function stageOf(item: Pick<PipelineItem, 'awaiting_send' | 'sent_at' | 'opened_at' | 'listened_at' | 'answered_at' | 'replied_at' | 'mark_stage'>): {
  stage: PipelineStage;
  derived_stage: PipelineStage;
} {
  const derived: PipelineStage = item.replied_at
    ? 'replied'
    : item.answered_at
      ? 'answered'
      : item.listened_at
        ? 'listened'
        : item.opened_at
          ? 'opened'
          : item.awaiting_send && !item.sent_at
            ? 'queued'
            : 'pitched';
  return { stage: item.mark_stage ?? derived, derived_stage: derived };
}

/** One contact on a track's board. */
export function entryOf(item: PipelineItem): PipelineEntry {
  const { stage, derived_stage } = stageOf(item);
  return {
    address_id: item.address_id,
    contact_id: item.contact_id,
    name: item.name,
    email: item.email,
    company: item.company,
    label_size: item.label_size,
    stage,
    derived_stage,
    answer: item.answer,
    answer_note: item.answer_note,
    campaign_id: item.campaign_id,
    pitched_at: item.pitched_at,
    opened_at: item.opened_at,
    listened_at: item.listened_at,
    answered_at: item.answered_at,
    replied_at: item.replied_at,
    passed_at: item.passed_at,
    mark:
      item.mark_stage && item.mark_on && item.mark_set_at ? { stage: item.mark_stage, note: item.mark_note, on: item.mark_on, set_at: item.mark_set_at } : null,
    todo_done_at: item.todo_done_at,
  };
}

const later = (a: string | null, b: string | null) => (a === null ? b : b === null ? a : a > b ? a : b);

/**
 * The tracks of a set of items (any order), each with its counts, most recently pitched first. A count is
 * of contacts who reached that point (an opened contact who answered counts in both); signed and passed
 * are the stages the artist set. The name, link and upload are the latest pitch's.
 */
export function tracksOf(items: readonly PipelineItem[]): PipelineTrack[] {
  const tracks = new Map<string, { track: PipelineTrack; latest: string }>();
  for (const item of items) {
    let entry = tracks.get(item.track_key);
    if (!entry) {
      entry = {
        latest: '',
        track: {
          track_key: item.track_key,
          name: item.track_name,
          track_id: item.track_id,
          track_url: item.track_url,
          last_pitched_at: null,
          counts: { pitched: 0, opened: 0, listened: 0, answered: { interested: 0, send_wavs: 0, not_for_us: 0 }, signed: 0, passed: 0 },
        },
      };
      tracks.set(item.track_key, entry);
    }
    const { track } = entry;
    const pitchedAt = item.pitched_at ?? '';
    if (pitchedAt >= entry.latest) {
      entry.latest = pitchedAt;
      Object.assign(track, { name: item.track_name || track.name, track_id: item.track_id, track_url: item.track_url });
    }
    track.last_pitched_at = later(track.last_pitched_at, item.pitched_at);
    const { counts } = track;
    if (stageOf(item).derived_stage !== 'queued') counts.pitched++;
    if (item.opened_at) counts.opened++;
    if (item.listened_at) counts.listened++;
    if (item.answer) counts.answered[item.answer]++;
    if (item.mark_stage === 'signed') counts.signed++;
    if (item.mark_stage === 'passed') counts.passed++;
  }
  return [...tracks.values()].map(({ track }) => track).sort((a, b) => (b.last_pitched_at ?? '').localeCompare(a.last_pitched_at ?? ''));
}

/** The answers that ask the artist to act ("WAVs sent"): Dashboard to-dos until marked done. */
export const TODO_ANSWERS: readonly ListenAnswer[] = ['interested', 'send_wavs'];

/** The open to-dos among the items, newest answer first. */
export function todosOf(items: readonly PipelineItem[]): PipelineTodo[] {
  return items
    .filter((item) => item.answer !== null && TODO_ANSWERS.includes(item.answer) && item.answered_at !== null && item.todo_done_at === null)
    .map((item) => ({
      track_key: item.track_key,
      track_name: item.track_name,
      address_id: item.address_id,
      name: item.name,
      email: item.email,
      answer: item.answer as PipelineTodo['answer'],
      answer_note: item.answer_note,
      answered_at: item.answered_at as string,
    }))
    .sort((a, b) => b.answered_at.localeCompare(a.answered_at));
}

/** A contact's tracks with their stage (the items of one address), most recently pitched first. */
export function contactTracksOf(items: readonly PipelineItem[]): ContactTrackList['tracks'] {
  return items
    .map((item) => ({
      track_key: item.track_key,
      track_name: item.track_name,
      stage: stageOf(item).stage,
      pitched_at: item.pitched_at,
      passed_at: item.passed_at,
    }))
    .sort((a, b) => (b.pitched_at ?? '').localeCompare(a.pitched_at ?? ''));
}

/**
 * What the claim keeps on the PITCHED item for the board: the campaign's track and the contact as queued
 * (a later edit of the contact does not move the board); the label size is a directory contact's, null for others.
 */
export function pitchSnapshotOf(
  campaign: Pick<Campaign, 'track_name' | 'track_url' | 'track_id'>,
  recipient: Pick<RecipientRecord, 'contact' | 'recipient_name' | 'recipient_email'>,
): PitchSnapshot {
  const { contact } = recipient;
  return {
    track_name: campaign.track_name,
    track_url: campaign.track_url || null,
    track_id: campaign.track_id ?? null,
    contact_id: contact.id,
    name: recipient.recipient_name ?? contact.name,
    email: recipient.recipient_email,
    company: contact.label_name ?? null,
    label_size: contact.label_size ?? null,
  };
}

/** One sent email as its recipient's record logs it, with the PITCHED item it pitched (the backfill's input). */
export interface LoggedPitch {
  track_key: string;
  address_id: string;
  sent_at: string;
  opened_at: string | null;
  listened_at: string | null;
  answer: ListenAnswer | null;
  answer_note: string | null;
  answered_at: string | null;
  replied_at: string | null;
}

/** What the logs say of one PITCHED item: the first open, listen and Replied mark of its emails, the latest answer, the latest send. */
export type PitchFacts = Omit<LoggedPitch, 'track_key' | 'address_id'>;

const earlier = (a: string | null, b: string | null) => (a === null ? b : b === null ? a : a < b ? a : b);

/**
 * The backfill's facts per PITCHED item (`<track key>#<address id>`), from the sent emails' records: an
 * address pitched a track by several campaigns (send again) has one item, which keeps the first open,
 * listen and mark and the latest answer.
 */
export function pitchFactsOf(emails: readonly LoggedPitch[]): Map<string, { track_key: string; address_id: string; facts: PitchFacts }> {
  const merged = new Map<string, { track_key: string; address_id: string; facts: PitchFacts }>();
  for (const { track_key, address_id, ...facts } of emails) {
    const id = `${track_key}#${address_id}`;
    const known = merged.get(id);
    if (!known) {
      merged.set(id, { track_key, address_id, facts: { ...facts } });
      continue;
    }
    const was = known.facts;
    const answerIsNewer = facts.answered_at !== null && (was.answered_at === null || facts.answered_at > was.answered_at);
    known.facts = {
      sent_at: later(was.sent_at, facts.sent_at) ?? facts.sent_at,
      opened_at: earlier(was.opened_at, facts.opened_at),
      listened_at: earlier(was.listened_at, facts.listened_at),
      replied_at: earlier(was.replied_at, facts.replied_at),
      ...(answerIsNewer
        ? { answer: facts.answer, answer_note: facts.answer_note, answered_at: facts.answered_at }
        : { answer: was.answer, answer_note: was.answer_note, answered_at: was.answered_at }),
    };
  }
  return merged;
}

/** Whether a path segment could be a track key (core sender pitchKey: 22 base64url characters). */
export const isTrackKey = (value: string) => /^[A-Za-z0-9_-]{22}$/.test(value);
