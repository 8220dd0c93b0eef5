import { gunzipSync, gzipSync } from 'node:zlib';
import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { OutboxMessage, OutboxMessageSummary } from '../../../schema/api/sending';
import { outboxSummaryFields } from '../../../schema/api/recordFields';
import { key } from '../../../schema/table';
import type { IdGenerator, NewOutboxMessage, OutboxStore } from '../../ports';
import { withoutKeys } from './client';
import { projectionOf, putNew, queryPartition } from './query';

/**
 * The local mailbox's sent folder (local runtime only; schema/ACCESS_PATTERNS.md): `USER#<sub>` /
 * `OUTBOX#<ulid>`, so a user's messages are one partition query, newest first read descending, and
 * another user's id is simply not under the caller's partition.
 *
 * The list's fields are plain attributes; the message itself (raw MIME, HTML, text, headers) is one
 * gzipped JSON attribute: a 100 000-character body quoted-printable encoded twice could pass DynamoDB's
 * 400 KB item limit, compressed it stays far below.
 */
const OUTBOX_MESSAGE = 'outbox-message';

const SUMMARY_FIELDS: readonly (keyof OutboxMessageSummary)[] = outboxSummaryFields;
const summaryProjection = projectionOf(SUMMARY_FIELDS);

type OutboxContent = Pick<OutboxMessage, 'html' | 'text' | 'headers' | 'raw'>;

const pack = (content: OutboxContent) => gzipSync(Buffer.from(JSON.stringify(content), 'utf8'));
const unpack = (content: Uint8Array): OutboxContent => JSON.parse(gunzipSync(content).toString('utf8')) as OutboxContent;

/** A message filed before threads were kept is a thread of its own. */
const withThread = <T extends { id: string; thread_id?: string }>(message: T): T & { thread_id: string } => ({
  ...message,
  thread_id: message.thread_id ?? message.id,
});

const messageKey = (userId: string, id: string) => ({ PK: key.user(userId), SK: key.outboxMessage(id) });

export class DynamoOutboxStore implements OutboxStore {
  constructor(
    readonly db: DynamoDBDocumentClient,
    readonly tableName: string,
    readonly options: { ids: IdGenerator },
  ) {}

  async add(userId: string, message: NewOutboxMessage, now: Date): Promise<{ id: string; threadId: string }> {
    const id = this.options.ids.next(now);
    const { html, text, headers, raw, ...summary } = message;
    const threadId = summary.thread_id ?? id;
    await putNew(this.db, this.tableName, messageKey(userId, id), OUTBOX_MESSAGE, {
      ...summary,
      id,
      thread_id: threadId,
      content: pack({ html, text, headers, raw }),
    });
    return { id, threadId };
  }

  async list(userId: string): Promise<OutboxMessageSummary[]> {
    const messages = await queryPartition<Omit<OutboxMessageSummary, 'thread_id'> & { thread_id?: string }>(this.db, this.tableName, {
      pk: key.user(userId),
      skPrefix: key.outboxPrefix(),
      projection: summaryProjection,
      newestFirst: true,
    });
    return messages.map(withThread);
  }

  async get(userId: string, id: string): Promise<OutboxMessage | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: messageKey(userId, id) }));
    if (!Item) return undefined;
    const { content, ...summary } = withoutKeys<Omit<OutboxMessageSummary, 'thread_id'> & { thread_id?: string; content: Uint8Array }>(Item);
    return { ...withThread(summary), ...unpack(content) };
  }
}
