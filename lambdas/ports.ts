/**
 * The interfaces the core and the handlers need. Adapters in lambdas/adapters/* implement them;
 * lambdas/compose.ts picks which. Nothing here imports an SDK.
 */
import type { Campaign, EmailLength, SavedContactList } from '../schema/api/campaigns';
import type { Contact, ContactInput, Unsubscribe } from '../schema/api/contacts';
import type { Tone } from '../schema/api/options';
import type { CampaignTemplate } from '../schema/api/templates';
import type { DirectoryAllowance, DirectoryEntry, RawDirectoryEntry } from '../schema/api/directory';
import type { Profile, ProfileUpdate } from '../schema/api/profile';
import type { WaitlistEntry } from '../schema/api/waitlist';

export interface Clock {
  now(): Date;
}

export interface ProfileStore {
  get(userId: string): Promise<Profile | undefined>;
  /** Creates the profile unless one exists; returns whichever is stored (first sign-in may race). */
  createIfMissing(profile: Profile): Promise<Profile>;
  /** Applies the user-editable fields; returns the updated profile, or undefined if none exists. */
  update(userId: string, update: ProfileUpdate): Promise<Profile | undefined>;
}

/** New sortable ids (ULIDs): the id's leading characters encode `time`, so ids sort by creation. */
export interface IdGenerator {
  next(time: Date): string;
}

export type WaitlistAddResult = { outcome: 'added'; entry: WaitlistEntry } | { outcome: 'duplicate' };

export type WaitlistChangeResult =
  | { outcome: 'changed'; entry: WaitlistEntry }
  | { outcome: 'not_found' }
  /** The entry is not in the status the change required; `entry` is what is stored. */
  | { outcome: 'conflict'; entry: WaitlistEntry };

export type WaitlistListResult =
  | { outcome: 'listed'; entries: WaitlistEntry[]; nextCursor?: string }
  /** The cursor is not one this store handed out (malformed, or not an entry's position). */
  | { outcome: 'invalid_cursor' };

export interface WaitlistStore {
  /**
   * One page of entries, newest first, read by partition (no Scan): at most `limit` entries after
   * `cursor` (the `nextCursor` of the page before; opaque). `nextCursor` is set while more may follow.
   */
  list(page: { limit: number; cursor?: string }): Promise<WaitlistListResult>;
  /**
   * Adds the entry and counts it, unless an entry with the same (normalised) email exists: one
   * atomic write, so two identical joins racing give one entry.
   */
  add(entry: WaitlistEntry): Promise<WaitlistAddResult>;
  /** How many entries were ever added (the counter kept by `add`). */
  count(): Promise<number>;
  get(id: string): Promise<WaitlistEntry | undefined>;
  /** Applies `change` only while the entry's status is `from` (checked in the write itself). */
  changeStatus(
    id: string,
    from: WaitlistEntry['status'],
    change: Pick<WaitlistEntry, 'status' | 'approved_at'>,
  ): Promise<WaitlistChangeResult>;
  /** Sets the internal notes (null clears them); undefined when there is no such entry. */
  setNotes(id: string, notes: string | null): Promise<WaitlistEntry | undefined>;
}

/** A user's sending cursor that is due: the dispatcher turns each into one queue message. */
export interface DueCursor {
  userId: string;
  /** ISO time the user's next email is due. */
  dueAt: string;
}

export interface SendingCursorStore {
  /** Cursors in one DUE shard due at or before `now`, oldest first, at most `limit`. */
  listDue(shard: number, now: Date, limit: number): Promise<DueCursor[]>;
}

export interface QueueMessage {
  /** FIFO message group: messages of one group are delivered one at a time, in order. */
  groupId: string;
  /** FIFO deduplication id: a second message with the same id within five minutes is dropped. */
  deduplicationId: string;
  body: string;
}

export interface Queue {
  /** Sends every message or throws, naming the ones that were not accepted. */
  send(messages: QueueMessage[]): Promise<void>;
}

// ---------------------------------------------------------------------------------------------------
// Contacts, unsubscribes, directory (issue 4). Every user-owned call takes the user id from the
// verified token; an id of another user's item is simply not found under the caller's partition.

