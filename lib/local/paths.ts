import { fileURLToPath } from 'node:url';
import { dirname, resolve } from 'node:path';

/** The repository root (lib/local/../..), wherever the process was started from. */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

export const fromRoot = (...parts: string[]) => resolve(repoRoot, ...parts);

/** The git-ignored folder `npm start` keeps its data in. */
export const defaultDataDir = fromRoot('.data');

/** The built web app. */
export const defaultWebDist = fromRoot('web', 'dist');

/** Build outputs the local runtime may cache between runs (git-ignored with node_modules). */
export const cacheDir = fromRoot('node_modules', '.cache', 'trackpitch-local');
