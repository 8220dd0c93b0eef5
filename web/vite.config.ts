import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { brandThemePlugin } from './brandThemePlugin';

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
      const [path = id] = id.split('?');
      if (!/@cloudscape-design[\\/]global-styles[\\/]index\.css$/.test(path)) return null;
      mkdirSync(fontDir, { recursive: true });
      const cssDir = dirname(path);
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

/**
 * A component a Cloudscape module imports statically and renders rarely: `importLine` (exact text) becomes a
 * component of the same name that loads the module on first render, inside Suspense.
 */
interface LazyCloudscapePart {
  file: string;
  importLine: string;
  name: string;
  specifier: string;
  exportName: string;
}

/**
 * Cloudscape modules statically import parts that this app never or almost never renders. These load on
 * demand, so the dashboard's first load carries only what it shows (issue 13 point 6); a part that does
 * render still loads, a moment later. The import lines must match exactly: a Cloudscape upgrade that
 * changes one of these files fails the build rather than quietly shipping everything again.
 */
const lazyCloudscapeParts: LazyCloudscapePart[] = [
  // AppLayout picks one of three designs as it renders. This build of the components is always visual
  // refresh, so the classic design never shows; the console "toolbar" design (drag-and-drop, drawers,
  // ~45 KB JS gzip) shows only when a console sets its global flag, which this app does not.
  {
    file: 'app-layout/internal.js',
    importLine: "import ClassicAppLayout from './classic';",
    name: 'ClassicAppLayout',
    specifier: './classic',
    exportName: 'default',
  },
  {
    file: 'app-layout/internal.js',
    importLine: "import ToolbarAppLayout from './visual-refresh-toolbar';",
    name: 'ToolbarAppLayout',
    specifier: './visual-refresh-toolbar',
    exportName: 'default',
  },
  // The menu AppLayout shows when there are more drawers than fit (this app has none): a ButtonDropdown and the dropdown it opens (~19 KB JS gzip).
  {
    file: 'app-layout/drawer/overflow-menu.js',
    importLine: "import InternalButtonDropdown from '../../button-dropdown/internal';",
    name: 'InternalButtonDropdown',
    specifier: '../../button-dropdown/internal',
    exportName: 'default',
  },
  // What an error boundary shows after a crash, with the ICU message parser it formats its text with
  // (~15 KB JS gzip, in the button chunk every page loads).
  {
    file: 'error-boundary/internal.js',
    importLine: "import { ErrorBoundaryFallback } from './fallback';",
    name: 'ErrorBoundaryFallback',
    specifier: './fallback',
    exportName: 'ErrorBoundaryFallback',
  },
];

/** React 19 passes `ref` as a prop, so the wrapper hands it on to the lazy component with the rest. */
const lazyComponent = ({ name, specifier, exportName }: LazyCloudscapePart) =>
  `const ${name}$lazy = React.lazy(() => import('${specifier}').then((module) => ({ default: module.${exportName} })));\n` +
  `const ${name} = (props) => React.createElement(React.Suspense, { fallback: null }, React.createElement(${name}$lazy, props));`;

function cloudscapeRarePartsOnDemand(): Plugin {
  return {
    name: 'trackpitch:cloudscape-rare-parts-on-demand',
    enforce: 'pre',
    transform(code, id) {
      const path = (id.split('?')[0] ?? id).split('\\').join('/');
      const parts = lazyCloudscapeParts.filter(({ file }) => path.endsWith(`/@cloudscape-design/components/${file}`));
      if (parts.length === 0) return null;
      let out = code;
      for (const part of parts) {
        if (!out.includes(part.importLine) || !/^import React\b/m.test(out)) {
          throw new Error(`@cloudscape-design/components/${part.file} no longer matches: ${part.importLine}`);
        }
        out = out.replace(part.importLine, lazyComponent(part));
      }
      return { code: out, map: null };
    },
  };
}

export default defineConfig({
  root: webRoot,
  plugins: [cloudscapeFontsAsFiles(), cloudscapeRarePartsOnDemand(), brandThemePlugin(), react()],
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
