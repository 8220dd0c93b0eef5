/**
 * `npm test`: every suite in one go. vitest runs the unit, integration (DynamoDB Local +
 * cognito-local), infra (CDK template + cdk-nag) and web (components) projects; then the web app is
 * built and Playwright drives Debian's Chromium against a freshly started local stack.
 * Ends with one line `N passed, N failed` (also written to .test-output/summary.txt for CI).
 *
 * First the static gates: tsc (which also checks the type-level tests), ESLint with no warning
 * allowed, and Prettier. Each that fails counts as one failure and is named at the end.
 *
 * A flaky browser test (failed, then passed on CI's retry) counts as failed, and is named at the end.
 *
 * No Chromium: the browser suite is skipped with a loud banner, unless TRACKPITCH_REQUIRE_BROWSER=1
 * (set by .ci/run), which turns a missing browser into a failure.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { chromiumPath } from '../tests/e2e/chromium';
import { olderNodeWarning } from './nodeVersion';
import { countPlaywright } from './playwright-report';

const nodeNote = olderNodeWarning(process.version);
if (nodeNote) console.log(`\n${nodeNote}`);

const out = '.test-output';
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

const env = { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', POWERTOOLS_LOG_LEVEL: process.env.POWERTOOLS_LOG_LEVEL ?? 'SILENT' };
const extraArgs = process.argv.slice(2);

function run(command: string, args: string[]) {
  console.log(`\n$ ${command} ${args.join(' ')}`);
  return spawnSync(command, args, { stdio: 'inherit', env }).status ?? 1;
}

interface Count {
  passed: number;
  failed: number;
  skipped: number;
}
const total: Count = { passed: 0, failed: 0, skipped: 0 };

// 0. Static gates: each one that fails counts as one failure (the run goes on, so every problem shows at once).
const gates: [name: string, command: string, args: string[]][] = [
  ['typecheck (tsc)', 'npx', ['tsc', '-p', 'tsconfig.json', '--noEmit']],
  ['lint (ESLint, no warnings)', 'npx', ['eslint', '.', '--max-warnings', '0']],
  ['format (Prettier)', 'npx', ['prettier', '--check', '--log-level', 'warn', '.']],
];
const failedGates = extraArgs.length > 0 ? [] : gates.filter(([, command, args]) => run(command, args) !== 0).map(([name]) => name);
total.failed += failedGates.length;

// 1. vitest: all four projects.
const vitestJson = `${out}/vitest.json`;
const vitestStatus = run('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestJson}`, ...extraArgs]);
if (existsSync(vitestJson)) {
  const report = JSON.parse(readFileSync(vitestJson, 'utf8')) as {
    numPassedTests: number;
    numFailedTests: number;
    numPendingTests: number;
    numTodoTests: number;
    testResults: { status: string; assertionResults: unknown[] }[];
  };
  total.passed += report.numPassedTests;
  total.failed += report.numFailedTests;
  total.skipped += report.numPendingTests + report.numTodoTests;
  // A file that failed to load has no test results but must count as a failure.
  total.failed += report.testResults.filter((file) => file.status === 'failed' && file.assertionResults.length === 0).length;
}
if (vitestStatus !== 0 && total.failed === 0) total.failed += 1; // vitest crashed before reporting

// 2. Browser suite.
const browser = chromiumPath();
let browserNote = '';
let flakyNote = '';
if (!browser) {
  const banner = '!'.repeat(78);
  browserNote = "THE BROWSER SUITE DID NOT RUN: no Chromium found (install Debian's `chromium` package, or set CHROMIUM_PATH).";
  console.log(`\n${banner}\n!! ${browserNote}\n${banner}\n`);
  if (process.env.TRACKPITCH_REQUIRE_BROWSER === '1') total.failed += 1;
} else if (extraArgs.length === 0) {
  const buildStatus = run('npm', ['run', '--silent', 'build:web']);
  const pwJson = `${out}/playwright.json`;
  const pwStatus = buildStatus === 0 ? run('npx', ['playwright', 'test']) : 1;
  if (existsSync(pwJson)) {
    const browserCount = countPlaywright(JSON.parse(readFileSync(pwJson, 'utf8')) as Parameters<typeof countPlaywright>[0]);
    total.passed += browserCount.passed;
    total.failed += browserCount.failed;
    total.skipped += browserCount.skipped;
    if (browserCount.flaky.length > 0) {
      flakyNote = `FLAKY: ${browserCount.flaky.length} browser test(s) failed, then passed on retry (counted as failed):\n${browserCount.flaky.map((name) => `  ${name}`).join('\n')}`;
    }
  }
  if (pwStatus !== 0 && !existsSync(pwJson)) total.failed += 1;
  if (pwStatus !== 0 && total.failed === 0) total.failed += 1;
}

const summary = `${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ''}`;
writeFileSync(`${out}/summary.txt`, `${summary}\n`);
if (failedGates.length > 0) console.log(`\nFAILED GATES: ${failedGates.join(', ')}`);
if (browserNote) console.log(`\n${browserNote}`);
if (nodeNote) console.log(`\n${nodeNote}`);
if (flakyNote) console.log(`\n${flakyNote}`);
console.log(`\n${summary}`);
process.exit(total.failed > 0 ? 1 : 0);
