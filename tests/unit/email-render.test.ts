/**
 * A recipient's final email (schema/email/render.ts): spec §5's HTML rule, plain text as HTML, the text
 * part, [UNSUBSCRIBE_URL] and the footer. The server's per-recipient preview and the sender both call
 * renderEmail, so what is tested here is what recipients get.
 */
import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import type { PlaceholderContext } from '../../schema/email/placeholders';
import { UNSUBSCRIBE_FOOTER_TEXT, UNSUBSCRIBE_LINK_TEXT, htmlToText, isHtmlDocument, plainTextToHtml, renderEmail } from '../../schema/email/render';

const context = (overrides: Partial<PlaceholderContext> = {}): PlaceholderContext => ({
  recipient: { name: 'Ann Lee', email: 'ann@label.example', label_name: 'Night Shift Records' },
  track: { track_name: 'Night Drive', track_url: 'https://soundcloud.com/nova/night-drive', genre: 'deep-house' },
  artistName: 'Nova',
  ...overrides,
});

const UNSUBSCRIBE = 'https://app.example/unsubscribe?token=abc123&via=email';
const options = { unsubscribeUrl: UNSUBSCRIBE };
const parse = (html: string) => new JSDOM(html).window.document;
const count = (text: string, part: string) => text.split(part).length - 1;
const links = (html: string) => [...parse(html).querySelectorAll('a')].map((a) => ({ text: a.textContent, href: a.getAttribute('href') }));

describe('isHtmlDocument', () => {
  it.each(['<!DOCTYPE html><p>x</p>', '<!doctype html>', '  <html>', '<HTML lang="en">', '<body>', '<Body style="margin:0">', 'Hi\n<body>\nx', '<html\n>'])(
    '%j is HTML',
    (body) => expect(isHtmlDocument(body)).toBe(true),
  );

  it.each(['Hi there,\n\nLine two & <3', '<p>Hello</p>', 'I love <b>this</b>', '<htmlfoo>', '<bodyguard>', 'the html tag', '<!-- note -->'])(
    '%j is plain text',
    (body) => expect(isHtmlDocument(body)).toBe(false),
  );
});

describe('plainTextToHtml', () => {
  it('is a whole document with a UTF-8 charset, a viewport and a readable font', () => {
    const html = plainTextToHtml('Hi');
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html).toContain('<meta charset="utf-8">');
    expect(html).toContain('name="viewport"');
    expect(parse(html).body.getAttribute('style')).toContain('font-family:Arial');
    expect(parse(html).body.textContent.trim()).toBe('Hi');
  });

  it('escapes the text: markup in it shows as written', () => {
    const document = parse(plainTextToHtml('Tom & Jerry <script>alert(1)</script> "q" \'s\' <3'));
    expect(document.querySelectorAll('script')).toHaveLength(0);
    expect(document.body.textContent.trim()).toBe('Tom & Jerry <script>alert(1)</script> "q" \'s\' <3');
  });

  it('keeps line breaks as <br>', () => {
    const document = parse(plainTextToHtml('One\nTwo\r\n\r\nFour'));
    expect(document.querySelectorAll('br')).toHaveLength(3);
    expect(document.body.textContent.replace(/\s+/g, ' ').trim()).toBe('One Two Four');
  });

  it('makes http(s) links clickable without the punctuation after them', () => {
    const text =
      'Listen: https://soundcloud.com/nova/night-drive. Or (https://x.example/a?b=1&c=2), see http://old.example/path!\nWiki https://en.example/wiki/Track_(Remix) ok';
    expect(links(plainTextToHtml(text))).toEqual([
      { text: 'https://soundcloud.com/nova/night-drive', href: 'https://soundcloud.com/nova/night-drive' },
      { text: 'https://x.example/a?b=1&c=2', href: 'https://x.example/a?b=1&c=2' },
      { text: 'http://old.example/path', href: 'http://old.example/path' },
      { text: 'https://en.example/wiki/Track_(Remix)', href: 'https://en.example/wiki/Track_(Remix)' },
    ]);
    const document = parse(plainTextToHtml(text));
    expect(document.body.textContent).toContain('night-drive. Or (https://x.example/a?b=1&c=2), see');
  });

  it('links nothing but http(s)', () => {
    expect(links(plainTextToHtml('javascript:alert(1) ftp://files.example mailto:a@b.co www.label.example https:// done'))).toEqual([]);
  });

  it('keeps a link that ends a line apart from the next line', () => {
    expect(links(plainTextToHtml('https://a.example\nhttps://b.example'))).toEqual([
      { text: 'https://a.example', href: 'https://a.example' },
      { text: 'https://b.example', href: 'https://b.example' },
    ]);
  });
});