export type ContactWriteResult = { outcome: 'saved'; contact: Contact } | { outcome: 'duplicate' } | { outcome: 'not_found' };

export type ContactListResult =
  | { outcome: 'listed'; contacts: Contact[]; nextCursor?: string }
  | { outcome: 'invalid_cursor' };

/** A new contact before the store gives it its id (the addressId of its email) and time. */
export type NewContact = ContactInput & { genre_focus?: string | null };

export interface ContactStore {
  /** One page, newest first (GSI1 by creation time); `cursor` is an opaque `nextCursor` of this store. */
  list(userId: string, page: { limit: number; cursor?: string }): Promise<ContactListResult>;
  get(userId: string, id: string): Promise<Contact | undefined>;
  /** Creates the contact unless one with the same (normalised) email exists: 'duplicate'. */
  add(userId: string, contact: NewContact, now: Date): Promise<ContactWriteResult>;
  /**
   * Replaces the editable fields. When the email changes the contact moves to its new id (one atomic
   * write; 'duplicate' when another contact has that email); created_at and genre_focus are kept.
   */
  update(userId: string, id: string, contact: ContactInput): Promise<ContactWriteResult>;
  /** True when a contact was deleted. */
  remove(userId: string, id: string): Promise<boolean>;
  /** Deletes those of `ids` that are the user's contacts; returns the ids deleted. */
  removeMany(userId: string, ids: readonly string[]): Promise<string[]>;
  /**
   * Bulk create for CSV import: contacts whose email exists already (or repeats within `contacts`)
   * are skipped and counted; the rest are written without a transaction. Safe to repeat: a retried
   * batch only creates what is missing, and two writers of one email meet on one item, never two.
   * Not conditional per item: a contact created for the same address between the existence read and
   * the write is replaced by the row (schema/ACCESS_PATTERNS.md says why).
   */
  importMany(userId: string, contacts: readonly NewContact[], now: Date): Promise<{ created: Contact[]; skipped: number }>;
  /** Which of these ids exist for the user (BatchGet, no full read). */
  existingIds(userId: string, ids: readonly string[]): Promise<Set<string>>;
}

export interface UnsubscribeStore {
  /** Every unsubscribe of the user, newest first. */
  list(userId: string): Promise<Unsubscribe[]>;
  count(userId: string): Promise<number>;
  /** Records (or re-records) an unsubscribe; keyed by the address, so it is idempotent. */
  record(userId: string, unsubscribe: Omit<Unsubscribe, 'id'>): Promise<Unsubscribe>;
  /** Resubscribe: true when a record was removed. */
  remove(userId: string, id: string): Promise<boolean>;
}

export type DirectoryAddOutcome =
  | { outcome: 'added'; added: Contact[]; duplicates: { id: string; name: string }[]; allowance: DirectoryAllowance }
  /** Adding `requested` new contacts would pass the limit: nothing was written. */
  | { outcome: 'over_allowance'; allowance: DirectoryAllowance; requested: number }
  | { outcome: 'unknown_entries'; ids: string[] }
  | { outcome: 'no_email'; entry: DirectoryEntry }
  | { outcome: 'no_profile' };

export interface DirectoryStore {
  /** Every entry, by partition (no Scan), featured or not, in id order. */
  list(): Promise<DirectoryEntry[]>;
  /**
   * Adds the entries to the user's contacts and counts the new ones on the profile in the same
   * transactions, on condition that the count stays within `limit` (two tabs cannot pass it).
   * Entries whose email the user already has are skipped (duplicates, not counted).
   */
  addToContacts(userId: string, entryIds: readonly string[], limit: number, now: Date): Promise<DirectoryAddOutcome>;
  /**
   * Upserts entries by (lower-cased) email: an entry whose email is in the directory keeps its id
   * and is replaced; others get a new id. Returns how many of each, or, when the new entries would take
   * the directory past `maxEntries`, writes nothing and says how many it would have held.
   */
  upsertByEmail(
    entries: readonly Omit<DirectoryEntry, 'id'>[],
    limits: { maxEntries: number },
  ): Promise<{ outcome: 'upserted'; created: number; updated: number } | { outcome: 'too_many'; total: number }>;
}

/** A directory record as read from an import file, before defaults and validation. */
export type DirectoryImportRecord = Omit<RawDirectoryEntry, 'id'>;

