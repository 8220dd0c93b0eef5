/**
 * `npm test`'s count of the browser suite (scripts/playwright-report.ts), on a report Playwright 1.64
 * wrote (tests/fixtures/playwright/report-with-flaky.json, its results trimmed): one test passed, one
 * failed, one skipped, and one failed then passed on its retry, which counts as failed and is named.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { countPlaywright } from '../../scripts/playwright-report';

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
