/**
 * What each Lambda ships and what its cold start pays for loading it (issue 13): every entry bundled with
 * esbuild and the options AppFunction gives NodejsFunction (lib/cloud/functions.ts: minified ESM,
 * node20), then per Lambda the bundle size, the size of the node_modules installed beside it (each
 * nodeModules package and its dependencies, as npm installs them) and the cold import
 * (`node -e "import('./index.mjs')"` in a fresh process, median of a few runs: wall clock, and CPU time,
 * which a busy machine disturbs less). The smallest bundle's cold import is the floor each ratio is
 * measured against; a bundle over 300 KB names its biggest dependencies (the AWS SDK as one).
 *
 *   npx tsx bench/lambdas.ts [runs]
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { build, type Metafile } from 'esbuild';
import { cloudHandlerGroups } from '../lib/cloud/api';
import { CUSTOM_MESSAGE_ENTRY } from '../lib/cloud/auth';
import { REPO_ROOT } from '../lib/cloud/config';
import { DISPATCHER_ENTRY, SENDER_ENTRY, SENDER_NODE_MODULES } from '../lib/cloud/sending';
import { handlerGroups, type HandlerGroupDefinition } from '../schema/routes';

const runs = Number(process.argv[2] ?? 5);
const LIMIT_BYTES = 300 * 1024;
const BANNER = "import { createRequire as __tpCreateRequire } from 'node:module'; const require = __tpCreateRequire(import.meta.url);";

const entries: { name: string; entry: string; nodeModules: readonly string[] }[] = [
  ...cloudHandlerGroups().map((name) => {
    const group: HandlerGroupDefinition = handlerGroups[name];
    return { name, entry: group.entry, nodeModules: group.nodeModules ?? [] };
  }),
  { name: 'dispatcher', entry: DISPATCHER_ENTRY, nodeModules: [] },
  { name: 'sender', entry: SENDER_ENTRY, nodeModules: SENDER_NODE_MODULES },
  { name: 'cognitoCustomMessage', entry: CUSTOM_MESSAGE_ENTRY, nodeModules: [] },
];

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

/** What makes a bundle big: its biggest dependencies (the AWS SDK as one) with their minified bytes. */
function biggestDependencies(metafile: Metafile, outfile: string): string {
  const output = Object.entries(metafile.outputs).find(([file]) => path.resolve(file) === path.resolve(outfile))?.[1];
  if (!output) return '';
  const byDependency = new Map<string, number>();
  const clients = new Set<string>();
  for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
    const name = packageOf(input);
    if (!name) continue;
    const client = /^@aws-sdk\/client-(.+)$/.exec(name)?.[1];
    if (client) clients.add(client);
    const dependency = AWS_SDK_RUNTIME.test(name) ? 'AWS SDK' : name;
    byDependency.set(dependency, (byDependency.get(dependency) ?? 0) + bytesInOutput);
  }
  return [...byDependency]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([name, bytes]) => `${name === 'AWS SDK' ? `AWS SDK (${[...clients].sort().join(', ')})` : name} ${kb(bytes)}`)
    .join(', ');
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/**
 * The cold import, median of `runs` fresh processes: wall-clock time of `node -e "import('./index.mjs')"`
 * and that process's CPU time (user + system), which a busy machine disturbs far less.
 */
function coldImport(dir: string): { wallMs: number; cpuMs: number } {
  const wall: number[] = [];
  const cpu: number[] = [];
  const script = "import('./index.mjs').then(() => { const r = process.resourceUsage(); process.stdout.write(String(r.userCPUTime + r.systemCPUTime)); })";
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

const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
const mb = (bytes: number) => (bytes === 0 ? '-' : `${(bytes / 1024 / 1024).toFixed(1)} MB`);

const outDir = mkdtempSync(path.join(tmpdir(), 'trackpitch-bench-lambdas-'));
try {
  const rows = [];
  for (const { name, entry, nodeModules } of entries) {
    const dir = path.join(outDir, name);
    const outfile = path.join(dir, 'index.mjs');
    const result = await build({
      entryPoints: [path.join(REPO_ROOT, entry)],
      outfile,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      mainFields: ['module', 'main'],
      banner: { js: BANNER },
      minify: true,
      external: [...nodeModules],
      metafile: true,
      logLevel: 'silent',
    });
    const packages = installedPackages(nodeModules);
    // What NodejsFunction installs beside the bundle: link the repository's copy (Node resolves its dependencies from there).
    for (const module of nodeModules) {
      mkdirSync(path.join(dir, 'node_modules'), { recursive: true });
      symlinkSync(path.join(nodeModulesDir, module), path.join(dir, 'node_modules', module), 'dir');
    }
    const bytes = statSync(outfile).size;
    rows.push({
      name,
      bytes,
      nodeModulesBytes: [...packages].reduce((sum, dir) => sum + dirBytes(dir), 0),
      ...coldImport(dir),
      heavy: bytes > LIMIT_BYTES ? biggestDependencies(result.metafile, outfile) : '',
    });
  }
  const floor = rows.reduce((smallest, row) => (row.bytes < smallest.bytes ? row : smallest));
  console.log(
    `Lambda bundles (minified); cold import = median of ${runs} fresh \`node -e "import('./index.mjs')"\`, wall clock and the process's CPU time; floor = ${floor.name} (the smallest bundle)`,
  );
  console.log(
    `${'Lambda'.padEnd(22)}${'bundle'.padStart(9)}${'node_modules'.padStart(14)}${'wall'.padStart(9)}${'× floor'.padStart(9)}${'CPU'.padStart(9)}${'× floor'.padStart(9)}  over 300 KB because of`,
  );
  for (const row of rows) {
    console.log(
      `${row.name.padEnd(22)}${kb(row.bytes).padStart(9)}${mb(row.nodeModulesBytes).padStart(14)}${`${row.wallMs.toFixed(0)} ms`.padStart(9)}${(row.wallMs / floor.wallMs).toFixed(2).padStart(9)}${`${row.cpuMs.toFixed(0)} ms`.padStart(9)}${(row.cpuMs / floor.cpuMs).toFixed(2).padStart(9)}  ${row.heavy}`,
    );
  }
} finally {
  rmSync(outDir, { recursive: true, force: true });
}
