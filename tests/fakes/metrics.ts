/** The application metrics a worker or handler emitted (AppMetrics), as a list, and how often it published them. */
import type { AppMetrics } from '../../lambdas/ports';
import type { MetricName, MetricUnitName } from '../../schema/metrics';

export interface RecordedMetric {
  name: MetricName;
  unit: MetricUnitName;
  value: number;
}

export class RecordingMetrics implements AppMetrics {
  readonly recorded: RecordedMetric[] = [];
  published = 0;

  addMetric(name: MetricName, unit: MetricUnitName, value: number): void {
    this.recorded.push({ name, unit, value });
  }

  publishStoredMetrics(): void {
    this.published++;
  }

  named(name: MetricName): RecordedMetric[] {
    return this.recorded.filter((metric) => metric.name === name);
  }

  clear(): void {
    this.recorded.length = 0;
    this.published = 0;
  }
}
