/**
 * HTML mode's templates (schema/email/htmlTemplates.ts, spec §2 and §9): whole email documents in tables
 * and inline CSS, every value escaped, the accent where it belongs, and nothing the server's sanitizer or
 * renderEmail would break.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { DomPurifySanitizer } from '../../lambdas/adapters/html/domPurifySanitizer';
import {
  accentPresets,
  buildHtmlTemplate,
  customHtmlStarter,
  darkenAccent,
  defaultHtmlSubject,
  htmlTemplateInfo,
  normaliseAccent,
  type HtmlTemplateInput,
} from '../../schema/email/htmlTemplates';
import { UNSUBSCRIBE_FOOTER_TEXT, UNSUBSCRIBE_LINK_TEXT, isHtmlDocument, renderEmail } from '../../schema/email/render';

const input: HtmlTemplateInput = {
  track_name: 'Night Drive',
  track_url: 'https://soundcloud.com/nova/night-drive',
  genre: 'deep-house',
  description: 'A late-night groove with warm pads.\n\nIt sits at 122 BPM.',
  artist_name: 'Nova',
  social_links: [
    { label: 'Website', url: 'https://nova.example' },
    { label: 'SoundCloud', url: 'https://soundcloud.com/nova' },
  ],
  accent: '#10b981',
};

const kinds = ['minimal', 'bold', 'professional'] as const;
const parse = (html: string) => new JSDOM(html).window.document;
const anchors = (html: string) => [...parse(html).querySelectorAll('a')].map((a) => ({ text: a.textContent.trim(), href: a.getAttribute('href') }));
const buttonLink = (html: string) => [...parse(html).querySelectorAll('a')].find((a) => a.getAttribute('href') === input.track_url);
const sanitizer = new DomPurifySanitizer();

describe('normaliseAccent', () => {
  it.each([
    ['#6366f1', '#6366f1'],
    ['#6366F1', '#6366f1'],
    ['  #ABCDEF ', '#abcdef'],
    ['#abc', '#aabbcc'],
    ['#F0a', '#ff00aa'],
  ])('reads %j as %j', (value, colour) => expect(normaliseAccent(value)).toBe(colour));

  it.each(['', '6366f1', '#6366f', '#6366f1f', '#ggg', 'red', 'rgb(0,0,0)', '#12345', '#6366f1;background:url(javascript:alert(1))', '#abc"'])(
    'refuses %j',
    (value) => expect(normaliseAccent(value)).toBeNull(),
  );

  it('accepts every preset and template default as it is', () => {
    for (const colour of [...accentPresets, ...Object.values(htmlTemplateInfo).map((info) => info.accent)]) expect(normaliseAccent(colour)).toBe(colour);
  });
});

describe('defaultHtmlSubject', () => {
  it('is the spec text', () => {
    expect(defaultHtmlSubject('Night Drive')).toBe('Demo Submission: Night Drive');
  });
});

describe.each(kinds)('the %s template', (kind) => {
  const html = buildHtmlTemplate(kind, input);
  const document = parse(html);

  it('is a whole email document: doctype, charset, viewport, a 600px presentation table, inline CSS only', () => {
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(isHtmlDocument(html)).toBe(true);
    expect(document.compatMode).toBe('CSS1Compat');
    expect(document.querySelector('meta[charset]')!.getAttribute('charset')).toBe('utf-8');
    expect(document.querySelector('meta[name="viewport"]')!.getAttribute('content')).toContain('width=device-width');
    const column = [...document.querySelectorAll('table')].find((table) => table.getAttribute('style')?.includes('max-width:600px'));
    expect(column?.getAttribute('style')).toContain('width:100%');
    expect([...document.querySelectorAll('table')].every((table) => table.getAttribute('role') === 'presentation')).toBe(true);
    expect(document.querySelectorAll('script, style, link, iframe, form')).toHaveLength(0);
    expect(html).not.toMatch(/\son[a-z]+=/i);
  });

  it('greets [CONTACT_NAME] and says the description, the artist and the §5 footer with [UNSUBSCRIBE_URL]', () => {
    const text = document.body.textContent;
    expect(text).toContain('Hi [CONTACT_NAME],');
    expect(text).toContain('A late-night groove with warm pads.');
    expect(text).toContain('It sits at 122 BPM.');
    expect(text).toContain('Nova');
    expect(text).toContain(UNSUBSCRIBE_FOOTER_TEXT);
    expect(anchors(html).filter((a) => a.href === '[UNSUBSCRIBE_URL]')).toEqual([{ text: UNSUBSCRIBE_LINK_TEXT, href: '[UNSUBSCRIBE_URL]' }]);
  });

  it('has a button to the track in the accent colour, and the social links', () => {
    const button = buttonLink(html)!;
    expect(button.getAttribute('style')).toContain('display:inline-block');
    expect(button.closest('td')!.getAttribute('bgcolor')).toBe('#10b981');
    expect(anchors(html)).toEqual(
      expect.arrayContaining([
        { text: 'Website', href: 'https://nova.example' },
        { text: 'SoundCloud', href: 'https://soundcloud.com/nova' },
      ]),
    );
  });

  it('uses a valid accent in any spelling, and its own default for anything else', () => {
    expect(buildHtmlTemplate(kind, { ...input, accent: ' #F59E0B ' })).toContain('#f59e0b');
    expect(buildHtmlTemplate(kind, { ...input, accent: '#f0a' })).toContain('#ff00aa');
    for (const accent of ['', 'red', '#12345', '#10b981;background:url(javascript:alert(1))', '"><script>alert(1)</script>']) {
      const fallback = buildHtmlTemplate(kind, { ...input, accent });
      expect(fallback, accent).toContain(htmlTemplateInfo[kind].accent);
      expect(fallback, accent).not.toContain('#10b981');
      expect(fallback, accent).not.toContain('script');
    }
  });

  it('escapes every value, the track link in its href included', () => {
    const attack = '<script>alert(1)</script>"><img src=x onerror=alert(1)>';
    const track_url = 'https://x.example/t?a=1&b="><script>alert(2)</script>';
    const hostile = buildHtmlTemplate(kind, {
      track_name: attack,
      track_url,
      genre: attack,
      description: attack,
      artist_name: attack,
      social_links: [{ label: attack, url: 'https://x.example/?q="><script>alert(3)</script>' }],
      accent: '#10b981',
    });
    const page = parse(hostile);
    expect(page.querySelectorAll('script, img')).toHaveLength(0);
    expect(page.querySelector('[onerror]')).toBeNull();
    expect(page.body.textContent).toContain(attack);
    expect(page.title).toBe(attack);
    expect([...page.querySelectorAll('a')].map((a) => a.getAttribute('href'))).toEqual(
      expect.arrayContaining([track_url, 'https://x.example/?q="><script>alert(3)</script>']),
    );
  });

  it('leaves out the button and links that are not http(s)', () => {
    for (const track_url of ['', 'javascript:alert(1)', 'data:text/html,hi']) {
      const page = buildHtmlTemplate(kind, { ...input, track_url, social_links: [{ label: 'Evil', url: 'javascript:alert(1)' }] });
      expect(
        anchors(page).map((a) => a.href),
        track_url,
      ).toEqual(['[UNSUBSCRIBE_URL]']);
      expect(page).not.toContain('javascript:');
    }
  });

  it('survives the server sanitizer with its meaning: doctype, button href, accent, placeholders, layout', () => {
    const clean = sanitizer.sanitize(html);
    expect(clean.startsWith('<!DOCTYPE html>')).toBe(true);
    const page = parse(clean);
    expect(buttonLink(clean)!.closest('td')!.getAttribute('bgcolor')).toBe('#10b981');
    expect(buttonLink(clean)!.getAttribute('style')).toBe(buttonLink(html)!.getAttribute('style'));
    expect(anchors(clean)).toEqual(anchors(html));
    expect(page.body.textContent).toBe(document.body.textContent);
    expect(page.querySelectorAll('table')).toHaveLength(document.querySelectorAll('table').length);
    expect(page.querySelector('meta[name="viewport"]')).not.toBeNull();
    const styles = (doc: Document) => [...doc.querySelectorAll('[style]')].map((element) => element.getAttribute('style'));
    expect(styles(page)).toEqual(styles(document));
  });

  it('renders for a recipient: the name in the greeting, one unsubscribe link with their URL', () => {
    const recipient = { name: 'Ann <Lee>', email: 'ann@label.example', label_name: null };
    const track = { track_name: input.track_name, track_url: input.track_url, genre: input.genre };
    const body = sanitizer.sanitize(html);
    const rendered = renderEmail(
      { subject: defaultHtmlSubject('[TRACK_NAME]'), body },
      { recipient, track, artistName: 'Nova' },
      { unsubscribeUrl: 'https://app.example/u?t=1&x=2' },
    );
    expect(rendered.subject).toBe('Demo Submission: Night Drive');
    expect(parse(rendered.html).body.textContent).toContain('Hi Ann <Lee>,');
    expect(anchors(rendered.html).filter((a) => a.text === UNSUBSCRIBE_LINK_TEXT)).toEqual([
      { text: UNSUBSCRIBE_LINK_TEXT, href: 'https://app.example/u?t=1&x=2' },
    ]);
    expect(rendered.text).toContain('Hi Ann <Lee>,');
    expect(rendered.text).toContain(`${UNSUBSCRIBE_LINK_TEXT} (https://app.example/u?t=1&x=2)`);
    expect(rendered.text).toContain(`(${input.track_url})`);
  });
});

describe('template specifics', () => {
  it('Minimal draws a thin accent rule on top of a white card', () => {
    const document = parse(buildHtmlTemplate('minimal', input));
    const rule = document.querySelector('td[height="4"]')!;
    expect(rule.getAttribute('bgcolor')).toBe('#10b981');
    expect(document.querySelector('table[style*="max-width:600px"]')!.getAttribute('style')).toContain('background-color:#ffffff');
  });

  it('Bold has a gradient header from the accent to a darker shade, and the track title big', () => {
    const document = parse(buildHtmlTemplate('bold', { ...input, accent: '#8b5cf6' }));
    const header = document.querySelector('td[bgcolor="#8b5cf6"]')!;
    expect(header.getAttribute('style')).toContain(`linear-gradient(135deg,#8b5cf6 0%,${darkenAccent('#8b5cf6')} 100%)`);
    expect(darkenAccent('#8b5cf6')).toBe('#533794');
    const title = header.querySelector('h1')!;
    expect(title.textContent).toBe('Night Drive');
    expect(title.getAttribute('style')).toContain('font-size:36px');
    expect(header.textContent).toContain('by Nova · Deep House');
  });

  it('Professional has an accent header bar, a Track / Genre / Artist table and a Listen button', () => {
    const document = parse(buildHtmlTemplate('professional', input));
    expect(document.querySelector('td[bgcolor="#10b981"]')!.textContent).toContain('Demo Submission');
    const rows = [...document.querySelectorAll('tr')].filter((row) => row.cells.length === 2).map((row) => [...row.cells].map((cell) => cell.textContent));
    expect(rows).toEqual([
      ['Track', 'Night Drive'],
      ['Genre', 'Deep House'],
      ['Artist', 'Nova'],
    ]);
    expect(buttonLink(buildHtmlTemplate('professional', input))!.textContent).toBe('Listen');
    expect(document.body.textContent).toContain('Kind regards,');
  });

  it('each template uses its own default accent when none is given', () => {
    for (const kind of kinds) expect(buildHtmlTemplate(kind, { ...input, accent: '' })).toContain(`bgcolor="${htmlTemplateInfo[kind].accent}"`);
  });
});

describe('customHtmlStarter', () => {
  const html = customHtmlStarter({ ...input, accent: '' });

  it('is a short valid email document with the greeting, the track link, the footer and the custom accent', () => {
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(isHtmlDocument(html)).toBe(true);
    const document = parse(html);
    expect(document.body.textContent).toContain('Hi [CONTACT_NAME],');
    expect(buttonLink(html)!.getAttribute('style')).toContain(htmlTemplateInfo.custom.accent);
    expect(anchors(html).map((a) => a.href)).toContain('[UNSUBSCRIBE_URL]');
    expect(document.querySelectorAll('script, style')).toHaveLength(0);
  });

  it('escapes the values and survives the sanitizer', () => {
    const hostile = customHtmlStarter({ ...input, description: '<script>alert(1)</script>' });
    expect(parse(hostile).querySelectorAll('script')).toHaveLength(0);
    expect(parse(sanitizer.sanitize(hostile)).body.textContent).toBe(parse(hostile).body.textContent);
  });
});

describe('the web bundle', () => {
  /** Relative imports of a module, followed; the package imports met on the way. */
  function packagesImportedBy(entry: string): Set<string> {
    const packages = new Set<string>();
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const [, from] of readFileSync(file, 'utf8').matchAll(/^\s*(?:import|export)[^'"]*from\s+'([^']+)'/gm)) {
        if (from!.startsWith('.')) visit(resolve(dirname(file), `${from}.ts`));
        else packages.add(from!);
      }
    };
    visit(resolve(__dirname, entry));
    return packages;
  }

  it.each(['../../schema/email/placeholders.ts', '../../schema/email/htmlTemplates.ts', '../../schema/email/footer.ts', '../../schema/email/htmlDocument.ts'])(
    '%s pulls in no server-only package (html-to-text, jsdom, DOMPurify)',
    (entry) => {
      const packages = [...packagesImportedBy(entry)];
      expect(packages.filter((name) => /html-to-text|jsdom|dompurify/.test(name))).toEqual([]);
    },
  );

  it('render.ts is where html-to-text comes in (the check above can see it)', () => {
    expect(packagesImportedBy('../../schema/email/render.ts')).toContain('html-to-text');
  });
});
