/**
 * Every Lambda's bundle loads as Lambda loads it. The template tests skip bundling, so this builds each
 * entry with esbuild and the same options AppFunction gives NodejsFunction, writes it outside the
 * repository (no node_modules beside it, as in a Lambda without extra packages) and imports it in a
 * fresh Node. A package that cannot be bundled (jsdom reads its own files when loaded) must stay out of
 * every bundle and be loaded only where it is installed (schema/routes.ts nodeModules), and only the
 * functions that sanitize (campaigns, sender) may reach the sanitizer. The bundles' contents are read
 * from esbuild's metafile: each function carries only the SDKs its own composition wires.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, symlink, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../lib/cloud/config';
import { deployedLambdas } from '../../lib/cloud/lambdaEntries';

const run = promisify(execFile);

const entries = deployedLambdas();

/** The billing function's bundle budget: stripe-node is large; a second SDK pulled in by mistake would pass it. */
const BILLING_BUNDLE_BUDGET_KIB = 3 * 1024;

let outDir: string;
/** The source files esbuild put into each bundle (its metafile's inputs). */
const bundledFiles = new Map<string, string[]>();

beforeAll(async () => {
  outDir = await mkdtemp(path.join(tmpdir(), 'trackpitch-bundles-'));
  await Promise.all(
    entries.map(async ({ name, entry, nodeModules }) => {
      const dir = path.join(outDir, name);
      const result = await build({
        entryPoints: [path.join(REPO_ROOT, entry)],
        outfile: path.join(dir, 'index.mjs'),
        bundle: true,
        platform: 'node',
        format: 'esm',
        target: 'node20',
        mainFields: ['module', 'main'],
        // The same banner AppFunction sets (lib/cloud/functions.ts).
        banner: { js: "import { createRequire as __tpCreateRequire } from 'node:module'; const require = __tpCreateRequire(import.meta.url);" },
        external: [...nodeModules],
        metafile: true,
        logLevel: 'silent',
      });
      bundledFiles.set(name, Object.keys(result.metafile.inputs));
      // What NodejsFunction installs beside the bundle: link the repository's copy.
      for (const module of nodeModules) {
        await mkdir(path.join(dir, 'node_modules'), { recursive: true });
        await symlink(path.join(REPO_ROOT, 'node_modules', module), path.join(dir, 'node_modules', module), 'dir');
      }
    }),
  );
}, 120_000);

afterAll(async () => {
  if (outDir) await rm(outDir, { recursive: true, force: true });
});

