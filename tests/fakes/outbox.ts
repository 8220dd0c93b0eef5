/**
 * An in-memory OutboxStore with the DynamoDB adapter's contract (per-user, newest first, summaries
 * without the bodies), and a sample OutgoingEmail, for the mailer tests. The integration tests use the
 * real adapter.
 */
import type { OutboxMessage, OutboxMessageSummary } from '../../schema/api/sending';
import type { OutboxStore, OutgoingEmail } from '../../lambdas/ports';
import { outboxSummaryFields } from '../../schema/api/recordFields';

/** A message as the outbox's list answers it: its summary fields (recordFields), as the DynamoDB adapter projects them. */
export const outboxSummary = (message: OutboxMessage): OutboxMessageSummary =>
  Object.fromEntries(outboxSummaryFields.map((field) => [field, message[field]])) as unknown as OutboxMessageSummary;

export type MemoryOutbox = OutboxStore & { messages: Map<string, { userId: string; message: OutboxMessage }> };

export function memoryOutbox(): MemoryOutbox {
  const messages = new Map<string, { userId: string; message: OutboxMessage }>();
  let sequence = 0;
  return {
    messages,
    add: (userId, message) => {
      // Sortable like ULIDs (and of their alphabet): later ids sort after earlier ones.
      const id = `MSG${String(++sequence).padStart(23, '0')}`;
      const threadId = message.thread_id ?? id;
      messages.set(id, { userId, message: { ...message, id, thread_id: threadId } });
      return Promise.resolve({ id, threadId });
    },
    list: (userId) =>
      Promise.resolve(
        [...messages.values()]
          .filter((entry) => entry.userId === userId)
          .map(({ message }) => outboxSummary(message))
          .sort((a, b) => (a.id < b.id ? 1 : -1)),
      ),
    get: (userId, id) => {
      const entry = messages.get(id);
      return Promise.resolve(entry && entry.userId === userId ? entry.message : undefined);
    },
  };
}

export function sampleEmail(overrides: Partial<OutgoingEmail> = {}): OutgoingEmail {
  return {
    from: { name: 'Nova Sørensen', email: 'nova@gmail.com' },
    to: { name: 'Calla Morrow', email: 'calla@zinc-orchard.example' },
    subject: 'New track: “Ünder the Bridge” (Extended Mix)',
    html: '<!DOCTYPE html><html><body><p>Hi Calla, here is my new track.</p><p><a href="https://app.example.com/api/t/c/tok/0">Listen</a></p><img src="https://app.example.com/api/t/o/tok" width="1" height="1" alt=""></body></html>',
    text: 'Hi Calla, here is my new track.\n\nListen: https://app.example.com/api/t/c/tok/0\n\nUnsubscribe: https://app.example.com/unsubscribe?token=tok',
    messageId: '<01KAKZ3R00000000000000000A.3@trackpitch.example>',
    listUnsubscribeUrl: 'https://app.example.com/api/unsubscribe/one-click?token=tok',
    meta: { userId: 'user-1', campaignId: '01KAKZ3R00000000000000000A', position: 3 },
    ...overrides,
  };
}
