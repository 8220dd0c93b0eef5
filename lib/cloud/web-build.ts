/**
 * The web app as a CDK asset. By default synth builds it: the asset's source is web/ and CDK's asset
 * bundling runs `vite build` locally into the asset folder, so a fresh clone synthesizes and deploys
 * the current app with no separate build step and no network. The asset is hashed by its output (the
 * Vite build is byte-for-byte reproducible), so an unchanged app keeps its hash and is not uploaded
 * again, while any change that reaches the build (web/, the schema/ it imports, a dependency, a
 * VITE_* variable) gives a new one. Tests skip bundling (`aws:cdk:bundling-stacks: []`): no Vite runs.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { AssetHashType, BundlingOutput, DockerImage, type ILocalBundling } from 'aws-cdk-lib';
import type { AssetOptions } from 'aws-cdk-lib/aws-s3-assets';
import type { WebSource } from './config';

/** What a command run returns (the fields of spawnSync's result that matter here). */
export interface RunResult {
  status: number | null;
  signal?: NodeJS.Signals | null;
  error?: Error;
}

/** Runs a command to completion (synchronously: CDK's local bundling is synchronous). */
export type RunCommand = (command: string, args: readonly string[], options: { cwd: string }) => RunResult;

/** Vite's output goes to stderr: `cdk synth` prints the template on stdout. */
const runToStderr: RunCommand = (command, args, { cwd }) => spawnSync(command, args, { cwd, stdio: ['ignore', 2, 2] });

/** The Vite CLI of the repository's node_modules, run with this Node (no npx, no shell, no network). */
function viteCli(webDir: string): string {
  const vitePackage = createRequire(path.join(webDir, 'vite.config.ts')).resolve('vite/package.json');
  return path.join(path.dirname(vitePackage), 'bin', 'vite.js');
}

/**
 * Builds web/ with Vite into the folder CDK hands over. It either builds or throws: it never answers
 * false, which would make CDK fall back to bundling in Docker (not needed, and often not installed).
 */
export class ViteBuild implements ILocalBundling {
  constructor(
    readonly webDir: string,
    private readonly run: RunCommand = runToStderr,
  ) {}

  /** The command that builds the app into outputDir with web/vite.config.ts. */
  command(outputDir: string): { command: string; args: string[]; cwd: string } {
    return {
      command: process.execPath,
      args: [viteCli(this.webDir), 'build', '--config', path.join(this.webDir, 'vite.config.ts'), '--outDir', outputDir, '--emptyOutDir', '--logLevel', 'warn'],
      cwd: path.dirname(this.webDir),
    };
  }

  tryBundle(outputDir: string): boolean {
    const { command, args, cwd } = this.command(outputDir);
    const shown = [command, ...args].join(' ');
    const result = this.run(command, args, { cwd });
    if (result.error) throw new Error(`could not run the web build (${shown}): ${result.error.message}`);
    if (result.status !== 0) throw new Error(`the web build failed (${result.signal ? `signal ${result.signal}` : `exit code ${result.status}`}): ${shown}`);
    if (!existsSync(path.join(outputDir, 'index.html'))) throw new Error(`the web build wrote no index.html into ${outputDir}: ${shown}`);
    return true;
  }
}

/** The asset's folder and options for a web source; `run` replaces the command runner (tests). */
export function webBuildAsset(web: WebSource, run?: RunCommand): { path: string; options: AssetOptions } {
  if (web.kind !== 'vite') return { path: web.path, options: {} };
  return {
    path: web.webDir,
    options: {
      assetHashType: AssetHashType.OUTPUT,
      bundling: {
        // Required by the type, never pulled: ViteBuild builds locally or fails the synth.
        image: DockerImage.fromRegistry('local-only'),
        local: new ViteBuild(web.webDir, run),
        outputType: BundlingOutput.NOT_ARCHIVED,
      },
    },
  };
}
