import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { contactLimits } from '../../schema/api/contacts';
import { csvMessages } from '../../schema/csv/contactImport';
import { contact, fakeContactsServer, gate, idOf, renderContacts, type ContactsServer } from './contacts-fake-server';
import { preloadRoutes } from './helpers';

beforeAll(async () => {
  await preloadRoutes();
  await import('../../web/src/pages/contacts/ContactsPage');
  await import('../../web/src/pages/contacts/CsvImportPanel');
}, 60_000);

const fileInput = () => screen.getByLabelText(csvMessages.fileLabel);

async function openImport(server: ContactsServer) {
  renderContacts(server);
  await screen.findByRole('tab', { name: /^Contacts \(\d+\)$/ });
  const user = userEvent.setup();
  await user.click(screen.getByRole('button', { name: 'Import CSV' }));
  await screen.findByLabelText(csvMessages.fileLabel);
  return user;
}

async function upload(user: ReturnType<typeof userEvent.setup>, text: string, name = 'contacts.csv', type = 'text/csv') {
  const file = new File([text], name, { type });
  await user.upload(fileInput(), file);
  return file;
}

const csv = (rows: readonly (readonly string[])[]) => rows.map((row) => row.join(',')).join('\r\n');

/** `count` data rows under an email/name header: row{start}@import.test … */
function rows(count: number, start = 1): string[][] {
  return Array.from({ length: count }, (_, i) => [`row${start + i}@import.test`, `Row ${start + i}`]);
}

const importButton = () => screen.getByRole('button', { name: /^Import(ing)? Contacts|^Importing\.\.\.$/ });
const mappingSelect = (heading: string) => screen.getByRole('button', { name: new RegExp(`^${heading}`) });
const tabCount = async (n: number) => screen.findByRole('tab', { name: `Contacts (${n.toLocaleString()})` });

