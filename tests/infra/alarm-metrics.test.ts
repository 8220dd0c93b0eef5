/**
 * Every alarm on an application metric watches a metric some Lambda emits (DESIGN §15): an alarm on a
 * metric nobody emits stays OK forever (missing data is not breaching). The alarms come from the
 * synthesized template; the emitters from the source under lambdas/, where a metric is emitted by naming
 * its constant of schema/metrics.ts (`MetricNames.QueueLagSeconds`, the one list monitoring.ts reads too)
 * or by passing its name to addMetric.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../lib/cloud/config';
import { MetricNames, METRICS_NAMESPACE } from '../../schema/metrics';
import { resourcesOfType, synth } from './synth';

const { template } = synth();

interface AlarmedMetric {
  alarm: string;
  namespace: string;
  name: string;
}

type MetricStat = { MetricStat?: { Metric?: { Namespace?: string; MetricName?: string } } };

/** The metric an alarm watches, or each metric of its metric math. */
function alarmedMetrics(alarm: string, properties: Record<string, unknown>): AlarmedMetric[] {
  if (typeof properties.MetricName === 'string') return [{ alarm, namespace: String(properties.Namespace), name: properties.MetricName }];
  const math = (properties.Metrics ?? []) as MetricStat[];
  const metrics = math.flatMap(({ MetricStat: stat }) =>
    stat?.Metric?.MetricName ? [{ alarm, namespace: String(stat.Metric.Namespace), name: stat.Metric.MetricName }] : [],
  );
  if (metrics.length === 0) throw new Error(`alarm ${alarm} watches no metric this test can read`);
  return metrics;
}

const alarmed = resourcesOfType(template, 'AWS::CloudWatch::Alarm').flatMap(([id, alarm]) => alarmedMetrics(id, alarm.Properties ?? {}));
/** Metrics in AWS/* namespaces are emitted by the services themselves (Lambda errors, queue depth, API 5xx). */
const applicationAlarmed = alarmed.filter((metric) => !metric.namespace.startsWith('AWS/'));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** The code of lambdas/, comments left out (a comment naming a metric emits nothing). */
const lambdaSources = sourceFiles(path.join(REPO_ROOT, 'lambdas')).map((file) => ({
  file: path.relative(REPO_ROOT, file),
  code: readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|\s)\/\/.*$/gm, '$1'),
}));

/** The files of lambdas/ that emit `name`: by its MetricNames constant, or by its name given to addMetric. */
function emittersOf(name: string): string[] {
  const constant = Object.entries(MetricNames).find(([, value]) => value === name)?.[0];
  const patterns = [new RegExp(`addMetric\\(\\s*['"\`]${name}['"\`]`), ...(constant ? [new RegExp(`\\bMetricNames\\.${constant}\\b`)] : [])];
  return lambdaSources.filter(({ code }) => patterns.some((pattern) => pattern.test(code))).map(({ file }) => file);
}

describe('alarms on application metrics', () => {
  it('are read from the template: the sending, dispatcher and webhook alarms, all in the namespace the Lambdas emit to', () => {
    const names = applicationAlarmed.map((metric) => metric.name);
    expect(names).toEqual(
      expect.arrayContaining([MetricNames.QueueLagSeconds, MetricNames.WebhookFailures, MetricNames.EmailsFailed, MetricNames.DispatcherTickMs]),
    );
    for (const metric of applicationAlarmed) expect(metric.namespace, metric.alarm).toBe(METRICS_NAMESPACE);
  });

  it.each(applicationAlarmed.map((metric) => [metric.name, metric]))('%s has an emitter in lambdas/', (_name, metric) => {
    expect(emittersOf(metric.name), `alarm ${metric.alarm} watches ${metric.namespace}/${metric.name}, which nothing in lambdas/ emits`).not.toEqual([]);
  });
});
