/**
 * Runs every minute (EventBridge Scheduler in AWS, the local ticker locally): finds users whose
 * sending cursor is due and puts one tick per user on the FIFO queue for the sender.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { MetricNames, MetricUnits } from '../../schema/metrics';
import { appMetrics } from '../adapters/metrics';
import { shardNumbers, slotOf, ticksFor } from '../core/dispatch';
import type { AppMetrics, Clock, Queue, SendingCursorStore } from '../ports';
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
  metrics?: AppMetrics;
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
      metrics.addMetric(MetricNames.DispatcherTickMs, MetricUnits.DispatcherTickMs, tickMs);
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
    metrics: appMetrics(),
  });
  return built(event);
};