describe('htmlToText', () => {
  it('writes links as "text (url)" and a link whose text is its URL once', () => {
    const text = htmlToText('<p><a href="https://x.example/a?b=1&amp;c=2">Listen now</a> or <a href="https://x.example">https://x.example</a></p>');
    expect(text).toBe('Listen now (https://x.example/a?b=1&c=2) or https://x.example');
  });

  it('leaves images out and keeps paragraphs, line breaks and table rows on their own lines', () => {
    const html =
      '<html><head><title>T</title><style>p{color:red}</style></head><body><img src="https://x.example/logo.png" alt="Logo"><h1>Night Drive</h1><p>Hi Ann,</p><p>One<br>Two</p><table><tr><td>Track</td><td>Night Drive</td></tr><tr><td>Genre</td><td>Deep House</td></tr></table></body></html>';
    const text = htmlToText(html);
    expect(text).not.toMatch(/logo\.png|Logo|color:red/);
    expect(text.split('\n')).toEqual(['Night Drive', '', 'Hi Ann,', '', 'One', 'Two', '', 'Track Night Drive', 'Genre Deep House']);
  });

  it('does not wrap long lines', () => {
    const sentence = 'word '.repeat(40).trim();
    expect(htmlToText(`<p>${sentence}</p>`)).toBe(sentence);
  });
});

describe('renderEmail: a plain-text body', () => {
  const email = {
    subject: 'New track for [LABEL_NAME]: [Track Name]',
    body: 'Hi [Contact Name],\n\nHere is [TRACK_NAME] ([genre]): [TRACK_URL]\n\nBest,\n[ARTIST_NAME]',
  };

  it('fills the subject and the body for the recipient', () => {
    const rendered = renderEmail(email, context(), options);
    expect(rendered.subject).toBe('New track for Night Shift Records: Night Drive');
    expect(rendered.text.startsWith('Hi Ann Lee,\n\nHere is Night Drive (Deep House): https://soundcloud.com/nova/night-drive\n\nBest,\nNova')).toBe(true);
  });

  it('sends HTML with the line breaks and a clickable track link', () => {
    const { html } = renderEmail(email, context(), options);
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(links(html)[0]).toEqual({ text: 'https://soundcloud.com/nova/night-drive', href: 'https://soundcloud.com/nova/night-drive' });
    expect(parse(html).querySelectorAll('br')).toHaveLength(5);
  });

  it("adds the §5 footer once, with the recipient's unsubscribe link escaped in the href", () => {
    const { html, text } = renderEmail(email, context(), options);
    expect(count(html, UNSUBSCRIBE_LINK_TEXT)).toBe(1);
    expect(count(html, UNSUBSCRIBE_FOOTER_TEXT.replace("'", '&#39;'))).toBe(1);
    expect(html).toContain('href="https://app.example/unsubscribe?token=abc123&amp;via=email"');
    expect(links(html).at(-1)).toEqual({ text: UNSUBSCRIBE_LINK_TEXT, href: UNSUBSCRIBE });
    expect(html.indexOf(UNSUBSCRIBE_LINK_TEXT)).toBeLessThan(html.indexOf('</body>'));
    expect(text.endsWith(`\n\n${UNSUBSCRIBE_FOOTER_TEXT}\n${UNSUBSCRIBE_LINK_TEXT}: ${UNSUBSCRIBE}`)).toBe(true);
    expect(html).not.toContain('[UNSUBSCRIBE_URL]');
  });

  it("uses the body's own [UNSUBSCRIBE_URL] and adds no footer then", () => {
    const rendered = renderEmail({ subject: 's', body: 'Hi [NAME]\n\nNo more? [unsubscribe url]' }, context(), options);
    expect(rendered.text).toBe(`Hi Ann Lee\n\nNo more? ${UNSUBSCRIBE}`);
    expect(rendered.html).not.toContain(UNSUBSCRIBE_LINK_TEXT);
    expect(links(rendered.html)).toEqual([{ text: UNSUBSCRIBE, href: UNSUBSCRIBE }]);
  });

  it('keeps markup in contact fields as text', () => {
    const recipient = { name: '<script>alert(1)</script>', email: '"><img src=x onerror=alert(1)>', label_name: '<iframe src="https://evil.example">' };
    const { html, subject, text } = renderEmail({ subject: 'For [NAME]', body: 'Hi [NAME] [EMAIL] [LABEL_NAME]' }, context({ recipient }), options);
    const document = parse(html);
    expect(document.querySelectorAll('script, img, iframe')).toHaveLength(0);
    expect(document.querySelector('[onerror]')).toBeNull();
    expect(document.body.textContent).toContain(`Hi ${recipient.name} ${recipient.email} ${recipient.label_name}`);
    expect(subject).toBe(`For ${recipient.name}`);
    expect(text).toContain(`Hi ${recipient.name} ${recipient.email}`);
  });

  it('takes the line breaks out of the subject (a header must stay one line)', () => {
    const recipient = { name: 'Ann\r\nBcc: victim@example.com', email: 'a@b.co', label_name: null };
    const { subject } = renderEmail({ subject: 'Hi [NAME]\nand\r\nmore ', body: 'x' }, context({ recipient }), options);
    expect(subject).toBe('Hi Ann Bcc: victim@example.com and more');
    expect(subject).not.toMatch(/[\r\n]/);
  });

  it('leaves recipient placeholders as written when there is no recipient yet', () => {
    const { subject, text } = renderEmail({ subject: 'For [NAME]', body: 'Hi [CONTACT_NAME], [TRACK_NAME]' }, context({ recipient: null }), options);
    expect(subject).toBe('For [NAME]');
    expect(text.startsWith('Hi [CONTACT_NAME], Night Drive')).toBe(true);
  });

  it('is not fooled by a contact field that reads [UNSUBSCRIBE_URL]', () => {
    const recipient = { name: '[UNSUBSCRIBE_URL]', email: 'a@b.co', label_name: null };
    const { text, html } = renderEmail({ subject: 's', body: 'Hi [NAME]' }, context({ recipient }), options);
    expect(text.startsWith('Hi [UNSUBSCRIBE_URL]\n\n')).toBe(true);
    expect(count(html, UNSUBSCRIBE_LINK_TEXT)).toBe(1);
  });
});

