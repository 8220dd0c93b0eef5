/**
 * The tracked form of an email (lambdas/core/tracking.ts): http(s) links through the click route in
 * order, the unsubscribe link kept, the pixel before </body>, and only real http(s) targets stored
 * (the click route redirects to nothing else).
 */
import { describe, expect, it } from 'vitest';
import { clickUrl, decodeAttribute, oneClickUnsubscribeUrl, openPixelUrl, trackedHtml, unsubscribePageUrl, untrackedHtml } from '../../lambdas/core/tracking';
import { renderEmail } from '../../schema/email/render';

const APP = 'https://app.test';
const TOKEN = 'Zq1_abc-DEF0123456789abcdefghijklmnopqrstuvw';
const track = (html: string) => trackedHtml(html, { appUrl: APP, token: TOKEN });
const hrefs = (html: string) => [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1]);

describe('URL builders', () => {
  it('spell the public tracking and unsubscribe URLs', () => {
    expect(openPixelUrl(APP, TOKEN)).toBe(`${APP}/api/t/o/${TOKEN}`);
    expect(clickUrl(APP, TOKEN, 3)).toBe(`${APP}/api/t/c/${TOKEN}/3`);
    expect(unsubscribePageUrl(APP, TOKEN)).toBe(`${APP}/unsubscribe?token=${TOKEN}`);
    expect(oneClickUnsubscribeUrl(APP, TOKEN)).toBe(`${APP}/api/unsubscribe/one-click?token=${TOKEN}`);
  });
});

describe('trackedHtml', () => {
  it('rewrites every http(s) link to the click route, numbering targets in order of first appearance', () => {
    const { html, links } = track(
      '<html><body><a href="https://a.test/1">one</a><a class="x" href=\'http://b.test/2\'>two</a><a href=https://c.test/3>three</a><a href="https://a.test/1">one again</a></body></html>',
    );
    expect(links).toEqual(['https://a.test/1', 'http://b.test/2', 'https://c.test/3']);
    expect(hrefs(html)).toEqual([0, 1, 2, 0].map((n) => clickUrl(APP, TOKEN, n)));
    expect(html).toContain('class="x"');
    expect(html).not.toContain('a.test');
  });

  it('keeps the email’s own unsubscribe link as it is', () => {
    const unsubscribe = unsubscribePageUrl(APP, TOKEN);
    const { html, links } = track(`<body><a href="https://a.test/">listen</a><a href="${unsubscribe}">Unsubscribe</a></body>`);
    expect(links).toEqual(['https://a.test/']);
    expect(hrefs(html)).toEqual([clickUrl(APP, TOKEN, 0), unsubscribe]);
  });

  it('adds the hidden 1×1 pixel just before </body>, or at the end of a fragment', () => {
    const pixel = `<img src="${openPixelUrl(APP, TOKEN)}" width="1" height="1" alt="" style="display:none">`;
    const document = track('<html><body><p>Hi</p></body></html>').html;
    expect(document).toBe(`<html><body><p>Hi</p>${pixel}\n</body></html>`);
    expect(track('<p>Hi</p>').html).toBe(`<p>Hi</p>\n${pixel}`);
  });

  it('never stores or rewrites anything but http(s) links: javascript:, data:, mailto:, relative and anchors stay', () => {
    const input =
      '<body><a href="javascript:alert(1)">j</a><a href="java&#115;cript:alert(1)">j2</a><a href="data:text/html,x">d</a>' +
      '<a href="mailto:me@x.test">m</a><a href="/relative">r</a><a href="#top">t</a><a name="n">no href</a></body>';
    const { html, links } = track(input);
    expect(links).toEqual([]);
    expect(hrefs(html)).toEqual(['javascript:alert(1)', 'java&#115;cript:alert(1)', 'data:text/html,x', 'mailto:me@x.test', '/relative', '#top']);
  });

  it('stores the target a browser would follow: entities in the href decoded', () => {
    const { html, links } = track('<body><a href="https://a.test/?a=1&amp;b=2&#38;c=&#x33;">q</a><a href="HTTPS://B.TEST/X">u</a></body>');
    // …and normalised as a URL (scheme and host lower-cased): what the redirect's Location says.
    expect(links).toEqual(['https://a.test/?a=1&b=2&c=3', 'https://b.test/X']);
    expect(hrefs(html)).toEqual([clickUrl(APP, TOKEN, 0), clickUrl(APP, TOKEN, 1)]);
  });

  it('only touches href attributes of links, not look-alikes or other attributes', () => {
    const { html, links } = track(
      '<body><a data-href="https://x.test/" title="https://y.test/" HREF="https://z.test/">z</a><img src="https://img.test/a.png"><link href="https://css.test/s.css"></body>',
    );
    expect(links).toEqual(['https://z.test/']);
    expect(html).toContain('data-href="https://x.test/"');
    expect(html).toContain('title="https://y.test/"');
    expect(html).toContain('src="https://img.test/a.png"');
    expect(html).toContain('href="https://css.test/s.css"');
  });

  it('tracks a rendered email: the body’s links tracked, the footer’s unsubscribe link kept', () => {
    const unsubscribeUrl = unsubscribePageUrl(APP, TOKEN);
    const rendered = renderEmail(
      { subject: 'Hi', body: 'Listen here: https://music.test/track?id=1&ref=mail' },
      {
        recipient: { name: 'Mara', email: 'm@x.test', label_name: null },
        track: { track_name: 'T', track_url: 'https://music.test/track', genre: 'House' },
        artistName: 'Ada',
      },
      { unsubscribeUrl },
    );
    const { html, links } = track(rendered.html);
    expect(links).toEqual(['https://music.test/track?id=1&ref=mail']);
    expect(html).toContain(`href="${unsubscribeUrl}"`);
    expect(html).toContain(`href="${clickUrl(APP, TOKEN, 0)}"`);
  });
});

