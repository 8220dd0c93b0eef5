import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

/**
 * `virtual:brand-theme-css`: the brand's Cloudscape theme (web/src/brand/theme.ts) as a stylesheet,
 * made at build time by Cloudscape's own generateThemeStylesheet (the build-time twin of applyTheme),
 * so the pages that use it do not download Cloudscape's token preset (97 KB gzip) to apply it.
 *
 * Cloudscape's theming module cannot be imported by Node as it is (a directory import inside), so it is
 * bundled with esbuild and the bundle is run once per build.
 */
export const BRAND_THEME_MODULE = 'virtual:brand-theme-css';
const RESOLVED = `\0${BRAND_THEME_MODULE}`;
const srcDir = fileURLToPath(new URL('./src/brand/', import.meta.url));

export async function brandThemeCss(): Promise<string> {
  const result = await build({
    stdin: {
      contents: `import { generateThemeStylesheet } from '@cloudscape-design/components/theming';
import { brandTheme } from './theme';
export default generateThemeStylesheet({ theme: brandTheme });`,
      resolveDir: srcDir,
      loader: 'ts',
    },
    bundle: true,
    format: 'esm',
    platform: 'node',
    write: false,
    // Cloudscape's modules start with 'use client', which a bundle drops (and esbuild says so).
    logLevel: 'error',
  });
  const code = result.outputFiles[0]?.text ?? '';
  const module = (await import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`)) as { default: string };
  return module.default;
}

export function brandThemePlugin(): Plugin {
  let css: Promise<string> | undefined;
  return {
    name: 'trackpitch:brand-theme-css',
    resolveId: (id) => (id === BRAND_THEME_MODULE ? RESOLVED : null),
    async load(id) {
      if (id !== RESOLVED) return null;
      css ??= brandThemeCss();
      return `export default ${JSON.stringify(await css)};`;
    },
  };
}
