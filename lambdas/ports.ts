/**
 * The interfaces the core and the handlers need. Adapters in lambdas/adapters/* implement them;
 * lambdas/compose.ts picks which. Nothing here imports an SDK.
 */
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
