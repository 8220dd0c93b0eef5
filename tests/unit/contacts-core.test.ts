/** The contact rules every creating path shares (lambdas/core/contacts.ts): ids, the CSV and directory mappings, the allowance. */
import { describe, expect, it } from 'vitest';
import { addressId, contactFromCsvRow, contactFromDirectoryEntry, contactsFromImportRows, directoryAllowance, isAddressId } from '../../lambdas/core/contacts';
import { directoryAdditionsOf } from '../../lambdas/core/plans';
import { contactMessages, contactSchema, csvContactSchema, isContactEmail, type CsvContact } from '../../schema/api/contacts';
import { isFreeAllowance, remainingAdditions, type DirectoryEntry } from '../../schema/api/directory';

const ALICE = '8f1c2d3e-0000-4000-8000-000000000001';
const BOB = '8f1c2d3e-0000-4000-8000-000000000002';

describe('addressId', () => {
  it('is the same id it was when contacts were stored (ids are keys: a change would orphan every stored contact)', () => {
    expect(addressId(ALICE, 'Nova@Example.com')).toBe('cL0LNsNFsuHkketsIS7Sj0');
  });

  it('ignores case and surrounding spaces of the address', () => {
    const id = addressId(ALICE, 'nova@example.com');
    expect(addressId(ALICE, '  NOVA@EXAMPLE.COM ')).toBe(id);
    expect(addressId(ALICE, 'Nova@Example.com\t')).toBe(id);
  });

  it('differs between addresses and between users (ids are not linkable across accounts)', () => {
    const id = addressId(ALICE, 'nova@example.com');
    expect(addressId(ALICE, 'nova2@example.com')).not.toBe(id);
    expect(addressId(BOB, 'nova@example.com')).not.toBe(id);
  });

  it('is 22 URL-safe characters that isAddressId accepts', () => {
    for (const email of ['a@b.co', 'someone.with+tag@sub.example.org', `${'x'.repeat(240)}@example.com`]) {
      const id = addressId(ALICE, email);
      expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(isAddressId(id)).toBe(true);
    }
  });
});

describe('isAddressId', () => {
  it.each(['', 'parity-test-id', 'cL0LNsNFsuHkketsIS7Sj', 'cL0LNsNFsuHkketsIS7Sj00', 'cL0LNsNFsuHkketsIS7S/0', 'cL0LNsNFsuHkketsIS7S=0', '../../PROFILE'])(
    'refuses %j',
    (id) => expect(isAddressId(id)).toBe(false),
  );
});

describe('isContactEmail (the one "has a real address" rule: directory index, card button, GET /api/directory)', () => {
  it.each(['ana@label.com', ' ana@label.com ', 'demo.team+tag@sub.label.co.uk', 'zoë@café.fr'])('accepts %j', (value) =>
    expect(isContactEmail(value)).toBe(true),
  );
  it.each(['No email', '', '   ', 'ana@label', '@label.com', 'ana@', 'ana label@x.com', 'a@b@c.com'])('refuses %j', (value) =>
    expect(isContactEmail(value)).toBe(false),
  );
});

describe('contactsFromImportRows: one bad row never costs the rest (issue 25)', () => {
  it('turns the good rows into contacts and names each bad one by its position in the batch and why', () => {
    const { contacts, rejected } = contactsFromImportRows(
      [
        { email: 'ana@label.com', position: ' A&R ', website_url: 'label.com', notes: 'Country: Germany' },
        { email: 'not-an-email' },
        { name: 'No Email' },
        { email: 'bo@label.com', phone: '123' },
        { email: 'cy@label.com', website_url: 'javascript:alert(1)', name: 'x'.repeat(201) },
        null,
        { email: 'di@label.com', contact_type: 'DJ' },
      ],
      csvContactSchema,
    );
    expect(contacts.map((contact) => contact.email)).toEqual(['ana@label.com', 'di@label.com']);
    expect(contacts[0]).toMatchObject({ name: 'ana', position: 'A&R', website_url: 'https://label.com', notes: 'Country: Germany' });
    expect(rejected).toEqual([
      { row: 2, reason: 'email: Please enter a valid email address.' },
      { row: 3, reason: 'email is required' },
      { row: 4, reason: 'Unknown field: phone' },
      { row: 5, reason: `name: Must be at most 200 characters; website_url: ${contactMessages.invalidWebsite}` },
      { row: 6, reason: 'A row must be a JSON object.' },
    ]);
  });

  it('keeps a row’s time zone in its canonical spelling and turns down a row with an unknown one, naming it (issue 27 §2)', () => {
    const { contacts, rejected } = contactsFromImportRows(
      [
        { email: 'a@label.com', time_zone: 'europe/berlin' },
        { email: 'b@label.com', time_zone: 'Mars/Olympus' },
        { email: 'c@label.com', time_zone: '' },
      ],
      csvContactSchema,
    );
    expect(contacts.map((contact) => [contact.email, contact.time_zone])).toEqual([
      ['a@label.com', 'Europe/Berlin'],
      ['c@label.com', null],
    ]);
    expect(rejected).toEqual([{ row: 2, reason: 'time_zone: Unknown time zone: Mars/Olympus. Use an IANA time zone name such as Europe/Berlin.' }]);
  });

  it('rejects nothing when every row is good', () => {
    expect(contactsFromImportRows([{ email: 'a@label.com' }, { email: 'b@label.com' }], csvContactSchema).rejected).toEqual([]);
  });
});

