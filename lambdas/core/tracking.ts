/**
 * The tracked form of a sent email (DESIGN §4, §5; spec §2 Unsubscribe page): every http(s) link goes
 * through the click route, which redirects only to the links stored for that email at send time; a 1×1
 * pixel reports opens; the unsubscribe link stays as it is (a person must reach the page, and a
 * scanner following a tracked link must not look like a click on it). Pure. The URL builders are the
 * one place these public URLs are spelled: the sender, the tracking routes and the tests import them.
 */
import { escapeHtml } from '../../schema/email/escape';
import { insertBeforeBodyEnd } from '../../schema/email/htmlDocument';

/** The open pixel of an email: `GET /api/t/o/<token>` answers a 1×1 GIF. */
export const openPixelUrl = (appUrl: string, token: string) => `${appUrl}/api/t/o/${token}`;

/** The click route of an email's link number `n`: `GET /api/t/c/<token>/<n>` redirects to links[n]. */
export const clickUrl = (appUrl: string, token: string, n: number) => `${appUrl}/api/t/c/${token}/${n}`;

/** The unsubscribe page for people (the footer's link): it never unsubscribes on GET. */
export const unsubscribePageUrl = (appUrl: string, token: string) => `${appUrl}/unsubscribe?token=${encodeURIComponent(token)}`;

/** The RFC 8058 one-click URL (List-Unsubscribe with List-Unsubscribe-Post): a POST unsubscribes. */
export const oneClickUnsubscribeUrl = (appUrl: string, token: string) => `${appUrl}/api/unsubscribe/one-click?token=${encodeURIComponent(token)}`;

/**
 * RFC 8058 §3.1: a one-click unsubscribe is a POST whose body (form-urlencoded or multipart) carries
 * `List-Unsubscribe=One-Click`. Anything else (an empty POST, JSON, a scanner probing the URL) is not
 * the recipient's mail client asking, so it must not unsubscribe. The platform's form parser reads both
 * encodings; a body it cannot read is not one-click.
 */
export async function isOneClickBody(contentType: string | undefined, body: string | undefined): Promise<boolean> {
  if (!contentType || body === undefined) return false;
  try {
    const form = await new Response(body, { headers: { 'content-type': contentType } }).formData();
    return form.getAll('List-Unsubscribe').some((value) => value === 'One-Click');
  } catch {
    return false;
  }
}

/** The pixel as inserted before </body>: hidden, no layout. */
export const openPixelHtml = (appUrl: string, token: string) =>
  `<img src="${escapeHtml(openPixelUrl(appUrl, token))}" width="1" height="1" alt="" style="display:none">`;

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** An attribute value as a browser reads it: character references decoded (`&amp;` → `&`, `&#47;` → `/`). */
export function decodeAttribute(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);?/gi, (match, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' || ref[1] === 'X' ? Number.parseInt(ref.slice(2), 16) : Number.parseInt(ref.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : match;
    }
    return NAMED_ENTITIES[ref.toLowerCase()] ?? match;
  });
}

/** An opening <a> or <area> tag (the only elements whose href a mail client follows). */
const LINK_TAG = /<(a|area)\b[^>]*>/gi;
/** The href attribute inside a tag: double-quoted, single-quoted or bare. */
const HREF_ATTRIBUTE = /(\shref\s*=\s*)(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))/i;
/**
 * A link target as it will be redirected to: parsed and re-serialised (percent-encoded, so no control
 * character or quote can reach a Location header); undefined for anything but an http(s) URL.
 */
function redirectTarget(href: string): string | undefined {
  if (!/^https?:\/\//i.test(href)) return undefined;
  try {
    const url = new URL(href);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

export interface TrackedHtml {
  html: string;
  /** The original link targets in order of first appearance: link n is what `/api/t/c/<token>/<n>` redirects to. */
  links: string[];
}

/**
 * Rewrites every http(s) link's href (decoded as a browser would) to the click route, except the
 * email's own unsubscribe page link; the same target twice gets one number. Other schemes (mailto:,
 * tel:, anything else) are left alone and never become a redirect target. Adds the open pixel.
 */
export function trackedHtml(html: string, { appUrl, token }: { appUrl: string; token: string }): TrackedHtml {
  const links: string[] = [];
  const numbers = new Map<string, number>();
  const unsubscribeUrl = redirectTarget(unsubscribePageUrl(appUrl, token));
  const rewritten = html.replace(LINK_TAG, (tag) =>
    tag.replace(HREF_ATTRIBUTE, (attribute, prefix: string, double?: string, single?: string, bare?: string) => {
      const target = redirectTarget(decodeAttribute(double ?? single ?? bare ?? '').trim());
      if (target === undefined || target === unsubscribeUrl) return attribute;
      let n = numbers.get(target);
      if (n === undefined) {
        n = links.length;
        links.push(target);
        numbers.set(target, n);
      }
      return `${prefix}"${escapeHtml(clickUrl(appUrl, token, n))}"`;
    }),
  );
  return { html: insertBeforeBodyEnd(rewritten, openPixelHtml(appUrl, token)), links };
}

/**
 * The email as the artist wrote it, from its tracked form: the pixel removed and every tracked link
 * back to its stored target. The campaign page shows this, so the artist reading their own sent email
 * is never counted as an open or a click. Matched by the token, whatever the app's address was then.
 */
export function untrackedHtml(html: string, { token, links }: { token: string; links: readonly string[] }): string {
  const path = (kind: 'o' | 'c') => `[^"']*/api/t/${kind}/${token.replace(/[^A-Za-z0-9_-]/g, '')}`;
  return html.replace(new RegExp(`\\n?<img src="${path('o')}"[^>]*>`, 'g'), '').replace(new RegExp(`"${path('c')}/(\\d+)"`, 'g'), (match, n: string) => {
    const target = links[Number(n)];
    return target === undefined ? match : `"${escapeHtml(target)}"`;
  });
}
