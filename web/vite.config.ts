import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

const webRoot = fileURLToPath(new URL('.', import.meta.url));
const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/** The local server (npm start) listens here; the dev server forwards the API and runtime config to it. */
const localServer = 'http://127.0.0.1:3000';

/**
 * @cloudscape-design/global-styles/index.css embeds eight Open Sans faces as base64 data URIs: 190 KB
 * of render-blocking CSS (140 KB gzip) on every page, the landing page included. This moves each face
 * into its own .woff2 file (Vite fingerprints and emits it like any asset) and adds font-display: swap,
 * so the stylesheet shrinks to a few KB and a browser downloads only the faces a page uses.
 */
function cloudscapeFontsAsFiles(): Plugin {
  let fontDir = '';
  return {
    name: 'trackpitch:cloudscape-fonts-as-files',
    enforce: 'pre',
    configResolved(config) {
      fontDir = join(config.cacheDir, 'cloudscape-fonts');
    },
    transform(code, id) {
      if (!/@cloudscape-design[\\/]global-styles[\\/]index\.css$/.test(id.split('?')[0]!)) return null;
      mkdirSync(fontDir, { recursive: true });
      const cssDir = dirname(id.split('?')[0]!);
      const out = code.replace(
        /@font-face\s*{([^}]*?)src:\s*url\((['"]?)data:font\/woff2;base64,([A-Za-z0-9+/=]+)\2\)\s*format\((['"])woff2\4\);?([^}]*)}/g,
        (_match, before: string, _q: string, base64: string, _q2: string, after: string) => {
          const bytes = Buffer.from(base64, 'base64');
          const file = join(fontDir, `open-sans-${createHash('sha256').update(bytes).digest('hex').slice(0, 12)}.woff2`);
          writeFileSync(file, bytes);
          const url = relative(cssDir, file).split('\\').join('/');
          return `@font-face {${before}src: url('${url}') format('woff2');\n  font-display: swap;${after}}`;
        },
      );
      return { code: out, map: null };
    },
  };
}

export default defineConfig({
  root: webRoot,
  plugins: [cloudscapeFontsAsFiles(), react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The manifest lets bench/web-sizes.mjs add up what each route loads.
    manifest: true,
    sourcemap: false,
    chunkSizeWarningLimit: 800,
  },
  server: {
    host: '127.0.0.1',
    port: 5173,
    strictPort: true,
    // web/src imports the shared contracts from ../schema.
    fs: { allow: [repoRoot] },
    proxy: {
      '/api': { target: localServer },
      '/config.json': { target: localServer },
      '/local': { target: localServer },
    },
  },
  preview: {
    host: '127.0.0.1',
    proxy: {
      '/api': { target: localServer },
      '/config.json': { target: localServer },
      '/local': { target: localServer },
    },
  },
});
