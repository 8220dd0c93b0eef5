/**
 * Threading a later email with the first (issue 27 §1, DESIGN §14): the subject of a reply, and where a
 * reply goes, read from the first email's record. Gmail files a message in the thread named by the send's
 * `threadId` only when its subject matches the thread's and its In-Reply-To / References name a message of
 * it; the recipient's client threads by those headers, or by subject alone. Pure.
 */
import type { EmailThreadRef, RecipientRecord } from '../ports';

/** Any run of leading reply prefixes ("Re:", "RE :", "re:re:"), as clients write them. */
const REPLY_PREFIXES = /^(?:\s*re\s*:\s*)+/i;

/** The subject without its reply prefixes: what two emails of one conversation share. */
export const baseSubject = (subject: string): string => subject.replace(REPLY_PREFIXES, '').trim();

/** `Re: <subject>`, never "Re: Re:": a subject that is already a reply keeps its one prefix. */
export const replySubject = (subject: string): string => `Re: ${baseSubject(subject)}`;

/** Whether two subjects belong to one conversation (the reply prefixes and case aside). */
export const sameConversation = (a: string, b: string): boolean => baseSubject(a).toLowerCase() === baseSubject(b).toLowerCase();

/** The first email of a thread as a reply needs it: where it went, and its subject. */
export interface FirstEmail {
  thread: EmailThreadRef;
  subject: string;
}

/**
 * The first email a later step answers, from its recipient record: undefined until it was sent and the
 * provider's thread was recorded (an email recorded before threads were, or not sent, starts its own).
 */
export function firstEmailOf(record: Pick<RecipientRecord, 'status' | 'thread_id' | 'message_id' | 'subject'>): FirstEmail | undefined {
  if (record.status !== 'sent' || !record.thread_id || !record.message_id || record.subject === null) return undefined;
  return { thread: { threadId: record.thread_id, inReplyTo: record.message_id }, subject: record.subject };
}
