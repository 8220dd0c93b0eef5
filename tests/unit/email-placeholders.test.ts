/**
 * Spec §5 placeholders and template variables (schema/email/placeholders.ts): the one implementation the
 * per-recipient preview and the sender share. Contact fields are data: in HTML they stay text.
 */
import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import {
  applyTemplateVariables,
  fillPlaceholders,
  genreLabel,
  inShownPlaceholderStyle,
  placeholderNames,
  placeholderValues,
  type PlaceholderContext,
  type PlaceholderName,
  type TemplateVariableValues,
} from '../../schema/email/placeholders';
import { UNSUBSCRIBE_FOOTER_TEXT, UNSUBSCRIBE_LINK_TEXT } from '../../schema/email/footer';

const context = (overrides: Partial<PlaceholderContext> = {}): PlaceholderContext => ({
  recipient: { name: 'Ann Lee', email: 'ann@label.example', label_name: 'Night Shift Records' },
  track: { track_name: 'Night Drive', track_url: 'https://soundcloud.com/nova/night-drive', genre: 'deep-house' },
  artistName: 'Nova',
  ...overrides,
});

const expected: Record<PlaceholderName, string> = {
  NAME: 'Ann Lee',
  CONTACT_NAME: 'Ann Lee',
  FIRST_NAME: 'Ann',
  EMAIL: 'ann@label.example',
  LABEL_NAME: 'Night Shift Records',
  TRACK_NAME: 'Night Drive',
  GENRE: 'Deep House',
  ARTIST_NAME: 'Nova',
  TRACK_URL: 'https://soundcloud.com/nova/night-drive',
};

/** Every way a person may type a placeholder: any case, a space or an underscore between words. */
function spellings(name: PlaceholderName): string[] {
  const words = name.split('_');
  const title = words.map((word) => word.charAt(0) + word.slice(1).toLowerCase());
  const all = [
    name,
    name.toLowerCase(),
    words.join(' '),
    title.join(' '),
    title.join('_'),
    words.map((word, index) => (index % 2 ? word.toLowerCase() : word)).join(' '),
  ];
  return [...new Set(all)].map((spelling) => `[${spelling}]`);
}

const matrix = placeholderNames.flatMap((name) =>
  spellings(name).flatMap((spelling) => (['text', 'html'] as const).map((mode) => [name, spelling, mode] as const)),
);

describe('placeholderValues', () => {
  it('reads each placeholder from the recipient, the track and the artist', () => {
    expect(placeholderValues(context())).toEqual(expected);
  });

  it('is blank for what is missing: no label, no track link, no recipient', () => {
    const values = placeholderValues(context({ recipient: null, track: { track_name: 'Night Drive', track_url: null, genre: '' } }));
    expect(values).toMatchObject({ NAME: '', CONTACT_NAME: '', FIRST_NAME: '', EMAIL: '', LABEL_NAME: '', TRACK_URL: '', GENRE: '' });
    expect(placeholderValues(context({ recipient: { name: 'Ann', email: 'a@b.co', label_name: null } })).LABEL_NAME).toBe('');
  });

  it('[FIRST_NAME] is the name a person is greeted by, or the whole name when it has no first name', () => {
    const greeting = (name: string) => fillPlaceholders('Hi [FIRST_NAME],', context({ recipient: { name, email: 'a@b.co', label_name: null } }), 'text');
    expect(greeting('Karl Berg')).toBe('Hi Karl,');
    expect(greeting('DJ Kessa Lune')).toBe('Hi Kessa,');
    expect(greeting('J. Smith')).toBe('Hi J. Smith,');
  });

  it('reads a genre slug as its label and keeps any other genre text as it is', () => {
    expect(genreLabel('drum-bass')).toBe('Drum & Bass');
    expect(genreLabel('tech-house')).toBe('Tech House');
    expect(genreLabel('Electronic')).toBe('Electronic');
    expect(genreLabel('Lo-fi jazz')).toBe('Lo-fi jazz');
    expect(placeholderValues(context({ track: { track_name: 'x', track_url: null, genre: 'Electronic' } })).GENRE).toBe('Electronic');
  });

  it('puts only an http(s) track link into [TRACK_URL]', () => {
    for (const track_url of ['javascript:alert(1)', 'data:text/html,<script>alert(1)</script>', 'not a link']) {
      expect(placeholderValues(context({ track: { track_name: 'x', track_url, genre: 'house' } })).TRACK_URL, track_url).toBe('');
    }
  });
});

