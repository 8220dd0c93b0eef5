/**
 * The interfaces the core and the handlers need. Adapters in lambdas/adapters/* implement them;
 * each function's composition (lambdas/composition/<group>.ts) picks which. Nothing here imports an SDK.
 */
import type { ListenAnswer } from '../schema/api/listenValues';
import type { FollowUps, FollowUpStopReason } from '../schema/api/followUpValues';
import type { MetricName, MetricUnitName } from '../schema/metrics';
import type { Campaign, CampaignSendWindow, EmailLength, SavedContactList } from '../schema/api/campaigns';
import type { Contact, ContactInput, Unsubscribe } from '../schema/api/contacts';
import type { Tone } from '../schema/api/options';
import type { CampaignTemplate } from '../schema/api/templates';
import type { DirectoryAllowance, DirectoryEntry, RawDirectoryEntry } from '../schema/api/directory';
import type { DemoPolicy } from '../schema/api/demoPolicyValues';
import type { Profile, ProfileUpdate, SubscriptionStatus, Tier } from '../schema/api/profile';
import type { WaitlistEntry } from '../schema/api/waitlist';
import type { ContactEmail, OutboxMessage, OutboxMessageSummary, RecipientStatus } from '../schema/api/sending';
import type { TrackSummary } from '../schema/api/tracks';
import type { CoverMediaType } from '../schema/api/trackValues';
import type { AudioFacts, ReadyTrackFacts, StoredTrack } from './core/tracks';
import type { Activity, ActivityFilter, LinkClicks, RecentSend } from '../schema/api/insights';
import type { CampaignCounters, DayRange, StoredDay, UserTotals } from './core/insights';
import type { AllowanceOutcome, AllowanceWindow, ClientLimitKind } from './core/allowance';
import type { PipelineItem } from './core/pipeline';
import type { PipelineMark } from '../schema/api/pipeline';

export interface Clock {
  now(): Date;
}

/**
 * Where a worker or handler emits the application metrics (schema/metrics.ts): Powertools Metrics in a
 * Lambda and the local ticker (lambdas/adapters/metrics.ts), a recorder in tests. Emit each metric
 * with its unit from MetricUnits.
 */
