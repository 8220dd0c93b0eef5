/**
 * Every Lambda's bundle loads as Lambda loads it. The template tests skip bundling, so this builds each
 * entry with esbuild and the same options AppFunction gives NodejsFunction, writes it outside the
 * repository (no node_modules beside it, as in a Lambda without extra packages) and imports it in a
 * fresh Node. A package that cannot be bundled (jsdom reads its own files when loaded) must stay out of
 * every bundle and be loaded only where it is installed (schema/routes.ts nodeModules), and only the
 * functions that sanitize (campaigns, sender) may reach the sanitizer. The bundles' contents are read
 * from esbuild's metafile: each function carries only the SDKs its own composition wires. What a bundle
 * evaluates when it loads is read from a second build with evaluation marks (lib/cloud/evaluationMarks.ts):
 * a library a group loads only on the routes that use it (lambdas/composition/lazy.ts, a schema behind
 * `import()`) must not run at import.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, symlink, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { build, type BuildOptions } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLE_TARGET, ESM_REQUIRE_BANNER } from '../../lib/cloud/bundling';
import { REPO_ROOT } from '../../lib/cloud/config';
import { evaluationMarks, printEvaluated } from '../../lib/cloud/evaluationMarks';
import { deployedLambdas } from '../../lib/cloud/lambdaEntries';

const run = promisify(execFile);

const entries = deployedLambdas();

/** The billing function's bundle budget: stripe-node is large; a second SDK pulled in by mistake would pass it. */
const BILLING_BUNDLE_BUDGET_KIB = 3 * 1024;
/** The tracks function's: the S3 client, its POST presigner and music-metadata beside the DynamoDB client. */
const TRACKS_BUNDLE_BUDGET_KIB = 3 * 1024;
/**
 * The listen function's (the public page a recipient's first load waits on): the DynamoDB client's and a
 * little more (~1.2 MiB); it signs its audio URLs without the S3 client, which would add ~460 KiB.
 */
const LISTEN_BUNDLE_BUDGET_KIB = 1400;
/**
 * The pipeline function's, as deployed: minified (AppFunction, lib/cloud/functions.ts) and compressed (the
 * code is uploaded as a zip). Minified it is ~480 KB, ~390 KB of which are the AWS SDK's DynamoDB client
 * that every table function carries and ~90 KB zod (loaded by the writes only).
 */
const PIPELINE_DEPLOYED_BUDGET_KB = 300;

/**
 * The libraries a function must not evaluate when it loads: each is loaded by the routes (or the sender's
 * sends) that use it. zod: request bodies (profile's PATCH, tracking's unsubscribe, the campaign and send
 * writes; insights checks its query values by hand and never loads it); html-to-text: a rendered email;
 * Bedrock: an AI email; Google and KMS: a mailbox connection or a send; nodemailer: a send; the S3 client
 * and music-metadata: a track's upload and complete (listen carries neither: see the onlyIn map).
 */
const NOT_AT_IMPORT: Record<string, readonly string[]> = {
  profile: ['zod'],
  tracking: ['zod'],
  campaigns: ['zod', 'html-to-text', '@aws-sdk/client-bedrock-runtime'],
  sending: ['zod'],
  mailbox: ['googleapis', 'google-auth-library', '@aws-sdk/client-kms'],
  sender: ['zod', 'html-to-text', '@aws-sdk/client-bedrock-runtime', 'googleapis', 'google-auth-library', 'nodemailer', '@aws-sdk/client-kms'],
  billing: ['zod', 'stripe'],
  // The list and delete routes load neither the S3 client (presign, head, read) nor music-metadata (complete).
  tracks: ['zod', '@aws-sdk/client-s3', '@aws-sdk/s3-presigned-post', 'music-metadata'],
  // The page's GET validates no body. Its audio URLs are signed by the SigV4 signer the DynamoDB client loads.
  listen: ['zod'],
  insights: ['zod'],
  // The pipeline's reads validate no body: the mark and to-do schemas load with the first write.
  pipeline: ['zod'],
};
/** Evaluated at import by every function above (the marks' control: a watched package that does load is seen). */
const TABLE_CLIENT = '@aws-sdk/client-dynamodb';
const WATCHED = [...new Set([...Object.values(NOT_AT_IMPORT).flat(), TABLE_CLIENT])];