describe('fillPlaceholders: the matrix', () => {
  it.each(matrix)('%s written as %s in %s mode is replaced', (name, spelling, mode) => {
    expect(fillPlaceholders(`<${spelling}>`, context(), mode)).toBe(`<${expected[name]}>`);
  });

  it.each(matrix)('%s written as %s in %s mode is blank when the value is missing', (name, spelling, mode) => {
    const empty = context({
      recipient: { name: '', email: '', label_name: null },
      track: { track_name: '', track_url: null, genre: '' },
      artistName: '',
    });
    expect(fillPlaceholders(`a${spelling}b`, empty, mode)).toBe('ab');
  });

  it('accepts [Contact Name] and [Label Name] as the spec writes them', () => {
    expect(fillPlaceholders('Hi [Contact Name] of [Label Name]', context(), 'text')).toBe('Hi Ann Lee of Night Shift Records');
  });

  it('accepts the template style too when rendering: {{contact_name}}, {{ track_name }}, {{LABEL_NAME}}', () => {
    expect(fillPlaceholders('Hi {{contact_name}} of {{LABEL_NAME}}: {{ track_name }} ({{genre}}) {{track_url}}', context(), 'text')).toBe(
      'Hi Ann Lee of Night Shift Records: Night Drive (Deep House) https://soundcloud.com/nova/night-drive',
    );
    expect(fillPlaceholders('<p>{{contact_name}}</p>', context({ recipient: { name: '<b>Ann</b>', email: 'a@x.example', label_name: null } }), 'html')).toBe(
      '<p>&lt;b&gt;Ann&lt;/b&gt;</p>',
    );
    // Template-only variables and near misses are not placeholders: applying a template fills those.
    expect(fillPlaceholders('{{description}} {{SOCIAL_LINKS}} {contact_name} {{contactname}}', context(), 'text')).toBe(
      '{{description}} {{SOCIAL_LINKS}} {contact_name} {{contactname}}',
    );
    expect(fillPlaceholders('Hi {{contact_name}}', context({ recipient: null }), 'text')).toBe('Hi {{contact_name}}');
  });

  it('replaces every occurrence, in the subject and body alike', () => {
    expect(fillPlaceholders('[NAME] [name] [Name]', context(), 'text')).toBe('Ann Lee Ann Lee Ann Lee');
  });

  it.each(['[CONTACTNAME]', '[CONTACT-NAME]', '[CONTACT__NAME]', '[ NAME ]', '[NAMES]', '[UNKNOWN]', 'NAME', '[[NAME]', '{NAME}'])(
    'leaves the near miss %j alone',
    (text) => {
      const filled = fillPlaceholders(text, context(), 'text');
      // '[[NAME]' still holds a real placeholder after its first bracket.
      expect(filled).toBe(text === '[[NAME]' ? '[Ann Lee' : text);
    },
  );

  it('leaves recipient placeholders as written when there is no recipient, and fills the track ones', () => {
    const text = 'Hi [Contact Name] ([email]) at [LABEL_NAME], [name]: [TRACK_NAME] by [ARTIST_NAME], [genre], [TRACK_URL]';
    expect(fillPlaceholders(text, context({ recipient: null }), 'text')).toBe(
      'Hi [Contact Name] ([email]) at [LABEL_NAME], [name]: Night Drive by Nova, Deep House, https://soundcloud.com/nova/night-drive',
    );
    expect(fillPlaceholders(text, context({ recipient: null }), 'html')).toContain('Hi [Contact Name] ([email]) at [LABEL_NAME], [name]:');
  });

  it('leaves [UNSUBSCRIBE_URL] as written unless the renderer passes the link', () => {
    expect(fillPlaceholders('[UNSUBSCRIBE_URL]', context(), 'html')).toBe('[UNSUBSCRIBE_URL]');
    expect(fillPlaceholders('[Unsubscribe Url]', context(), 'html', { unsubscribeUrl: 'https://t.example/u?a=1&b=2' })).toBe('https://t.example/u?a=1&amp;b=2');
    expect(fillPlaceholders('[unsubscribe_url]', context(), 'text', { unsubscribeUrl: 'https://t.example/u?a=1&b=2' })).toBe('https://t.example/u?a=1&b=2');
  });
});

