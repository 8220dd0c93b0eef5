import { describe, expect, it } from 'vitest';
import { EMAIL_TOKEN_BYTES, isEmailToken, newEmailToken } from '../../lambdas/core/emailToken';
import { classifyOpen, MACHINE_OPEN_WINDOW_SECONDS, type OpenRequest } from '../../lambdas/core/openClassifier';

/** An hour after sending: no timing rule applies. */
const later = (userAgent: string | undefined, method = 'GET'): OpenRequest => ({ method, userAgent, secondsSinceSent: 3600 });

const PEOPLE = {
  'Gmail (image proxy, fetched when the message is opened)': 'Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)',
  'Apple Mail on macOS (Mail Privacy Protection off)': 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko)',
  'Apple Mail on iOS': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148',
  'Outlook for Windows': 'Microsoft Office/16.0 (Windows NT 10.0; Microsoft Outlook 16.0.17328; Pro)',
  'Outlook on the web in Edge': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.0.0',
  Thunderbird: 'Mozilla/5.0 (X11; Linux x86_64; rv:115.0) Gecko/20100101 Thunderbird/115.10.1',
  'Firefox (the local outbox page)': 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0',
  'Chrome on an Android phone whose model contains "bot"':
    'Mozilla/5.0 (Linux; Android 10; CUBOT X30) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.6367.82 Mobile Safari/537.36',
  'Outlook for Android': 'Outlook-Android/2.0',
};

const MACHINES = {
  'Apple Mail Privacy Protection proxy': 'Mozilla/5.0',
  'Yahoo Mail proxy': 'YahooMailProxy; https://help.yahoo.com/kb/yahoo-mail-proxy-SLN28749.html',
  'Office link discovery': 'Microsoft Office Existence Discovery',
  'Office protocol discovery': 'Microsoft Office Protocol Discovery',
  'Office ms-office fetch': 'Mozilla/4.0 (compatible; ms-office; MSOffice 16)',
  'Bing preview (Outlook link previews)': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) BingPreview/1.0b',
  'Mimecast gateway': 'Mozilla/5.0 (compatible; Mimecast URL Protect; +https://www.mimecast.com)',
  'Proofpoint URL Defense': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Proofpoint/1.0',
  'Barracuda scanner': 'Barracuda Sentinel (EE)',
  Googlebot: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  'Slack link expander': 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
  'Facebook crawler': 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
  curl: 'curl/8.5.0',
  wget: 'Wget/1.21.4',
  'python-requests': 'python-requests/2.31.0',
  Go: 'Go-http-client/2.0',
  Java: 'Java/17.0.2',
  'headless Chrome': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/124.0.6367.29 Safari/537.36',
};

describe('classifyOpen', () => {
  it.each(Object.entries(PEOPLE))('counts %s as a person', (_, agent) => {
    expect(classifyOpen(later(agent))).toBe('human');
  });

  it.each(Object.entries(MACHINES))('counts %s as a machine', (_, agent) => {
    expect(classifyOpen(later(agent))).toBe('machine');
  });

  it('counts a request without a User-Agent, and a HEAD request by any client, as a machine', () => {
    expect(classifyOpen(later(undefined))).toBe('machine');
    expect(classifyOpen(later('   '))).toBe('machine');
    expect(classifyOpen(later(PEOPLE['Firefox (the local outbox page)'], 'HEAD'))).toBe('machine');
    expect(classifyOpen(later(PEOPLE['Firefox (the local outbox page)'], 'head'))).toBe('machine');
  });

  it('counts an unknown non-browser client as a machine only within seconds of sending', () => {
    const agent = 'SecurityScanner/3.2';
    expect(classifyOpen({ method: 'GET', userAgent: agent, secondsSinceSent: 2 })).toBe('machine');
    expect(classifyOpen({ method: 'GET', userAgent: agent, secondsSinceSent: MACHINE_OPEN_WINDOW_SECONDS - 0.001 })).toBe('machine');
    expect(classifyOpen({ method: 'GET', userAgent: agent, secondsSinceSent: MACHINE_OPEN_WINDOW_SECONDS })).toBe('human');
  });

  it('counts a browser that opens the email right after it was sent as a person', () => {
    for (const agent of Object.values(PEOPLE)) expect(classifyOpen({ method: 'GET', userAgent: agent, secondsSinceSent: 1 })).toBe('human');
  });

  it('keeps a known machine a machine however late it comes', () => {
    expect(classifyOpen({ method: 'GET', userAgent: 'Mozilla/5.0', secondsSinceSent: 86_400 * 30 })).toBe('machine');
  });
});

describe('email tokens', () => {
  it('are 43 base64url characters from 32 random bytes, and each is new', () => {
    const tokens = new Set(Array.from({ length: 200 }, () => newEmailToken()));
    expect(tokens.size).toBe(200);
    for (const token of tokens) {
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(token, 'base64url')).toHaveLength(EMAIL_TOKEN_BYTES);
      expect(isEmailToken(token)).toBe(true);
    }
  });

  it('come from the random source given', () => {
    expect(newEmailToken((size) => new Uint8Array(size).fill(0xff))).toBe(`${'_'.repeat(42)}8`);
    expect(isEmailToken(newEmailToken((size) => new Uint8Array(size)))).toBe(true);
  });

  it.each([
    ['empty', ''],
    ['one character short', 'A'.repeat(42)],
    ['one character long', 'A'.repeat(44)],
    ['padded base64', `${'A'.repeat(42)}=`],
    ['standard base64 alphabet', `${'A'.repeat(41)}+A`],
    ['a last character 32 bytes cannot end in', `${'A'.repeat(42)}B`],
    ['a path', `../${'A'.repeat(40)}`],
  ])('refuse a value of another shape: %s', (_, value) => {
    expect(isEmailToken(value)).toBe(false);
  });

  it('refuse what is not a string', () => {
    expect(isEmailToken(undefined)).toBe(false);
    expect(isEmailToken(42)).toBe(false);
  });
});
