/**
 * What each Lambda ships and what its cold start pays for loading it (issue 13): every entry bundled with
 * esbuild and the options AppFunction gives NodejsFunction (lib/cloud/functions.ts: minified ESM,
 * node20), then per Lambda the bundle size, the size of the node_modules installed beside it (each
 * nodeModules package and its dependencies, as npm installs them) and the cold import
 * (`node -e "import('./index.mjs')"` in a fresh process, median of a few runs: wall clock, and CPU time,
 * which a busy machine disturbs less).
 *
 * Two floors, measured in the same run: the smallest bundle, and the engine floor, a bundle holding only
 * the DynamoDB document client's builder (lambdas/adapters/dynamodb/client.ts, built like the Lambdas and,
 * like them, not calling it at import). No Lambda that reads the table can load faster than that one,
 * so a table-using Lambda's ratio is also given against it.
 *
 * Size is split into the named dependencies a group truly needs (the AWS SDK with the clients it carries,
 * zod for request validation, and the mail, Google and HTML packages of the groups that send, connect a
 * mailbox or sanitize) and the rest, which the issue's 300 KB limit applies to.
 *
 *   npx tsx bench/lambdas.ts [runs]
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { build, type BuildOptions, type Metafile } from 'esbuild';
import { BUNDLE_TARGET, ESM_REQUIRE_BANNER } from '../lib/cloud/bundling';
import { REPO_ROOT } from '../lib/cloud/config';
import { evaluationMarks, printEvaluated } from '../lib/cloud/evaluationMarks';
import { deployedLambdas } from '../lib/cloud/lambdaEntries';

const runs = Number(process.argv[2] ?? 5);
const LIMIT_BYTES = 300 * 1024;

const entries = deployedLambdas();

const nodeModulesDir = path.join(REPO_ROOT, 'node_modules');

function dirBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) total += entry.name === 'node_modules' ? 0 : dirBytes(full);
    else if (entry.isFile()) total += statSync(full).size;
  }
  return total;
}

/** The packages npm installs for `names`: each one and its dependencies, found as Node resolves them from the repository root. */
function installedPackages(names: readonly string[]): Set<string> {
  const found = new Set<string>();
  const visit = (name: string, from: string) => {
    let dir = from;
    let packageDir: string | undefined;
    for (;;) {
      const candidate = path.join(dir, 'node_modules', name);
      if (existsSync(path.join(candidate, 'package.json'))) {
        packageDir = candidate;
        break;
      }
      const parent = path.dirname(dir);
      if (parent === dir || !parent.startsWith(REPO_ROOT)) break;
      dir = parent;
    }
    if (!packageDir || found.has(packageDir)) return;
    found.add(packageDir);
    const manifest = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
    for (const dependency of Object.keys(manifest.dependencies ?? {})) visit(dependency, packageDir);
  };
  for (const name of names) visit(name, REPO_ROOT);
  return found;
}

/** The package a bundled input belongs to ('@scope/name' or 'name'), or undefined for the app's own code. */
function packageOf(input: string): string | undefined {
  return /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input.slice(input.lastIndexOf('node_modules/')))?.[1];
}

/** The AWS SDK's runtime (@smithy, credentials, …) counts as one dependency, named by the clients it carries. */
const AWS_SDK_RUNTIME = /^(?:@aws-sdk\/|@smithy\/|@aws-crypto\/|@aws\/|fast-xml-parser|strnum|tslib|bowser)/;

/**
 * The dependencies a group truly needs, each with every package it depends on (as npm installs them):
 * zod validates requests and records; the sender and campaigns groups render and sanitize HTML; the
 * mailbox and sender groups call Google; the sender sends mail; billing calls Stripe (stripe-node, loaded
 * by the first call that needs the provider); tracks reads an upload's audio metadata (music-metadata,
 * loaded by the complete route). A package two of them share (debug) counts for one the bundle carries.
 */
const NAMED_DEPENDENCIES = ['zod', 'nodemailer', 'googleapis', 'google-auth-library', 'dompurify', 'html-to-text', 'stripe', 'music-metadata'];
/** Each installed package and the named dependencies that install it, in the order above. */
const namedDependenciesOf = new Map<string, string[]>();
for (const root of NAMED_DEPENDENCIES) {
  for (const dir of installedPackages([root])) {
    const name = path.relative(nodeModulesDir, dir).split(`${path.sep}node_modules${path.sep}`).pop() ?? '';
    if (!AWS_SDK_RUNTIME.test(name)) namedDependenciesOf.set(name, [...(namedDependenciesOf.get(name) ?? []), root]);
  }
}

