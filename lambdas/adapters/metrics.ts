/**
 * The application metrics' emitter (DESIGN §9): Powertools Metrics in the embedded metric format, in
 * the namespace and with the one `service` dimension the alarms and the dashboard read (schema/metrics.ts).
 * Every Lambda that emits builds its own with this.
 */
import { Metrics } from '@aws-lambda-powertools/metrics';
import { METRICS_NAMESPACE, METRICS_SERVICE } from '../../schema/metrics';
import type { AppMetrics } from '../ports';

export const appMetrics = (): AppMetrics => new Metrics({ namespace: METRICS_NAMESPACE, serviceName: METRICS_SERVICE });
