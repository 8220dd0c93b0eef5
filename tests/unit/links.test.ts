/**
 * The one website rule (schema/api/links.ts): a contact's website, a directory import's website and the
 * link a directory card shows all go through normaliseWebsite.
 */
import { describe, expect, it } from 'vitest';
import { parseDirectoryImport } from '../../lambdas/core/directoryImport';
import { contactInputSchema, contactMessages } from '../../schema/api/contacts';
import { aiTrackSchema, htmlTrackSchema } from '../../schema/api/campaigns';
import { isHttpLink, normaliseLink, normaliseWebsite } from '../../schema/api/links';
import { profileLinkMessage, profileUpdateSchema } from '../../schema/api/profile';
import { waitlistJoinSchema, waitlistMessages } from '../../schema/api/waitlist';

describe('normaliseWebsite', () => {
  it.each([
    ['https://label.com', 'https://label.com'],
    ['http://label.com', 'http://label.com'],
    ['https://www.label.co.uk/demos?via=trackpitch#submit', 'https://www.label.co.uk/demos?via=trackpitch#submit'],
    ['https://label.com:8443/demos', 'https://label.com:8443/demos'],
  ])('keeps the http(s) link %j', (value, link) => expect(normaliseWebsite(value)).toBe(link));

  it.each([
    ['label.com', 'https://label.com'],
    ['www.label.com/demos', 'https://www.label.com/demos'],
    ['label.com:8080/x', 'https://label.com:8080/x'],
  ])('makes the bare domain %j an https link', (value, link) => expect(normaliseWebsite(value)).toBe(link));

  it('lower-cases an upper-case scheme and keeps the rest as typed', () => {
    expect(normaliseWebsite('HTTPS://Label.example/Demo')).toBe('https://Label.example/Demo');
    expect(normaliseWebsite('Http://label.example')).toBe('http://label.example');
  });

  it('ignores surrounding spaces; blank or missing is no website', () => {
    expect(normaliseWebsite('  https://label.com \n')).toBe('https://label.com');
    expect(normaliseWebsite('  label.com\t')).toBe('https://label.com');
    for (const blank of ['', '   ', null, undefined]) expect(normaliseWebsite(blank), String(blank)).toBeNull();
  });

  it.each([
    'javascript:alert(1)//x.com',
    'javascript:alert(1).com',
    'JavaScript:alert(document.cookie)//label.com',
    'data:text/html,<script>alert(1)</script>.com',
    'data:text/html;base64,PHNjcmlwdD4=',
    'vbscript:msgbox(1)',
    'mailto:demos@label.com',
    'ftp://files.label.com',
    'file:///etc/passwd',
  ])('refuses the non-http(s) %j', (value) => expect(normaliseWebsite(value)).toBeNull());

  it.each(['https://user:pass@label.com', 'user:pass@label.com', 'https://label.com@evil.example', 'https://user@label.com'])(
    'refuses %j: a user:password@ part hides the real host',
    (value) => expect(normaliseWebsite(value)).toBeNull(),
  );

  it.each([
    'localhost',
    'https://nodot',
    'https://',
    'https://.com',
    'https://label.',
    'https://a..b',
    'not a website',
    'https://label .com',
    'label.com/a b',
    'https://lab\tel.com',
  ])('refuses %j: no dotted host, or spaces', (value) => expect(normaliseWebsite(value)).toBeNull());
});

describe('the same rule everywhere a website comes in', () => {
  const contact = (website_url: string) => contactInputSchema.safeParse({ name: 'Ana', email: 'ana@label.com', website_url });

  it('a contact stores the normalised link', () => {
    expect(contact('label.com')).toMatchObject({ success: true, data: { website_url: 'https://label.com' } });
    expect(contact(' HTTP://Label.com/demos ')).toMatchObject({ success: true, data: { website_url: 'http://Label.com/demos' } });
    expect(contact('')).toMatchObject({ success: true, data: { website_url: null } });
  });

  it.each(['javascript:alert(1)//x.com', 'data:text/html,x.com', 'https://user:pass@label.com', 'not a website'])(
    "a contact with the website %j is refused with 'Enter a website such as https://label.com'",
    (value) => {
      const result = contact(value);
      expect(result.success).toBe(false);
      expect(result.error?.issues).toEqual([expect.objectContaining({ path: ['website_url'], message: contactMessages.invalidWebsite })]);
      expect(contactMessages.invalidWebsite).toBe('Enter a website such as https://label.com');
    },
  );

  it('a directory import keeps the normalised link and rejects the row a contact would refuse', () => {
    const csv = 'email,website\na@labels.example,HTTPS://A.example/Demos\nb@labels.example,b.example\nc@labels.example,javascript:alert(1)//x.com\n';
    const parsed = parseDirectoryImport('csv', csv);
    if (!parsed.ok) throw new Error(parsed.error);
    expect(parsed.plan.entries.map((entry) => entry.website_url)).toEqual(['https://A.example/Demos', 'https://b.example']);
    expect(parsed.plan.rejected).toEqual([{ row: 4, email: 'c@labels.example', reasons: ['Invalid website: javascript:alert(1)//x.com'] }]);
  });
});

describe('isHttpLink: a stored link about to be shown or sent', () => {
  it('takes http(s) websites only, with the scheme written out', () => {
    expect(isHttpLink('https://soundcloud.com/nova')).toBe(true);
    expect(isHttpLink('HTTP://open.spotify.com/artist/1')).toBe(true);
    expect(isHttpLink('soundcloud.com/nova')).toBe(false);
    expect(isHttpLink('javascript:alert(1)//x.com')).toBe(false);
    expect(isHttpLink('https://soundcloud.com@evil.example/x')).toBe(false);
    expect(isHttpLink('https://localhost/track')).toBe(false);
  });
});