/**
 * A bundle's bytes split into its named dependencies (the AWS SDK as one, named by its clients) and the
 * rest; a dependency or client not evaluated at import (`lazy`, lib/cloud/evaluationMarks.ts) is marked
 * as loaded on first use.
 */
function sizeBreakdown(metafile: Metafile, outfile: string, evaluated: ReadonlySet<string>) {
  const output = Object.entries(metafile.outputs).find(([file]) => path.resolve(file) === path.resolve(outfile))?.[1];
  if (!output) throw new Error(`no output ${outfile} in the metafile`);
  const named = new Map<string, number>();
  const clients = new Set<string>();
  let rest = 0;
  const packagesInBundle = new Set(Object.keys(output.inputs).map(packageOf));
  for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
    const name = packageOf(input);
    const client = name && /^@aws-sdk\/client-(.+)$/.exec(name)?.[1];
    if (client) clients.add(client);
    const dependency =
      name === undefined ? undefined : AWS_SDK_RUNTIME.test(name) ? 'AWS SDK' : namedDependenciesOf.get(name)?.find((root) => packagesInBundle.has(root));
    if (dependency) named.set(dependency, (named.get(dependency) ?? 0) + bytesInOutput);
    else rest += bytesInOutput;
  }
  // Without a client, the runtime's few bytes (e.g. @aws/lambda-invoke-store under Powertools) are not the SDK.
  if (clients.size === 0) rest += named.get('AWS SDK') ?? 0;
  if (clients.size === 0) named.delete('AWS SDK');
  const onFirstUse = (name: string) => !evaluated.has(name);
  const clientText = (client: string) => (onFirstUse(`@aws-sdk/client-${client}`) ? `${client} on first use` : client);
  const namedText = [...named]
    .sort((a, b) => b[1] - a[1])
    .map(([name, bytes]) =>
      name === 'AWS SDK'
        ? `AWS SDK (${[...clients].sort().map(clientText).join(', ')}) ${kb(bytes)}`
        : `${name} ${kb(bytes)}${onFirstUse(name) ? ' (loaded on first use)' : ''}`,
    )
    .join(', ');
  const dependencies = [...[...named.keys()].filter((name) => name !== 'AWS SDK'), ...[...clients].map((client) => `@aws-sdk/client-${client}`)];
  return {
    rest,
    namedText,
    usesTable: clients.has('dynamodb'),
    atImport: dependencies.filter((name) => !onFirstUse(name)),
    onFirstUse: dependencies.filter(onFirstUse),
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/**
 * The cold import, median of `runs` fresh processes: wall-clock time of `node -e "import('./index.mjs')"`
 * and that process's CPU time (user + system), which a busy machine disturbs far less.
 */
function coldImport(dir: string): { wallMs: number; cpuMs: number } {
  const wall: number[] = [];
  const cpu: number[] = [];
  const script = "import('./index.mjs').then(() => { const r = process.resourceUsage(); process.stdout.write(`${r.userCPUTime + r.systemCPUTime}`); })";
  for (let i = 0; i < runs; i += 1) {
    const start = performance.now();
    const micros = execFileSync(process.execPath, ['-e', script], {
      cwd: dir,
      env: { PATH: process.env.PATH, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    wall.push(performance.now() - start);
    cpu.push(Number(micros) / 1000);
  }
  return { wallMs: median(wall), cpuMs: median(cpu) };
}

/** The watched packages a bundle evaluates at import, from a second build with evaluation marks (never timed). */
async function evaluatedAtImport(options: BuildOptions, dir: string, packages: readonly string[]): Promise<Set<string>> {
  const marked = path.join(dir, 'marked.mjs');
  await build({ ...options, outfile: marked, metafile: false, plugins: [evaluationMarks(packages)] });
  const printed = execFileSync(process.execPath, ['--input-type=module', '-e', printEvaluated(marked)], {
    cwd: dir,
    env: { PATH: process.env.PATH, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return new Set(JSON.parse(printed) as string[]);
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
const mb = (bytes: number) => (bytes === 0 ? '-' : `${(bytes / 1024 / 1024).toFixed(1)} MB`);

/** The engine floor's entry: the document client's builder alone, exported (not called) as a handler is. */
const ENGINE_FLOOR = 'DynamoDB client only';
const engineFloorEntry = (dir: string) => {
  const file = path.join(dir, 'engineFloor.ts');
  const client = path.join(REPO_ROOT, 'lambdas/adapters/dynamodb/client.ts');
  writeFileSync(
    file,
    `import { makeDocumentClient } from ${JSON.stringify(client)};\nexport const handler = () => makeDocumentClient({ region: 'us-east-1' });\n`,
  );
  return file;
};

const ratio = (value: number, floor: number) => (value / floor).toFixed(2);

/** Issue 13: each cold import at most 1.5× the floor. */
const ENGINE_LIMIT = 1.5;

const outDir = mkdtempSync(path.join(tmpdir(), 'trackpitch-bench-lambdas-'));
try {
  const rows = [];
  for (const { name, entry, nodeModules } of [...entries, { name: ENGINE_FLOOR, entry: engineFloorEntry(outDir), nodeModules: [] }]) {
    const dir = path.join(outDir, name.replace(/\W+/g, '-'));
    const outfile = path.join(dir, 'index.mjs');
    const options = {
      entryPoints: [path.resolve(REPO_ROOT, entry)],
      outfile,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: BUNDLE_TARGET,
      mainFields: ['module', 'main'],
      banner: { js: ESM_REQUIRE_BANNER },
      minify: true,
      external: [...nodeModules],
      metafile: true,
      logLevel: 'silent',
    } satisfies BuildOptions;
    const result = await build(options);
    const packages = installedPackages(nodeModules);
    // What NodejsFunction installs beside the bundle: link the repository's copy (Node resolves its dependencies from there).
    for (const module of nodeModules) {
      mkdirSync(path.join(dir, 'node_modules'), { recursive: true });
      symlinkSync(path.join(nodeModulesDir, module), path.join(dir, 'node_modules', module), 'dir');
    }
    const timed = coldImport(dir);
    const bundledClients = Object.keys(result.metafile.inputs).flatMap((input) => /node_modules\/(@aws-sdk\/client-[^/]+)\//.exec(input)?.[1] ?? []);
    const evaluated = await evaluatedAtImport(options, dir, [...new Set([...NAMED_DEPENDENCIES, ...bundledClients])]);
    rows.push({
      name,
      bytes: statSync(outfile).size,
      nodeModulesBytes: [...packages].reduce((sum, packageDir) => sum + dirBytes(packageDir), 0),
      ...timed,
      ...sizeBreakdown(result.metafile, outfile, evaluated),
    });
  }
  const engineFloor = rows.find((row) => row.name === ENGINE_FLOOR);
  const lambdas = rows.filter((row) => row !== engineFloor);
  const floor = lambdas.reduce((smallest, row) => (row.bytes < smallest.bytes ? row : smallest));
  if (!engineFloor) throw new Error('the engine floor was not measured');
  console.log(`Lambda bundles (minified); cold import = median of ${runs} fresh \`node -e "import('./index.mjs')"\`, wall clock and the process's CPU time.`);
  console.log(
    `× floor: against ${floor.name} (the smallest bundle); × engine: against "${ENGINE_FLOOR}" (the DynamoDB document client alone), for the Lambdas that use the table.`,
  );
  console.log(`rest = the bundle without its named dependencies (limit ${kb(LIMIT_BYTES)}); named = the dependencies the group truly needs.`);
  console.log(
    `${'Lambda'.padEnd(22)}${'bundle'.padStart(9)}${'rest'.padStart(8)}${'node_modules'.padStart(14)}${'wall'.padStart(8)}${'CPU'.padStart(8)}${'× floor'.padStart(9)}${'× engine'.padStart(10)}  named`,
  );
  for (const row of [...lambdas, engineFloor]) {
    const overLimit = row.rest > LIMIT_BYTES ? '!' : ' ';
    console.log(
      `${row.name.padEnd(22)}${kb(row.bytes).padStart(9)}${kb(row.rest).padStart(7)}${overLimit}${mb(row.nodeModulesBytes).padStart(14)}${`${row.wallMs.toFixed(0)} ms`.padStart(8)}${`${row.cpuMs.toFixed(0)} ms`.padStart(8)}${ratio(row.cpuMs, floor.cpuMs).padStart(9)}${(row.usesTable ? ratio(row.cpuMs, engineFloor.cpuMs) : '-').padStart(10)}  ${row.namedText}`,
    );
  }
  // Over the issue's 1.5× of the engine floor: what runs at import, and what only on first use (still
  // parsed at start: a Lambda is one file).
  for (const row of lambdas.filter((row) => row.usesTable && row.cpuMs / engineFloor.cpuMs > ENGINE_LIMIT)) {
    const firstUse = row.onFirstUse.length ? `; on first use only: ${row.onFirstUse.join(', ')} (parsed at start, ${kb(row.bytes)} in one file)` : '';
    console.log(
      `${row.name}: ${ratio(row.cpuMs, engineFloor.cpuMs)}× the engine floor (over ${ENGINE_LIMIT}×); evaluated at import: ${row.atImport.join(', ')}${firstUse}.`,
    );
  }
  console.log('Ratios are of CPU time (the wall clock is shown, but a shared machine disturbs it more); ! marks a rest over the limit.');
} finally {
  rmSync(outDir, { recursive: true, force: true });
}
