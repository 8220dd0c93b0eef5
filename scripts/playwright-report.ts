/**
 * What `npm test` counts from Playwright's JSON report. A flaky test (it failed, then passed on CI's
 * one retry) counts as failed and is named: flakiness is seen and fixed, never hidden by the retry.
 */
import type { JSONReport, JSONReportSuite } from '@playwright/test/reporter';

export interface BrowserCount {
  passed: number;
  failed: number;
  skipped: number;
  /** Each flaky test: `[project] file:line › describe › title`. */
  flaky: string[];
}

export function countPlaywright(report: Pick<JSONReport, 'suites' | 'stats'>): BrowserCount {
  const flaky: string[] = [];
  const walk = (suite: JSONReportSuite, describes: string[]) => {
    for (const spec of suite.specs) {
      for (const test of spec.tests) {
        if (test.status === 'flaky') flaky.push(`[${test.projectName}] ${[`${spec.file}:${spec.line}`, ...describes, spec.title].join(' › ')}`);
      }
    }
    for (const child of suite.suites ?? []) walk(child, [...describes, child.title]);
  };
  // A top-level suite is a file (its title is the file's path, already in each name).
  for (const file of report.suites) walk(file, []);
  const { expected, unexpected, skipped } = report.stats;
  // The stats count each flaky test once; the walk names them (the larger count wins if they ever disagree).
  const flakyCount = Math.max(report.stats.flaky, flaky.length);
  return { passed: expected, failed: unexpected + flakyCount, skipped, flaky };
}
