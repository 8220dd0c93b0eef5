/**
 * The server's HTML sanitizer (lambdas/adapters/html/domPurifySanitizer.ts, DESIGN §5): what an email needs
 * survives, anything that runs script or leaves the email goes.
 */
import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { DomPurifySanitizer, isDangerousCss } from '../../lambdas/adapters/html/domPurifySanitizer';

const sanitizer = new DomPurifySanitizer();
const doc = (body: string, head = '') => `<!DOCTYPE html><html><head>${head}</head><body>${body}</body></html>`;
const parse = (html: string) => new JSDOM(html).window.document;
const clean = (body: string, head = '') => parse(sanitizer.sanitize(doc(body, head)));

/** A realistic custom EP-promo email: layout tables, <style> in the head, inline styles, an image, buttons. */
const epPromo = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Midnight Circuit EP</title>
<style>
  @media only screen and (max-width: 600px) { .column { width: 100% !important; } }
  a { color: #8b5cf6; }
</style>
</head>
<body style="margin:0;padding:0;background-color:#0f172a;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" bgcolor="#0f172a">
  <tr>
    <td align="center" valign="top" style="padding:24px 12px;">
      <table class="column" role="presentation" width="600" cellpadding="0" cellspacing="0" border="0" style="width:100%;max-width:600px;background:#ffffff;border-radius:12px;">
        <tr><td><img src="https://cdn.example.com/ep-cover.jpg" width="600" alt="Midnight Circuit EP cover" style="display:block;width:100%;height:auto;"></td></tr>
        <tr>
          <td style="padding:32px;font-family:Arial,Helvetica,sans-serif;color:#1f2937;">
            <h1 style="margin:0 0 16px;font-size:28px;">Midnight Circuit EP</h1>
            <p>Hi [CONTACT_NAME],</p>
            <p>Four tracks of late-night techno for <strong>[LABEL_NAME]</strong>.</p>
            <table role="presentation" cellpadding="0" cellspacing="0" border="0">
              <tr><td bgcolor="#8b5cf6" style="border-radius:6px;"><a href="[TRACK_URL]" target="_blank" style="display:inline-block;padding:12px 24px;color:#ffffff;text-decoration:none;">Stream the EP</a></td></tr>
            </table>
            <p><a href="mailto:nova@artist.example">nova@artist.example</a> · <a href="https://soundcloud.com/nova">SoundCloud</a></p>
            <p style="font-size:12px;color:#6b7280;"><a href="[UNSUBSCRIBE_URL]">Unsubscribe</a></p>
          </td>
        </tr>
      </table>
    </td>
  </tr>
</table>
</body>
</html>`;

describe('DomPurifySanitizer: what an email keeps', () => {
  it('keeps a realistic EP-promo email: doctype, head, layout tables, styles, image, links and placeholders', () => {
    const html = sanitizer.sanitize(epPromo);
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    const document = parse(html);
    expect(document.compatMode).toBe('CSS1Compat');
    expect(document.title).toBe('Midnight Circuit EP');
    expect(document.querySelector('meta[charset]')!.getAttribute('charset')).toBe('utf-8');
    expect(document.querySelector('meta[name="viewport"]')!.getAttribute('content')).toBe('width=device-width, initial-scale=1');
    expect(document.querySelector('head style')!.textContent).toContain('@media only screen and (max-width: 600px)');
    expect(document.body.getAttribute('style')).toBe('margin:0;padding:0;background-color:#0f172a;');

    const outer = document.querySelector('body > table')!;
    expect(['role', 'width', 'cellpadding', 'cellspacing', 'border', 'bgcolor'].map((name) => outer.getAttribute(name))).toEqual([
      'presentation',
      '100%',
      '0',
      '0',
      '0',
      '#0f172a',
    ]);
    const cell = outer.querySelector('td')!;
    expect([cell.getAttribute('align'), cell.getAttribute('valign')]).toEqual(['center', 'top']);
    expect(document.querySelector('table.column')!.getAttribute('style')).toBe('width:100%;max-width:600px;background:#ffffff;border-radius:12px;');
    expect(document.querySelectorAll('table')).toHaveLength(3);

    const image = document.querySelector('img')!;
    expect([image.getAttribute('src'), image.getAttribute('alt'), image.getAttribute('width')]).toEqual([
      'https://cdn.example.com/ep-cover.jpg',
      'Midnight Circuit EP cover',
      '600',
    ]);

    const hrefs = [...document.querySelectorAll('a')].map((a) => a.getAttribute('href'));
    expect(hrefs).toEqual(['[TRACK_URL]', 'mailto:nova@artist.example', 'https://soundcloud.com/nova', '[UNSUBSCRIBE_URL]']);
    expect(document.querySelector('td[bgcolor="#8b5cf6"]')).not.toBeNull();
    expect(document.body.textContent).toContain('Hi [CONTACT_NAME],');
    expect(document.body.textContent).toContain('[LABEL_NAME]');
  });

  it('is stable: sanitizing its own output changes nothing', () => {
    const once = sanitizer.sanitize(epPromo);
    expect(sanitizer.sanitize(once)).toBe(once);
  });

  it('keeps placeholder links in any spelling: they are filled per recipient later', () => {
    const document = clean('<a href="[TRACK_URL]">a</a><a href="[Track Url]">b</a><a href="[unsubscribe_url]">c</a>');
    expect([...document.querySelectorAll('a')].map((a) => a.getAttribute('href'))).toEqual(['[TRACK_URL]', '[Track Url]', '[unsubscribe_url]']);
  });

  it('drops placeholder links whose value comes from a contact field (a name could be "javascript:…")', async () => {
    const document = clean('<a href="[NAME]">a</a><a href="[Contact Name]">b</a><a href="[EMAIL]">c</a><a href="[LABEL_NAME]">d</a>');
    expect([...document.querySelectorAll('a')].map((a) => a.getAttribute('href'))).toEqual([null, null, null, null]);
    // End to end: even a hostile contact name cannot become a link through the stored body.
    const { renderEmail } = await import('../../schema/email/render');
    const stored = sanitizer.sanitize('<!DOCTYPE html><html><body><a href="[NAME]">Hi</a></body></html>');
    const rendered = renderEmail(
      { subject: 'Hi', body: stored },
      {
        recipient: { name: 'javascript:alert(document.domain)', email: 'a@b.example', label_name: null },
        track: { track_name: 'T', track_url: null, genre: 'techno' },
        artistName: 'A',
      },
      { unsubscribeUrl: 'https://app.example/unsubscribe?token=t' },
    );
    expect(rendered.html).not.toContain('href="javascript:');
  });

  it('keeps target="_blank" and adds rel="noopener noreferrer"; drops other targets', () => {
    const document = clean('<a href="https://x.example" target="_blank" rel="opener">a</a><a href="https://y.example" target="_top">b</a>');
    const [blank, top] = [...document.querySelectorAll('a')];
    expect([blank!.getAttribute('target'), blank!.getAttribute('rel')]).toEqual(['_blank', 'noopener noreferrer']);
    expect(top!.hasAttribute('target')).toBe(false);
  });

  it('adds no doctype to a document that had none', () => {
    const html = sanitizer.sanitize('<html><body><p>Hi</p></body></html>');
    expect(html).toBe('<html><head></head><body><p>Hi</p></body></html>');
  });
});

describe('DomPurifySanitizer: plain text', () => {
  it.each(['Hi there,\n\nLine two & <3', 'Tom & Jerry say "hi" > 2 < 3', 'Price: 5 <= 6 && a > b', '', '   '])(
    'returns the plain text %j unchanged',
    (text) => {
      expect(sanitizer.sanitize(text)).toBe(text);
    },
  );

  it('returns text with harmless tags unchanged ("&" stays "&": renderEmail sends it as plain text)', () => {
    const text = 'I love <b>this</b> & that\n<i>really</i>';
    expect(sanitizer.sanitize(text)).toBe(text);
  });

  it('removes script from text that is not a document', () => {
    const html = sanitizer.sanitize('Hi <b>there</b><script>alert(1)</script><img src=x onerror=alert(1)>');
    expect(html).not.toMatch(/script|onerror|alert/i);
    expect(html).toContain('Hi <b>there</b>');
  });
});

describe('DomPurifySanitizer: what goes', () => {
  it.each([
    ['a <script>', '<script>alert(1)</script><p>ok</p>', 'script'],
    ['a <script> in the head', '<p>ok</p>', 'script', '<script src="https://evil.example/x.js"></script>'],
    ['an <iframe>', '<iframe src="https://evil.example"></iframe><p>ok</p>', 'iframe'],
    ['an <object>', '<object data="https://evil.example/x.swf"></object><p>ok</p>', 'object'],
    ['an <embed>', '<embed src="https://evil.example/x.swf"><p>ok</p>', 'embed'],
    [
      'a <form> and its controls',
      '<form action="https://evil.example"><input name="pw"><button>Go</button><select><option>1</option></select><textarea></textarea></form><p>ok</p>',
      'form, input, button, select, option, textarea',
    ],
    ['a <meta http-equiv> refresh', '<p>ok</p>', 'meta[http-equiv], meta[content*="url"]', '<meta http-equiv="refresh" content="0;url=https://evil.example">'],
    ['a <base>', '<p>ok</p>', 'base', '<base href="https://evil.example/">'],
    ['a <link> stylesheet', '<p>ok</p>', 'link', '<link rel="stylesheet" href="https://evil.example/x.css">'],
    ['an <svg> with onload', '<svg onload="alert(1)"><circle r="1"></circle></svg><p>ok</p>', 'svg, circle, [onload]'],
  ])('removes %s', (_name, body, selector, head = '') => {
    const document = clean(body, head);
    expect(document.querySelectorAll(selector)).toHaveLength(0);
    expect(document.querySelector('p')!.textContent).toBe('ok');
  });

  it('removes every event handler attribute', () => {
    const document = clean('<p onclick="alert(1)" onmouseover="alert(2)">a</p><img src="https://x.example/i.png" onerror="alert(3)"><body onload="alert(4)">');
    expect(document.querySelectorAll('[onclick], [onmouseover], [onerror], [onload]')).toHaveLength(0);
    expect(document.querySelector('img')!.getAttribute('src')).toBe('https://x.example/i.png');
  });

  it.each([
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    ' java\tscript:alert(1)',
    'jav&#x09;ascript:alert(1)',
    '&#106;avascript:alert(1)',
    'vbscript:msgbox(1)',
    'data:text/html,<script>alert(1)</script>',
    '/relative/path',
    '//evil.example/x',
    'tel:123',
    'ftp://files.example',
    '[TRACK_URL]javascript:alert(1)',
  ])('drops the link href %j (only http(s), mailto and placeholders)', (href) => {
    const document = clean(`<a href="${href}">x</a>`);
    expect(document.querySelector('a')!.hasAttribute('href')).toBe(false);
    expect(document.querySelector('a')!.textContent).toBe('x');
  });

  it.each(['data:image/png;base64,iVBORw0KGgo=', 'javascript:alert(1)', 'http:/x', 'mailto:a@b.co', '[TRACK_URL]', 'cid:logo'])(
    'drops the image src %j (http(s) only)',
    (src) => {
      const document = clean(`<img src="${src}" alt="a"><table><tr><td background="${src}">x</td></tr></table>`);
      expect(document.querySelector('img')!.hasAttribute('src')).toBe(false);
      expect(document.querySelector('td')!.hasAttribute('background')).toBe(false);
    },
  );

  it('drops srcset (a second, unchecked list of image URLs)', () => {
    const document = clean('<img src="https://x.example/a.png" srcset="javascript:alert(1) 2x, data:image/png;base64,AAA 3x">');
    expect(document.querySelector('img')!.hasAttribute('srcset')).toBe(false);
  });

  it.each([
    'width:expression(alert(1))',
    'background:url(javascript:alert(1))',
    "background-image:url('vbscript:msgbox(1)')",
    'background:url(data:text/html;base64,PHNjcmlwdD4=)',
    'width:\\65 xpression(alert(1))',
    'width:expr/**/ession(alert(1))',
    'background:url(java\\73 cript:alert(1))',
    '-moz-binding:url(https://evil.example/x.xml#xss)',
    'behavior:url(https://evil.example/x.htc)',
  ])('drops the style attribute %j', (style) => {
    const document = clean(`<p style="${style.replace(/"/g, '&quot;')}">ok</p>`);
    expect(document.querySelector('p')!.hasAttribute('style')).toBe(false);
    expect(document.querySelector('p')!.textContent).toBe('ok');
  });

  it('drops a <style> element that tries expression(), script URLs or @import, and keeps a harmless one', () => {
    for (const css of ['p{width:expression(alert(1))}', 'p{background:url("javascript:alert(1)")}', '@import url(https://evil.example/x.css);']) {
      expect(clean('<p>ok</p>', `<style>${css}</style>`).querySelector('style'), css).toBeNull();
    }
    expect(clean('<p>ok</p>', '<style>p{background:url(https://cdn.example/bg.png);color:#333}</style>').querySelector('style')!.textContent).toBe(
      'p{background:url(https://cdn.example/bg.png);color:#333}',
    );
  });

  it('tells dangerous CSS from ordinary email CSS', () => {
    expect(isDangerousCss('color:#333;background:url(https://cdn.example/a.png);font-family:Arial')).toBe(false);
    expect(isDangerousCss('width:100% !important')).toBe(false);
    expect(isDangerousCss('width: e\\78 pression(alert(1))')).toBe(true);
    expect(isDangerousCss('background:url(JAVASCRIPT:alert(1))')).toBe(true);
  });

  it('drops HTML comments (Outlook conditional comments included)', () => {
    const html = sanitizer.sanitize(doc('<!--[if mso]><script>alert(1)</script><![endif]--><p>ok</p>'));
    expect(html).not.toContain('<!--');
    expect(html).not.toContain('script');
  });
});
