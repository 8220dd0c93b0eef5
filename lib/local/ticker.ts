/**
 * The local twin of the AWS sending pipeline's plumbing (DESIGN §1, §4): where EventBridge Scheduler
 * runs the dispatcher every minute and SQS feeds the sender, the ticker runs the same dispatcher
 * (lambdas/workers/dispatcher.ts) every send interval of the stack (`intervalMs`) into the in-process FIFO
 * (MemoryFifoQueue: message groups, visibility timeout, redrive) and a consumer loop hands what the
 * queue delivers to the same sender handler as SQS-shaped events, deleting each message the handler
 * did not report in batchItemFailures. The dispatcher fires at each point of the interval grid with that
 * point as its `scheduledTime`, as the scheduler's payload carries it: the slots are exactly one
 * interval apart, whatever the timer's jitter (DESIGN §13).
 */
import { createHash } from 'node:crypto';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { MemoryFifoQueue, type ReceivedMessage } from '../../lambdas/adapters/local-queue/memoryFifoQueue';
import { slotOf } from '../../lambdas/core/dispatch';
import type { Clock, SendingCursorStore } from '../../lambdas/ports';
import { makeHandler as makeDispatcher } from '../../lambdas/workers/dispatcher';

/** SQS FIFO hands an event source at most 10 messages (lib/cloud/sending.ts SENDER_BATCH_SIZE). */
export const LOCAL_BATCH_SIZE = 10;
/** As the send queue in AWS (lib/cloud/sending.ts): a tick the sender failed comes back after 6 minutes… */
export const LOCAL_VISIBILITY_TIMEOUT_MS = 6 * 60_000;
/** …and after 5 receives goes to the dead-letter list (MAX_RECEIVE_COUNT there). */
export const LOCAL_MAX_RECEIVE_COUNT = 5;
/** How often the consumer looks for deliverable messages (a failed tick's visibility ends, a group unlocks). */
export const CONSUMER_POLL_MS = 250;

const LOCAL_QUEUE_ARN = 'arn:aws:sqs:us-east-1:000000000000:trackpitch-local-send.fifo';

/** The sender Lambda; an answer without a response reports no failures. */
export type SenderHandler = (event: SQSEvent) => Promise<SQSBatchResponse | undefined>;

export interface LocalTickerOptions {
  /** Dispatcher period: the stack's send interval (lambdas/composition/config.ts sendIntervalMs). */
  intervalMs: number;
  /** The DUE index (DynamoSendingCursorStore on the local table). */
  cursors: SendingCursorStore;
  /** The sender Lambda's handler (lambdas/workers/sender.ts `handler`). */
  send: SenderHandler;
  clock: Clock;
  region?: string;
  pollMs?: number;
  visibilityTimeoutMs?: number;
  maxReceiveCount?: number;
  /** Where problems go (a failed dispatcher run, a sender crash, a dead-lettered tick); default console.error. */
  onError?: (message: string, error?: unknown) => void;
}

export interface TickResult {
  /** Ticks the dispatcher put on the queue (after FIFO deduplication, at most one per due user). */
  dispatched: number;
  /** Messages handed to the sender, and those it reported failed (left on the queue for redelivery). */
  delivered: number;
  failed: number;
}

export interface LocalTicker {
  /** Fire the dispatcher every intervalMs and poll the queue; idempotent. */
  start(): void;
  /** Stop the timers and wait for the work in progress. */
  stop(): Promise<void>;
  /** One dispatcher run for `slot` (default: the current one), then deliver everything the queue hands out (for tests and the first tick). */
  tick(slot?: Date): Promise<TickResult>;
  /** Deliver what the queue hands out now, without a dispatcher run. */
  drain(): Promise<Omit<TickResult, 'dispatched'>>;
  readonly queue: MemoryFifoQueue;
  readonly intervalMs: number;
}

/** The SQS event Lambda gets for these messages: messageId = the receipt (what batchItemFailures names). */
export function sqsEvent(messages: ReceivedMessage[], now: Date, region = 'us-east-1'): SQSEvent {
  const timestamp = String(now.getTime());
  const records = messages.map((message): SQSRecord => ({
    messageId: message.receiptHandle,
    receiptHandle: message.receiptHandle,
    body: message.body,
    attributes: {
      ApproximateReceiveCount: String(message.receiveCount),
      SentTimestamp: timestamp,
      SenderId: 'trackpitch-local-dispatcher',
      ApproximateFirstReceiveTimestamp: timestamp,
      MessageGroupId: message.groupId,
      MessageDeduplicationId: message.deduplicationId,
    },
    messageAttributes: {},
    md5OfBody: createHash('md5').update(message.body).digest('hex'),
    eventSource: 'aws:sqs',
    eventSourceARN: LOCAL_QUEUE_ARN,
    awsRegion: region,
  }));
  return { Records: records };
}