describe('decodeAttribute', () => {
  it('decodes named, decimal and hex references and leaves unknown ones', () => {
    expect(decodeAttribute('a&amp;b&lt;&gt;&quot;&#39;&#x2F;&unknown;')).toBe('a&b<>"\'/&unknown;');
  });
});

describe('link targets', () => {
  it('are stored percent-encoded, so no control character or quote reaches the redirect', () => {
    const { links } = track('<a href="https://a.test/x&#1;y">odd</a><a href="https://b.test/é?q=&quot;">quote</a><a href="https://[bad">broken</a>');
    expect(links).toEqual(['https://a.test/x%01y', 'https://b.test/%C3%A9?q=%22']);
  });
});

describe('untrackedHtml', () => {
  // The artist reading it counts nothing.
  it('gives back the email as written: no pixel, and every tracked link to its stored target', () => {
    const original =
      '<html><body><p>Hi</p><a href="https://a.test/1">one</a> <a href="https://b.test/2?x=1&amp;y=2">two</a> <a href="https://a.test/1">again</a></body></html>';
    const tracked = track(original);
    const shown = untrackedHtml(tracked.html, { token: TOKEN, links: tracked.links });
    expect(shown).not.toContain('/api/t/');
    expect(hrefs(shown)).toEqual(['https://a.test/1', 'https://b.test/2?x=1&amp;y=2', 'https://a.test/1']);
    expect(shown.replace(/\s+/g, '')).toBe(original.replace(/\s+/g, ''));
  });

  it("leaves another email's tracked links alone", () => {
    const other = trackedHtml('<a href="https://a.test/1">one</a>', { appUrl: APP, token: 'Other_token-0123456789abcdefghijklmnopqrstuv' });
    expect(untrackedHtml(other.html, { token: TOKEN, links: ['https://evil.test/'] })).toBe(other.html);
  });
});
