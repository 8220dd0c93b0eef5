/**
 * The one rule for a website people or files give (a contact's website, a directory entry's website, the
 * link a directory card shows): an http(s) address with a dotted host, no user:password@ part, no spaces.
 * A bare 'label.com' means https. Anything else (javascript:, data:, mailto:, ftp:, 'localhost', text) is
 * not a website.
 */
import { hasInvisibleOrControl } from './characters';

/**
 * A link kept with its scheme (a stored link about to be shown or sent): starts with http:// or https://
 * and is a website by the rule below. What people type goes through normaliseLink first.
 */
export const isHttpLink = (value: string) => HTTP_SCHEME.test(value.trim()) && normaliseWebsite(value) !== null;

/** A scheme typed by the person: 'http://' or 'https://' in any case. */
const HTTP_SCHEME = /^(https?):\/\//i;

/** What the URL parser turns any numeric host into. */
const IPV4 = /^\d+(\.\d+){3}$/;

/** A host of at least two non-empty dot-separated labels ('label.com', 'www.label.co.uk', not 'localhost'). */
const DOTTED_HOST = /^[^.]+(\.[^.]+)+$/;

/**
 * The website as a link ('https://…' or 'http://…': the scheme lower-cased, the rest as given), or null
 * when it is not an http(s) website. Surrounding spaces are ignored; blank is null.
 */
export function normaliseWebsite(value: string | null | undefined): string | null {
  const trimmed = (value ?? '').trim();
  // Spaces, controls and invisible characters (zero-width space, soft hyphen, BOM, direction marks) make
  // two links look alike: the address rule of ./characters, plus the plain space.
  if (trimmed === '' || trimmed.includes(' ') || hasInvisibleOrControl(trimmed)) return null;
  const scheme = HTTP_SCHEME.exec(trimmed);
  // The host part as typed: an '@' (user info, even empty) or a backslash there hides the real host from a
  // reader ('https://label.com@evil.example', 'https://@evil.example'); a leading '/' is no host at all.
  const rest = scheme ? trimmed.slice(scheme[0].length) : trimmed;
  const authority = rest.split(/[/?#]/, 1)[0] ?? '';
  if (rest.startsWith('/') || /[@\\]/.test(authority)) return null;
  // Without http(s):// the whole text is read as a host: 'javascript:alert(1)//x.com' then has the port
  // 'alert(1)' and fails to parse ('mailto:a@b.com' was refused above for its '@').
  const link = scheme ? `${(scheme[1] ?? '').toLowerCase()}://${trimmed.slice(scheme[0].length)}` : `https://${trimmed}`;
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return null;
  }
  // A numeric host ('1.1', '0x7f.1', '2130706433') is an IP address once parsed, not a website.
  if (IPV4.test(url.hostname)) return null;
  return DOTTED_HOST.test(url.hostname) ? link : null;
}

/** The link fields whose bare handle means a profile on one site: '@norvik' in the Instagram field. */
export type LinkField = 'website' | 'instagram';

const PROFILE_SITES: Record<Exclude<LinkField, 'website'>, string> = { instagram: 'https://instagram.com/' };

/** An Instagram username: letters, digits, '.' and '_', at most 30. */
const HANDLE = /^@?([A-Za-z0-9._]{1,30})$/;

/**
 * The one rule for a link typed anywhere a link is asked (profile links, a contact's website, the track
 * link in Compose, the waitlist's link), on the web and on the server alike: the link as stored, or null
 * when it is none. A bare 'soundcloud.com/norvik' means https (normaliseWebsite); in the Instagram field
 * a handle ('@norvik', or 'norvik' without a dot, which no website is) becomes the profile link.
 */
export function normaliseLink(value: string | null | undefined, field: LinkField = 'website'): string | null {
  const website = normaliseWebsite(value);
  if (website !== null || field === 'website') return website;
  const typed = (value ?? '').trim();
  const handle = HANDLE.exec(typed)?.[1];
  // 'nor.vik' without an '@' was read as a website above (a dotted host); here only a handle is left.
  if (handle === undefined || (!typed.startsWith('@') && handle.includes('.'))) return null;
  return `${PROFILE_SITES[field]}${handle}`;
}
