/**
 * The application's custom CloudWatch metrics (DESIGN §9): one list shared by the CDK dashboard and
 * alarms (lib/cloud/monitoring.ts) and the Lambdas that emit them (Powertools Metrics, embedded
 * metric format). Plain constants, no CDK import, so Lambda code imports it too.
 *
 * Emit them through lambdas/adapters/metrics.ts (`appMetrics()`: this namespace and service) with
 * no extra dimensions: CloudWatch alarms match dimensions exactly, and the alarms read the metric
 * with the single dimension `service = METRICS_SERVICE` (the Powertools default dimension).
 */

export const METRICS_NAMESPACE = 'Trackpitch';

/** Powertools' default `service` dimension; also POWERTOOLS_SERVICE_NAME on every Lambda. */
export const METRICS_SERVICE = 'trackpitch';

export const MetricNames = {
  /** Count: an email handed to the mailbox provider and accepted. */
  EmailsSent: 'EmailsSent',
  /** Count: a send that ended as failed (permanent provider error or retries exhausted). */
  EmailsFailed: 'EmailsFailed',
  /** Count: a send whose outcome is unknown (crash after the provider call); never retried. */
  EmailsUnknownOutcome: 'EmailsUnknownOutcome',
  /** Count: the provider answered 429 / daily limit; the item is rescheduled. */
  ProviderThrottled: 'ProviderThrottled',
  /** Seconds: now − the slot a tick was queued for, as the sender takes each tick up (lambdas/core/dispatch.ts). */
  QueueLagSeconds: 'QueueLagSeconds',
  /** Milliseconds: one dispatcher run, from start to the last queue write. */
  DispatcherTickMs: 'DispatcherTickMs',
  /** Count: a billing webhook delivery answered 5xx (not applied; the provider delivers it again). A bad signature is not one. */
  WebhookFailures: 'WebhookFailures',
} as const;

export type MetricName = (typeof MetricNames)[keyof typeof MetricNames];

/** The CloudWatch units these metrics use (Powertools `MetricUnit` has the same strings). */
export type MetricUnitName = 'Count' | 'Seconds' | 'Milliseconds';

/** The CloudWatch unit each metric is emitted with. */
export const MetricUnits: Record<MetricName, MetricUnitName> = {
  EmailsSent: 'Count',
  EmailsFailed: 'Count',
  EmailsUnknownOutcome: 'Count',
  ProviderThrottled: 'Count',
  QueueLagSeconds: 'Seconds',
  DispatcherTickMs: 'Milliseconds',
  WebhookFailures: 'Count',
};

/** The dimensions every alarm and dashboard widget uses for these metrics. */
export const METRIC_DIMENSIONS = { service: METRICS_SERVICE } as const;