describe('fillPlaceholders: contact fields are data', () => {
  const attacks = [
    '<script>alert(1)</script>',
    '"><img src=x onerror=alert(1)>',
    "'><svg onload=alert(1)>",
    '</a><a href="javascript:alert(1)">win</a>',
    'Tom & Jerry <b>',
  ];
  const fields = ['name', 'email', 'label_name'] as const;
  const template =
    '<!DOCTYPE html><html><body><p title="[NAME]">Hi [CONTACT_NAME] ([EMAIL]) of <b>[LABEL_NAME]</b></p><a href="[TRACK_URL]">[TRACK_NAME]</a></body></html>';

  /** The HTML as a browser builds it: what must hold is that no markup came from the values. */
  const parse = (html: string) => new JSDOM(html).window.document;

  it.each(fields.flatMap((field) => attacks.map((attack) => [field, attack] as const)))('the contact %s %j stays text in HTML', (field, attack) => {
    const recipient = { name: 'Ann', email: 'ann@label.example', label_name: 'Label', [field]: attack };
    const document = parse(fillPlaceholders(template, context({ recipient }), 'html'));
    expect(document.querySelectorAll('script, img, svg')).toHaveLength(0);
    expect(document.querySelectorAll('a')).toHaveLength(1);
    expect(document.querySelector('[onerror], [onload]')).toBeNull();
    expect(document.querySelector('p')!.getAttribute('title')).toBe(recipient.name);
    expect(document.querySelector('p')!.textContent).toBe(`Hi ${recipient.name} (${recipient.email}) of ${recipient.label_name}`);
  });

  it.each(attacks)('the track name %j stays text in HTML', (attack) => {
    const document = parse(fillPlaceholders(template, context({ track: { track_name: attack, track_url: null, genre: 'house' } }), 'html'));
    expect(document.querySelectorAll('script, img, svg')).toHaveLength(0);
    expect(document.querySelector('a')!.textContent).toBe(attack);
  });

  it('keeps a track link with quotes and brackets inside its href attribute', () => {
    const track_url = "https://x.example/t?q=\"><script>alert(1)</script>&a='1'";
    const document = parse(fillPlaceholders(template, context({ track: { track_name: 'T', track_url, genre: 'house' } }), 'html'));
    expect(document.querySelectorAll('script')).toHaveLength(0);
    expect(document.querySelector('a')!.getAttribute('href')).toBe(track_url);
  });

  it('escapes & < > " \' in HTML mode and leaves text mode values as they are', () => {
    const recipient = { name: `A&B <x> "q" 'y'`, email: 'a@b.co', label_name: null };
    expect(fillPlaceholders('[NAME]', context({ recipient }), 'html')).toBe('A&amp;B &lt;x&gt; &quot;q&quot; &#39;y&#39;');
    expect(fillPlaceholders('[NAME]', context({ recipient }), 'text')).toBe(recipient.name);
  });

  it('does not look for placeholders inside values (one pass)', () => {
    const recipient = { name: '[EMAIL] [TRACK_URL]', email: '[NAME]@x.example', label_name: '[UNSUBSCRIBE_URL]' };
    const filled = fillPlaceholders('[NAME] / [EMAIL] / [LABEL_NAME]', context({ recipient }), 'text', { unsubscribeUrl: 'https://u.example/1' });
    expect(filled).toBe('[EMAIL] [TRACK_URL] / [NAME]@x.example / [UNSUBSCRIBE_URL]');
  });
});