describe('Lambda bundles', () => {
  it.each(entries.map((e) => [e.name, e] as const))('%s loads in a fresh Node with only its own node_modules', async (_name, { name }) => {
    const file = path.join(outDir, name, 'index.mjs');
    const script = `const m = await import(${JSON.stringify(file)}); if (typeof m.handler !== 'function') throw new Error('no handler export');`;
    const { stderr } = await run(process.execPath, ['--input-type=module', '-e', script], {
      cwd: outDir,
      env: { PATH: process.env.PATH, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    });
    expect(stderr).not.toMatch(/Error/);
  });

  it('the tracking and profile bundles load no zod at import: their common routes validate no body (unsubscribe and PATCH load it)', async () => {
    // zod marks globalThis when it loads; contacts, which validates at import, shows the mark is seen.
    const loadsZod = async (name: string) => {
      const file = path.join(outDir, name, 'index.mjs');
      const script = `await import(${JSON.stringify(file)}); process.stdout.write(String('__zod_globalConfig' in globalThis));`;
      const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
        cwd: outDir,
        env: { PATH: process.env.PATH, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
      });
      return stdout;
    };
    expect(await loadsZod('contacts')).toBe('true');
    expect(await loadsZod('tracking')).toBe('false');
    expect(await loadsZod('profile')).toBe('false');
  });

  it('no bundle contains jsdom: it is loaded from node_modules, only by the function that installs it', async () => {
    for (const { name } of entries) {
      const code = await readFile(path.join(outDir, name, 'index.mjs'), 'utf8');
      // jsdom's loader reads this stylesheet from its own folder at load time.
      expect(code, name).not.toContain('default-stylesheet.css');
    }
    expect(entries.filter((e) => e.nodeModules.includes('jsdom')).map((e) => e.name)).toEqual(['campaigns', 'sender']);
  });

  it('no bundle carries the whole googleapis package: only the Gmail and OAuth 2 clients it calls', () => {
    // `import { google } from 'googleapis'` pulls ~300 Google APIs (tens of MB) into every Lambda that
    // wires a Google adapter: import the one API module instead (googleapis/build/src/apis/<api>).
    for (const { name } of entries) {
      const apis = new Set(
        bundledFiles
          .get(name)!
          .map((file) => /node_modules\/googleapis\/build\/src\/apis\/([^/]+)\//.exec(file)?.[1])
          .filter((api): api is string => api !== undefined),
      );
      expect(
        [...apis].filter((api) => api !== 'gmail' && api !== 'oauth2'),
        name,
      ).toEqual([]);
    }
  });

  it('each bundle carries only the SDKs and libraries its own routes use', () => {
    // Each handler group composes its own adapters (lambdas/composition/<group>.ts): a package listed
    // here may be bundled only into the functions named beside it.
    const onlyIn: Record<string, readonly string[]> = {
      googleapis: ['mailbox', 'sender'],
      'google-auth-library': ['mailbox', 'sender'],
      nodemailer: ['sender'],
      '@aws-sdk/client-bedrock-runtime': ['campaigns', 'sender'],
      '@aws-sdk/client-kms': ['mailbox', 'sender'],
      '@aws-sdk/client-secrets-manager': ['mailbox', 'billing', 'sender'],
      stripe: ['billing'],
      '@aws-sdk/client-sqs': ['dispatcher'],
      dompurify: ['campaigns', 'sender'],
      'html-to-text': ['campaigns', 'sender'],
      jsdom: [],
    };
    const packagesIn = (name: string) =>
      new Set(
        bundledFiles
          .get(name)!
          .map((file) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file.slice(file.lastIndexOf('node_modules/')))?.[1])
          .filter((found): found is string => found !== undefined),
      );
    const found = Object.fromEntries(
      Object.keys(onlyIn).map((module) => [module, entries.filter(({ name }) => packagesIn(name).has(module)).map((e) => e.name)]),
    );
    expect(found).toEqual(onlyIn);
    // Every function but health and the Cognito trigger reads or writes the table.
    expect(entries.filter(({ name }) => !packagesIn(name).has('@aws-sdk/client-dynamodb')).map((e) => e.name)).toEqual(['health', 'cognitoCustomMessage']);
  });

  it('the billing bundle (stripe included) stays within its size budget', async () => {
    const { size } = await stat(path.join(outDir, 'billing', 'index.mjs'));
    const kib = Math.round(size / 1024);
    console.log(`billing bundle: ${kib} KiB (unminified; stripe and the DynamoDB and Secrets Manager clients included)`);
    expect(kib).toBeLessThan(BILLING_BUNDLE_BUDGET_KIB);
  });

  it('the campaigns bundle sanitizes with the jsdom installed beside it', async () => {
    // The sanitizer runs inside the bundle's module graph: import the adapter the same way, bundled.
    const dir = path.join(outDir, 'campaigns');
    await build({
      stdin: {
        contents: `import { DomPurifySanitizer } from ${JSON.stringify(path.join(REPO_ROOT, 'lambdas/adapters/html/domPurifySanitizer.ts'))};
          console.log(new DomPurifySanitizer().sanitize('<!DOCTYPE html><html><body><p>Hi</p><script>x()</script></body></html>'));`,
        resolveDir: REPO_ROOT,
        loader: 'ts',
      },
      outfile: path.join(dir, 'sanitize.mjs'),
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      external: ['jsdom'],
      logLevel: 'silent',
    });
    const { stdout } = await run(process.execPath, [path.join(dir, 'sanitize.mjs')], { cwd: dir });
    expect(stdout).toContain('<p>Hi</p>');
    expect(stdout).not.toContain('<script');
  });
});
