/**
 * The Queue port's contract, run against the SQS adapter (SQS mocked: it cannot run here) and its
 * local twin, the in-process FIFO. Both must hand the consumer the same messages, per group in order.
 */
import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { MemoryFifoQueue } from '../../lambdas/adapters/local-queue/memoryFifoQueue';
import { SqsQueue } from '../../lambdas/adapters/sqs/sqsQueue';
import type { Queue, QueueMessage } from '../../lambdas/ports';

interface Harness {
  queue: Queue;
  /** What a consumer would be handed, in send order, without the transport's fields. */
  accepted(): QueueMessage[];
}

const sqsMock = mockClient(SQSClient);

function sqsHarness(): Harness & { refuse(deduplicationId: string): void } {
  sqsMock.reset();
  const refused = new Set<string>();
  const accepted: QueueMessage[] = [];
  const seen = new Set<string>();
  // Models SQS FIFO as documented: a repeated deduplication id within five minutes is answered as
  // successful but not delivered again.
  sqsMock.on(SendMessageBatchCommand).callsFake((input: SendMessageBatchCommand['input']) => {
    const failed = [];
    const successful = [];
    for (const entry of input.Entries ?? []) {
      if (refused.has(entry.MessageDeduplicationId!)) {
        failed.push({ Id: entry.Id!, Code: 'InvalidParameterValue', SenderFault: true });
        continue;
      }
      if (!seen.has(entry.MessageDeduplicationId!)) {
        seen.add(entry.MessageDeduplicationId!);
        accepted.push({ groupId: entry.MessageGroupId!, deduplicationId: entry.MessageDeduplicationId!, body: entry.MessageBody! });
      }
      successful.push({ Id: entry.Id!, MessageId: `m-${entry.Id}`, MD5OfMessageBody: '' });
    }
    return { Successful: successful, Failed: failed };
  });
  return {
    queue: new SqsQueue(new SQSClient({ region: 'us-east-1' }), 'https://sqs.example/queue.fifo'),
    accepted: () => accepted,
    refuse: (id) => refused.add(id),
  };
}

function memoryHarness(): Harness {
  const fifo = new MemoryFifoQueue({ clock: { now: () => new Date() }, visibilityTimeoutMs: 60_000, maxReceiveCount: 3 });
  return {
    queue: fifo,
    accepted: () => {
      const all: QueueMessage[] = [];
      for (let batch = fifo.receive(100); batch.length; batch = fifo.receive(100)) {
        for (const { receiptHandle, receiveCount: _count, ...message } of batch) {
          all.push(message);
          fifo.delete(receiptHandle);
        }
      }
      return all;
    },
  };
}

const messages = (count: number, group = (i: number) => `user-${i % 3}`): QueueMessage[] =>
  Array.from({ length: count }, (_, i) => ({ groupId: group(i), deduplicationId: `d-${i}`, body: JSON.stringify({ i }) }));

describe.each([
  ['SQS FIFO adapter', sqsHarness],
  ['in-process FIFO (local twin)', memoryHarness],
])('Queue contract: %s', (_name, makeHarness) => {
  let harness: Harness;
  beforeEach(() => {
    harness = makeHarness();
  });

  it('accepts nothing for an empty send', async () => {
    await harness.queue.send([]);
    expect(harness.accepted()).toEqual([]);
  });

  it('hands over every message of a large send with its group, dedup id and body', async () => {
    const sent = messages(25);
    await harness.queue.send(sent);
    const accepted = harness.accepted();
    expect(accepted).toHaveLength(25);
    expect(new Set(accepted.map((m) => m.deduplicationId))).toEqual(new Set(sent.map((m) => m.deduplicationId)));
    for (const group of ['user-0', 'user-1', 'user-2']) {
      expect(accepted.filter((m) => m.groupId === group)).toEqual(sent.filter((m) => m.groupId === group));
    }
  });

  it('keeps the first of two messages with the same deduplication id', async () => {
    await harness.queue.send([{ groupId: 'g', deduplicationId: 'same', body: '1' }]);
    await harness.queue.send([{ groupId: 'g', deduplicationId: 'same', body: '2' }]);
    expect(
      harness
        .accepted()
        .filter((m) => m.deduplicationId === 'same')
        .map((m) => m.body),
    ).toEqual(['1']);
  });
});

describe('SQS adapter specifics', () => {
  it('throws naming a message SQS refused, after sending the others', async () => {
    const harness = sqsHarness();
    harness.refuse('d-4');
    await expect(harness.queue.send(messages(12))).rejects.toThrow(/d-4/);
    expect(harness.accepted().map((m) => m.deduplicationId)).toHaveLength(11);
  });

  it('sends at most ten entries per batch', async () => {
    const harness = sqsHarness();
    await harness.queue.send(messages(23));
    expect(sqsMock.commandCalls(SendMessageBatchCommand).map((c) => c.args[0].input.Entries?.length)).toEqual([10, 10, 3]);
  });
});

describe('in-process FIFO specifics', () => {
  let now = 0;
  const clock = { now: () => new Date(now) };
  const make = () => new MemoryFifoQueue({ clock, visibilityTimeoutMs: 30_000, maxReceiveCount: 2 });
  beforeEach(() => {
    now = Date.parse('2026-11-21T10:00:00Z');
  });

  it('delivers no second message of a group while the first is in flight', async () => {
    const fifo = make();
    await fifo.send(messages(2, () => 'same-user'));
    expect(fifo.receive(10).map((m) => m.deduplicationId)).toEqual(['d-0']);
    expect(fifo.receive(10)).toEqual([]);
  });

  it('delivers the next message of the group once the first is deleted', async () => {
    const fifo = make();
    await fifo.send(messages(2, () => 'same-user'));
    const [first] = fifo.receive(10);
    fifo.delete(first!.receiptHandle);
    expect(fifo.receive(10).map((m) => m.deduplicationId)).toEqual(['d-1']);
  });

  it('delivers other groups while one is locked', async () => {
    const fifo = make();
    await fifo.send([...messages(2, () => 'a'), { groupId: 'b', deduplicationId: 'b-0', body: '{}' }]);
    expect(fifo.receive(10).map((m) => m.groupId)).toEqual(['a', 'b']);
  });

  it('drops a repeated deduplication id within five minutes, accepts it after', async () => {
    const fifo = make();
    await fifo.send(messages(1));
    await fifo.send(messages(1));
    expect(fifo.depth).toBe(1);
    fifo.delete(fifo.receive(1)[0]!.receiptHandle);
    now += 5 * 60_000;
    await fifo.send(messages(1));
    expect(fifo.depth).toBe(1);
  });

  it('redelivers after the visibility timeout and moves to the dead letters after the receive limit', async () => {
    const fifo = make();
    await fifo.send(messages(1));
    expect(fifo.receive(1)[0]?.receiveCount).toBe(1);
    now += 30_000;
    const second = fifo.receive(1)[0];
    expect(second?.receiveCount).toBe(2);
    now += 30_000;
    expect(fifo.receive(1)).toEqual([]);
    expect(fifo.deadLetterMessages.map((m) => m.deduplicationId)).toEqual(['d-0']);
    expect(fifo.depth).toBe(0);
  });

  it('ignores a stale receipt after the message was received again', async () => {
    const fifo = make();
    await fifo.send(messages(1));
    const first = fifo.receive(1)[0]!;
    now += 30_000;
    fifo.receive(1);
    fifo.delete(first.receiptHandle);
    expect(fifo.depth).toBe(1);
  });
});
