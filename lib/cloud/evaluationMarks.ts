/**
 * Which packages a bundle evaluates, seen without timing: an esbuild plugin that appends to every file
 * of the watched packages a line adding the package's name to a set on globalThis. The line runs when
 * the file's top level does, so after importing the built bundle the set holds the packages evaluated
 * at import, and a package reached only through `import()` (lambdas/composition/lazy.ts) is absent until
 * a route loads it. Used by tests/infra/bundles.test.ts and bench/lambdas.ts on a build of their own.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Plugin } from 'esbuild';

/** The globalThis property holding the names of the watched packages evaluated so far (a Set). */
export const EVALUATED = '__tpEvaluated';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

export function evaluationMarks(packages: readonly string[]): Plugin {
  const filter = new RegExp(`node_modules/(${packages.map(escapeRegExp).join('|')})/.*\\.[cm]?js$`);
  return {
    name: 'evaluation-marks',
    setup(build) {
      build.onLoad({ filter }, async ({ path: file }) => {
        const name = filter.exec(file)?.[1] ?? '';
        const contents = await readFile(file, 'utf8');
        return {
          contents: `${contents}\n;(globalThis.${EVALUATED} ??= new Set()).add(${JSON.stringify(name)});\n`,
          loader: 'js',
          resolveDir: path.dirname(file),
        };
      });
    },
  };
}

/** A script for `node --input-type=module -e`: imports the bundle, prints the watched packages it evaluated (JSON). */
export const printEvaluated = (bundle: string) =>
  `await import(${JSON.stringify(bundle)}); process.stdout.write(JSON.stringify([...(globalThis.${EVALUATED} ?? [])].sort()));`;