export function createLocalTicker(options: LocalTickerOptions): LocalTicker {
  const { clock, intervalMs } = options;
  const describe = (error: unknown) => (error as Error | undefined)?.stack ?? String(error);
  const report = options.onError ?? ((message: string, error?: unknown) => console.error(`[sending] ${message}${error ? `: ${describe(error)}` : ''}`));
  const queue = new MemoryFifoQueue({
    clock,
    visibilityTimeoutMs: options.visibilityTimeoutMs ?? LOCAL_VISIBILITY_TIMEOUT_MS,
    maxReceiveCount: options.maxReceiveCount ?? LOCAL_MAX_RECEIVE_COUNT,
  });
  const dispatch = makeDispatcher({ cursors: options.cursors, queue, clock, intervalMs });

  // One delivery pass at a time: the FIFO's group lock is per receive, and a second concurrent pass
  // would only find the same groups locked.
  let draining: Promise<Omit<TickResult, 'dispatched'>> | undefined;
  let deadLettered = 0;

  async function deliverOnce(): Promise<Omit<TickResult, 'dispatched'>> {
    let delivered = 0;
    let failed = 0;
    for (;;) {
      const messages = queue.receive(LOCAL_BATCH_SIZE);
      if (queue.deadLetterMessages.length > deadLettered) {
        report(
          `${queue.deadLetterMessages.length - deadLettered} sending tick(s) failed ${options.maxReceiveCount ?? LOCAL_MAX_RECEIVE_COUNT} times and were dead-lettered (see the errors above)`,
        );
        deadLettered = queue.deadLetterMessages.length;
      }
      if (messages.length === 0) return { delivered, failed };
      delivered += messages.length;
      let failedIds: Set<string>;
      try {
        const response = await options.send(sqsEvent(messages, clock.now(), options.region));
        failedIds = new Set((response?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
      } catch (error) {
        // A crashed invocation: Lambda deletes nothing, every message comes back after the visibility timeout.
        report('the sender failed', error);
        failedIds = new Set(messages.map((m) => m.receiptHandle));
      }
      for (const message of messages) {
        if (failedIds.has(message.receiptHandle)) failed += 1;
        else queue.delete(message.receiptHandle);
      }
    }
  }

  const drain = () => {
    draining ??= deliverOnce().finally(() => {
      draining = undefined;
    });
    return draining;
  };

  async function tick(slot: Date = slotOf(clock.now(), intervalMs)): Promise<TickResult> {
    const { dispatched } = await dispatch({ scheduledTime: slot.toISOString() });
    // A pass already running may have missed what was just queued: wait for it, then deliver again.
    await draining?.catch(() => undefined);
    const { delivered, failed } = await drain();
    return { dispatched, delivered, failed };
  }

  let dispatchTimer: NodeJS.Timeout | undefined;
  let pollTimer: NodeJS.Timeout | undefined;
  let ticking: Promise<unknown> | undefined;
  let running = false;

  /** The dispatcher at the next grid point, as the scheduler fires at its scheduled times. */
  function scheduleNext() {
    const nowMs = clock.now().getTime();
    const slot = new Date(slotOf(new Date(nowMs), intervalMs).getTime() + intervalMs);
    dispatchTimer = setTimeout(() => {
      if (!running) return;
      scheduleNext();
      if (ticking) return; // a slow run is still going: skip this one, as a missed scheduler tick
      ticking = tick(slot)
        .catch((error: unknown) => report('the dispatcher failed', error))
        .finally(() => {
          ticking = undefined;
        });
    }, slot.getTime() - nowMs);
    // The server keeps the process alive; the ticker alone should not.
    dispatchTimer.unref();
  }

  return {
    queue,
    intervalMs,
    tick,
    drain,
    start() {
      if (running) return;
      running = true;
      scheduleNext();
      pollTimer = setInterval(() => {
        if (!draining && queue.depth > 0) drain().catch((error: unknown) => report('delivering sending ticks failed', error));
      }, options.pollMs ?? CONSUMER_POLL_MS);
      pollTimer.unref();
    },
    async stop() {
      running = false;
      clearTimeout(dispatchTimer);
      clearInterval(pollTimer);
      dispatchTimer = undefined;
      pollTimer = undefined;
      await Promise.allSettled([ticking, draining]);
    },
  };
}
