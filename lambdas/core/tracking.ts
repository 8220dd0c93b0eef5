/**
 * The tracked form of a sent email (DESIGN §4, §5; spec §2 Unsubscribe page): every http(s) link goes
 * through the click route, which redirects only to the links stored for that email at send time; a 1×1
 * pixel reports opens; the unsubscribe link stays as it is (a person must reach the page, and a
 * scanner following a tracked link must not look like a click on it). Pure. The URL builders are the
 * one place these public URLs are spelled: the sender, the tracking routes and the tests import them.
 */
import { escapeHtml } from '../../schema/email/escape';

/** The open pixel of an email: `GET /api/t/o/<token>` answers a 1×1 GIF. */
export const openPixelUrl = (appUrl: string, token: string) => `${appUrl}/api/t/o/${token}`;

/** The click route of an email's link number `n`: `GET /api/t/c/<token>/<n>` redirects to links[n]. */
export const clickUrl = (appUrl: string, token: string, n: number) => `${appUrl}/api/t/c/${token}/${n}`;

/** The unsubscribe page for people (the footer's link): it never unsubscribes on GET. */
export const unsubscribePageUrl = (appUrl: string, token: string) => `${appUrl}/unsubscribe?token=${encodeURIComponent(token)}`;

/** The RFC 8058 one-click URL (List-Unsubscribe with List-Unsubscribe-Post): a POST unsubscribes. */
export const oneClickUnsubscribeUrl = (appUrl: string, token: string) => `${appUrl}/api/unsubscribe/one-click?token=${encodeURIComponent(token)}`;

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
const HTTP_LINK = /^https?:\/\/\S+$/i;

/** `fragment` placed before the document's last </body>, or at the end when there is none. */
function insertBeforeBodyEnd(html: string, fragment: string): string {
  const bodyEnd = [...html.matchAll(/<\/body\s*>/gi)].at(-1)?.index ?? -1;
  return bodyEnd === -1 ? `${html}\n${fragment}` : `${html.slice(0, bodyEnd)}${fragment}\n${html.slice(bodyEnd)}`;
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
  const unsubscribeUrl = unsubscribePageUrl(appUrl, token);
  const rewritten = html.replace(LINK_TAG, (tag) =>
    tag.replace(HREF_ATTRIBUTE, (attribute, prefix: string, double?: string, single?: string, bare?: string) => {
      const target = decodeAttribute(double ?? single ?? bare ?? '').trim();
      if (!HTTP_LINK.test(target) || target === unsubscribeUrl) return attribute;
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