describe('renderEmail: an HTML body', () => {
  const body = [
    '<!DOCTYPE html>',
    '<html><head><meta charset="utf-8"></head>',
    '<body style="margin:0">',
    '<p>Hi [CONTACT_NAME],</p>',
    '<p><a href="[TRACK_URL]" style="color:#6366f1">Listen to [TRACK_NAME]</a></p>',
    '</body></html>',
  ].join('\n');

  it('fills the placeholders escaped, attributes included, and adds the footer before </body>', () => {
    const recipient = { name: 'Ann "The DJ" <Lee>', email: 'ann@label.example', label_name: null };
    const { html } = renderEmail({ subject: 'Hi', body }, context({ recipient }), options);
    expect(html).toContain('<p>Hi Ann &quot;The DJ&quot; &lt;Lee&gt;,</p>');
    expect(links(html)).toEqual([
      { text: 'Listen to Night Drive', href: 'https://soundcloud.com/nova/night-drive' },
      { text: UNSUBSCRIBE_LINK_TEXT, href: UNSUBSCRIBE },
    ]);
    expect(html.indexOf(UNSUBSCRIBE_LINK_TEXT)).toBeLessThan(html.indexOf('</body>'));
    expect(html.endsWith('</body></html>')).toBe(true);
  });

  it('writes the text part from the HTML, links as "text (url)"', () => {
    const { text } = renderEmail({ subject: 'Hi', body }, context(), options);
    expect(text).toBe(
      `Hi Ann Lee,\n\nListen to Night Drive (https://soundcloud.com/nova/night-drive)\n\n${UNSUBSCRIBE_FOOTER_TEXT} ${UNSUBSCRIBE_LINK_TEXT} (${UNSUBSCRIBE})`,
    );
  });

  it("fills the body's own [UNSUBSCRIBE_URL] escaped and adds no second footer", () => {
    const own = body.replace('</body>', '<a href="[UNSUBSCRIBE_URL]">Stop these emails</a></body>');
    const { html, text } = renderEmail({ subject: 'Hi', body: own }, context(), options);
    expect(html).toContain('<a href="https://app.example/unsubscribe?token=abc123&amp;via=email">Stop these emails</a>');
    expect(html).not.toContain(UNSUBSCRIBE_LINK_TEXT);
    expect(text).toContain(`Stop these emails (${UNSUBSCRIBE})`);
  });

  it('adds the footer at the end of a document without </body>', () => {
    const { html } = renderEmail({ subject: 'Hi', body: '<html><p>Hi [NAME]</p>' }, context(), options);
    expect(html.startsWith('<html><p>Hi Ann Lee</p>\n<p')).toBe(true);
    expect(html.trimEnd().endsWith('</p>')).toBe(true);
    expect(count(html, UNSUBSCRIBE_LINK_TEXT)).toBe(1);
  });

  it('keeps script injected through contact fields inert in the HTML and the text part', () => {
    const recipient = { name: '<script>alert(1)</script>', email: '"><img src=x onerror=alert(1)>', label_name: null };
    const withEmail = body.replace('</body>', '<p title="[EMAIL]">[EMAIL]</p></body>');
    const { html, text } = renderEmail({ subject: 'Hi', body: withEmail }, context({ recipient }), options);
    const document = parse(html);
    expect(document.querySelectorAll('script, img')).toHaveLength(0);
    expect(document.querySelector('p[title]')!.getAttribute('title')).toBe(recipient.email);
    expect(text).toContain(`Hi ${recipient.name},`);
  });
});
