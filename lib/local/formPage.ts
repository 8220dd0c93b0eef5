/**
 * What the local server's own HTML pages share (the mailbox consent page, the billing twin's pages):
 * strict headers (no script, forms post only to the page's own origin, never framed), reading a small
 * urlencoded form, and the checks a POST must pass before it may act for the person: sent from one of
 * the app's own origins (a cross-site page's form carries its own Origin) and as a form.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export const FORM_LIMIT_BYTES = 16 * 1024;

export const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  // The pages need no script; their forms post to themselves.
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  // same-origin, not no-referrer: under no-referrer the pages' own POSTs say `Origin: null`, which any sandboxed frame can send too.
  'referrer-policy': 'same-origin',
};

export function sendPage(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}) {
  res.writeHead(status, { ...PAGE_HEADERS, ...headers, 'content-length': String(Buffer.byteLength(body)) }).end(body);
}

export function readForm(req: IncomingMessage): Promise<URLSearchParams | 'too-large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > FORM_LIMIT_BYTES) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(tooLarge ? 'too-large' : new URLSearchParams(Buffer.concat(chunks).toString('utf8'))));
    req.on('error', reject);
  });
}

/** Why a POST may not act, as [status, message]; undefined when it may (its body is then still unread). */
export function refuseForeignPost(req: IncomingMessage, appOrigins: readonly string[], formName: string): [number, string] | undefined {
  const origin = req.headers.origin;
  if (origin !== undefined && !appOrigins.includes(origin)) return [403, 'Only the Trackpitch app may use this page.'];
  if (((req.headers['content-type'] ?? '').split(';')[0] ?? '').trim().toLowerCase() !== 'application/x-www-form-urlencoded') {
    return [415, `Send the ${formName} form.`];
  }
  return undefined;
}