describe('normaliseLink: a link as people type it, anywhere a link is asked', () => {
  it.each([
    ['soundcloud.com/norvik', 'https://soundcloud.com/norvik'],
    ['  open.spotify.com/artist/1 ', 'https://open.spotify.com/artist/1'],
    ['https://soundcloud.com/norvik', 'https://soundcloud.com/norvik'],
    ['HTTP://norvik.example', 'http://norvik.example'],
  ])('makes %j the link %j', (typed, link) => {
    expect(normaliseLink(typed)).toBe(link);
    expect(normaliseLink(typed, 'instagram')).toBe(link);
  });

  it.each([
    ['@norvik', 'https://instagram.com/norvik'],
    [' @nor.vik_ ', 'https://instagram.com/nor.vik_'],
    ['norvik', 'https://instagram.com/norvik'],
    ['instagram.com/norvik', 'https://instagram.com/norvik'],
  ])('in the Instagram field makes the handle %j the profile link %j', (typed, link) => expect(normaliseLink(typed, 'instagram')).toBe(link));

  it('a handle is no link in any other field, and a handle with spaces or other signs is none anywhere', () => {
    expect(normaliseLink('@norvik')).toBeNull();
    expect(normaliseLink('norvik')).toBeNull();
    for (const typed of ['@nor vik', '@nor/vik', '@', '@' + 'a'.repeat(31), 'javascript:alert(1)', '']) {
      expect(normaliseLink(typed, 'instagram'), typed).toBeNull();
    }
  });
});

describe('the same link rule on the server: profile, waitlist and compose take links without a scheme and store them whole', () => {
  it('profile links', () => {
    expect(
      profileUpdateSchema.parse({
        soundcloud_url: 'soundcloud.com/norvik',
        instagram_url: '@norvik',
        website_url: '',
        spotify_url: 'https://open.spotify.com/artist/1',
      }),
    ).toEqual({
      soundcloud_url: 'https://soundcloud.com/norvik',
      instagram_url: 'https://instagram.com/norvik',
      website_url: null,
      spotify_url: 'https://open.spotify.com/artist/1',
    });
    // '@norvik' is an Instagram handle, never a website.
    expect(profileUpdateSchema.safeParse({ website_url: '@norvik' }).error?.issues[0]?.message).toBe(profileLinkMessage);
  });

  it('the waitlist link', () => {
    const join = (link: string) =>
      waitlistJoinSchema.safeParse({ email: 'nova@example.com', artist_name: 'Nova', music_style: 'House', soundcloud_spotify_url: link });
    expect(join('soundcloud.com/norvik').data?.soundcloud_spotify_url).toBe('https://soundcloud.com/norvik');
    expect(join('').data?.soundcloud_spotify_url).toBeNull();
  });

  it('the track link of a campaign', () => {
    const track = { track_name: 'Concrete Dawn', track_url: 'soundcloud.com/norvik/concrete-dawn', genre: 'techno', description: 'Peak time.' };
    expect(aiTrackSchema.parse(track).track_url).toBe('https://soundcloud.com/norvik/concrete-dawn');
    expect(htmlTrackSchema.parse({ track_url: 'soundcloud.com/norvik/concrete-dawn' }).track_url).toBe('https://soundcloud.com/norvik/concrete-dawn');
  });

  it('the limit applies to the stored link: 500 characters with https:// added', () => {
    const typed = `soundcloud.com/${'a'.repeat(500 - 'https://soundcloud.com/'.length + 1)}`;
    expect(profileUpdateSchema.safeParse({ soundcloud_url: typed }).error?.issues[0]?.message).toBe('Links must be at most 500 characters');
  });

  it.each(['javascript:alert(1)//x.com', 'https://user:pw@label.example', 'not a link'])('refuses %j everywhere, naming what to type', (link) => {
    expect(profileUpdateSchema.safeParse({ soundcloud_url: link }).error?.issues[0]?.message).toBe(profileLinkMessage);
    const join = waitlistJoinSchema.safeParse({ email: 'nova@example.com', artist_name: 'Nova', music_style: 'House', soundcloud_spotify_url: link });
    expect(join.error?.issues[0]?.message).toBe(waitlistMessages.badLink);
    expect(profileLinkMessage).toBe('Enter a link such as https://soundcloud.com/yourname');
  });
});

describe('normaliseWebsite refuses links that hide or lack their real host', () => {
  it.each([
    'https://@evil.example',
    'https://:@evil.example',
    'https://label.com\\@evil.example',
    '//evil.example',
    '\u200blabel.com',
    'https://label\u200b.com',
    'http://1.1',
    'http://0x7f.1/admin',
    'https://2130706433',
    'https://127.0.0.1/',
  ])('%j', (value) => {
    expect(normaliseWebsite(value)).toBeNull();
  });

  it('still takes an @ after the host (a path or query)', () => {
    expect(normaliseWebsite('https://soundcloud.com/@nova?ref=a@b')).toBe('https://soundcloud.com/@nova?ref=a@b');
  });
});

describe("a contact's website limit applies to what is stored", () => {
  const withWebsite = (website_url: string) => contactInputSchema.safeParse({ name: 'Ana', email: 'ana@label.com', website_url });

  it('refuses a bare domain that becomes longer than 500 characters with https://, and takes one of exactly 500', () => {
    const path = (length: number) => `label.com/${'a'.repeat(length - 'label.com/'.length)}`;
    const tooLong = withWebsite(path(500 - 'https://'.length + 1));
    expect(tooLong.error?.issues[0]?.message).toBe('Must be at most 500 characters');
    const exact = withWebsite(path(500 - 'https://'.length));
    expect(exact.data?.website_url).toHaveLength(500);
  });
});
