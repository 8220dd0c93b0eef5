import { SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { chunk } from '../../../schema/chunk';
import type { Queue, QueueMessage } from '../../ports';

/** SQS allows at most ten entries per SendMessageBatch. */
const BATCH = 10;

export class SqsQueue implements Queue {
  constructor(
    private readonly sqs: SQSClient,
    private readonly queueUrl: string,
  ) {}

  async send(messages: QueueMessage[]): Promise<void> {
    const rejected: string[] = [];
    for (const batch of chunk(messages, BATCH)) {
      const result = await this.sqs.send(
        new SendMessageBatchCommand({
          QueueUrl: this.queueUrl,
          Entries: batch.map((message, i) => ({
            Id: String(i),
            MessageBody: message.body,
            MessageGroupId: message.groupId,
            MessageDeduplicationId: message.deduplicationId,
          })),
        }),
      );
      for (const failure of result.Failed ?? []) {
        const message = batch[Number(failure.Id)];
        rejected.push(`${message?.deduplicationId ?? failure.Id} (${failure.Code ?? 'error'})`);
      }
    }
    if (rejected.length > 0) throw new Error(`Queue refused ${rejected.length} message(s): ${rejected.join(', ')}`);
  }
}
