import { fileURLToPath } from 'node:url';
import { dirname, resolve } from 'node:path';
import { localAudioFolder } from '../../lambdas/adapters/local-audio/localAudioStore';

/** The repository root (lib/local/../..), wherever the process was started from. */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

export const fromRoot = (...parts: string[]) => resolve(repoRoot, ...parts);

/** The git-ignored folder `npm start` keeps its data in. */
export const defaultDataDir = fromRoot('.data');

/** The built web app. */
export const defaultWebDist = fromRoot('web', 'dist');

/** Build outputs the local runtime may cache between runs (git-ignored with node_modules). */
export const cacheDir = fromRoot('node_modules', '.cache', 'trackpitch-local');

/** Where each engine keeps its data inside a data folder (npm start's `.data/`, or a test's folder). */
export const engineDataPaths = (dataDir: string) => ({
  /** DynamoDB Local's `-dbPath`. */
  dynamodb: resolve(dataDir, 'dynamodb'),
  /** cognito-local's working directory (it keeps `.cognito/` there). */
  cognito: resolve(dataDir, 'cognito'),
  /** The local AudioStore's uploaded tracks (`.data/audio`). */
  audio: localAudioFolder(dataDir),
});

/** The script every cognito-local child runs (lib/local/cognito.ts). */
export const cognitoChildScript = fromRoot('lib', 'local', 'cognito-child.mjs');

/** npm start's entry point. */
export const mainScript = fromRoot('bin', 'local.ts');