describe('contactFromCsvRow (spec §3 "CSV import contact")', () => {
  // Rows as the import endpoint sees them: validated by its schema first (trimmed, blanks made null).
  const fromCsv = (row: CsvContact) => contactFromCsvRow(csvContactSchema.parse(row));

  it('keeps the mapped columns and leaves the fields an import does not map empty', () => {
    const contact = fromCsv({ email: 'ana@label.com', name: 'Ana', label_name: 'Deep Label', contact_type: 'DJ', genre: 'House, Techno' });
    expect(contact).toEqual({
      name: 'Ana',
      email: 'ana@label.com',
      label_name: 'Deep Label',
      contact_type: 'DJ',
      position: null,
      genre: 'House, Techno',
      website_url: null,
      notes: null,
      genre_focus: null,
      time_zone: null,
    });
    const stored = { ...contact, id: addressId(ALICE, contact.email), created_at: '2026-11-21T10:00:00.000Z' };
    expect(contactSchema.strict().parse(stored)).toEqual(stored);
  });

  it("names a row without a name after its address's local part", () => {
    expect(fromCsv({ email: 'demo.team+tag@label.com' }).name).toBe('demo.team+tag');
    expect(fromCsv({ email: 'ana@label.com', name: '   ' }).name).toBe('ana');
    expect(fromCsv({ email: ' ben@label.com ', name: null }).name).toBe('ben');
  });

  it('makes a row without a type a Label, and leaves a missing label or genre null', () => {
    expect(fromCsv({ email: 'ana@label.com' })).toMatchObject({ contact_type: 'Label', label_name: null, genre: null });
  });
});

const entry = (overrides: Partial<DirectoryEntry> = {}): DirectoryEntry => ({
  id: 'lf-007',
  name: 'Deep Current Records',
  email: 'demos@deepcurrent.example',
  genres: ['deep-house', 'techno'],
  location: 'Berlin, Germany',
  label_size: 'Boutique',
  description: 'Hypnotic deep house and techno.',
  website_url: 'https://deepcurrent.example',
  submission_guidelines: 'Private SoundCloud links only.',
  is_featured: true,
  contact_type: 'Label',
  demo_policy: null,
  ...overrides,
});

