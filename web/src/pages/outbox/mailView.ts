/**
 * How the Outbox shows a sent email: like a mail client would, so its tracking pixel loads (an open) and
 * its links go through the tracking redirect (a click), each in a new tab.
 */

/**
 * The iframe's sandbox: links may open a new tab that is a normal page (so the unsubscribe page works
 * there), but the email itself runs no script and cannot reach the app (no allow-scripts, no
 * allow-same-origin, no top navigation).
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