let outDir: string;
/** The source files esbuild put into each bundle (its metafile's inputs). */
const bundledFiles = new Map<string, string[]>();

beforeAll(async () => {
  outDir = await mkdtemp(path.join(tmpdir(), 'trackpitch-bundles-'));
  await Promise.all(
    entries.map(async ({ name, entry, nodeModules }) => {
      const dir = path.join(outDir, name);
      const buildOptions = {
        entryPoints: [path.join(REPO_ROOT, entry)],
        outfile: path.join(dir, 'index.mjs'),
        bundle: true,
        platform: 'node',
        format: 'esm',
        target: BUNDLE_TARGET,
        mainFields: ['module', 'main'],
        banner: { js: ESM_REQUIRE_BANNER },
        external: [...nodeModules],
        metafile: true,
        logLevel: 'silent',
      } satisfies BuildOptions;
      const result = await build(buildOptions);
      bundledFiles.set(name, Object.keys(result.metafile.inputs));
      if (name in NOT_AT_IMPORT) {
        await build({ ...buildOptions, outfile: path.join(dir, 'marked.mjs'), metafile: false, plugins: [evaluationMarks(WATCHED)] });
      }
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

  it.each(Object.entries(NOT_AT_IMPORT))('%s evaluates none of its route-only libraries when it loads', async (name, libraries) => {
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', printEvaluated(path.join(outDir, name, 'marked.mjs'))], {
      cwd: outDir,
      env: { PATH: process.env.PATH, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    });
    const evaluated = JSON.parse(stdout) as string[];
    expect(evaluated).toContain(TABLE_CLIENT);
    expect(evaluated.filter((library) => libraries.includes(library))).toEqual([]);
  });

  it('a library left out at import is evaluated by the first route that uses it: a campaign write loads zod, not the renderer', async () => {
    const file = path.join(outDir, 'campaigns', 'marked.mjs');
    const event = {
      routeKey: 'POST /api/campaigns',
      rawPath: '/api/campaigns',
      headers: {},
      body: '{}',
      isBase64Encoded: false,
      requestContext: {
        requestId: 'r1',
        http: { method: 'POST', path: '/api/campaigns' },
        authorizer: { jwt: { claims: { sub: 'user-1', email: 'a@example.com' } } },
      },
    };
    const context = { awsRequestId: 'r1', functionName: 'campaigns', functionVersion: '1', invokedFunctionArn: 'arn', memoryLimitInMB: '512' };
    const script = `const { handler } = await import(${JSON.stringify(file)});
      const marks = () => [...(globalThis.__tpEvaluated ?? [])].sort();
      const atImport = marks();
      const answer = await handler(${JSON.stringify(event)}, { ...${JSON.stringify(context)}, getRemainingTimeInMillis: () => 1000 });
      process.stdout.write(JSON.stringify({ atImport, status: answer.statusCode, afterWrite: marks() }));`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
      cwd: outDir,
      env: {
        PATH: process.env.PATH,
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
        POWERTOOLS_LOG_LEVEL: 'SILENT',
        TABLE_NAME: 'bundles-test',
        AWS_REGION: 'us-east-1',
        BEDROCK_MODEL_ID: 'bundles-test-model',
      },
    });
    const { atImport, status, afterWrite } = JSON.parse(stdout) as { atImport: string[]; status: number; afterWrite: string[] };
    // The body is refused before any read: the schema was loaded to say so.
    expect(status).toBe(400);
    expect(atImport).not.toContain('zod');
    expect(afterWrite).toContain('zod');
    expect(afterWrite).not.toContain('html-to-text');
    expect(afterWrite).not.toContain('@aws-sdk/client-bedrock-runtime');
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
      // The account deletion (issue 26 §3) cancels the subscription (Stripe) and deletes the audio (S3), each loaded on
      // first use; its data export writes the zip to S3 (a multipart upload) with the same client.
      '@aws-sdk/client-secrets-manager': ['mailbox', 'billing', 'account', 'sender'],
      stripe: ['billing', 'account'],
      // Listen only signs GET URLs (lambdas/adapters/s3/s3GetUrlSigner.ts): no S3 client, no presigners.
      '@aws-sdk/client-s3': ['tracks', 'account'],
      '@aws-sdk/s3-request-presigner': [], // a dev dependency: the signer's contract test compares with it
      '@aws-sdk/s3-presigned-post': ['tracks', 'account'],
      'music-metadata': ['tracks'],
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

  it("each S3 audio adapter is in the bundles that use it: the store in tracks and account (its deletion), the GET signer in listen and account (the export's download), the export writer in account", () => {
    const bundlesWith = (source: string) => entries.filter(({ name }) => bundledFiles.get(name)!.some((file) => file.endsWith(source))).map((e) => e.name);
    expect(bundlesWith('lambdas/adapters/s3/s3AudioStore.ts')).toEqual(['tracks', 'account']);
    expect(bundlesWith('lambdas/adapters/s3/s3GetUrlSigner.ts')).toEqual(['listen', 'account']);
    expect(bundlesWith('lambdas/adapters/s3/s3ExportStore.ts')).toEqual(['account']);
  });

  it('the billing bundle (stripe included) stays within its size budget', async () => {
    const { size } = await stat(path.join(outDir, 'billing', 'index.mjs'));
    const kib = Math.round(size / 1024);
    console.log(`billing bundle: ${kib} KiB (unminified; stripe and the DynamoDB and Secrets Manager clients included)`);
    expect(kib).toBeLessThan(BILLING_BUNDLE_BUDGET_KIB);
  });

  it('the tracks bundle (the S3 client and music-metadata included) stays within its size budget', async () => {
    const { size } = await stat(path.join(outDir, 'tracks', 'index.mjs'));
    const kib = Math.round(size / 1024);
    console.log(`tracks bundle: ${kib} KiB (unminified; the S3 client, its POST presigner, music-metadata and the DynamoDB client included)`);
    expect(kib).toBeLessThan(TRACKS_BUNDLE_BUDGET_KIB);
  });

  it('the listen bundle (the public page: no S3 client, no audio inspector) stays small', async () => {
    const { size } = await stat(path.join(outDir, 'listen', 'index.mjs'));
    const kib = Math.round(size / 1024);
    console.log(`listen bundle: ${kib} KiB (unminified; the DynamoDB client and the S3 GET-URL signer included)`);
    expect(kib).toBeLessThan(LISTEN_BUNDLE_BUDGET_KIB);
  });

  it('the pipeline bundle, minified and compressed as deployed, stays within 300 KB and carries no sending, tracking or listen code', async () => {
    const entry = entries.find((e) => e.name === 'pipeline')!;
    const result = await build({
      entryPoints: [path.join(REPO_ROOT, entry.entry)],
      outfile: path.join(outDir, 'pipeline', 'minified.mjs'),
      bundle: true,
      minify: true,
      platform: 'node',
      format: 'esm',
      target: BUNDLE_TARGET,
      mainFields: ['module', 'main'],
      banner: { js: ESM_REQUIRE_BANNER },
      logLevel: 'silent',
    });
    expect(result.errors).toEqual([]);
    const minified = await readFile(path.join(outDir, 'pipeline', 'minified.mjs'));
    const deployed = gzipSync(minified).length;
    console.log(`pipeline bundle: ${Math.round(minified.length / 1000)} KB minified, ${Math.round(deployed / 1000)} KB compressed`);
    expect(deployed).toBeLessThanOrEqual(PIPELINE_DEPLOYED_BUDGET_KB * 1000);
    const files = bundledFiles.get('pipeline')!;
    for (const elsewhere of ['lambdas/adapters/dynamodb/sending/', 'lambdas/adapters/dynamodb/listenStore.ts', 'lambdas/adapters/dynamodb/trackingStore.ts']) {
      expect(files.filter((file) => file.includes(elsewhere))).toEqual([]);
    }
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
      target: BUNDLE_TARGET,
      external: ['jsdom'],
      logLevel: 'silent',
    });
    const { stdout } = await run(process.execPath, [path.join(dir, 'sanitize.mjs')], { cwd: dir });
    expect(stdout).toContain('<p>Hi</p>');
    expect(stdout).not.toContain('<script');
  });
});
