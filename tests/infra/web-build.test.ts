/**
 * lib/cloud/web-build.ts: by default the web app is built from web/ by Vite during synth, as the asset
 * bundling of CDK, and hashed by its output. No test here runs Vite: a fake command runner writes a
 * tiny "build" instead, and the real stack is synthesized with bundling skipped.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { App, AssetHashType, Stack } from 'aws-cdk-lib';
import { Asset } from 'aws-cdk-lib/aws-s3-assets';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { PLACEHOLDER_WEB_DIST, REPO_ROOT, WEB_DIR } from '../../lib/cloud/config';
import { type RunCommand, type RunResult, ViteBuild, webBuildAsset } from '../../lib/cloud/web-build';
import { synth } from './synth';

const temporary: string[] = [];
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(path.join(tmpdir(), `trackpitch-${prefix}-`));
  temporary.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
});

/** A stand-in for `vite build`: records each call and writes `files` into the --outDir it was given. */
function fakeVite(files: Record<string, string>, result: RunResult = { status: 0 }) {
  const calls: { command: string; args: readonly string[]; cwd: string }[] = [];
  const run: RunCommand = (command, args, { cwd }) => {
    calls.push({ command, args, cwd });
    const outDir = args[args.indexOf('--outDir') + 1]!;
    for (const [name, content] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(outDir, name)), { recursive: true });
      writeFileSync(path.join(outDir, name), content);
    }
    return result;
  };
  return { run, calls };
}

const BUILD = {
  'index.html': '<!doctype html><script type="module" src="/assets/index-abc123.js"></script>',
  'assets/index-abc123.js': 'console.log("app")',
};

describe('ViteBuild', () => {
  it("runs the repository's Vite with web/vite.config.ts into the folder CDK hands over, and reports the asset bundled", () => {
    const vite = fakeVite(BUILD);
    const outDir = tempDir('vite-out');
    expect(new ViteBuild(WEB_DIR, vite.run).tryBundle(outDir)).toBe(true);

    expect(vite.calls).toHaveLength(1);
    const [{ command, args, cwd }] = vite.calls as [(typeof vite.calls)[0]];
    expect(command).toBe(process.execPath);
    expect(args[0]).toBe(path.join(REPO_ROOT, 'node_modules', 'vite', 'bin', 'vite.js'));
    expect(existsSync(args[0]!)).toBe(true);
    expect(args.slice(1)).toEqual(['build', '--config', path.join(WEB_DIR, 'vite.config.ts'), '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn']);
    expect(cwd).toBe(REPO_ROOT);
  });

  it('fails the synth naming the command when the build fails or writes no index.html: never false, so CDK never tries Docker', () => {
    const attempt = (run: RunCommand) => () => new ViteBuild(WEB_DIR, run).tryBundle(tempDir('vite-out'));
    expect(attempt(fakeVite({}, { status: 1 }).run)).toThrow(/^the web build failed \(exit code 1\): .*vite\.js build --config/);
    expect(attempt(fakeVite({}, { status: null, signal: 'SIGKILL' }).run)).toThrow(/^the web build failed \(signal SIGKILL\)/);
    expect(attempt(fakeVite({}, { status: null, error: new Error('spawn ENOENT') }).run)).toThrow(/^could not run the web build \(.*\): spawn ENOENT$/);
    expect(attempt(fakeVite({ 'assets/x.js': '' }).run)).toThrow(/^the web build wrote no index\.html into /);
  });
});

describe('the web asset built by CDK bundling', () => {
  /** Synthesizes a bare stack (bundling on, as in `cdk synth`) whose two assets use the web source, as the two deployments do. */
  function synthWebAssets(run: RunCommand) {
    const app = new App({ outdir: tempDir('cdk-out'), builtinCloudFormationValidation: false });
    const stack = new Stack(app, 'WebBuildTest');
    const { path: source, options } = webBuildAsset({ kind: 'vite', webDir: WEB_DIR }, run);
    const assets = [new Asset(stack, 'Assets', { path: source, ...options }), new Asset(stack, 'Entry', { path: source, ...options })];
    app.synth();
    return { app, assets };
  }

  it('puts what the build wrote into the cloud assembly, building once for both deployments', () => {
    const vite = fakeVite(BUILD);
    const { app, assets } = synthWebAssets(vite.run);
    expect(vite.calls).toHaveLength(1);
    const staged = path.join(app.outdir, assets[0]!.assetPath);
    expect(path.basename(staged)).toBe(`asset.${assets[0]!.assetHash}`);
    expect(readFileSync(path.join(staged, 'index.html'), 'utf8')).toBe(BUILD['index.html']);
    expect(readFileSync(path.join(staged, 'assets', 'index-abc123.js'), 'utf8')).toBe(BUILD['assets/index-abc123.js']);
    expect(assets[1]!.assetHash).toBe(assets[0]!.assetHash);
    expect(assets[0]!.isZipArchive).toBe(true);
  });

  it('is hashed by its output: the same build keeps its hash (nothing uploaded again), a changed build gets a new one', () => {
    const first = synthWebAssets(fakeVite(BUILD).run).assets[0]!.assetHash;
    expect(synthWebAssets(fakeVite(BUILD).run).assets[0]!.assetHash).toBe(first);
    const changed = { ...BUILD, 'assets/index-abc123.js': 'console.log("app, changed")' };
    expect(synthWebAssets(fakeVite(changed).run).assets[0]!.assetHash).not.toBe(first);
  });
});

describe('the stack', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('deploys the web app built from web/ by default, and the infra tests never run that build', () => {
    const tryBundle = vi.spyOn(ViteBuild.prototype, 'tryBundle').mockImplementation(() => {
      throw new Error('an infra test ran the Vite build: synthesize with bundling skipped (tests/infra/synth.ts)');
    });
    const { stack } = synth();
    const { path: source, options } = stack.web.webAsset;
    expect(source).toBe(WEB_DIR);
    expect(options.assetHashType).toBe(AssetHashType.OUTPUT);
    expect(options.bundling?.local).toBeInstanceOf(ViteBuild);
    expect((options.bundling?.local as ViteBuild).webDir).toBe(WEB_DIR);
    // Both deployments deploy that asset. Its bundling is skipped here, so it still points at web/
    // (an asset without bundling would have been copied into the cloud assembly as asset.<hash>).
    const assetPaths = (deployment: string) =>
      stack.web.node
        .findChild(deployment)
        .node.children.filter((c): c is Asset => c instanceof Asset)
        .map((asset) => asset.assetPath);
    expect(assetPaths('DeployAssets')).toEqual([WEB_DIR]);
    expect(assetPaths('DeployEntry')).toEqual([WEB_DIR, expect.stringMatching(/^asset\.[0-9a-f]{64}$/)]); // + config.json
    expect(tryBundle).not.toHaveBeenCalled();
  });

  it('deploys the placeholder or a prebuilt folder as it is, with no build', () => {
    expect(synth({ webDist: 'placeholder' }).stack.web.webAsset).toEqual({ path: PLACEHOLDER_WEB_DIST, options: {} });
    expect(webBuildAsset({ kind: 'prebuilt', path: '/srv/web-build' })).toEqual({ path: '/srv/web-build', options: {} });
  });
});