describe('choosing a file', () => {
  it('offers a .csv file input labelled with the limits', async () => {
    await openImport(fakeContactsServer());
    expect(fileInput()).toHaveAttribute('type', 'file');
    expect(fileInput().getAttribute('accept')).toContain('.csv');
  });

  it('refuses a file that is not a CSV, or larger than 5 MB, with the spec toasts', async () => {
    const server = fakeContactsServer();
    await openImport(server);
    const user = userEvent.setup({ applyAccept: false });
    await upload(user, 'hello', 'notes.txt', 'text/plain');
    expect(await screen.findByText('Please select a CSV file.')).toBeInTheDocument();

    const big = new File(['email\na@b.co'], 'big.csv', { type: 'text/csv' });
    Object.defineProperty(big, 'size', { value: contactLimits.csvMaxBytes + 1 });
    await user.upload(fileInput(), big);
    expect(await screen.findByText('File too large')).toBeInTheDocument();
    expect(screen.getByText('Maximum file size is 5MB.')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Map CSV Columns' })).not.toBeInTheDocument();
  });

  it('says when the file cannot be read', async () => {
    await openImport(fakeContactsServer());
    const file = new File(['email'], 'contacts.csv', { type: 'text/csv' });
    file.arrayBuffer = () => Promise.reject(new Error('NotReadableError'));
    await userEvent.setup().upload(fileInput(), file);
    expect(await screen.findByText('Failed to read CSV file.')).toBeInTheDocument();
    expect(fileInput()).toBeInTheDocument();
  });

  it('reads an Excel "CSV (Comma delimited)" file saved on Windows (Windows-1252): the accents come through', async () => {
    const server = fakeContactsServer();
    const user = await openImport(server);
    // import.meta.url is not a file: URL under jsdom; the tests run from the repository root.
    const bytes = readFileSync(resolve('tests/fixtures/csv/excel-windows-1252.csv'));
    await user.upload(fileInput(), new File([new Uint8Array(bytes)], 'excel-export.csv', { type: 'text/csv' }));
    await screen.findByRole('heading', { name: 'Map CSV Columns' });
    const preview = createWrapper().findTable()!;
    expect(preview.findBodyCell(1, 2)!.getElement()).toHaveTextContent('Zoë Lefèvre');
    expect(preview.findBodyCell(4, 3)!.getElement()).toHaveTextContent('Euro Beats, \u20AC5 Ltd.');

    await user.click(importButton());
    expect(await screen.findByText('Import successful! Imported 4 contacts successfully. 0 duplicates skipped.')).toBeInTheDocument();
    await tabCount(4);
    const zoe = createWrapper()
      .findCards()!
      .findItems()
      .find((card) => within(card.getElement()).queryByText('contact@cafe-records.fr'));
    expect(zoe).toBeDefined();
    expect(within(zoe!.getElement()).getByText('Zoë Lefèvre')).toBeInTheDocument();
    expect(within(zoe!.getElement()).getByText('Café Records')).toBeInTheDocument();
    expect(server.contacts.get(idOf('renee@euro-beats.example'))).toMatchObject({ name: 'Renée O\u2019Brien' });
  });

  it('shows a CSV Parse Error card, and Try Again goes back to the file input', async () => {
    const user = await openImport(fakeContactsServer());
    await upload(user, 'email,name\n"broken@x.com,Broken\n');
    const alert = await screen.findByText('CSV Parse Error');
    expect(screen.getByText(csvMessages.parseError)).toBeInTheDocument();
    expect(alert).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(fileInput()).toBeInTheDocument();

    await upload(user, '  \r\n');
    expect(await screen.findByText('CSV file is empty')).toBeInTheDocument();
  });
});

describe('mapping', () => {
  const header = ['Full Name', 'E-mail Address', 'Company', 'Type', 'Style', 'Notes'];
  const data = Array.from({ length: 7 }, (_, i) => [`Person ${i}`, `p${i}@label.com`, `Label ${i}`, 'dj', 'House', `note ${i}`]);

  it('guesses each column from the header, previews 5 data rows and says it is ready', async () => {
    const user = await openImport(fakeContactsServer());
    await upload(user, csv([header, ...data]));
    expect(await screen.findByRole('heading', { name: 'Map CSV Columns' })).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'First row contains headers' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Remove duplicate emails' })).toBeChecked();
    const expected: Record<string, string> = {
      'Full Name': 'Name',
      'E-mail Address': 'Email Address *',
      Company: 'Label/Company',
      Type: 'Contact Type',
      Style: 'Genre',
      Notes: 'Skip This Column',
    };
    for (const [heading, field] of Object.entries(expected)) expect(mappingSelect(heading)).toHaveTextContent(field);
    await user.click(mappingSelect('Notes'));
    expect(await screen.findAllByRole('option')).toHaveLength(6);
    await user.keyboard('{Escape}');

    const preview = createWrapper().findTable()!;
    expect(preview.findRows()).toHaveLength(5);
    expect(preview.findBodyCell(1, 2)!.getElement()).toHaveTextContent('p0@label.com');
    expect(preview.findBodyCell(5, 2)!.getElement()).toHaveTextContent('p4@label.com');
    expect(screen.getByText('Ready to import')).toBeInTheDocument();
    expect(importButton()).toBeEnabled();
  });

  it('asks for an email column when none is mapped', async () => {
    const user = await openImport(fakeContactsServer());
    await upload(user, csv([header, ...data]));
    await screen.findByRole('heading', { name: 'Map CSV Columns' });

    await user.click(mappingSelect('E-mail Address'));
    await user.click(await screen.findByRole('option', { name: 'Skip This Column' }));
    expect(await screen.findByText('Please map at least one column to "Email Address"')).toBeInTheDocument();
    expect(importButton()).toBeDisabled();
  });

  it('guesses again when the header checkbox changes: a file without a header row', async () => {
    const user = await openImport(fakeContactsServer());
    await upload(user, csv(Array.from({ length: 7 }, (_, i) => [`p${i}@inbox.com`, `Person ${i}`])));
    await screen.findByRole('heading', { name: 'Map CSV Columns' });
    // Read as a header, 'p0@inbox.com' names no field.
    expect(screen.getByText('Please map at least one column to "Email Address"')).toBeInTheDocument();
    expect(mappingSelect('p0@inbox.com')).toHaveTextContent('Skip This Column');

    // Without a header the first row is data: the columns are numbered and the email column is found by its cells.
    await user.click(screen.getByRole('checkbox', { name: 'First row contains headers' }));
    expect(await screen.findByText('Ready to import')).toBeInTheDocument();
    expect(mappingSelect('Column 1')).toHaveTextContent('Email Address *');
    expect(mappingSelect('Column 2')).toHaveTextContent('Skip This Column');
    const preview = createWrapper().findTable()!;
    expect(preview.findRows()).toHaveLength(5);
    expect(preview.findBodyCell(1, 1)!.getElement()).toHaveTextContent('p0@inbox.com');
  });

  it('Cancel goes back to choosing a file', async () => {
    const user = await openImport(fakeContactsServer());
    await upload(user, csv([header, ...data]));
    await screen.findByRole('heading', { name: 'Map CSV Columns' });
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(fileInput()).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Map CSV Columns' })).not.toBeInTheDocument();
  });

  it('shows Import Issues with the first three row errors and sends nothing', async () => {
    const server = fakeContactsServer();
    const user = await openImport(server);
    await upload(
      user,
      csv([
        ['email', 'name'],
        ['', 'No Email'],
        ['nope', 'Bad'],
        ['a@b', 'Bad too'],
        ['x y@z.com', 'Bad three'],
        ['ok@fine.com', 'Fine'],
      ]),
    );
    await screen.findByRole('heading', { name: 'Map CSV Columns' });
    await user.click(importButton());
    expect(await screen.findByText('Import Issues')).toBeInTheDocument();
    expect(screen.getByText('Row 2: Missing email address, Row 3: Invalid email format: nope, Row 4: Invalid email format: a@b...')).toBeInTheDocument();
    expect(server.calls('POST', '/api/contacts/import')).toHaveLength(0);
    expect(screen.getByRole('heading', { name: 'Map CSV Columns' })).toBeInTheDocument();
  });
});

describe('invisible characters', () => {
  it('names each row whose email holds an invisible or control character, and sends nothing', async () => {
    const server = fakeContactsServer();
    const user = await openImport(server);
    await upload(
      user,
      csv([
        ['email', 'name'],
        ['ok@fine.com', 'Fine'],
        ['zero\u200b@width.com', 'Zero'],
        ['no\u00a0break@space.com', 'Nbsp'],
        ['soft\u00adhyphen@x.com', 'Shy'],
      ]),
    );
    await screen.findByRole('heading', { name: 'Map CSV Columns' });
    await user.click(importButton());
    expect(await screen.findByText('Import Issues')).toBeInTheDocument();
    expect(
      screen.getByText(
        'Row 3: Email contains an invisible or control character, Row 4: Email contains an invisible or control character, Row 5: Email contains an invisible or control character',
      ),
    ).toBeInTheDocument();
    expect(server.calls('POST', '/api/contacts/import')).toHaveLength(0);
  });
});

describe('importing', () => {
  it('sends batches of 100 with progress, merges what was created into the list and reports duplicates', async () => {
    const existing = Array.from({ length: 10 }, (_, i) => contact(i, { email: `row${i * 20 + 1}@import.test` }));
    const server = fakeContactsServer(existing);
    const third = gate();
    server.hold.importCall = { call: 3, promise: third.promise };
    const user = await openImport(server);
    await upload(user, csv([['Email', 'Name'], ...rows(250)]));
    await screen.findByRole('heading', { name: 'Map CSV Columns' });
    await user.click(importButton());

    // Two batches answered, the third held: progress and the list show what is in so far.
    expect(await screen.findByText('Importing contacts... 200 of 250')).toBeInTheDocument();
    expect(createWrapper().findProgressBar()).not.toBeNull();
    expect(screen.getByRole('button', { name: 'Importing...' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Import CSV' })).toBeDisabled();
    await tabCount(200);
    third.open();

    expect(await screen.findByText('Import successful! Imported 240 contacts successfully. 10 duplicates skipped.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Map CSV Columns' })).not.toBeInTheDocument());
    await tabCount(250);
    const batches = server.bodies('POST', '/api/contacts/import') as { contacts: { email: string; name?: string }[] }[];
    expect(batches.map((batch) => batch.contacts.length)).toEqual([100, 100, 50]);
    expect(batches[0]!.contacts[0]).toEqual({ email: 'row1@import.test', name: 'Row 1', contact_type: 'Label' });
    // Merged, not reloaded: the list was read once.
    expect(server.calls('GET', '/api/contacts')).toHaveLength(1);
    expect(await screen.findByText('Showing 250 of 250 contacts')).toBeInTheDocument();
    await user.type(screen.getByRole('searchbox', { name: 'Search contacts' }), 'row250@');
    expect(await screen.findByText('Showing 1 of 250 contacts')).toBeInTheDocument();
  });

  it('counts repeated rows of the file as duplicates only when Remove duplicate emails is off', async () => {
    const file = csv([['email'], ['one@x.com'], ['ONE@x.com'], ['known@x.com'], ['two@x.com']]);
    const server = fakeContactsServer([contact(1, { email: 'known@x.com' })]);
    const user = await openImport(server);
    await upload(user, file);
    await screen.findByRole('heading', { name: 'Map CSV Columns' });
    await user.click(importButton());
    expect(await screen.findByText('Import successful! Imported 2 contacts successfully. 1 duplicates skipped.')).toBeInTheDocument();

    server.contacts.delete([...server.contacts.values()].find((c) => c.email === 'one@x.com')!.id);
    server.contacts.delete([...server.contacts.values()].find((c) => c.email === 'two@x.com')!.id);
    await user.click(screen.getByRole('button', { name: 'Import CSV' }));
    await upload(user, file);
    await screen.findByRole('heading', { name: 'Map CSV Columns' });
    await user.click(screen.getByRole('checkbox', { name: 'Remove duplicate emails' }));
    await user.click(importButton());
    expect(await screen.findByText('Import successful! Imported 2 contacts successfully. 2 duplicates skipped.')).toBeInTheDocument();
    // One contact per address either way.
    expect(server.contacts.size).toBe(3);
  });

  it('says No new contacts when every address is already a contact', async () => {
    const server = fakeContactsServer([contact(1, { email: 'a@x.com' }), contact(2, { email: 'b@x.com' })]);
    const user = await openImport(server);
    await upload(user, csv([['email'], ['A@x.com'], ['b@x.com']]));
    await screen.findByRole('heading', { name: 'Map CSV Columns' });
    await user.click(importButton());
    expect(await screen.findByText('No new contacts')).toBeInTheDocument();
    expect(screen.getByText('All contacts in the CSV already exist.')).toBeInTheDocument();
    await tabCount(2);
  });

  it("keeps what was created when batch 3 fails, shows the server's list, and a rerun adds only the rest", async () => {
    const server = fakeContactsServer();
    // Batch 3 stores 40 of its rows, then fails: its answer (and so what it created) never reaches the page.
    server.fail.importCall = { call: 3, status: 500, message: 'Database unavailable', writtenFirst: 40 };
    const user = await openImport(server);
    const file = csv([['email', 'name'], ...rows(500)]);
    await upload(user, file);
    await screen.findByRole('heading', { name: 'Map CSV Columns' });
    await user.click(importButton());

    expect(await screen.findByText('Import failed: Failed to import contacts from CSV.')).toBeInTheDocument();
    const created = server.contacts.size;
    const answered = created - 40;
    // Batches 1 and 2 went in before batch 3 failed (a batch already in flight may have too); batch 5 was never sent.
    expect(answered).toBeGreaterThanOrEqual(200);
    expect(server.calls('POST', '/api/contacts/import').length).toBeLessThan(5);
    expect(
      screen.getByText(`At least ${answered} contacts were imported before it stopped (Database unavailable). Import the same file again to add the rest.`),
    ).toBeInTheDocument();
    // The list was read again, so it holds what the server holds: the failed batch's 40 rows too.
    await tabCount(created);
    // Read from the start twice: the first load and the reload after the failure.
    expect(server.calls('GET', '/api/contacts').filter(([url]) => !(url as string).includes('cursor='))).toHaveLength(2);
    for (const email of ['row1@import.test', 'row200@import.test', 'row201@import.test', 'row240@import.test']) {
      expect(server.contacts.has(idOf(email))).toBe(true);
    }
    expect(server.contacts.has(idOf('row241@import.test'))).toBe(false);
    await user.type(screen.getByRole('searchbox', { name: 'Search contacts' }), 'row240@');
    expect(await screen.findByText(`Showing 1 of ${created} contacts`)).toBeInTheDocument();
    await user.clear(screen.getByRole('searchbox', { name: 'Search contacts' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search contacts' }), 'row200@');
    expect(await screen.findByText(`Showing 1 of ${created} contacts`)).toBeInTheDocument();

    // The mapping is still there: import again.
    server.fail.importCall = null;
    await user.click(importButton());
    expect(await screen.findByText(`Import successful! Imported ${500 - created} contacts successfully. ${created} duplicates skipped.`)).toBeInTheDocument();
    expect(server.contacts.size).toBe(500);
    await tabCount(500);
  });
});
