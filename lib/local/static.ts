/**
 * Serves the built web app (web/dist) as CloudFront does in AWS: hashed assets cached for a year,
 * everything else revalidated, an SPA fallback to index.html for extension-less paths, gzip for
 * text, and the site's security headers (lib/securityHeaders.ts, the list CloudFront sends).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join, resolve, sep } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.wasm': 'application/wasm',
};

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';

const compressible = (type: string) => /^(text\/|application\/(json|javascript|xml|manifest\+json|wasm))|^image\/svg/.test(type);

interface CachedFile {
  mtimeMs: number;
  size: number;
  body: Buffer;
  gzip?: Buffer;
  etag: string;
}

const notBuiltPage = (root: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Trackpitch: web app not built</title>
<style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem;line-height:1.5}code{background:#f2f3f3;padding:.1rem .3rem;border-radius:3px}</style>
</head><body><h1>The web app is not built yet</h1>
<p>The local server is running and the API answers under <code>/api</code>, but there is no build of the web app in
<code>${root.replace(/[<>&]/g, '')}</code>.</p>
<p>Run <code>npm run build:web</code> (<code>npm start</code> does it for you), then reload this page.</p>
</body></html>`;

/** `securityHeaders`: what every answer carries (localSecurityHeaders for the stack's cognito-local). */
export function makeStaticHandler(rootDir: string, securityHeaders: Record<string, string>) {
  const root = resolve(rootDir);
  const cache = new Map<string, CachedFile>();

  function load(file: string): CachedFile | undefined {
    let stat;
    try {
      stat = statSync(file);
    } catch {
      return undefined;
    }
    if (!stat.isFile()) return undefined;
    const cached = cache.get(file);
    if (cached && cached.mtimeMs === stat.mtimeMs && cached.size === stat.size) return cached;
    const body = readFileSync(file);
    const entry: CachedFile = {
      mtimeMs: stat.mtimeMs,
      size: stat.size,
      body,
      etag: `"${createHash('sha1').update(body).digest('base64url').slice(0, 27)}"`,
    };
    cache.set(file, entry);
    return entry;
  }

  function send(req: IncomingMessage, res: ServerResponse, file: string, entry: CachedFile, cacheControl: string) {
    const type = CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
    const headers: Record<string, string> = {
      ...securityHeaders,
      'content-type': type,
      'cache-control': cacheControl,
      etag: entry.etag,
    };
    if (req.headers['if-none-match'] === entry.etag) {
      res.writeHead(304, headers).end();
      return;
    }
    let body = entry.body;
    if (compressible(type) && body.length > 1024) {
      headers.vary = 'accept-encoding';
      if (/\bgzip\b/.test(req.headers['accept-encoding'] ?? '')) {
        entry.gzip ??= gzipSync(body);
        body = entry.gzip;
        headers['content-encoding'] = 'gzip';
      }
    }
    headers['content-length'] = String(body.length);
    res.writeHead(200, headers);
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  return function serveStatic(req: IncomingMessage, res: ServerResponse, pathname: string) {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { ...securityHeaders, allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' }).end('Method not allowed');
      return;
    }
    const indexFile = join(root, 'index.html');
    if (!existsSync(indexFile)) {
      res
        .writeHead(503, { ...securityHeaders, 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
        .end(req.method === 'HEAD' ? undefined : notBuiltPage(root));
      return;
    }
    let decoded: string;
    try {
      decoded = decodeURIComponent(pathname);
    } catch {
      res.writeHead(400, { ...securityHeaders, 'content-type': 'text/plain; charset=utf-8' }).end('Bad request');
      return;
    }
    const file = resolve(root, `.${decoded.includes('\0') ? '/' : decoded}`);
    const inside = file === root || file.startsWith(root + sep);
    if (inside && file !== root && !decoded.endsWith('/')) {
      const entry = load(file);
      if (entry) {
        const hashedAsset = decoded.startsWith('/assets/');
        send(req, res, file, entry, hashedAsset ? IMMUTABLE : REVALIDATE);
        return;
      }
    }
    const lastSegment = decoded.split('/').pop() ?? '';
    if (!inside || lastSegment.includes('.')) {
      res.writeHead(404, { ...securityHeaders, 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-cache' }).end('Not found');
      return;
    }
    // A client-side route (/, /auth, /dashboard/contacts, ...): the app's shell decides.
    const index = load(indexFile);
    if (!index) throw new Error(`${indexFile} exists but could not be read as a file`);
    send(req, res, indexFile, index, REVALIDATE);
  };
}
