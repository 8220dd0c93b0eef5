import type { CustomMessageTriggerEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { CONFIRMATION_SUBJECT, confirmationEmail, customMessage, escapeHtml, makeHandler, normaliseSiteUrl } from '../../lambdas/workers/cognitoCustomMessage';

const SITE = 'https://d111111abcdef8.cloudfront.net';
const USER = '4f1c2a7e-9b1d-4c55-8a2e-0d9f3b6e1a11';

function event(triggerSource: CustomMessageTriggerEvent['triggerSource'], overrides: Partial<CustomMessageTriggerEvent['request']> = {}, userName = USER) {
  return {
    version: '1',
    triggerSource,
    region: 'us-east-1',
    userPoolId: 'us-east-1_Example',
    userName,
    callerContext: { awsSdkVersion: 'aws-sdk-js-3', clientId: 'client' },
    request: {
      userAttributes: { sub: USER, email: 'artist@example.com', name: 'DJ Test' },
      codeParameter: '{####}',
      linkParameter: '{##Click Here##}',
      usernameParameter: null,
      ...overrides,
    },
    response: { smsMessage: null, emailMessage: null, emailSubject: null },
  } as CustomMessageTriggerEvent;
}

/** Every href in the message, HTML-decoded as a mail client would. */
function hrefs(html: string): string[] {
  return [...html.matchAll(/href="([^"]*)"/g)].map((m) =>
    m[1]!
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&'),
  );
}

describe('confirmation email for sign-up and resent codes', () => {
  for (const trigger of ['CustomMessage_SignUp', 'CustomMessage_ResendCode'] as const) {
    it(`${trigger}: sets the subject and links to <site>/auth with the user name and Cognito's code placeholder`, () => {
      const result = customMessage(event(trigger), SITE);
      expect(result.response.emailSubject).toBe('Confirm your Trackpitch account');
      const html = result.response.emailMessage!;
      expect(hrefs(html)).toEqual([`${SITE}/auth?username=${USER}&email=artist%40example.com&code={####}`]);
      expect(result.response.smsMessage).toBeNull();
    });
  }

  it('contains event.request.codeParameter literally, exactly once, whatever its spelling', () => {
    for (const codeParameter of ['{####}', '{######}', '<CODE&1>']) {
      const html = customMessage(event('CustomMessage_SignUp', { codeParameter }), SITE).response.emailMessage!;
      expect(html.split(codeParameter)).toHaveLength(2);
    }
  });

  it('percent-encodes the user name in the link (and escapes it for the HTML attribute)', () => {
    const userName = 'a b&c=d/é"<x>\'#?';
    const html = customMessage(event('CustomMessage_SignUp', {}, userName), SITE).response.emailMessage!;
    const [link] = hrefs(html);
    const url = new URL(link!.replace('{####}', '123456'));
    expect(url.origin + url.pathname).toBe(`${SITE}/auth`);
    expect(url.searchParams.get('username')).toBe(userName);
    expect(url.searchParams.get('code')).toBe('123456');
    expect(url.searchParams.get('email')).toBe('artist@example.com');
    expect([...url.searchParams.keys()]).toEqual(['username', 'email', 'code']);
    expect(link).toContain(`username=${encodeURIComponent(userName)}&`);
    // Nothing from the user name breaks out of the attribute.
    expect(html).not.toContain('<x>');
    expect(html).not.toContain(`"<`);
  });

  it('escapes the name in the greeting and shortens a very long one', () => {
    const name = '<img src=x onerror="alert(1)"> & \'Co\'';
    const html = customMessage(event('CustomMessage_SignUp', { userAttributes: { name } }), SITE).response.emailMessage!;
    expect(html).toContain('Hi &lt;img src=x onerror=&quot;alert(1)&quot;&gt; &amp; &#39;Co&#39;,');
    expect(html).not.toContain('<img');
    const long = customMessage(event('CustomMessage_SignUp', { userAttributes: { name: 'x'.repeat(5000) } }), SITE).response.emailMessage!;
    expect(long).not.toContain('x'.repeat(81));
    expect(long.length).toBeLessThan(20_000); // Cognito's limit for an email message
  });

  it('greets without a name when the attribute is missing or blank', () => {
    for (const userAttributes of [{}, { name: '   ' }] as Record<string, string>[]) {
      expect(customMessage(event('CustomMessage_SignUp', { userAttributes }), SITE).response.emailMessage).toContain('<p>Hi,</p>');
    }
  });

  it('escapes the site URL and joins it without a double slash', () => {
    expect(hrefs(confirmationEmail({ siteUrl: normaliseSiteUrl(`${SITE}/`), userName: 'u', codeParameter: '{####}' }).html)).toEqual([
      `${SITE}/auth?username=u&code={####}`,
    ]);
    const html = confirmationEmail({ siteUrl: 'https://example.com/a"b', userName: 'u', codeParameter: '{####}' }).html;
    expect(html).toContain('https://example.com/a&quot;b/auth?username=u&amp;code={####}');
  });

  it('does not modify the event it was given', () => {
    const input = event('CustomMessage_SignUp');
    const before = structuredClone(input);
    customMessage(input, SITE);
    expect(input).toEqual(before);
  });
});

describe('other trigger sources', () => {
  for (const trigger of [
    'CustomMessage_ForgotPassword',
    'CustomMessage_UpdateUserAttribute',
    'CustomMessage_VerifyUserAttribute',
    'CustomMessage_AdminCreateUser',
    'CustomMessage_Authentication',
  ] as const) {
    it(`${trigger}: returns the event untouched, so Cognito sends the pool's own message`, () => {
      const input = event(trigger, { usernameParameter: '{username}' });
      const before = structuredClone(input);
      const result = customMessage(input, SITE);
      expect(result).toEqual(before);
      expect(result.response).toEqual({ smsMessage: null, emailMessage: null, emailSubject: null });
    });
  }
});

describe('escapeHtml', () => {
  it('escapes the five HTML-significant characters', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
  });
});

describe('makeHandler', () => {
  it('answers a sign-up event with the confirmation email', async () => {
    const handler = makeHandler({ siteUrl: `${SITE}/` });
    const result = await handler(event('CustomMessage_ResendCode'));
    expect(result.response.emailSubject).toBe(CONFIRMATION_SUBJECT);
    expect(hrefs(result.response.emailMessage!)).toEqual([`${SITE}/auth?username=${USER}&email=artist%40example.com&code={####}`]);
  });

  it('refuses a missing or malformed SITE_URL instead of emailing a broken link', () => {
    expect(() => makeHandler({ siteUrl: '' })).toThrow(/SITE_URL/);
    expect(() => makeHandler({ siteUrl: 'javascript:alert(1)' })).toThrow(/SITE_URL/);
    expect(() => makeHandler({ siteUrl: `${SITE}/?x=1` })).toThrow(/SITE_URL/);
  });
});