// ---------------------------------------------------------------------------------------------------
// Compose (issue 5): campaign drafts, templates, saved lists, the AI writer, the HTML sanitizer.

export type DraftWriteResult = { outcome: 'saved'; campaign: Campaign } | { outcome: 'not_found' } | { outcome: 'not_draft'; campaign: Campaign };

/** The fields of a draft the compose screen may replace (everything but ids, status, counters and times). */
export type DraftContent = Pick<
  Campaign,
  | 'mode'
  | 'track_name'
  | 'track_url'
  | 'genre'
  | 'mood'
  | 'bpm'
  | 'description'
  | 'ai_tone'
  | 'email_length'
  | 'email_subject'
  | 'email_body'
  | 'personalised_by_writer'
  | 'preview_contact_id'
  | 'total_recipients'
>;

export interface CampaignStore {
  /** Creates a draft campaign with this content: a new ULID id, status draft, zero counters. */
  createDraft(userId: string, content: DraftContent, now: Date): Promise<Campaign>;
  get(userId: string, id: string): Promise<Campaign | undefined>;
  /** Every campaign of the user, newest first (one partition read). */
  list(userId: string): Promise<Campaign[]>;
  /** Replaces some of the draft's content, only while its status is draft (checked in the write). */
  updateDraft(userId: string, id: string, changes: Partial<DraftContent>, now: Date): Promise<DraftWriteResult>;
}

export interface TemplateStore {
  /** The seeded system templates, by name. */
  listSystem(): Promise<CampaignTemplate[]>;
  /** The user's own templates, by name. */
  listForUser(userId: string): Promise<CampaignTemplate[]>;
  add(userId: string, template: Omit<CampaignTemplate, 'id' | 'is_system_template'>, now: Date): Promise<CampaignTemplate>;
  /** True when the user's template was deleted (a system template's id is not found). */
  remove(userId: string, id: string): Promise<boolean>;
}

export interface ContactListStore {
  /** The user's saved lists, newest first. */
  list(userId: string): Promise<SavedContactList[]>;
  add(userId: string, list: Omit<SavedContactList, 'id' | 'created_at'>, now: Date): Promise<SavedContactList>;
  remove(userId: string, id: string): Promise<boolean>;
}

/** What the artist's emails say about them: the name they sign with and their public links. */
export interface ArtistDetails {
  /** Artist name, else full name (spec §5 [ARTIST_NAME]). */
  name: string;
  links: { label: string; url: string }[];
}

/** The contact fields the writer may use. Data only: they are never instructions to the writer. */
export type WriterContact = Pick<Contact, 'name' | 'label_name' | 'contact_type' | 'genre' | 'position' | 'notes'>;

export interface WriterRequest {
  track: {
    track_name: string;
    track_url: string;
    genre: string;
    mood: string | null;
    bpm: number | null;
    description: string;
  };
  tone: Tone;
  /** Approximate length of the body in words (spec §9: 100 / 150 / 250). */
  length: EmailLength;
  artist: ArtistDetails;
  contact: WriterContact;
}

/** An email as the writer returns it: a subject and a plain-text body (no footer, no links list). */
export interface WrittenEmail {
  subject: string;
  body: string;
}

/**
 * Writes one personal email. Throws WriterError (lambdas/core/errors.ts) when the model is busy,
 * too slow, or its reply is not a valid {subject, body}.
 */
export interface EmailWriter {
  write(request: WriterRequest): Promise<WrittenEmail>;
}

/** Removes anything that could run or phone home from user HTML, keeping an email's layout (tables, inline CSS). */
export interface HtmlSanitizer {
  sanitize(html: string): string;
}

/**
 * Emails the writer wrote for single recipients of a personalised campaign, keyed by the writer's
 * request: written once, then the per-recipient preview and the send use the same text (a model does
 * not write the same email twice).
 */
export interface WrittenEmailStore {
  get(campaignId: string, requestKey: string): Promise<WrittenEmail | undefined>;
  /** Stores the email unless one is stored under this key (the first writer wins); returns what is stored. */
  putIfAbsent(campaignId: string, requestKey: string, email: WrittenEmail, now: Date): Promise<WrittenEmail>;
}
