/**
 * The character rules (schema/api/characters.ts) and every place they apply: the email rule (contacts, the
 * CSV import, the directory import and add, the waitlist and the landing page, sign-up), the link rule, and
 * the free-text fields of the API schemas (storableText in schema/api/common.ts).
 */
import { describe, expect, it } from 'vitest';
import { directoryImportMessages, parseDirectoryImport } from '../../lambdas/core/directoryImport';
import { draftInputSchema, emailUpdateSchema, contactListInputSchema, templateInputSchema } from '../../schema/api/campaigns';
import { characterMessages, hasInvisibleOrControl, hasNulOrLoneSurrogate } from '../../schema/api/characters';
import { contactEmailError, contactInputSchema, contactMessages, csvContactSchema, isContactEmail } from '../../schema/api/contacts';
import { normaliseWebsite, isHttpLink } from '../../schema/api/links';
import { profileUpdateSchema } from '../../schema/api/profile';
import { unsubscribeSubmitSchema } from '../../schema/api/sending';
import { waitlistEmailError, waitlistJoinSchema, waitlistMessages, waitlistNotesSchema } from '../../schema/api/waitlist';
import { csvMessages, planContactImport } from '../../schema/csv/contactImport';

const hex = (code: number) => `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

const C0_C1 = [...range(0x00, 0x1f), ...range(0x7f, 0x9f)];
/** Unicode Cf (format) characters people paste without seeing them. */
const FORMAT = [0x00ad, 0x061c, 0x180e, 0x200b, 0x200c, 0x200d, 0x200e, 0x200f, 0x202a, 0x202e, 0x2060, 0x2066, 0x2069, 0xfeff, 0xe0001];
/** Whitespace other than the plain space. */
const WHITESPACE = [0x00a0, 0x1680, 0x2000, 0x2007, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000];
const LONE_SURROGATES: [string, string][] = [
  ['a lone high surrogate', 'a\ud800b'],
  ['a lone low surrogate', 'a\udc00b'],
  ['a high surrogate at the end', 'ab\udbff'],
  ['a low surrogate at the start', '\udfffab'],
  ['a pair in the wrong order', 'a\ude00\ud83db'],
];

describe('hasInvisibleOrControl (addresses)', () => {
  it.each(C0_C1.map((code) => [hex(code), code]))('finds the control character %s', (_name, code) => {
    expect(hasInvisibleOrControl(`a${String.fromCharCode(code)}@b.example`)).toBe(true);
  });

  it.each(FORMAT.map((code) => [hex(code), code]))('finds the format (Cf) character %s', (_name, code) => {
    expect(hasInvisibleOrControl(`a${String.fromCodePoint(code)}@b.example`)).toBe(true);
  });

  it.each(WHITESPACE.map((code) => [hex(code), code]))('finds the whitespace %s', (_name, code) => {
    expect(hasInvisibleOrControl(`a${String.fromCharCode(code)}@b.example`)).toBe(true);
  });

  it.each(LONE_SURROGATES)('finds %s', (_name, value) => expect(hasInvisibleOrControl(value)).toBe(true));

  it.each([
    'a@b.example',
    'josé@bücher.example',
    'δοκιμή@παράδειγμα.example',
    '用户@例子.example',
    'dj😀@emoji.example',
    'a b',
    'https://label.com/demos?x=1#top',
  ])('finds nothing in %j (non-ASCII letters, a surrogate pair, the plain space)', (value) => expect(hasInvisibleOrControl(value)).toBe(false));
});

describe('hasNulOrLoneSurrogate (free text)', () => {
  it.each([['NUL', 'Mara\u0000Velvet'], ['NUL alone', '\u0000'], ...LONE_SURROGATES])('finds %s', (_name, value) => {
    expect(hasNulOrLoneSurrogate(value)).toBe(true);
  });

  it.each(['Mara Velvet', 'line one\nline two\ttabbed', 'zero\u200bwidth', 'Beyoncé 😀 — “quoted”', '\u0001', ''])(
    'keeps %j: free text may hold line breaks, tabs, emoji and any other character',
    (value) => expect(hasNulOrLoneSurrogate(value)).toBe(false),
  );
});

const INVISIBLE_EMAILS: [string, string][] = [
  ['NUL', 'a\u0000@b.example'],
  ['a zero-width space', 'a\u200b@b.example'],
  ['a left-to-right mark', 'a\u200e@b.example'],
  ['a BOM inside', 'a\ufeff@b.example'],
  ['a word joiner', 'a@b\u2060.example'],
  ['a soft hyphen', 'ma\u00adra@b.example'],
  ['a no-break space inside', 'a\u00a0b@c.example'],
  ['an ideographic space inside', 'a\u3000b@c.example'],
  ['a tab inside', 'a\tb@c.example'],
  ['DEL', 'a\u007f@b.example'],
  ['a C1 control', 'a\u0085@b.example'],
  ['a lone high surrogate', 'a\ud800@b.example'],
  ['a lone low surrogate', 'a\udc00@b.example'],
];

describe('the email rule of contacts (contactEmailError)', () => {
  it.each(INVISIBLE_EMAILS)("refuses an address with %s: 'Email contains an invisible or control character.'", (_name, email) => {
    expect(contactEmailError(email)).toBe('Email contains an invisible or control character.');
    expect(isContactEmail(email)).toBe(false);
  });

  it("keeps the spec's message for a malformed address, and accepts what it accepted (non-ASCII, surrounding spaces)", () => {
    expect(contactEmailError('mara velvet@b.example')).toBe(contactMessages.invalidEmail);
    expect(contactEmailError('mara@velvet')).toBe('Please enter a valid email address.');
    for (const email of ['josé@bücher.example', 'dj😀@emoji.example', '  a@b.example\u00a0', '\ufeffa@b.example']) {
      expect(contactEmailError(email), email).toBeNull();
    }
  });

  it.each(INVISIBLE_EMAILS)('the add/edit form and the CSV rows the server takes refuse an address with %s, naming the field', (_name, email) => {
    for (const result of [contactInputSchema.safeParse({ name: 'Mara', email }), csvContactSchema.safeParse({ email })]) {
      expect(result.success).toBe(false);
      expect(result.error?.issues).toEqual([expect.objectContaining({ path: ['email'], message: characterMessages.invisibleInEmail })]);
    }
  });

  it('the form still accepts a non-ASCII address', () => {
    expect(contactInputSchema.safeParse({ name: 'José', email: 'josé@bücher.example' })).toMatchObject({
      success: true,
      data: { email: 'josé@bücher.example' },
    });
  });
});

describe('the CSV import (planContactImport) names the row', () => {
  const table = (rows: string[][]) => ({ rows, rowNumbers: rows.map((_, index) => index + 1), delimiter: ',' as const });
  const errorsOf = (rows: string[][]) => {
    const result = planContactImport(table([['email', 'name', 'label', 'genre'], ...rows]), {
      hasHeader: true,
      removeDuplicates: true,
      mapping: ['email', 'name', 'label_name', 'genre'],
    });
    // Rows with a problem are skipped with their reason (issue 25); the file itself is fine here.
    if (!result.ok) throw new Error(result.error);
    return result.plan.skipped.map((row) => row.reason);
  };

  it.each(INVISIBLE_EMAILS)('refuses a row whose email has %s', (_name, email) => {
    expect(errorsOf([['ok@b.example'], [email]])).toEqual(['Row 3: Email contains an invisible or control character']);
  });

  it("keeps the spec's 'Invalid email format' for a malformed address", () => {
    expect(errorsOf([['a b@c.example']])).toEqual([csvMessages.invalidEmail(2, 'a b@c.example')]);
  });

  it.each([
    ['Name', ['a@b.example', 'Mara\u0000Velvet', '', '']],
    ['Label/Company', ['a@b.example', '', 'Velvet\ud800', '']],
    ['Genre', ['a@b.example', '', '', '\udc00House']],
  ])('refuses a row whose %s cannot be stored (NUL or a lone surrogate)', (field, row) => {
    expect(errorsOf([row])).toEqual([`Row 2: ${field} contains a character that cannot be stored`]);
  });
});

describe('the directory import names the row and the reason', () => {
  // A CSV file holding NUL is refused whole as binary (schema/csv/parse.ts); a tab is a delimiter.
  it.each(INVISIBLE_EMAILS.filter(([, email]) => !/[\0\t]/.test(email)))('rejects a CSV row whose email has %s', (_name, email) => {
    const result = parseDirectoryImport('csv', `name,email\nGood,good@labels.example\nBad,"${email}"\n`);
    expect(result).toMatchObject({ ok: true, plan: { entries: [{ email: 'good@labels.example' }] } });
    if (result.ok) expect(result.plan.rejected).toEqual([{ row: 3, email, reasons: ['Email contains an invisible or control character'] }]);
  });

  it('rejects a JSON record with such an email, and keeps the format message for a malformed one', () => {
    const result = parseDirectoryImport('json', JSON.stringify([{ email: 'a\u200b@labels.example' }, { email: 'a@labels' }, { email: 'josé@bücher.example' }]));
    expect(result).toMatchObject({ ok: true, plan: { entries: [{ email: 'josé@bücher.example' }] } });
    if (result.ok) {
      expect(result.plan.rejected).toEqual([
        { row: 1, email: 'a\u200b@labels.example', reasons: [directoryImportMessages.invisibleInEmail] },
        { row: 2, email: 'a@labels', reasons: ['Invalid email format: a@labels'] },
      ]);
    }
  });

  it.each([
    ['name', 'Name'],
    ['location', 'Location'],
    ['label_size', 'Label size'],
    ['description', 'Description'],
    ['submission_guidelines', 'Submission guidelines'],
  ])('rejects a record whose %s holds NUL or a lone surrogate', (key, label) => {
    const result = parseDirectoryImport(
      'json',
      JSON.stringify([
        { email: 'a@labels.example', [key]: 'x\u0000y' },
        { email: 'b@labels.example', [key]: 'x\ud800' },
      ]),
    );
    if (!result.ok) throw new Error(result.error);
    expect(result.plan.entries).toEqual([]);
    expect(result.plan.rejected).toEqual([
      { row: 1, email: 'a@labels.example', reasons: [`${label} contains a character that cannot be stored`] },
      { row: 2, email: 'b@labels.example', reasons: [`${label} contains a character that cannot be stored`] },
    ]);
  });
});

describe('the waitlist (server schema and landing page share waitlistEmailError)', () => {
  const join = (fields: Record<string, unknown>) =>
    waitlistJoinSchema.safeParse({ email: 'a@b.example', artist_name: 'Nova', music_style: 'House', ...fields });

  it.each(INVISIBLE_EMAILS)('refuses an address with %s, with its own message', (_name, email) => {
    expect(waitlistEmailError(email)).toBe('Email contains an invisible or control character.');
    const result = join({ email });
    expect(result.error?.issues).toEqual([expect.objectContaining({ path: ['email'], message: waitlistMessages.invisibleInEmail })]);
  });

  it('keeps its own message for a malformed address, and its pattern (ASCII only)', () => {
    expect(waitlistEmailError('not-an-email')).toBe(waitlistMessages.badEmail);
    expect(waitlistEmailError('josé@bücher.example')).toBe('Enter a valid email address');
    expect(waitlistEmailError(' Nova@Records.example ')).toBeNull();
    expect(join({ email: ' Nova@Records.example ' })).toMatchObject({ success: true, data: { email: 'nova@records.example' } });
  });

  it.each([
    ['artist_name', 'Artist name'],
    ['why_interested', 'Why interested'],
  ])('refuses %s with NUL or a lone surrogate', (field, label) => {
    for (const value of ['No\u0000va', 'Nova\ud800']) {
      expect(join({ [field]: value }).error?.issues).toEqual([
        expect.objectContaining({ path: [field], message: `${label} contains a character that cannot be stored.` }),
      ]);
    }
  });

  it("refuses the admin's notes with NUL or a lone surrogate", () => {
    expect(waitlistNotesSchema.safeParse({ notes: 'call\u0000back' }).error?.issues[0]?.message).toBe('Notes contains a character that cannot be stored.');
    expect(waitlistNotesSchema.safeParse({ notes: 'call back 😀\n' }).success).toBe(true);
  });
});

describe('the link rule refuses the same characters', () => {
  it.each([
    ['a zero-width space', 'https://label\u200b.com'],
    ['a soft hyphen (IDNA drops it: it would open label.com)', 'https://lab\u00adel.com'],
    ['a right-to-left override', 'https://label.com/\u202egnp.exe'],
    ['a control character in the path', 'https://label.com/a\u0001b'],
    ['NUL', 'label.com/\u0000'],
    ['a no-break space', 'https://label.com/a\u00a0b'],
    ['a lone surrogate', 'https://label.com/\ud800'],
  ])('refuses a website with %s', (_name, value) => {
    expect(normaliseWebsite(value)).toBeNull();
    expect(isHttpLink(value)).toBe(false);
  });

  it('still accepts links with non-ASCII letters and refuses the plain space', () => {
    expect(normaliseWebsite('https://bücher.example/josé')).toBe('https://bücher.example/josé');
    expect(normaliseWebsite('https://label.com/a b')).toBeNull();
  });
});

describe('free-text fields refuse NUL and lone surrogates, naming the field', () => {
  const BAD = ['x\u0000y', 'x\ud800y', 'x\udc00'];
  /** [schema, a valid body, the field's path, the field's name in the message] */
  const track = { track_name: 'Night Drive', track_url: 'https://sound.example/t', genre: 'house', description: 'Deep and warm' };
  const cases: [
    string,
    { safeParse: (value: unknown) => { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } } },
    Record<string, unknown>,
    PropertyKey[],
    string,
  ][] = [
    ['contact name', contactInputSchema, { name: 'Mara', email: 'a@b.example' }, ['name'], 'Name'],
    ['contact label', contactInputSchema, { name: 'Mara', email: 'a@b.example' }, ['label_name'], 'Label/Company'],
    ['contact position', contactInputSchema, { name: 'Mara', email: 'a@b.example' }, ['position'], 'Position'],
    ['contact genre', contactInputSchema, { name: 'Mara', email: 'a@b.example' }, ['genre'], 'Genre'],
    ['contact notes', contactInputSchema, { name: 'Mara', email: 'a@b.example' }, ['notes'], 'Notes'],
    ['CSV row name', csvContactSchema, { email: 'a@b.example' }, ['name'], 'Name'],
    ['profile full name', profileUpdateSchema, {}, ['full_name'], 'Full name'],
    ['profile artist name', profileUpdateSchema, {}, ['artist_name'], 'Artist name'],
    ['profile bio', profileUpdateSchema, {}, ['bio'], 'Bio'],
    [
      'track name',
      draftInputSchema,
      { mode: 'ai', track, email_subject: 'Hi', email_body: 'Hello', total_recipients: 1 },
      ['track', 'track_name'],
      'Track name',
    ],
    [
      'track description',
      draftInputSchema,
      { mode: 'ai', track, email_subject: 'Hi', email_body: 'Hello', total_recipients: 1 },
      ['track', 'description'],
      'Description',
    ],
    ['track mood', draftInputSchema, { mode: 'ai', track, email_subject: 'Hi', email_body: 'Hello', total_recipients: 1 }, ['track', 'mood'], 'Mood'],
    [
      'HTML campaign genre',
      draftInputSchema,
      { mode: 'html', track: {}, email_subject: 'Hi', email_body: '<p>Hello</p>', total_recipients: 1 },
      ['track', 'genre'],
      'Genre',
    ],
    ['email subject', emailUpdateSchema, { email_subject: 'Hi', email_body: 'Hello' }, ['email_subject'], 'Subject'],
    ['email body', emailUpdateSchema, { email_subject: 'Hi', email_body: 'Hello' }, ['email_body'], 'Email body'],
    ['template name', templateInputSchema, { name: 'Mine', subject: 'Hi', body: 'Hello' }, ['name'], 'Template name'],
    ['template body', templateInputSchema, { name: 'Mine', subject: 'Hi', body: 'Hello' }, ['body'], 'Email body'],
    ['saved list name', contactListInputSchema, { name: 'Berlin', contact_types: [], selected_genres: [], contact_ids: [] }, ['name'], 'List name'],
    ['unsubscribe details', unsubscribeSubmitSchema, { token: 't' }, ['reasonDetails'], 'Details'],
  ];

  it.each(cases)('%s', (_name, schema, valid, path, label) => {
    const withValue = (value: string) => {
      const body = structuredClone(valid);
      let at: Record<string, unknown> = body;
      for (const key of path.slice(0, -1)) at = at[key as string] as Record<string, unknown>;
      at[path.at(-1) as string] = value;
      return body;
    };
    expect(schema.safeParse(withValue('Fine 😀\ttext\nwith\u200bbreaks')).success).toBe(true);
    for (const value of BAD) {
      const result = schema.safeParse(withValue(value));
      expect(result.success, JSON.stringify(value)).toBe(false);
      expect(result.error?.issues).toContainEqual(expect.objectContaining({ path, message: `${label} contains a character that cannot be stored.` }));
    }
  });
});
