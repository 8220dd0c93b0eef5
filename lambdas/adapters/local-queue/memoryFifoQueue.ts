import type { Clock, Queue, QueueMessage } from '../../ports';

export interface ReceivedMessage extends QueueMessage {
  receiptHandle: string;
  receiveCount: number;
}

export interface MemoryFifoOptions {
  clock: Clock;
  /** How long a received message stays hidden before it is delivered again (SQS: visibility timeout). */
  visibilityTimeoutMs: number;
  /** After this many receives without a delete the message moves to the dead-letter list (SQS redrive). */
  maxReceiveCount: number;
  /** FIFO content-independent deduplication window: five minutes in SQS. */
  deduplicationWindowMs?: number;
}

interface StoredMessage extends QueueMessage {
  receiveCount: number;
  /** Set while in flight: the receipt and when it becomes visible again. */
  inFlight?: { receiptHandle: string; visibleAt: number };
}

/** The message as sent, without the queue's delivery state. */
const queueMessage = ({ groupId, deduplicationId, body }: QueueMessage): QueueMessage => ({ groupId, deduplicationId, body });

/**
 * The local twin of the SQS FIFO queue: message groups delivered one message at a time and in order,
 * deduplication ids remembered for the window, visibility timeout and redrive to a dead-letter list.
 */
export class MemoryFifoQueue implements Queue {
  private readonly groups = new Map<string, StoredMessage[]>();
  private readonly seenDedupIds = new Map<string, number>();
  private readonly deadLetters: QueueMessage[] = [];
  private receipts = 0;

  constructor(private readonly options: MemoryFifoOptions) {}

  send(messages: QueueMessage[]): Promise<void> {
    const now = this.options.clock.now().getTime();
    this.forgetOldDedupIds(now);
    for (const message of messages) {
      if (this.seenDedupIds.has(message.deduplicationId)) continue;
      this.seenDedupIds.set(message.deduplicationId, now);
      const group = this.groups.get(message.groupId) ?? [];
      group.push({ ...message, receiveCount: 0 });
      this.groups.set(message.groupId, group);
    }
    return Promise.resolve();
  }

  /** Up to `max` messages, at most one per group, and none from a group with a message in flight. */
  receive(max: number): ReceivedMessage[] {
    const now = this.options.clock.now().getTime();
    const received: ReceivedMessage[] = [];
    for (const [groupId, group] of this.groups) {
      if (received.length >= max) break;
      let head = group[0];
      if (head?.inFlight && head.inFlight.visibleAt > now) continue; // group locked
      if (head?.inFlight) head.inFlight = undefined; // visibility expired: deliver again
      while (head && head.receiveCount >= this.options.maxReceiveCount) {
        group.shift();
        this.deadLetters.push(queueMessage(head));
        head = group[0];
      }
      if (!head) {
        this.groups.delete(groupId);
        continue;
      }
      head.receiveCount += 1;
      head.inFlight = { receiptHandle: `r-${++this.receipts}`, visibleAt: now + this.options.visibilityTimeoutMs };
      const { inFlight, ...message } = head;
      received.push({ ...message, receiptHandle: inFlight.receiptHandle });
    }
    return received;
  }

  /** Deletes a received message; a stale receipt (visibility expired and re-received) is ignored, as in SQS FIFO. */
  delete(receiptHandle: string): void {
    for (const [groupId, group] of this.groups) {
      if (group[0]?.inFlight?.receiptHandle === receiptHandle) {
        group.shift();
        if (group.length === 0) this.groups.delete(groupId);
        return;
      }
    }
  }

  get deadLetterMessages(): readonly QueueMessage[] {
    return this.deadLetters;
  }

  get depth(): number {
    let count = 0;
    for (const group of this.groups.values()) count += group.length;
    return count;
  }

  private forgetOldDedupIds(now: number) {
    const window = this.options.deduplicationWindowMs ?? 5 * 60_000;
    for (const [id, at] of this.seenDedupIds) if (now - at >= window) this.seenDedupIds.delete(id);
  }
}
