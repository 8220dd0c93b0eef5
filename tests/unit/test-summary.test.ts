/**
 * `npm test`'s count of the browser suite (scripts/playwright-report.ts), on a report Playwright 1.64
 * wrote (tests/fixtures/playwright/report-with-flaky.json, its results trimmed): one test passed, one
 * failed, one skipped, and one failed then passed on its retry, which counts as failed and is named; and
 * its naming of failed vitest tests (scripts/vitest-report.ts), which CI reads in the output's tail.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { countPlaywright } from '../../scripts/playwright-report';
import { failedVitestTests, type VitestReport } from '../../scripts/vitest-report';

const report = JSON.parse(readFileSync(new URL('../fixtures/playwright/report-with-flaky.json', import.meta.url), 'utf8')) as Parameters<
  typeof countPlaywright
>[0];

describe("the browser suite's count", () => {
  it('counts a flaky test (passed on retry) as failed, and names it', () => {
    expect(report.stats).toMatchObject({ expected: 1, unexpected: 1, flaky: 1, skipped: 1 });
    expect(countPlaywright(report)).toEqual({
      passed: 1,
      failed: 2,
      skipped: 1,
      flaky: ['[desktop] probe.spec.ts:4 › campaign page › flaky: fails once, passes on retry'],
    });
  });

  it('a run without flaky tests names none', () => {
    const clean = { suites: [], stats: { ...report.stats, unexpected: 0, flaky: 0 } };
    expect(countPlaywright(clean)).toEqual({ passed: 1, failed: 0, skipped: 1, flaky: [] });
  });
});

describe("the vitest reports' failures", () => {
  const report: VitestReport = {
    numPassedTests: 1,
    numFailedTests: 1,
    numPendingTests: 0,
    numTodoTests: 0,
    testResults: [
      {
        name: '/ci/tests/web/compose-page.test.tsx',
        status: 'failed',
        assertionResults: [
          { ancestorTitles: ['compose'], title: 'keeps the draft', status: 'passed', duration: 12 },
          {
            ancestorTitles: ['compose', 'preview'],
            title: 'shows the warnings',
            status: 'failed',
            duration: 20004.4,
            failureMessages: ['Error: Test timed out in 20000ms.\n    at somewhere'],
          },
        ],
      },
      { name: '/ci/tests/unit/broken.test.ts', status: 'failed', message: 'SyntaxError: Unexpected token\nmore', assertionResults: [] },
      { name: '/ci/tests/unit/fine.test.ts', status: 'passed', assertionResults: [] },
    ],
  };

  it('names each failed test with its file, describes, duration and first line, and a file that failed to load', () => {
    expect(failedVitestTests(report, '/ci')).toEqual([
      'tests/web/compose-page.test.tsx › compose › preview › shows the warnings (20004 ms): Error: Test timed out in 20000ms.',
      'tests/unit/broken.test.ts: SyntaxError: Unexpected token',
    ]);
  });

  it('a run without failures names none', () => {
    expect(failedVitestTests({ ...report, testResults: [report.testResults[2]!] }, '/ci')).toEqual([]);
  });
});
