/**
 * The one rule for a website people or files give (a contact's website, a directory entry's website, the
 * link a directory card shows): an http(s) address with a dotted host, no user:password@ part, no spaces.
 * A bare 'label.com' means https. Anything else (javascript:, data:, mailto:, ftp:, 'localhost', text) is
 * not a website.
 */

/**
 * A link that must be typed with its scheme (profile links, the waitlist's SoundCloud/Spotify link): starts
 * with http:// or https:// and is a website by the rule below.
 */
export const isHttpLink = (value: string) => HTTP_SCHEME.test(value.trim()) && normaliseWebsite(value) !== null;

/** A scheme typed by the person: 'http://' or 'https://' in any case. */
const HTTP_SCHEME = /^(https?):\/\//i;

/** A host of at least two non-empty dot-separated labels ('label.com', 'www.label.co.uk', not 'localhost'). */
const DOTTED_HOST = /^[^.]+(\.[^.]+)+$/;

/**
 * The website as a link ('https://…' or 'http://…': the scheme lower-cased, the rest as given), or null
 * when it is not an http(s) website. Surrounding spaces are ignored; blank is null.
 */
export function normaliseWebsite(value: string | null | undefined): string | null {
  const trimmed = (value ?? '').trim();
  if (trimmed === '' || /\s/.test(trimmed)) return null;
  const scheme = HTTP_SCHEME.exec(trimmed);
  // Without http(s):// the whole text is read as a host: 'javascript:alert(1)//x.com' then has the port
  // 'alert(1)' and fails to parse, 'mailto:a@b.com' has the user 'mailto' and is refused below.
  const link = scheme ? `${scheme[1]!.toLowerCase()}://${trimmed.slice(scheme[0].length)}` : `https://${trimmed}`;
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return null;
  }
  // A user:password@ part hides the real host from a reader ('https://label.com@evil.example').
  if (url.username !== '' || url.password !== '') return null;
  return DOTTED_HOST.test(url.hostname) ? link : null;
}
