/**
 * `npm test`: every suite in one go, in two lanes at once, then the browser suite:
 * - vitest's integration project (DynamoDB Local + cognito-local), then the web app's build;
 * - beside it, the static gates (tsc, which also checks the type-level tests; ESLint with no warning
 *   allowed; Prettier: each that fails counts as one failure and is named at the end), then vitest's
 *   unit, infra (CDK template + cdk-nag) and web (components) projects;
 * - then Playwright drives Debian's Chromium against a freshly started local stack.
 * Ends with one line `N passed, N failed` (also written to .test-output/summary.txt for CI).
 * `npm test -- <filters>` runs just those vitest tests.
 *
 * A flaky browser test (failed, then passed on CI's retry) counts as failed, and is named at the end, as
 * is each failed vitest test.
 *
 * No Chromium: the browser suite is skipped with a loud banner, unless TRACKPITCH_REQUIRE_BROWSER=1
 * (set by .ci/run), which turns a missing browser into a failure.
 */
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { chromiumPath } from '../tests/e2e/chromium';
import { olderNodeWarning } from './nodeVersion';
import { countPlaywright } from './playwright-report';
import { failedVitestTests, type VitestReport } from './vitest-report';

const nodeNote = olderNodeWarning(process.version);
if (nodeNote) console.log(`\n${nodeNote}`);

const out = '.test-output';
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

const env = { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', POWERTOOLS_LOG_LEVEL: process.env.POWERTOOLS_LOG_LEVEL ?? 'SILENT' };
const extraArgs = process.argv.slice(2);

/** Runs a command with its output on this terminal; resolves to its exit status. */
function run(command: string, args: string[]): Promise<number> {
  console.log(`\n$ ${command} ${args.join(' ')}`);
  return new Promise((resolve) => {
    spawn(command, args, { stdio: 'inherit', env })
      .on('error', () => resolve(1))
      .on('close', (status) => resolve(status ?? 1));
  });
}

type Log = (command: string, args: string[]) => Promise<number>;

/** Runs `steps` with their output kept in .test-output/<name>.log, printed whole (with its duration) when the lane ends. */
async function lane<T>(name: string, steps: (log: Log) => Promise<T>): Promise<T> {
  const file = `${out}/${name.replace(/\W+/g, '-')}.log`;
  const output = createWriteStream(file);
  const started = Date.now();
  const log: Log = (command, args) =>
    new Promise((resolve) => {
      output.write(`\n$ ${command} ${args.join(' ')}\n`);
      const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...env, FORCE_COLOR: '1' } });
      child.stdout.pipe(output, { end: false });
      child.stderr.pipe(output, { end: false });
      child.on('error', () => resolve(1)).on('close', (status) => resolve(status ?? 1));
    });
  console.log(`\n[${name}] started (its output is printed when it ends)`);
  const result = await steps(log);
  await new Promise((resolve) => output.end(resolve));
  console.log(`\n${'='.repeat(30)} ${name}: ${Math.round((Date.now() - started) / 1000)} s ${'='.repeat(30)}`);
  process.stdout.write(readFileSync(file));
  return result;
}

interface Count {
  passed: number;
  failed: number;
  skipped: number;
}
const total: Count = { passed: 0, failed: 0, skipped: 0 };
let webBuildStatus = 0;
/** Each failed vitest test, named at the end beside the count. */
const failedTests: string[] = [];

/** Adds one vitest run's JSON report to the total; a run that crashed before reporting counts as one failure. */
function countVitest(jsonPath: string, status: number) {
  const failedBefore = total.failed;
  if (existsSync(jsonPath)) {
    const report = JSON.parse(readFileSync(jsonPath, 'utf8')) as VitestReport;
    total.passed += report.numPassedTests;
    total.failed += report.numFailedTests;
    total.skipped += report.numPendingTests + report.numTodoTests;
    // A file that failed to load has no test results but must count as a failure.
    total.failed += report.testResults.filter((file) => file.status === 'failed' && file.assertionResults.length === 0).length;
    failedTests.push(...failedVitestTests(report, process.cwd()));
  }
  if (status !== 0 && total.failed === failedBefore) total.failed += 1;
}

const vitestArgs = (json: string, ...more: string[]) => ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${json}`, ...more];

// 0. Static gates: each one that fails counts as one failure (the run goes on, so every problem shows at once).
const gates: [name: string, command: string, args: string[]][] = [
  ['typecheck (tsc)', 'npx', ['tsc', '-p', 'tsconfig.json', '--noEmit']],
  ['lint (ESLint, no warnings)', 'npx', ['eslint', '.', '--max-warnings', '0']],
  ['format (Prettier)', 'npx', ['prettier', '--check', '--log-level', 'warn', '.']],
];
const failedGates: string[] = [];

if (extraArgs.length > 0) {
  // `npm test -- <vitest filters>`: just those tests, in one vitest run.
  const json = `${out}/vitest.json`;
  countVitest(json, await run('npx', vitestArgs(json, ...extraArgs)));
} else {
  // 1. Two lanes at once. The integration tests spend most of their time waiting on DynamoDB Local and
  // cognito-local (other processes), so the gates, the CPU-bound vitest projects and the web build run
  // beside them instead of after them. Each lane's output is printed whole when it ends.
  const integrationJson = `${out}/vitest-integration.json`;
  const othersJson = `${out}/vitest-unit-infra-web.json`;
  const lanes = await Promise.all([
    // The web build after the integration tests: that lane ends first, so the browser suite starts sooner.
    lane('integration, web build', async (log) => {
      const integration = await log('npx', vitestArgs(integrationJson, '--project', 'integration'));
      const webBuild = chromiumPath() ? await log('npm', ['run', '--silent', 'build:web']) : 0;
      return { integration, webBuild };
    }),
    lane('gates, unit, infra, web', async (log) => {
      for (const [name, command, args] of gates) if ((await log(command, args)) !== 0) failedGates.push(name);
      // Two workers (vitest's default is one on two cores): the integration lane mostly waits, and once it
      // ends these CPU-bound projects have both cores.
      return { others: await log('npx', vitestArgs(othersJson, '--maxWorkers=2', '--project', 'unit', '--project', 'infra', '--project', 'web')) };
    }),
  ]);
  const [{ integration, webBuild }, { others }] = lanes;
  total.failed += failedGates.length;
  countVitest(integrationJson, integration);
  countVitest(othersJson, others);
  webBuildStatus = webBuild;
}

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
  const pwJson = `${out}/playwright.json`;
  const pwStatus = webBuildStatus === 0 ? await run('npx', ['playwright', 'test']) : 1;
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
if (failedTests.length > 0) console.log(`\nFAILED TESTS:\n${failedTests.map((name) => `  ${name}`).join('\n')}`);
if (browserNote) console.log(`\n${browserNote}`);
if (nodeNote) console.log(`\n${nodeNote}`);
if (flakyNote) console.log(`\n${flakyNote}`);
console.log(`\n${summary}`);
process.exit(total.failed > 0 ? 1 : 0);
