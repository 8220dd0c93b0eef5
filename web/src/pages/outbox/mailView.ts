/**
 * How the Outbox shows a sent email: like a mail client would, so its tracking pixel loads (an open) and
 * its links go through the tracking redirect (a click), each in a new tab.
 */

/**
 * The iframe's sandbox: links may open a new tab that is a normal page (so the unsubscribe page works
 * there), but the email itself runs no script and cannot reach the app (no allow-scripts, no
 * allow-same-origin, no top navigation).
 *
 * Why a srcdoc frame in an opaque origin rather than the message served from a mail origin of its own:
 * checked in Chromium 156 by the server's log, this frame fetches its images, the tracking pixel
 * included (as do allow-same-origin, no sandbox, and a second loopback origin with a CSP header). An
 * origin of our own would add a listener and signed URLs for nothing the opaque origin lacks: no script
 * runs, and the email gets none of the app origin's rights (its DOM, storage, the top window). Playwright does
 * not report this frame's requests and does not give it its per-page user agent: that, not the frame,
 * made outbox opens look uncounted (the browser tests start Chromium with a person's user agent).
 * allow-same-origin stays out: it would put the email in the app's origin, one allow-scripts away from
 * the user's tokens. tests/e2e/sending.spec.ts shows opens counting and script not running.
 */
export const MAIL_FRAME_SANDBOX = 'allow-popups allow-popups-to-escape-sandbox';

const BASE_TARGET = '<base target="_blank">';

/** The email's HTML with `<base target="_blank">` first in its head, so every link opens a new tab. */
export function withLinksInNewTab(html: string): string {
  const head = /<head(\s[^>]*)?>/i.exec(html);
  if (head) return html.slice(0, head.index + head[0].length) + BASE_TARGET + html.slice(head.index + head[0].length);
  const root = /<html(\s[^>]*)?>/i.exec(html);
  if (root) return `${html.slice(0, root.index + root[0].length)}<head>${BASE_TARGET}</head>${html.slice(root.index + root[0].length)}`;
  return BASE_TARGET + html;
}

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** A sent time as people read it, in their own time zone. */
export const formatSentAt = (iso: string): string => dateTime.format(new Date(iso));

/** A conversation of the outbox: its newest message shown first, the earlier ones (newest first) under it. */
export interface OutboxThread<M> {
  latest: M;
  earlier: M[];
}

/**
 * The messages (newest first) grouped by thread as a mail client groups a conversation (issue 27: a
 * follow-up joins the first email's thread), the threads ordered by their newest message.
 */
export function groupThreads<M extends { id: string; thread_id: string }>(newestFirst: readonly M[]): OutboxThread<M>[] {
  const threads = new Map<string, OutboxThread<M>>();
  for (const message of newestFirst) {
    const thread = threads.get(message.thread_id);
    if (thread) thread.earlier.push(message);
    else threads.set(message.thread_id, { latest: message, earlier: [] });
  }
  return [...threads.values()];
}

/** The value of a header as sent (the first of that name, any case), or undefined. */
export const headerValue = (headers: readonly [string, string][], name: string): string | undefined =>
  headers.find(([header]) => header.toLowerCase() === name.toLowerCase())?.[1];