describe('applyTemplateVariables', () => {
  const values: TemplateVariableValues = {
    track_name: 'Night Drive',
    track_url: 'https://soundcloud.com/nova/night-drive',
    description: 'A late-night groove.\nWarm pads.',
    artist_name: 'Nova',
    social_links: [
      { label: 'Website', url: 'https://nova.example' },
      { label: 'SoundCloud', url: 'https://soundcloud.com/nova' },
    ],
  };

  it('fills the track, the description and the artist', () => {
    const text = '{{track_name}} | {{track_url}} | {{description}} | {{artist_name}}';
    expect(applyTemplateVariables(text, values, 'text')).toBe(
      'Night Drive | https://soundcloud.com/nova/night-drive | A late-night groove.\nWarm pads. | Nova',
    );
  });

  it('turns {{contact_name}} and {{label_name}} into placeholders that are filled per recipient', () => {
    const body = applyTemplateVariables('Hi {{contact_name}} at {{label_name}}', values, 'text');
    // The one placeholder style the UI shows (the spec's [CONTACT_NAME]).
    expect(body).toBe('Hi [CONTACT_NAME] at [LABEL_NAME]');
    expect(fillPlaceholders(body, context(), 'text')).toBe('Hi Ann Lee at Night Shift Records');
  });

  it('tolerates spaces inside the braces and leaves unknown variables as written', () => {
    expect(applyTemplateVariables('{{ track_name }} {{track_name  }} {{unknown}} {{ mood }} {track_name}', values, 'text')).toBe(
      'Night Drive Night Drive {{unknown}} {{ mood }} {track_name}',
    );
  });

  it('lists {{SOCIAL_LINKS}} one per line in text and as links in HTML; nothing without links', () => {
    expect(applyTemplateVariables('{{SOCIAL_LINKS}}', values, 'text')).toBe('Website: https://nova.example\nSoundCloud: https://soundcloud.com/nova');
    const html = applyTemplateVariables('<p>{{SOCIAL_LINKS}}</p>', values, 'html');
    const links = [...new JSDOM(html).window.document.querySelectorAll('a')].map((a) => [a.textContent, a.getAttribute('href')]);
    expect(links).toEqual([
      ['Website', 'https://nova.example'],
      ['SoundCloud', 'https://soundcloud.com/nova'],
    ]);
    expect(html).toContain(' &middot; ');
    expect(applyTemplateVariables('[{{SOCIAL_LINKS}}]', { ...values, social_links: [] }, 'text')).toBe('[]');
    expect(applyTemplateVariables('[{{SOCIAL_LINKS}}]', { ...values, social_links: [] }, 'html')).toBe('[]');
  });

  it('writes the §5 footer for {{UNSUBSCRIBE_FOOTER}} with an [UNSUBSCRIBE_URL] link', () => {
    expect(applyTemplateVariables('{{UNSUBSCRIBE_FOOTER}}', values, 'text')).toBe(`${UNSUBSCRIBE_FOOTER_TEXT}\n${UNSUBSCRIBE_LINK_TEXT}: [UNSUBSCRIBE_URL]`);
    const document = new JSDOM(applyTemplateVariables('{{UNSUBSCRIBE_FOOTER}}', values, 'html')).window.document;
    const link = document.querySelector('p a')!;
    expect(link.getAttribute('href')).toBe('[UNSUBSCRIBE_URL]');
    expect(link.textContent).toBe(UNSUBSCRIBE_LINK_TEXT);
    expect(document.querySelector('p')!.textContent).toContain(UNSUBSCRIBE_FOOTER_TEXT);
  });

  it('escapes values in HTML mode, the description keeping its line breaks', () => {
    const hostile = {
      ...values,
      track_name: '<script>alert(1)</script>',
      description: 'Line <b>one</b>\nLine two',
      artist_name: '"Nova" & co',
      social_links: [{ label: '<i>x</i>', url: 'https://x.example/?a="b"' }],
    };
    const html = applyTemplateVariables('<h1>{{track_name}}</h1><p>{{description}}</p><p>{{artist_name}}</p>{{SOCIAL_LINKS}}', hostile, 'html');
    expect(html).toContain('<h1>&lt;script&gt;alert(1)&lt;/script&gt;</h1>');
    expect(html).toContain('Line &lt;b&gt;one&lt;/b&gt;<br>\nLine two');
    expect(html).toContain('&quot;Nova&quot; &amp; co');
    const link = new JSDOM(html).window.document.querySelector('a')!;
    expect([link.textContent, link.getAttribute('href')]).toEqual(['<i>x</i>', 'https://x.example/?a="b"']);
  });

  it('does not look for variables inside values', () => {
    expect(applyTemplateVariables('{{track_name}}', { ...values, track_name: '{{description}}' }, 'text')).toBe('{{description}}');
  });
});

describe('inShownPlaceholderStyle', () => {
  it("shows a template's {{variables}} in the one style the UI uses", () => {
    expect(inShownPlaceholderStyle('Demo submission: {{track_name}} by {{ artist_name }} for {{label_name}}')).toBe(
      'Demo submission: [TRACK_NAME] by [ARTIST_NAME] for [LABEL_NAME]',
    );
    expect(inShownPlaceholderStyle('[CONTACT_NAME] {single} plain')).toBe('[CONTACT_NAME] {single} plain');
  });

  it('shows what is then filled: the shown style fills as the stored one does', () => {
    const subject = 'New {{track_name}} for {{contact_name}}';
    const shown = inShownPlaceholderStyle(subject);
    expect(shown).not.toContain('{{');
    expect(fillPlaceholders(shown, context(), 'text')).toBe(fillPlaceholders(subject, context(), 'text'));
  });
});
