/**
 * Runs every minute (EventBridge Scheduler in AWS, the local ticker locally): finds users whose
 * sending cursor is due and puts one tick per user on the FIFO queue for the sender.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { METRICS_NAMESPACE, METRICS_SERVICE, MetricNames } from '../../schema/metrics';
import { shardNumbers, slotOf, ticksFor } from '../core/dispatch';
import type { Clock, Queue, SendingCursorStore } from '../ports';
import { readServerConfig } from '../composition/config';
import { dispatcherDeps } from '../composition/dispatcher';

export interface DispatcherDeps {
  cursors: SendingCursorStore;
  queue: Queue;
  clock: Clock;
  /** The send interval: slots are its grid points (core/dispatch slotOf). */
  intervalMs: number;
  logger?: Logger;
  /** Emits DispatcherTickMs (the CloudWatch dashboard and alarms read it). */
  metrics?: TickMetrics;
}

/** The part of Powertools Metrics the dispatcher uses. */
export interface TickMetrics {
  addMetric(name: string, unit: typeof MetricUnit.Milliseconds, value: number): void;
  publishStoredMetrics(): void;
}

/** Per shard and tick: bounds one run's work; anything left is due again next minute. */
export const MAX_USERS_PER_SHARD = 500;

/** The scheduler's payload carries its scheduled time; a run without one uses the clock. */
export interface DispatcherEvent {
  scheduledTime?: string;
}

export function makeHandler({ cursors, queue, clock, intervalMs, logger, metrics }: DispatcherDeps) {
  return async (event: DispatcherEvent = {}): Promise<{ dispatched: number }> => {
    const scheduled = event.scheduledTime ? new Date(event.scheduledTime) : undefined;
    const now = slotOf(scheduled && !Number.isNaN(scheduled.getTime()) ? scheduled : clock.now(), intervalMs);
    const started = Date.now();
    const perShard = await Promise.all(shardNumbers().map((shard) => cursors.listDue(shard, now, MAX_USERS_PER_SHARD)));
    const messages = ticksFor(perShard.flat(), now);
    await queue.send(messages);
    const tickMs = Date.now() - started;
    logger?.info('dispatched', { dispatched: messages.length, tickMs, at: now.toISOString() });
    if (metrics) {
      metrics.addMetric(MetricNames.DispatcherTickMs, MetricUnit.Milliseconds, tickMs);
      metrics.publishStoredMetrics();
    }
    return { dispatched: messages.length };
  };
}

function queueUrlOf(env: NodeJS.ProcessEnv): string {
  if (!env.QUEUE_URL) throw new Error('QUEUE_URL is not set');
  return env.QUEUE_URL;
}

let built: ReturnType<typeof makeHandler> | undefined;
/** The Lambda entry: reads the environment once, on the first run. */
export const handler = (event: DispatcherEvent) => {
  built ??= makeHandler({
    ...dispatcherDeps({ ...readServerConfig(process.env), queueUrl: queueUrlOf(process.env) }),
    logger: new Logger({ serviceName: 'trackpitch-dispatcher' }),
    metrics: new Metrics({ namespace: METRICS_NAMESPACE, serviceName: METRICS_SERVICE }),
  });
  return built(event);
};