describe('contactFromDirectoryEntry (spec §3 "User contact created from the directory")', () => {
  const createdAt = '2026-11-21T10:00:00.000Z';

  it('makes a label entry an A&R Manager contact with genres (as read, and as slugs), website and notes from the entry', () => {
    const contact = contactFromDirectoryEntry(ALICE, entry(), createdAt);
    expect(contact).toEqual({
      id: addressId(ALICE, 'demos@deepcurrent.example'),
      name: 'Deep Current Records',
      email: 'demos@deepcurrent.example',
      label_name: 'Deep Current Records',
      contact_type: 'Label',
      position: 'A&R Manager',
      genre: 'Deep House, Techno',
      website_url: 'https://deepcurrent.example',
      notes: 'Hypnotic deep house and techno.\n\nSubmission guidelines: Private SoundCloud links only.',
      genre_focus: 'deep-house, techno',
      time_zone: 'Europe/Berlin',
      created_at: createdAt,
      label_size: 'Boutique',
    });
    expect(contactSchema.strict().parse(contact)).toEqual(contact);
  });

  it("keeps the entry's label size, which the pipeline board of a track pitched to the contact filters by (issue 28)", () => {
    expect(contactFromDirectoryEntry(ALICE, entry({ label_size: 'Major subsidiary' }), createdAt).label_size).toBe('Major subsidiary');
    // Free text as the directory stores it: an imported size outside the suggested ones is kept as it is.
    expect(contactFromDirectoryEntry(ALICE, entry({ label_size: 'Collective' }), createdAt).label_size).toBe('Collective');
  });

  it('guesses the time zone from the country of the entry’s location when that country has one zone (issue 27 §2)', () => {
    const zoneOf = (location: string) => contactFromDirectoryEntry(ALICE, entry({ location }), createdAt).time_zone;
    expect(zoneOf('London, UK')).toBe('Europe/London');
    expect(zoneOf('Amsterdam, Netherlands')).toBe('Europe/Amsterdam');
    expect(zoneOf('Tokyo, Japan')).toBe('Asia/Tokyo');
    expect(zoneOf('Ibiza, Spain')).toBe('Europe/Madrid');
    // Several zones, or no country: no guess.
    expect(zoneOf('Detroit, USA')).toBeNull();
    expect(zoneOf('Melbourne, Australia')).toBeNull();
    expect(zoneOf('Unknown Location')).toBeNull();
  });

  it("makes a DJ entry a DJ contact with position 'DJ'", () => {
    const contact = contactFromDirectoryEntry(ALICE, entry({ contact_type: 'DJ', name: 'DJ Lumen' }), createdAt);
    expect(contact).toMatchObject({ contact_type: 'DJ', position: 'DJ', name: 'DJ Lumen', label_name: 'DJ Lumen' });
  });

  it("gives the genre as people read it, so it groups with a typed 'Drum & Bass' in the Contacts genre filter", () => {
    const contact = contactFromDirectoryEntry(ALICE, entry({ genres: ['drum-bass', 'tech-house', 'other'] }), createdAt);
    expect(contact).toMatchObject({ genre: 'Drum & Bass, Tech House, Other', genre_focus: 'drum-bass, tech-house, other' });
  });

  it('gives the contact the website as a link: a bare domain becomes https, a non-http one none', () => {
    expect(contactFromDirectoryEntry(ALICE, entry({ website_url: 'deepcurrent.example' }), createdAt).website_url).toBe('https://deepcurrent.example');
    expect(contactFromDirectoryEntry(ALICE, entry({ website_url: 'javascript:alert(1)//x.com' }), createdAt).website_url).toBeNull();
  });

  it('leaves genre and genre_focus null for an entry without genres, and the website null without one', () => {
    const contact = contactFromDirectoryEntry(ALICE, entry({ genres: [], website_url: null }), createdAt);
    expect(contact).toMatchObject({ genre: null, genre_focus: null, website_url: null });
  });

  it('gives the contact the same id a form or CSV contact with that address gets (so the directory cannot duplicate one)', () => {
    const contact = contactFromDirectoryEntry(ALICE, entry({ email: 'Demos@DeepCurrent.example' }), createdAt);
    expect(contact.id).toBe(addressId(ALICE, ' demos@deepcurrent.example '));
    expect(contactFromDirectoryEntry(BOB, entry(), createdAt).id).not.toBe(contact.id);
  });
});

describe('directory allowance (spec §6: free 5 additions in total, paid 1000)', () => {
  it('limits the free tier (and a user without a profile yet) to 5, paid tiers to 1000', () => {
    expect(directoryAdditionsOf('free')).toBe(5);
    expect(directoryAdditionsOf(undefined)).toBe(5);
    expect(directoryAdditionsOf('pro')).toBe(1000);
    expect(directoryAdditionsOf('label')).toBe(1000);
  });

  it('reads the used count from the profile', () => {
    expect(directoryAllowance({ tier: 'free', labelfinder_additions_count: 3 })).toEqual({ used: 3, limit: 5 });
    expect(directoryAllowance({ tier: 'pro', labelfinder_additions_count: 40 })).toEqual({ used: 40, limit: 1000 });
  });

  it('leaves limit − used, never below 0', () => {
    expect(remainingAdditions({ used: 0, limit: 5 })).toBe(5);
    expect(remainingAdditions({ used: 3, limit: 5 })).toBe(2);
    expect(remainingAdditions({ used: 5, limit: 5 })).toBe(0);
    // A paid user who downgrades keeps the additions already counted: nothing more, not a negative number.
    expect(remainingAdditions({ used: 40, limit: 5 })).toBe(0);
    expect(remainingAdditions({ used: 999, limit: 1000 })).toBe(1);
  });

  it('tells the free tier (whose refusals offer the upgrade) by its limit, whatever has been used', () => {
    expect(isFreeAllowance(directoryAllowance({ tier: 'free', labelfinder_additions_count: 0 }))).toBe(true);
    expect(isFreeAllowance(directoryAllowance({ tier: 'free', labelfinder_additions_count: 5 }))).toBe(true);
    expect(isFreeAllowance(directoryAllowance({ tier: 'pro', labelfinder_additions_count: 0 }))).toBe(false);
    expect(isFreeAllowance(directoryAllowance({ tier: 'label', labelfinder_additions_count: 1000 }))).toBe(false);
  });
});