export interface AppMetrics {
  addMetric(name: MetricName, unit: MetricUnitName, value: number): void;
  publishStoredMetrics(): void;
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
  changeStatus(id: string, from: WaitlistEntry['status'], change: Pick<WaitlistEntry, 'status' | 'approved_at'>): Promise<WaitlistChangeResult>;
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

/**
 * Another group's nudge to a user's sender (the billing write after an upgrade): the sender reads the
 * plan again at its next tick instead of at the cursor's later due time.
 */
export interface SenderWake {
  /**
   * Makes the user's sending cursor due at `now` when it is due later; never creates a cursor, never
   * moves an earlier due time later, leaves an idle cursor idle. True when it moved the due time.
   */
  wakeSender(userId: string, now: Date): Promise<boolean>;
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

export type ContactListResult = { outcome: 'listed'; contacts: Contact[]; nextCursor?: string } | { outcome: 'invalid_cursor' };

/** A new contact before the store gives it its id (the addressId of its email) and time. */
/** A contact to create: what a person writes, a time zone only when known (a bulk import or a script may leave it out). */
export type NewContact = Omit<ContactInput, 'time_zone'> & {
  time_zone?: string | null;
  genre_focus?: string | null;
  demo_policy?: Contact['demo_policy'];
  label_size?: Contact['label_size'];
};

export interface ContactStore {
  /** One page, newest first (GSI1 by creation time); `cursor` is an opaque `nextCursor` of this store. */
  list(userId: string, page: { limit: number; cursor?: string }): Promise<ContactListResult>;
  get(userId: string, id: string): Promise<Contact | undefined>;
  /** Creates the contact unless one with the same (normalised) email exists: 'duplicate'. */
  add(userId: string, contact: NewContact, now: Date): Promise<ContactWriteResult>;
  /**
   * Replaces the editable fields. When the email changes the contact moves to its new id (one atomic
   * write; 'duplicate' when another contact has that email); created_at, genre_focus, demo_policy and label_size are kept.
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
  /** The user's contacts among these ids (BatchGet, consistent); ids that are not a contact are simply absent. */
  getMany(userId: string, ids: readonly string[]): Promise<Contact[]>;
}

/** Who resubscribed an address, from the verified token, and when. */
export interface Resubscriber {
  userId: string;
  email: string;
  at: Date;
}

/**
 * Who the artist pitched a track to (by its key, core pitchKey), and who of them passed (issue 28 §2):
 * the PITCHED items of (track, address) (`PITCHED#<track key>#<addressId>`). One read serves the send
 * check, the send (an address already pitched is sent again only when the artist asks; one that passed
 * is skipped unless the artist insists) and the preview's warnings.
 */
export interface TrackPitches {
  /** Address ids the track was sent to. */
  pitched: ReadonlySet<string>;
  /** Of those, each that passed on the track, with when (ISO). */
  passed: ReadonlyMap<string, string>;
}

export interface PitchStore {
  /** One partition query. */
  pitchesOf(userId: string, trackKey: string): Promise<TrackPitches>;
}

export interface UnsubscribeStore {
  /** Every unsubscribe of the user, newest first. */
  list(userId: string): Promise<Unsubscribe[]>;
  count(userId: string): Promise<number>;
  /** Records (or re-records) an unsubscribe; keyed by the address, so it is idempotent. */
  record(userId: string, unsubscribe: Omit<Unsubscribe, 'id'>): Promise<Unsubscribe>;
  /**
   * Resubscribe: removes the record and, in the same write, keeps who did it and when beside the record
   * it removed (`by`: the verified caller). True when a record was removed.
   */
  remove(userId: string, id: string, by: Resubscriber): Promise<boolean>;
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
export type DirectoryImportRecord = Omit<RawDirectoryEntry, 'id' | 'demo_policy'>;

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
  | 'track_id'
  | 'allow_download'
  | 'listen_days'
  | 'released'
>;

export interface CampaignStore {
  /** Creates a draft campaign with this content: a new ULID id, status draft, zero counters. */
  createDraft(userId: string, content: DraftContent, now: Date): Promise<Campaign>;
  get(userId: string, id: string): Promise<Campaign | undefined>;
  /** Every campaign of the user, newest first (one partition read). */
  list(userId: string): Promise<Campaign[]>;
  /** Replaces some of the draft's content, only while its status is draft (checked in the write). */
  updateDraft(userId: string, id: string, changes: Partial<DraftContent>, now: Date): Promise<DraftWriteResult>;
  /**
   * Deletes the campaign only while it is a draft (checked in the write): a sent campaign keeps its history.
   * The draft's own items (the writer's per-recipient emails) go with it.
   */
  deleteDraft(userId: string, id: string): Promise<DraftDeleteResult>;
}

export type DraftDeleteResult = { outcome: 'deleted' } | { outcome: 'not_found' } | { outcome: 'not_draft' };

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
export type WriterContact = Pick<Contact, 'name' | 'label_name' | 'contact_type' | 'genre' | 'position' | 'notes'> & {
  /**
   * The recipient's demo policy (issue 28 §2), which the writer follows (no download wording for a label
   * that takes private streaming links only, the length they prefer). Absent when none is known, so a
   * request without one (and its key, core/compose writerRequestKey) is what it was before policies.
   */
  demo_policy?: DemoPolicy;
};

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
  /**
   * A follow-up step (issue 27 §1): the writer writes a short, polite nudge about the first email it
   * is given (never a copy of it), stating nothing the first email and the facts do not.
   */
  followUp?: { step: number; first_subject: string; first_body: string };
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

/**
 * Counts of allowances in fixed windows (lambdas/core/allowance.ts). `take` counts one in every window
 * or, when one of them is full, in none, and says which was full. `subject` names whose count it is
 * (a user's AI previews, a client's waitlist joins or listen beacons); `windows` come from the core.
 */
export interface AllowanceStore {
  take(subject: AllowanceSubject, windows: readonly AllowanceWindow[]): Promise<AllowanceOutcome>;
}

/**
 * Whose allowance: a user's (kept in their partition, so it goes with their account) of one kind, or a
 * network client's on a public route (core clientKey: a hash of its address, never the address).
 */
export type AllowanceSubject = { userId: string; kind: 'ai_preview' } | { client: string; kind: ClientLimitKind };

// ---------------------------------------------------------------------------------------------------
// Sending (issue 6): the mailbox connection, the paced queue, delivery, tracking, the local outbox.
// Item layouts: schema/ACCESS_PATTERNS.md; DESIGN §4 (pipeline invariants) and §5 (security).

/** A mailbox as stored (`USER#<sub>` / `MAILBOX`). The refresh token is sealed (SecretBox) and never leaves the server. */
export interface StoredMailbox {
  email: string;
  accountType: 'free' | 'workspace';
  /** 2000 for Workspace (the ID token carries `hd`), else 500 (spec §9). */
  dailyLimit: number;
  sealedRefreshToken: string;
  connectedAt: string;
}

export interface MailboxStore {
  get(userId: string): Promise<StoredMailbox | undefined>;
  /** Stores the mailbox and sets the profile's gmail_connected / gmail_email / gmail_daily_limit / gmail_account_type, in one transaction. */
  connect(userId: string, mailbox: StoredMailbox): Promise<void>;
  /**
   * Deletes the mailbox and sets gmail_connected false (one transaction). Returns what was stored
   * (so the caller can revoke the token), or undefined when nothing was connected.
   */
  disconnect(userId: string): Promise<StoredMailbox | undefined>;
}

export interface OAuthStateStore {
  /** Remembers a consent's nonce for the user until `expiresAt` (TTL). */
  create(nonce: string, userId: string, expiresAt: Date): Promise<void>;
  /** Deletes the nonce's item and returns the user it was made for; undefined if unknown, used or expired. Single use. */
  consume(nonce: string, now: Date): Promise<string | undefined>;
}

/** What the provider says about the mailbox the artist authorized. */
export interface AuthorizedMailbox {
  refreshToken: string;
  email: string;
  /** The Google Workspace domain (`hd` in the ID token); null for a consumer account. */
  hostedDomain: string | null;
}

/** The OAuth side of a mailbox connection: Google in AWS, the local mailbox's consent page locally. */
export interface MailboxAuthProvider {
  /** The consent URL (offline access; scopes gmail.send and userinfo.email only). Async: the provider's library may load on first use. */
  authorizationUrl(input: { state: string; redirectUri: string }): Promise<string>;
  /** Throws MailboxAuthError('token_exchange_failed') when the code is refused or no refresh token comes back. */
  exchangeCode(input: { code: string; redirectUri: string }): Promise<AuthorizedMailbox>;
  /** Best effort at disconnect; never throws. */
  revoke(refreshToken: string): Promise<void>;
}

/** Envelope encryption of secrets at rest (KMS in AWS; AES-256-GCM with a local key file locally). */
export interface SecretBox {
  /** `context` is bound to the ciphertext (KMS encryption context / GCM associated data): the user id. */
  seal(plaintext: string, context: Record<string, string>): Promise<string>;
  /** Throws when the ciphertext or the context was changed. */
  open(sealed: string, context: Record<string, string>): Promise<string>;
}

/** The HMAC key of OAuth states (Secrets Manager in AWS, the local data folder locally). */
export interface OAuthStateKeySource {
  key(): Promise<Buffer>;
}

/** One email as the sender hands it to a mailer: the mailer builds the MIME (lambdas/adapters/mime). */
export interface OutgoingEmail {
  from: { name: string; email: string };
  to: { name: string | null; email: string };
  subject: string;
  html: string;
  text: string;
  /** `<id@host>`: the Message-ID header. */
  messageId: string;
  /** https URL answering the RFC 8058 one-click POST (List-Unsubscribe), and the page for people. */
  listUnsubscribeUrl: string;
  /** Who and what it belongs to (the local outbox shows it; Gmail ignores it). */
  meta: { userId: string; campaignId: string; position: number; /** A follow-up step's number (1, 2); absent for the first email. */ step?: number };
  /**
   * A later email of the same conversation (a follow-up step, issue 27): it is sent in the provider's
   * thread `threadId` (Gmail's `threadId` of the request) with `In-Reply-To` and `References` set to
   * `inReplyTo`, the Message-ID we gave the first email. Absent: the email starts its own thread.
   */
  replyTo?: EmailThreadRef;
}

/** Where a reply goes: the provider's thread of the first email, and the Message-ID we gave that email. */
export interface EmailThreadRef {
  threadId: string;
  /** `<id@host>`, as messageIdOf made it. */
  inReplyTo: string;
}

/** What the provider answered a send with: its id of the message, and the thread it filed it in. */
export interface SentMessage {
  providerMessageId: string;
  /** Gmail's threadId: the first email's own thread, or the one `replyTo` asked for when the provider kept it there. */
  threadId: string;
}

/**
 * Sends one email through the user's mailbox. Throws MailerError (lambdas/core/errors.ts) with a kind
 * the sender acts on: rate_limited / transient (retry with back-off), daily_limit (after the next
 * reset), auth (invalid_grant: pause, mark disconnected), rejected (permanent: failed). Any other
 * throw (a timeout after the request left) means the outcome is unknown.
 */
export interface Mailer {
  send(email: OutgoingEmail, credentials: { refreshToken: string; mailboxEmail: string }): Promise<SentMessage>;
}

/** A sent email's public token (`TOKEN#<token>`): what the pixel, the click links and the unsubscribe page may know. */
export interface EmailToken {
  token: string;
  user_id: string;
  campaign_id: string;
  position: number;
  contact_id: string;
  contact_email: string;
  contact_name: string | null;
  artist_name: string;
  track_name: string;
  /** The links of the email as sent, in order: the click route `/api/t/c/<token>/<n>` redirects to links[n] only. */
  links: string[];
  created_at: string;
  /** A follow-up step's own token (issue 27 §1): its step number; absent for the first email. */
  step?: number;
  /**
   * The campaign's track key (core pitchKey): an answer 'Not for us' marks the address's PITCHED item of
   * the track, which stops every follow-up of the track. Absent on tokens made before follow-ups.
   */
  track_key?: string;
}

/**
 * One recipient of a sending campaign (`CAMPAIGN#<id>` / `RCPT#<position>`): its queue item and, once
 * sent, its email log. The attributes are stored under these names.
 */
export interface RecipientRecord {
  campaign_id: string;
  user_id: string;
  position: number;
  /** The contact as it was when queued (the writer and the placeholders read it). */
  contact: Contact;
  recipient_name: string | null;
  recipient_email: string;
  status: RecipientStatus;
  attempts: number;
  /** After a retryable failure: not before this time. */
  retry_at: string | null;
  /** Set by the claim; a `sending` item claimed long ago is recorded `unknown` (never retried). */
  claimed_at: string | null;
  token: string | null;
  /** The Message-ID we gave the email (`<…@trackpitch>`): a follow-up's In-Reply-To and References. */
  message_id: string | null;
  /** The provider's id of the sent message and its thread (Gmail `id` / `threadId`): a follow-up joins the thread. */
  provider_message_id: string | null;
  thread_id: string | null;
  subject: string | null;
  html: string | null;
  text: string | null;
  sent_at: string | null;
  /** The first and the latest open by a person (tracking). */
  opened_at: string | null;
  last_opened_at: string | null;
  open_count: number;
  /** The first open by a machine (a mail privacy proxy, a scanner). */
  machine_opened_at: string | null;
  machine_open_count: number;
  /** The first and the latest click. */
  clicked_at: string | null;
  last_clicked_at: string | null;
  click_count: number;
  /**
   * The listen page (issue 16): first and latest play, when the recipient reached 25 % (listened), the
   * furthest milestone (0/25/50/75/100), seconds heard (each play session at most the track's length),
   * plays, downloads; the current one-click answer and note, when it was last given and first given.
   */
  first_listened_at: string | null;
  last_listened_at: string | null;
  listened_at: string | null;
  listen_max_percent: number;
  listen_seconds: number;
  play_count: number;
  download_count: number;
  answer: ListenAnswer | null;
  answer_note: string | null;
  answered_at: string | null;
  first_answered_at: string | null;
  detail: string | null;
  /**
   * When the artist marked the sent email "Replied" (gmail.send cannot read replies, issue 27 §1);
   * null: not marked, or unmarked since.
   */
  replied_at: string | null;
  /** Queued with "send again": another campaign's pitch of the same track does not stop it (the claim checks). */
  send_again?: boolean;
  /** Failed after its attempts (Retry failed may queue it again), not refused by the provider. */
  retryable?: boolean;
  /** When the artist marked the sent email "Passed" (issue 28's pipeline); like Replied, it stops its follow-ups. */
  passed_at: string | null;
  /** What became of the email's follow-up steps (issue 27 §1); null until a step is settled. */
  follow_up_1: FollowUpOutcome | null;
  follow_up_2: FollowUpOutcome | null;
}

export type QueueBatchOutcome =
  | { outcome: 'queued'; campaign: Campaign; queued: number }
  /** This batch (same batch_start) was queued before: nothing queued twice. */
  | { outcome: 'already_queued'; campaign: Campaign }
  | { outcome: 'not_found' }
  /** The campaign is not a draft (first batch) or not this selection's queue (later batches). */
  | { outcome: 'conflict'; campaign: Campaign };

/** The send flow's side of the queue (the HTTP sending routes). The sender's side is SenderStore. */
export interface SendQueueStore {
  /**
   * Queues one batch of recipients at the campaign's next positions. The first batch (batchStart 0)
   * turns the draft into a sending (or, with sendAfter in the future, scheduled) campaign and adds it
   * to the user's sending cursor; `total` is the whole selection's size.
   */
  queueBatch(
    userId: string,
    input: {
      campaignId: string;
      batchStart: number;
      total: number;
      contacts: Contact[];
      sendAfter: Date;
      now: Date;
      sendAgain?: boolean;
      /** Contacts sent the track again one by one (the artist insisted on one who passed); with sendAgain, all are. */
      sendAgainIds?: ReadonlySet<string>;
      /** Stored by the first batch (the one that starts the campaign). */
      followUps?: FollowUps;
      /** The campaign's send window, set by the first batch (null or missing: any time). */
      sendWindow?: CampaignSendWindow | null;
    },
  ): Promise<QueueBatchOutcome>;
  /** Stops sending within one tick; the campaign keeps its position. */
  pause(
    userId: string,
    campaignId: string,
    now: Date,
  ): Promise<{ outcome: 'paused'; campaign: Campaign } | { outcome: 'not_found' } | { outcome: 'conflict'; campaign: Campaign }>;
  /** Continues from where it stopped, never from the top. */
  resume(
    userId: string,
    campaignId: string,
    now: Date,
  ): Promise<{ outcome: 'resumed'; campaign: Campaign } | { outcome: 'not_found' } | { outcome: 'conflict'; campaign: Campaign }>;
  /**
   * Retry failed: a completed campaign's recipients that failed after their attempts go back in the
   * queue (at the pace, each waiting alone from now); refusals stay failed. 'none': nothing retryable.
   */
  retryFailed(
    userId: string,
    campaignId: string,
    now: Date,
  ): Promise<
    { outcome: 'queued'; campaign: Campaign; queued: number } | { outcome: 'not_found' } | { outcome: 'none' } | { outcome: 'conflict'; campaign: Campaign }
  >;
  /** Today's (Pacific) and this month's counted emails, and when the user's next email is due. */
  usage(userId: string, now: Date): Promise<{ sentToday: number; usedThisMonth: number; nextSendAt: string | null }>;
  /** The campaign's recipients in queue order (no content). Caller has checked the campaign is the user's. */
  listRecipients(campaignId: string): Promise<ListedRecipient[]>;
  getRecipient(campaignId: string, position: number): Promise<RecipientRecord | undefined>;
  /**
   * Marks a sent email "Replied" at `at` (kept when already marked), or unmarks it (`at` null), and the
   * track's PITCHED item with it (the pipeline's Replied) in the same transaction. Caller has checked the
   * campaign is the user's (`track`: the user and the campaign's pitchKey). not_sent: the recipient exists
   * but its email did not go out.
   */
  markReplied(
    campaignId: string,
    position: number,
    at: Date | null,
    track: { userId: string; trackKey: string },
  ): Promise<{ outcome: 'marked'; recipient: RecipientRecord } | { outcome: 'not_found' } | { outcome: 'not_sent' }>;
  /** The emails sent to one of the user's addresses (a contact id), newest first, with their campaign's track name. */
  emailsSentTo(userId: string, contactId: string): Promise<ContactEmail[]>;
}

/**
 * The pitch pipeline (issue 28 §1): the user's PITCHED items, which the sender and the events write.
 * Every read and write is under the caller's partition: another user's track or address is not found.
 */
export interface PipelineStore {
  /** One track's items: one Query (a board of 500 contacts is one page). */
  track(userId: string, trackKey: string): Promise<PipelineItem[]>;
  /** Every item of the user (the Tracks page's counts). */
  all(userId: string): Promise<PipelineItem[]>;
  /** The items whose answer is a to-do (Interested, Send me the WAVs) not marked done. */
  openTodos(userId: string): Promise<PipelineItem[]>;
  /** The items of one address; undefined when the user has no such contact. */
  ofAddress(userId: string, addressId: string): Promise<PipelineItem[] | undefined>;
  /** The artist's mark (or 'derived': taken back), one conditional write; undefined when the address was never pitched the track. */
  mark(
    userId: string,
    trackKey: string,
    addressId: string,
    mark: { stage: PipelineMark | 'derived'; note: string | null; on: string },
    now: Date,
  ): Promise<PipelineItem | undefined>;
  /** The to-do done (or open again), one conditional write; undefined as mark. */
  todo(userId: string, trackKey: string, addressId: string, done: boolean, now: Date): Promise<PipelineItem | undefined>;
}

export interface TrackingStore {
  getToken(token: string): Promise<EmailToken | undefined>;
  /**
   * Counts an open on the email and, the first human open only, on the campaign; machine opens apart.
   * The user's counters (lambdas/core/counters.ts) move in the same transaction.
   */
  recordOpen(token: EmailToken, kind: 'human' | 'machine', now: Date): Promise<void>;
  /** Counts a click on the email and its link `link` (an index of token.links) and, the first only, on the campaign. */
  recordClick(token: EmailToken, link: number, now: Date): Promise<void>;
  /**
   * Records the unsubscribe under the address (UnsubscribeStore's item, with the campaign's track
   * name) and counts it on the campaign once. Idempotent: 'already' when the address was unsubscribed.
   */
  unsubscribe(token: EmailToken, reason: { reason: string | null; details: string | null }, now: Date): Promise<'unsubscribed' | 'already'>;
  isUnsubscribed(token: EmailToken): Promise<boolean>;
}

/** The local mailbox's sent folder (local runtime only). */
/** A message to file: in the thread it names, or (no thread_id) in a thread of its own whose id is the message's. */
export type NewOutboxMessage = Omit<OutboxMessage, 'id' | 'thread_id'> & { thread_id?: string };

export interface OutboxStore {
  /** Files the message; answers its id and its thread's. */
  add(userId: string, message: NewOutboxMessage, now: Date): Promise<{ id: string; threadId: string }>;
  list(userId: string): Promise<OutboxMessageSummary[]>;
  get(userId: string, id: string): Promise<OutboxMessage | undefined>;
}

// ---------------------------------------------------------------------------------------------------
// Sender (the pipeline's store): the sender worker's side of the queue (DESIGN §4; the pipeline design).
// Every write that moves the cursor is conditional on the tick's due time, so a duplicate or late tick
// changes nothing.

/** One active campaign on a user's sending cursor (`SENDER.queue.<campaignId>`). */
export interface SenderQueueEntry {
  /** The next position to process (`RCPT#<position>`). */
  position: number;
  /** Nothing of this campaign is sent before this time. */
  send_after: string;
  /** A user's campaigns go out in the order they were queued. */
  queued_at: string;
  /**
   * Recipients that wait alone (a retry after a provider or writer failure): position → when it may be
   * tried again. The campaign's `position` has moved past them, so the user's next slot goes to the next
   * ready recipient; each comes back when its time comes (DESIGN §13).
   */
  waiting?: Record<string, string>;
}

/** The user's sending cursor (`USER#<sub>` / `SENDER`): the active campaigns and when the next tick is due. */
export interface SenderCursor {
  queue: Record<string, SenderQueueEntry>;
  /** When the next tick is due; null: out of the DUE index (nothing to do). */
  due_at: string | null;
  /** The slot (the dispatcher's scheduled time) of the last claim: the next claim needs a slot ≥ last_slot + interval. */
  last_slot: string | null;
  /** Daily-limit refusals from the mailbox since the last email it accepted (the hourly retry backs off with it). */
  daily_limit_refusals: number;
}

/** The campaign and position a tick expects at the head of the queue (read in the same request as the cursor). */
export interface SenderHead {
  campaignId: string;
  position: number;
  /** A recipient that waited alone (SenderQueueEntry.waiting), not the campaign's next position. */
  waited?: boolean;
}

/** A campaign with the attributes only the pipeline and the send flow use. */
export type SendingCampaign = Campaign & {
  /** How many of the selection the send flow has processed (later batches are conditional on it). */
  queued_through: number;
  /** When the send flow last queued a batch. */
  last_batch_at: string | null;
  /** While paused: the position sending continues from, and the recipients that were waiting alone then. */
  resume_position: number | null;
  resume_waiting: Record<string, string> | null;
};

/** Everything the sender decides on for one user, read in one request (two when the tick's head was stale). */
export interface SenderView {
  cursor: SenderCursor | undefined;
  profile: Profile | undefined;
  mailbox: StoredMailbox | undefined;
  /** Counted this Pacific day / month (DAY# / MONTH# items). */
  sentToday: number;
  usedThisMonth: number;
  /** The head at the read's time with its campaign and recipient; undefined when no campaign is due. */
  head: (SenderHead & { campaign: SendingCampaign | undefined; recipient: RecipientRecord | undefined }) | undefined;
  /** The user's earliest follow-up step, if any (issue 27 §1). */
  followUp?: SenderFollowUp;
}

/**
 * A follow-up step of one sent email, waiting in the user's partition until `due_at` (issue 27 §1,
 * DESIGN §14): made when the first email is recorded sent, claimed like an email (pending → sending),
 * and deleted when it is settled (its outcome goes on the first email's recipient, `follow_up_<n>`).
 */
export interface FollowUpItem {
  campaign_id: string;
  position: number;
  /** 1 or 2. */
  step: number;
  due_at: string;
  status: 'pending' | 'sending';
  claimed_at: string | null;
  /** The step's own tracking token, put by its claim (its links, pixel, listen page and unsubscribe link). */
  token: string | null;
  /** Provider attempts so far (a retryable refusal puts the step back with a later due time). */
  attempts: number;
  /** The recipient's address id and the campaign's track key: the unsubscribe and 'Not for us' checks' keys. */
  address_id: string;
  track_key: string;
}

/** What a listing reads of a step's outcome: what became of it, when, and why it stopped; never the step's email. */
export type FollowUpOutcomeFacts = Pick<FollowUpOutcome, 'state' | 'at'> & { reason?: FollowUpStopReason };

/** A recipient as the campaign's list reads it: no content (html and text null), of each step's outcome its facts only. */
export type ListedRecipient = Omit<RecipientRecord, 'follow_up_1' | 'follow_up_2'> & {
  follow_up_1: FollowUpOutcomeFacts | null;
  follow_up_2: FollowUpOutcomeFacts | null;
};

/** What became of a step, on the first email's recipient (`follow_up_1`, `follow_up_2`). */
export type FollowUpOutcome =
  | { state: 'sent'; at: string; token: string; message_id: string; subject: string; html: string; text: string }
  | { state: 'stopped'; at: string; reason: FollowUpStopReason }
  | { state: 'failed'; at: string; token: string; detail: string }
  /** Claimed and never recorded: `token` is its claim's (a deleted account's erasure finds it there). */
  | { state: 'unknown'; at: string; token: string | null };

/** The user's earliest step, and, once it is due, what its stop rules read. */
export interface SenderFollowUp {
  item: FollowUpItem;
  /** Read only when the step is due. */
  campaign?: SendingCampaign;
  recipient?: RecipientRecord;
  unsubscribed?: boolean;
  /** The address answered 'Not for us' to this track (the PITCHED item's `passed_at`). */
  passedOnTrack?: boolean;
}

/** Marks a position no email goes to, counted on the campaign (`from` is the status it must have). */
export interface RecipientMark {
  status: 'skipped' | 'unknown' | 'failed';
  from: 'pending' | 'sending';
  detail: string;
}

export interface ClaimInput {
  tickDueAt: string;
  now: Date;
  /** The recipient claimed: the campaign's next position, or a waiting one (the cursor's condition says which). */
  head: SenderHead;
  /** The email's tracking token; its links are written with the email (the record), after the claim. */
  token: EmailToken;
  /** The recipient's address id: its UNSUB# key. */
  addressId: string;
  /** The campaign's track key (pitchKey): the claim puts `PITCHED#<trackKey>#<addressId>`, at most once per address. */
  trackKey: string;
  /** The recipient was queued with "send again": another campaign's pitch of the track does not refuse the claim. */
  sendAgain: boolean;
  /** What the PITCHED item keeps for the track's board (issue 28 §1): the track and the contact as claimed. */
  pitch: PitchSnapshot;
  dailyLimit: number;
  /** null: unlimited (counted, never refused). */
  monthlyLimit: number | null;
  /**
   * The plan the limits were read from: the claim holds only while the profile still has it (a
   * downgrade meanwhile makes it a 'conflict', read again, nothing sent).
   */
  tier: Profile['tier'];
  /** The tick's slot: the claim needs the last claim's slot to be at least one interval before it, and becomes the last. */
  slot: Date;
  /** The cursor's next due time (slot + interval). */
  nextDueAt: Date;
}

/**
 * unsubscribed: the address unsubscribed after it was queued; already_pitched: another campaign pitched
 * this track to the address (and the recipient was not queued with send again); duplicate: another
 * position of this campaign has the address; conflict: something changed since the read (read again).
 */
export type ClaimOutcome = 'claimed' | 'unsubscribed' | 'already_pitched' | 'duplicate' | 'conflict';

interface RecordBase {
  head: SenderHead;
  token: string;
  /** The claim's time: its DAY/MONTH counters are the ones released. */
  claimedAt: Date;
  now: Date;
}

/** The track and the contact of a pitch as the claim keeps them on the PITCHED item (the board reads nothing else). */
export interface PitchSnapshot {
  track_name: string;
  track_url: string | null;
  track_id: string | null;
  contact_id: string;
  name: string;
  email: string;
  company: string | null;
  label_size: string | null;
}

/** What became of a claimed email (one transaction each). */
export type RecordInput =
  | (RecordBase & {
      kind: 'sent';
      messageId: string;
      /** The provider's answer: its message id and thread (a follow-up joins the thread). */
      sent: SentMessage;
      /** The recipient's contact id (its address id): the contact's card lists the email under it. */
      contactId: string;
      subject: string;
      html: string;
      text: string;
      /** The links of the email as sent (the token's, for click tracking). */
      links: string[];
      /** This was the campaign's last recipient: it completes. */
      completes: boolean;
      nextDueAt: Date;
      /** The campaign's follow-up steps of this email, made with the record (issue 27 §1). */
      followUps?: FollowUpItem[];
      /** The claim's PITCHED#<trackKey>#<addressId>: it becomes sent (the pipeline's Pitched). */
      trackKey: string;
      addressId: string;
    })
  /**
   * Back to pending until retryAt, waiting alone (the campaign moves on to its next position); the
   * counters released. `hasWaiting`: the campaign's cursor entry already has a waiting map.
   */
  | (RecordBase & { kind: 'retry'; attempts: number; retryAt: Date; detail: string; hasWaiting: boolean })
  /**
   * Failed for good (refused, or out of attempts): counted, released, the cursor moves on; the claim's
   * PITCHED#<trackKey>#<addressId> is deleted (never sent: a later campaign may pitch the track again).
   * `retryable`: out of attempts (Retry failed may queue it again), not refused by the provider.
   */
  | (RecordBase & { kind: 'failed'; attempts: number; detail: string; retryable: boolean; completes: boolean; trackKey: string; addressId: string })
  /** The provider's daily limit (a rolling 24 hours): back to pending, released, the cursor due at `until`, the refusal counted. */
  | (RecordBase & { kind: 'daily_limit'; until: Date })
  /** The mailbox's authorization is gone: back to pending, released, every campaign paused, the mailbox disconnected. */
  | (RecordBase & { kind: 'auth'; queue: Record<string, SenderQueueEntry> });

/** A due follow-up step's claim: the step (pending, as read), its own tracking token, and the pace and limits as a first email's claim. */
export interface FollowUpClaimInput {
  tickDueAt: string;
  now: Date;
  item: FollowUpItem;
  token: EmailToken;
  /** The campaign's condition: a listen stops the step only under 'not_listened'. */
  condition: FollowUps['condition'];
  dailyLimit: number;
  monthlyLimit: number | null;
  tier: Profile['tier'];
  slot: Date;
  nextDueAt: Date;
}

interface FollowUpRecordBase {
  item: FollowUpItem;
  token: string;
  /** The claim's time: its DAY/MONTH counters are the ones released. */
  claimedAt: Date;
  now: Date;
}

/** What became of a claimed step (one transaction each), as RecordInput for a first email. */
export type FollowUpRecordInput =
  | (FollowUpRecordBase & { kind: 'sent'; messageId: string; subject: string; html: string; text: string; links: string[] })
  /** Put back with a later due time (a retryable refusal), the counters released. */
  | (FollowUpRecordBase & { kind: 'retry'; attempts: number; retryAt: Date })
  | (FollowUpRecordBase & { kind: 'failed'; detail: string })
  | (FollowUpRecordBase & { kind: 'daily_limit'; until: Date })
  | (FollowUpRecordBase & { kind: 'auth' });

export interface SenderStore {
  /** The view at `now`; `hint` is the head the tick expects (fetched in the same request). */
  read(userId: string, now: Date, hint?: SenderHead): Promise<SenderView>;
  /** Moves the cursor's due time to `until` (a wait). False when the tick is stale. */
  reschedule(userId: string, tickDueAt: string, until: Date): Promise<boolean>;
  /** Takes the cursor out of the DUE index, only while its queue is empty. */
  goIdle(userId: string, tickDueAt: string): Promise<boolean>;
  /**
   * Moves the campaign past the head (no email goes there): with `mark` the recipient is marked and
   * counted; without, it is already final or missing. Completes the campaign when `completes`.
   */
  advance(userId: string, input: { tickDueAt: string; head: SenderHead; mark?: RecipientMark; completes: boolean; now: Date }): Promise<boolean>;
  /** Completes the campaign (all batches in, every position processed) and takes it off the cursor. */
  complete(userId: string, input: { tickDueAt: string; campaignId: string; now: Date }): Promise<boolean>;
  /** Only waiting recipients are left in the campaign: it steps aside (its send_after) until `until`. */
  defer(userId: string, input: { tickDueAt: string; campaignId: string; until: Date }): Promise<boolean>;
  /**
   * The head waits alone until `until` (outside its working hours): the cursor's waiting map holds it and
   * the campaign's next position moves on; the recipient (still pending) gets `until` as its retry_at and
   * `detail` as the reason, so its claim cannot go before then and the queue shows why and when.
   */
  postpone(userId: string, input: { tickDueAt: string; head: SenderHead; until: Date; hasWaiting: boolean; detail: string }): Promise<boolean>;
  /** Takes a campaign that no longer exists off the cursor. */
  forget(userId: string, input: { tickDueAt: string; campaignId: string }): Promise<boolean>;
  /** No mailbox: every campaign on the cursor paused (mailbox_disconnected), the cursor out of the DUE index. */
  pauseAll(userId: string, input: { tickDueAt: string; queue: Record<string, SenderQueueEntry>; now: Date }): Promise<boolean>;
  /**
   * The plan's monthly limit reached: every campaign of the cursor (its queue as read) paused at it
   * (monthly_limit, keeping its position), still on the cursor, which is due again at `until`.
   */
  holdAtMonthlyLimit(userId: string, input: { tickDueAt: string; queue: Record<string, SenderQueueEntry>; until: Date; now: Date }): Promise<boolean>;
  /** The plan allows again: the campaigns of the cursor (its queue as read) held at the monthly limit sending again. */
  releaseFromMonthlyLimit(userId: string, input: { tickDueAt: string; queue: Record<string, SenderQueueEntry>; now: Date }): Promise<boolean>;
  /** Claims one email (one transaction): the recipient, the cursor, the day's and month's counters, the unsubscribe and pause checks, the token. */
  claim(userId: string, input: ClaimInput): Promise<ClaimOutcome>;
  /**
   * Claims a due follow-up step, on the condition that none of its stop rules holds at this moment (the
   * recipient's answer, listen, click and marks, the unsubscribe list, 'Not for us' on the track) and
   * the pace and limits allow. False: something changed since the read (read again).
   */
  claimFollowUp(userId: string, input: FollowUpClaimInput): Promise<boolean>;
  /** The user's earliest follow-up step and, when it is due, what its rules read (read only when a slot is free of first emails). */
  readFollowUp(userId: string, now: Date): Promise<SenderFollowUp | undefined>;
  recordFollowUp(userId: string, input: FollowUpRecordInput): Promise<void>;
  /** Deletes a step that will not go (stopped, dropped, outcome unknown), writing its outcome on the recipient when given. */
  settleFollowUp(userId: string, input: { item: FollowUpItem; outcome: FollowUpOutcome | null }): Promise<boolean>;
  /** Puts a pending step back until `until` (its campaign is paused). */
  delayFollowUp(userId: string, input: { item: FollowUpItem; until: Date }): Promise<boolean>;
  /** Records a claimed email's outcome (one transaction). */
  record(userId: string, input: RecordInput): Promise<void>;
}

// ---------------------------------------------------------------------------------------------------
// Billing (DESIGN §10): the provider (Stripe, or the local twin) behind one port.

/** A customer's subscription as the billing provider holds it now: the state the profile mirrors. */
export interface ProviderSubscription {
  id: string;
  status: SubscriptionStatus;
  /** The price it bills; config maps price ids to plans. */
  priceId: string;
  /** End of the paid period (ISO): the renewal date, or the cancellation date with cancelAtPeriodEnd. */
  currentPeriodEnd: string;
  cancelAtPeriodEnd: boolean;
}

export interface CheckoutSessionInput {
  customerId: string;
  /** Sent as client_reference_id, so the completed session names its user. */
  userId: string;
  priceId: string;
  successUrl: string;
  cancelUrl: string;
}

export interface BillingProvider {
  /** Creates the provider's customer for a user (before their first Checkout); returns its id. */
  createCustomer(input: { userId: string; email: string }): Promise<string>;
  /** A Checkout Session in subscription mode for one price; returns the URL the browser follows. */
  createCheckoutSession(input: CheckoutSessionInput): Promise<string>;
  /** A Customer Portal session; returns the URL the browser follows. */
  createPortalSession(input: { customerId: string; returnUrl: string }): Promise<string>;
  /**
   * The customer's subscription that governs their plan now (the newest one that has not ended), or
   * null when they have none: what the webhook and sync write onto the profile, never the event's payload.
   */
  currentSubscription(customerId: string): Promise<ProviderSubscription | null>;
  /**
   * Expires every open Checkout Session of the customer, so an older tab can no longer pay (its page
   * says the session expired); returns the ids it expired. A session paid or expired meanwhile is skipped.
   */
  expireOpenCheckoutSessions(customerId: string): Promise<string[]>;
  /** The customer's live subscriptions (active, trialing, past_due), for the one-subscription check. */
  liveSubscriptions(customerId: string): Promise<ListedSubscription[]>;
  /**
   * Cancels a subscription of the customer now, prorated (the unused time is credited to the customer). 'already_ended'
   * when it had ended already (a duplicate or concurrent webhook cancelled it first): not an error.
   */
  cancelSubscription(subscription: { customerId: string; subscriptionId: string }): Promise<'canceled' | 'already_ended'>;
}

/** A subscription as listed for the one-subscription check: enough to choose which one to keep. */
export interface ListedSubscription {
  id: string;
  status: SubscriptionStatus;
  /** Epoch seconds, as Stripe's `created`. */
  created: number;
}

/** A webhook event whose signature was verified: its id (applied once), type, and whose it is. */
export interface BillingEvent {
  id: string;
  type: string;
  /** The provider's customer the event is about, when it names one. */
  customerId: string | null;
}

/**
 * Checks a webhook's signature over its raw body (300 s tolerance) and reads the event; rejects with
 * WebhookSignatureError (lambdas/core/billing.ts) when the signature is bad, missing or stale. Async: the
 * signing secret is read from Secrets Manager on first use.
 */
export interface WebhookVerifier {
  verify(rawBody: string, signatureHeader: string | undefined): Promise<BillingEvent>;
}

/** The profile's billing fields, as the provider's subscription maps to them (lambdas/core/billing.ts). */
export type ProfileBillingState = Pick<Profile, 'tier' | 'email_limit' | 'subscription_status' | 'subscription_end' | 'cancel_at_period_end'>;

export type BillingWriteResult =
  /** `previousTier`: the tier the write replaced (read in the same write). */
  | { outcome: 'written'; profile: Profile; previousTier: Tier }
  /** A provider read that started later has already written: the stored profile stands. */
  | { outcome: 'stale'; profile: Profile }
  | { outcome: 'no_profile' };

/** The billing group's table: the user ↔ customer mapping, applied webhook events, the profile's billing write. */
export interface BillingStore {
  customerOf(userId: string): Promise<string | undefined>;
  userOfCustomer(customerId: string): Promise<string | undefined>;
  /**
   * Records the user's customer both ways unless the user already has one; returns the customer that is
   * stored (a concurrent first checkout may have won: its customer is the user's).
   */
  linkCustomer(userId: string, customerId: string): Promise<string>;
  wasApplied(eventId: string): Promise<boolean>;
  markApplied(eventId: string, appliedAt: Date): Promise<void>;
  /**
   * The only write of a profile's tier: the state read from the provider at `readAt` (when the read
   * started), unless a read that started later was already written.
   */
  writeBillingState(userId: string, state: ProfileBillingState, readAt: Date): Promise<BillingWriteResult>;
}

/** A browser upload straight to storage: a multipart POST of `fields` (in this order) and then the file as `file`. */
export interface AudioUploadForm {
  url: string;
  fields: Record<string, string>;
  expiresAt: Date;
}

export interface AudioUploadRequest {
  key: string;
  /** The one media type the upload may carry (the storage refuses any other). */
  contentType: string;
  /** The most bytes the upload may carry (the storage refuses more). */
  maxBytes: number;
  expiresInSeconds: number;
  now: Date;
}

export interface AudioObjectHead {
  size: number;
  contentType: string | undefined;
}

/**
 * Where tracks' audio is kept (issue 16): a private S3 bucket in AWS, a folder locally. The browser
 * uploads with the presigned form to a staging key (core trackUploadKey); the server reads what arrived
 * and promotes it to the track's key (trackAudioKey) when it is audio. The listen page plays that with
 * AudioUrls.
 */
export interface AudioStore {
  /** A form the browser posts the file with; the storage itself enforces the key, media type, size and expiry. */
  presignUpload(request: AudioUploadRequest): Promise<AudioUploadForm>;
  /** The stored object's size and media type; undefined when nothing is stored under the key. */
  head(key: string): Promise<AudioObjectHead | undefined>;
  /** The object's bytes from the start; the reader cancels the stream once it has read enough. Undefined when none. */
  read(key: string): Promise<ReadableStream<Uint8Array> | undefined>;
  /**
   * Moves a checked upload from `stagingKey` to `finalKey` (its bytes and media type, or `contentType`
   * when given: what the server read the bytes to be; the staging object is gone after). False when
   * nothing is stored under `stagingKey` (another complete moved it first).
   */
  promote(stagingKey: string, finalKey: string, options?: { contentType?: string }): Promise<boolean>;
  /** Deletes the object; nothing stored is not an error. */
  delete(key: string): Promise<void>;
}

/**
 * Where the data export's zip is written as it is built (issue 26 §3): the audio bucket's `exports/`
 * prefix in AWS (a multipart upload, a part at a time), the local audio folder otherwise. Nothing holds
 * the whole file: the adapter takes the chunks as they come. AudioUrls signs its download URL.
 */
export interface ExportStore {
  /** Stores `chunks`, in order, as the object `key` of media type `contentType`; resolves with its size once whole (nothing is kept on a failure). */
  write(key: string, chunks: AsyncIterable<Uint8Array>, options: { contentType: string }): Promise<{ bytes: number }>;
}

/** The listen page's short-lived URLs of a stored track's audio (issue 16): they answer HTTP Range requests. */
export interface AudioUrls {
  /** A GET URL of the object valid for `expiresInSeconds` (minutes), for a player or a download. */
  signedGetUrl(key: string, options: { expiresInSeconds: number; now: Date; downloadName?: string }): Promise<string>;
}

/** Reads what a stored file is (music-metadata, in AWS and locally): empty facts when it is no audio it knows. */
export interface AudioInspector {
  /** Reads `audio` as far as it needs; `readAgain` opens the file anew when its length is known only by reading it all. */
  inspect(
    audio: ReadableStream<Uint8Array>,
    file: { contentType: string; size: number },
    readAgain: () => Promise<ReadableStream<Uint8Array> | undefined>,
  ): Promise<AudioFacts>;
}

/** The artist's tracks (schema/ACCESS_PATTERNS.md): `USER#<sub>` / `TRACK#<ulid>`. */
export interface TrackStore {
  /** Stores a pending track (a new id); it expires unless completed. */
  createPending(userId: string, track: StoredTrack, expiresAt: Date): Promise<void>;
  /** The user's track in any status; undefined when the user has none of that id. */
  get(userId: string, id: string): Promise<StoredTrack | undefined>;
  /** Pending → ready with what the server read (the expiry removed); undefined when it was not pending. */
  markReady(userId: string, id: string, facts: ReadyTrackFacts): Promise<StoredTrack | undefined>;
  /** Ready or pending → deleted; undefined when there is no such track or it was already deleted. */
  markDeleted(userId: string, id: string, deletedAt: Date): Promise<StoredTrack | undefined>;
  /** A ready track's cover art (its key and the type its bytes said); undefined when the track is not ready (deleted, pending, none). */
  setCover(userId: string, id: string, cover: { key: string; type: CoverMediaType }): Promise<StoredTrack | undefined>;
  /** Removes a pending track whose file was refused (it never was a track); a track no longer pending stays. */
  forgetPending(userId: string, id: string): Promise<void>;
  /** The user's ready tracks, newest first. */
  listReady(userId: string): Promise<TrackSummary[]>;
}

// ---------------------------------------------------------------------------------------------------
// The listen page (issue 16, DESIGN §12): everything is found by the email's token (EmailToken).

/** What a listen page needs of its campaign: the track it links to, downloads, link validity, the description. */
export interface ListenCampaign {
  /** The track name the artist typed in Compose ('' on an item without one): the page's title. */
  track_name: string;
  track_id: string | null;
  allow_download: boolean;
  listen_days: number;
  description: string;
}

/**
 * What an event did: recorded (counted, or nothing new to count), or refused whole because the
 * recipient's window is full (core LISTEN_PLAYS_PER_HOUR, LISTEN_EVENTS_PER_MINUTE).
 */
export type ListenRecorded = 'recorded' | 'rate_limited';

/** What the page reports, as the core judged it: counted on the email's RCPT, the campaign and the user's counters. */
export interface ListenStore {
  /** The campaign of a token (undefined: gone); old items read with the listen defaults. */
  campaign(token: EmailToken): Promise<ListenCampaign | undefined>;
  /** The recipient's current answer and note. */
  currentAnswer(token: EmailToken): Promise<{ answer: ListenAnswer | null; answer_note: string | null }>;
  /** A play session started: counted once per session id (a repeated beacon counts nothing). */
  recordPlay(token: EmailToken, session: string, now: Date): Promise<ListenRecorded>;
  /**
   * Progress of a session: the furthest milestone (counted once per recipient: it only rises; from 25 %
   * the recipient listened) and the seconds heard this session (at most `durationSeconds` per session).
   */
  recordProgress(
    token: EmailToken,
    progress: { session: string; milestone: number; seconds: number; durationSeconds: number },
    now: Date,
  ): Promise<ListenRecorded>;
  /** A download of a page session: counted once per session (every session on the email, the recipient once on the campaign). */
  recordDownload(token: EmailToken, session: string, now: Date): Promise<ListenRecorded>;
  /** The recipient's one current answer (changeable); the first counts on the campaign; the contact keeps the latest. */
  answer(token: EmailToken, answer: { answer: ListenAnswer; note: string | null }, now: Date): Promise<void>;
}

// ---------------------------------------------------------------------------------------------------
// Insights (issue 15; DESIGN §11): read-only, the counters and the sent-email timeline.

/** One page of the per-recipient activity, or a cursor this store did not make for this period. */
export type ActivityPageResult = { outcome: 'page'; activity: Activity[]; nextCursor: string | null } | { outcome: 'bad_cursor' };

/** The insights group's reads: each a handful of requests whatever the history. */
export interface InsightsStore {
  /** The totals item, the day items of `days`, and the last RECENT_SENDS sends (newest first, with their track names). */
  dashboard(userId: string, days: DayRange): Promise<{ totals: UserTotals; days: StoredDay[]; recentSends: RecentSend[] }>;
  /** The day items of `days` (one Query) and every campaign's own counters. */
  analytics(userId: string, days: DayRange): Promise<{ days: StoredDay[]; campaigns: CampaignCounters[] }>;
  /** A campaign's links and their clicks; undefined when the user has no such campaign. */
  campaignLinks(userId: string, campaignId: string): Promise<LinkClicks[] | undefined>;
  /** The emails sent since `since`, newest first, a page at a time (engaged: a person opened, clicked, listened or answered; core ENGAGEMENT_TIMES). */
  activity(userId: string, query: { since: Date; filter: ActivityFilter; cursor?: string }): Promise<ActivityPageResult>;
}

// ---------------------------------------------------------------------------------------------------
// The user's own data (issue 26 §3): the data export and the account's deletion.

/** One campaign of the data export, with the emails it sent or queued (their content, outcome and answers). */
export interface ExportedCampaign {
  campaign: Campaign;
  emails: RecipientRecord[];
}

/** What the account's erasure removed from the table (for the log: no content). */
export interface ErasureCount {
  /** Items of other partitions that belonged to the user: campaign partitions, tokens, the billing customer's link. */
  linkedItems: number;
  /** Items of the user's own partition (`USER#<sub>`). */
  userItems: number;
}

/**
 * The user's items of the one table, all kinds at once: the export's reads and the erasure. The erasure
 * is resumable: it removes what points elsewhere before what it is found from (a campaign's partition and
 * its emails' tokens before the campaign item), so a crash halfway and a retry finish the job.
 */
export interface AccountDataStore {
  /** The user's contacts, oldest first. */
  contacts(userId: string): Promise<Contact[]>;
  /** The user's campaigns, newest first, each with its emails in queue order; one campaign at a time. */
  campaigns(userId: string): AsyncIterable<ExportedCampaign>;
  /** The ids of every track item of the user (any status): their audio objects go with the account. */
  trackIds(userId: string): Promise<string[]>;
  /** Stops the user's sending (the cursor goes first), then deletes every item of the user, in and out of their partition. */
  erase(userId: string): Promise<ErasureCount>;
}

/** The sign-in directory (Cognito's user pool; cognito-local in the local runtime and the tests). */
export interface UserDirectory {
  /** Removes the user (by their `sub`, the pool's username); 'absent' when there was none: a retried deletion. */
  deleteUser(userId: string): Promise<'deleted' | 'absent'>;
}
