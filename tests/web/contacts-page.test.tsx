import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { contactLimits } from '../../schema/api/contacts';
import { CONTACTS_FIRST_PAGE_SIZE } from '../../web/src/api/contacts';
import { CONTACTS_PAGE_SIZE } from '../../web/src/pages/contacts/ContactsList';
import { contact, fakeContactsServer, gate, idOf, manyContacts, renderContacts, unsubscribe, type ContactsServer } from './contacts-fake-server';
import { preloadRoutes } from './helpers';
import { fakeMatchMedia } from './matchMedia';
import { apiMessages } from '../../schema/api/serverMessages';

beforeAll(async () => {
  await preloadRoutes();
  await import('../../web/src/pages/contacts/ContactsPage');
}, 60_000);

async function openPage(server: ContactsServer) {
  const result = renderContacts(server);
  await screen.findByRole('heading', { name: 'Contacts', level: 1 });
  return result;
}

/** The Contacts tab's cards (the first Cards on the page; the Unsubscribed tab's are mounted only when open). */
const contactCards = () => createWrapper().findCards()!;
const cardElements = () =>
  contactCards()
    .findItems()
    .map((card) => card.getElement());
const namesShown = () =>
  contactCards()
    .findItems()
    .map((card) => card.findCardHeader()!.getElement().querySelector('span')!.textContent);

function cardOf(email: string): HTMLElement {
  const card = cardElements().find((element) => within(element).queryByText(email, { exact: true }));
  if (!card) throw new Error(`no card for ${email}`);
  return card;
}

const showing = (shown: number, total: number) => screen.findByText(`Showing ${shown.toLocaleString()} of ${total.toLocaleString()} contacts`);
const tab = (name: RegExp | string) => screen.getByRole('tab', { name });

describe('contacts list', () => {
  // The tab count is marked unfinished until the last page.
  it('loads every page in order, shows the first at once with progress, and counts them in the tab', async () => {
    // A small first page, then full pages: 100 + 1,000 + 500.
    const total = CONTACTS_FIRST_PAGE_SIZE + contactLimits.pageMax + 500;
    const server = fakeContactsServer(manyContacts(total));
    const later = gate();
    server.hold.laterPages = later.promise;
    await openPage(server);

    // The first page is on screen while the rest are held back: its count is not the total, and says so.
    const firstPage = CONTACTS_FIRST_PAGE_SIZE.toLocaleString();
    expect(await screen.findByText(`Loading more contacts… ${firstPage} loaded`)).toBeInTheDocument();
    expect(await screen.findByText(`Showing ${firstPage} of ${firstPage}… contacts (still loading)`)).toBeInTheDocument();
    expect(tab(`Contacts (${firstPage}…)`)).toBeInTheDocument();
    expect(screen.queryByRole('tab', { name: `Contacts (${firstPage})` })).not.toBeInTheDocument();
    expect(namesShown()[0]).toBe(`Person ${total}`);
    later.open();

    await showing(total, total);
    expect(tab(`Contacts (${total.toLocaleString()})`)).toBeInTheDocument();
    expect(screen.queryByText(/still loading/)).not.toBeInTheDocument();
    expect(screen.queryByText(/Loading more contacts/)).not.toBeInTheDocument();
    const pages = server.calls('GET', '/api/contacts');
    expect(pages).toHaveLength(3);
    const params = pages.map(([url]) => new URL(url as string, 'http://localhost').searchParams);
    expect(params.map((query) => Number(query.get('limit')))).toEqual([CONTACTS_FIRST_PAGE_SIZE, contactLimits.pageMax, contactLimits.pageMax]);
    const cursors = params.map((query) => query.get('cursor'));
    expect(cursors[0]).toBeNull();
    expect(cursors.slice(1).every((cursor) => cursor !== null)).toBe(true);
    // 30 cards a page, newest first, and pages to move through the rest.
    expect(namesShown()).toHaveLength(CONTACTS_PAGE_SIZE);
    expect(namesShown().slice(0, 2)).toEqual([`Person ${total}`, `Person ${total - 1}`]);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Next page' }));
    expect(namesShown()[0]).toBe(`Person ${total - CONTACTS_PAGE_SIZE}`);
  });

  it('shows the contact’s latest answer on a listen page on its card (issue 16), and none before one', async () => {
    const server = fakeContactsServer([
      contact(1, {
        email: 'ana@label.com',
        last_answer: { answer: 'send_wavs', note: 'Stems too, please', answered_at: '2026-11-25T10:00:00.000Z', campaign_id: 'c-1', track_name: 'Night Drive' },
      }),
      contact(2, { email: 'ben@label.com' }),
    ]);
    await openPage(server);
    await showing(2, 2);
    expect(within(cardOf('ana@label.com')).getByText('Answered: Send me the WAVs')).toBeInTheDocument();
    expect(within(cardOf('ana@label.com')).getByText(/on Night Drive/)).toBeInTheDocument();
    expect(within(cardOf('ana@label.com')).getByText(/Stems too, please/)).toBeInTheDocument();
    expect(within(cardOf('ben@label.com')).queryByText(/^Answered:/)).toBeNull();
  });

  it('shows each card with name, type, email, label, position, genre badges, notes and named controls', async () => {
    const server = fakeContactsServer([
      contact(1, {
        name: 'Ana Label',
        email: 'ana@label.com',
        label_name: 'Deep Records',
        contact_type: 'DJ',
        position: 'A&R Manager',
        genre: 'House, Deep House',
        notes: 'Met at ADE.\nLikes melodic stuff.\nFollow up in May.',
      }),
    ]);
    await openPage(server);
    await showing(1, 1);
    const card = cardOf('ana@label.com');
    for (const text of ['Ana Label', 'DJ', 'Deep Records', 'A&R Manager', 'House', 'Deep House']) {
      expect(within(card).getByText(text, { exact: true })).toBeInTheDocument();
    }
    const notes = within(card).getByText(/Met at ADE/);
    expect(notes).toHaveAttribute('title', 'Met at ADE.\nLikes melodic stuff.\nFollow up in May.');
    expect(within(card).getByRole('button', { name: 'Edit Ana Label (ana@label.com)' })).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Delete Ana Label (ana@label.com)' })).toBeInTheDocument();
    expect(within(card).getByRole('checkbox', { name: 'Select Ana Label (ana@label.com)' })).toBeInTheDocument();
  });

  it('filters by contact type with counts, all on by default', async () => {
    const server = fakeContactsServer([
      contact(1, { contact_type: 'Label' }),
      contact(2, { contact_type: 'DJ' }),
      contact(3, { contact_type: 'DJ' }),
      contact(4, { contact_type: 'Fan' }),
    ]);
    await openPage(server);
    await showing(4, 4);
    const user = userEvent.setup();
    const label = screen.getByRole('checkbox', { name: 'Label (1)' });
    const dj = screen.getByRole('checkbox', { name: 'DJ (2)' });
    const fan = screen.getByRole('checkbox', { name: 'Fan (1)' });
    for (const box of [label, dj, fan]) expect(box).toBeChecked();

    await user.click(dj);
    await showing(2, 4);
    expect(namesShown()).toEqual(['Person 4', 'Person 1']);
    await user.click(label);
    await showing(1, 4);
    expect(namesShown()).toEqual(['Person 4']);
    await user.click(fan);
    await showing(0, 4);
    expect(screen.getByText('No contacts match the selected filters')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Reset Filters' }));
    await showing(4, 4);
  });

  it('filters by genre: split, trimmed, grouped without case, with chips and Clear all', async () => {
    const server = fakeContactsServer([
      contact(1, { genre: 'House' }),
      contact(2, { genre: ' House ,Techno' }),
      contact(3, { genre: 'TECHNO, Trance, Techno' }),
      contact(4, { genre: null }),
    ]);
    await openPage(server);
    await showing(4, 4);
    const user = userEvent.setup();
    const genres = within(screen.getByRole('group', { name: 'Genres' }));
    // One entry per genre whatever its case, named by its most used spelling.
    expect(genres.getAllByRole('checkbox')).toHaveLength(3);
    expect(genres.getByRole('checkbox', { name: 'House (2)' })).not.toBeChecked();
    expect(genres.getByRole('checkbox', { name: 'Techno (2)' })).toBeInTheDocument();
    expect(genres.getByRole('checkbox', { name: 'Trance (1)' })).toBeInTheDocument();

    await user.click(genres.getByRole('checkbox', { name: 'House (2)' }));
    await showing(2, 4);
    expect(namesShown()).toEqual(['Person 2', 'Person 1']);
    // Any selected genre: House or Trance.
    await user.click(genres.getByRole('checkbox', { name: 'Trance (1)' }));
    await showing(3, 4);
    const chips = within(screen.getByRole('group', { name: 'Selected genres' }));
    expect(chips.getByText('House')).toBeInTheDocument();
    expect(chips.getByText('Trance')).toBeInTheDocument();

    await user.click(chips.getByRole('button', { name: 'Remove House' }));
    await showing(1, 4);
    expect(genres.getByRole('checkbox', { name: 'House (2)' })).not.toBeChecked();
    expect(namesShown()).toEqual(['Person 3']);

    await user.click(genres.getByRole('checkbox', { name: 'Techno (2)' }));
    await showing(2, 4);
    await user.click(screen.getByRole('button', { name: 'Clear all' }));
    await showing(4, 4);
    expect(screen.queryByRole('group', { name: 'Selected genres' })).not.toBeInTheDocument();
    expect(genres.getByRole('checkbox', { name: 'Techno (2)' })).not.toBeChecked();
  });

  it('searches name, email, label, position and genre without case, with a clear button and the no-match state', async () => {
    const server = fakeContactsServer([
      contact(1, { name: 'Zoe Quill' }),
      contact(2, { email: 'bookings@nightowl.fm' }),
      contact(3, { label_name: 'Drumcode' }),
      contact(4, { position: 'Head of A&R' }),
      contact(5, { genre: 'Minimal' }),
    ]);
    await openPage(server);
    await showing(5, 5);
    const user = userEvent.setup();
    const search = screen.getByRole('searchbox', { name: 'Search contacts' });
    for (const [text, name] of [
      ['zoe', 'Zoe Quill'],
      ['NIGHTOWL', 'Person 2'],
      ['drumCODE', 'Person 3'],
      ['head of a&r', 'Person 4'],
      ['minim', 'Person 5'],
    ] as const) {
      await user.clear(search);
      await user.paste(text);
      await showing(1, 5);
      expect(namesShown()).toEqual([name]);
    }
    await user.click(screen.getByRole('button', { name: 'Clear search' }));
    await showing(5, 5);
    expect(search).toHaveValue('');

    await user.type(search, 'nobody');
    expect(await screen.findByText('No contacts found matching "nobody"')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Clear Search' }));
    await showing(5, 5);
    expect(search).toHaveValue('');
  });

  it('shows the empty state, whose button opens the add form', async () => {
    await openPage(fakeContactsServer([]));
    expect(await screen.findByText('No contacts yet')).toBeInTheDocument();
    expect(tab('Contacts (0)')).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Add Your First Contact' }));
    expect(await screen.findByRole('heading', { name: 'Add New Contact' })).toBeInTheDocument();
  });

  it('says when the list cannot be loaded and loads it on Retry', async () => {
    const server = fakeContactsServer(manyContacts(3));
    server.fail.list = { status: 500, message: apiMessages.internalError };
    await openPage(server);
    expect(await screen.findByText(apiMessages.internalError)).toBeInTheDocument();
    expect(screen.getAllByText('Failed to load contacts.').length).toBeGreaterThanOrEqual(2); // toast and the list's own state
    server.fail.list = null;
    await userEvent.setup().click(screen.getByRole('button', { name: 'Retry' }));
    await showing(3, 3);
  });
});

describe('phone', () => {
  it('starts with the filters collapsed, and they open by keyboard', async () => {
    vi.spyOn(window, 'matchMedia').mockImplementation(fakeMatchMedia((query) => query.includes('max-width')));
    await openPage(fakeContactsServer(manyContacts(2)));
    await showing(2, 2);
    const toggle = screen.getByRole('button', { name: 'Filters' });
    const content = () => document.getElementById(toggle.getAttribute('aria-controls')!)!;
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    // Collapsed content is inert: out of the tab order and hidden from assistive technology.
    const inert = (element: Element | null) => {
      for (let e = element; e; e = e.parentElement) if ((e as HTMLElement & { inert?: boolean }).inert) return true;
      return false;
    };
    expect(inert(content().querySelector('[role="group"][aria-label="Contact type"]'))).toBe(true);
    // Cloudscape toggles on the key's keyUp keyCode, which user-event does not set in jsdom.
    toggle.focus();
    fireEvent.keyUp(toggle, { key: 'Enter', keyCode: 13 });
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(content()).toContainElement(screen.getByRole('checkbox', { name: 'Label (2)' }));
    expect(inert(screen.getByRole('checkbox', { name: 'Label (2)' }))).toBe(false);
  });
});

describe('panels', () => {
  it('Import CSV and Add Contact toggle their panels, one open at a time', async () => {
    await openPage(fakeContactsServer(manyContacts(2)));
    await showing(2, 2);
    const user = userEvent.setup();
    const importButton = screen.getByRole('button', { name: 'Import CSV' });
    const addButton = screen.getByRole('button', { name: 'Add Contact' });

    await user.click(addButton);
    expect(await screen.findByRole('heading', { name: 'Add New Contact' })).toBeInTheDocument();
    expect(addButton).toHaveAttribute('aria-expanded', 'true');
    await user.click(importButton);
    expect(await screen.findByLabelText('CSV File (Max 5MB, 5000 contacts)')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Add New Contact' })).not.toBeInTheDocument();
    expect(importButton).toHaveAttribute('aria-expanded', 'true');
    expect(addButton).toHaveAttribute('aria-expanded', 'false');
    await user.click(importButton);
    expect(screen.queryByLabelText('CSV File (Max 5MB, 5000 contacts)')).not.toBeInTheDocument();
    await user.click(addButton);
    await user.click(addButton);
    expect(screen.queryByRole('heading', { name: 'Add New Contact' })).not.toBeInTheDocument();
  });
});

describe('add and edit', () => {
  async function openAddForm() {
    await userEvent.setup().click(screen.getByRole('button', { name: 'Add Contact' }));
    return within(await screen.findByRole('form', { name: 'Add New Contact' }));
  }

  it('has the spec fields, placeholders and a Label default type', async () => {
    await openPage(fakeContactsServer([]));
    const form = await openAddForm();
    for (const label of ['Full Name *', 'Email *', 'Label/Company (Optional)', 'Position', 'Genre', 'Website', 'Notes']) {
      expect(form.getByLabelText(label)).toBeInTheDocument();
    }
    expect(form.getByLabelText('Position')).toHaveAttribute('placeholder', 'e.g. A&R Manager');
    expect(form.getByLabelText('Genre')).toHaveAttribute('placeholder', 'e.g. House, Techno, Progressive');
    expect(form.getByLabelText('Full Name *')).toHaveFocus();
    const type = form.getByRole('button', { name: /^Contact Type/ });
    expect(type).toHaveTextContent('Label');
    await userEvent.setup().click(type);
    expect(await screen.findAllByRole('option')).toHaveLength(3);
    for (const name of ['Label', 'DJ', 'Fan']) expect(screen.getByRole('option', { name })).toBeInTheDocument();
  });

  it('checks name and email first, shows a duplicate refusal on the form keeping what was typed, then adds', async () => {
    const server = fakeContactsServer([contact(1, { email: 'taken@label.com' })]);
    await openPage(server);
    await showing(1, 1);
    const user = userEvent.setup();
    const form = await openAddForm();
    await user.type(form.getByLabelText('Full Name *'), 'Mia Lane');
    await user.click(form.getByRole('button', { name: 'Save Contact' }));
    expect(await form.findByText('Please fill in name and email fields.')).toBeInTheDocument();
    expect(server.calls('POST', '/api/contacts')).toHaveLength(0);

    await user.type(form.getByLabelText('Email *'), 'TAKEN@label.com');
    await user.type(form.getByLabelText('Position'), 'Label Manager');
    await user.click(form.getByRole('button', { name: 'Save Contact' }));
    expect(await form.findByText('A contact with this email already exists.')).toBeInTheDocument();
    expect(await screen.findByText('Failed to add contact.')).toBeInTheDocument();
    expect(form.getByLabelText('Full Name *')).toHaveValue('Mia Lane');
    expect(form.getByLabelText('Position')).toHaveValue('Label Manager');

    await user.clear(form.getByLabelText('Email *'));
    await user.type(form.getByLabelText('Email *'), 'mia@lane.com');
    await user.click(form.getByRole('button', { name: /^Contact Type/ }));
    await user.click(await screen.findByRole('option', { name: 'DJ' }));
    await user.click(form.getByRole('button', { name: 'Save Contact' }));
    expect(await screen.findByText('Contact added!')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Add New Contact' })).not.toBeInTheDocument());
    await showing(2, 2);
    expect(namesShown()[0]).toBe('Mia Lane');
    expect(within(cardOf('mia@lane.com')).getByText('DJ')).toBeInTheDocument();
    expect(tab('Contacts (2)')).toBeInTheDocument();
    expect(server.bodies('POST', '/api/contacts').at(-1)).toMatchObject({
      name: 'Mia Lane',
      email: 'mia@lane.com',
      contact_type: 'DJ',
      position: 'Label Manager',
    });
  });

  it('says so when the server fails to add, with its message', async () => {
    const server = fakeContactsServer([]);
    server.fail.add = { status: 500, message: apiMessages.internalError };
    await openPage(server);
    const user = userEvent.setup();
    const form = await openAddForm();
    await user.type(form.getByLabelText('Full Name *'), 'Mia Lane');
    await user.type(form.getByLabelText('Email *'), 'mia@lane.com');
    await user.click(form.getByRole('button', { name: 'Save Contact' }));
    expect(await screen.findByText('Failed to add contact.')).toBeInTheDocument();
    expect(screen.getByText(apiMessages.internalError)).toBeInTheDocument();
    expect(form.getByLabelText('Email *')).toHaveValue('mia@lane.com');
  });

  it('edits a contact in place, following its new id when the email changes', async () => {
    const server = fakeContactsServer([contact(1), contact(2, { name: 'Old Name', email: 'old@label.com', genre: 'House' }), contact(3)]);
    await openPage(server);
    await showing(3, 3);
    const user = userEvent.setup();
    await user.click(within(cardOf('old@label.com')).getByRole('button', { name: 'Edit Old Name (old@label.com)' }));
    const form = within(await screen.findByRole('form', { name: 'Edit Contact' }));
    expect(form.getByLabelText('Full Name *')).toHaveValue('Old Name');
    expect(form.getByLabelText('Genre')).toHaveValue('House');

    await user.clear(form.getByLabelText('Full Name *'));
    await user.type(form.getByLabelText('Full Name *'), 'New Name');
    await user.clear(form.getByLabelText('Email *'));
    await user.type(form.getByLabelText('Email *'), 'new@label.com');
    await user.click(form.getByRole('button', { name: 'Update Contact' }));
    expect(await screen.findByText('Contact updated!')).toBeInTheDocument();

    const [url] = server.calls('PUT', `/api/contacts/${idOf('old@label.com')}`)[0]!;
    expect(url as string).toBe(`/api/contacts/${idOf('old@label.com')}`);
    await waitFor(() => expect(namesShown()).toEqual(['Person 3', 'New Name', 'Person 1']));
    expect(screen.queryByText('old@label.com')).not.toBeInTheDocument();
    expect(tab('Contacts (3)')).toBeInTheDocument();

    // The card now carries the new id: editing it again goes to the new address's id.
    await user.click(within(cardOf('new@label.com')).getByRole('button', { name: 'Edit New Name (new@label.com)' }));
    const again = within(await screen.findByRole('form', { name: 'Edit Contact' }));
    await user.type(again.getByLabelText('Position'), 'Scout');
    await user.click(again.getByRole('button', { name: 'Update Contact' }));
    await waitFor(() => expect(server.calls('PUT', `/api/contacts/${idOf('new@label.com')}`)).toHaveLength(1));
    expect(await within(cardOf('new@label.com')).findByText('Scout')).toBeInTheDocument();
  });

  it('shows an edit refused as a duplicate on the form', async () => {
    const server = fakeContactsServer([contact(1, { email: 'a@label.com' }), contact(2, { email: 'b@label.com', name: 'Bee' })]);
    await openPage(server);
    await showing(2, 2);
    const user = userEvent.setup();
    await user.click(within(cardOf('b@label.com')).getByRole('button', { name: /^Edit Bee/ }));
    const form = within(await screen.findByRole('form', { name: 'Edit Contact' }));
    await user.clear(form.getByLabelText('Email *'));
    await user.type(form.getByLabelText('Email *'), 'a@label.com');
    await user.click(form.getByRole('button', { name: 'Update Contact' }));
    expect(await form.findByText('A contact with this email already exists.')).toBeInTheDocument();
    expect(await screen.findByText('Failed to update contact.')).toBeInTheDocument();
    expect(form.getByLabelText('Email *')).toHaveValue('a@label.com');
    expect(cardOf('b@label.com')).toBeInTheDocument();
  });
});

describe('time zone (issue 27 §2)', () => {
  const zoneButton = (form: Pick<typeof screen, 'getByRole'>) => form.getByRole('button', { name: /^Time zone/ });

  it('shows each contact’s time zone on its card, and Not set without one', async () => {
    await openPage(fakeContactsServer([contact(1, { email: 'tokyo@label.com', time_zone: 'Asia/Tokyo' }), contact(2, { email: 'none@label.com' })]));
    await showing(2, 2);
    const tokyo = within(cardOf('tokyo@label.com'));
    expect(tokyo.getByText('Time zone')).toBeInTheDocument();
    expect(tokyo.getByText('Asia/Tokyo')).toBeInTheDocument();
    expect(within(cardOf('none@label.com')).getByText('Not set')).toBeInTheDocument();
  });

  it('adds a contact with a zone found by typing in the Time zone select; Not set by default', async () => {
    const server = fakeContactsServer([]);
    await openPage(server);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Add Contact' }));
    const form = within(await screen.findByRole('form', { name: 'Add New Contact' }));
    const trigger = zoneButton(form);
    const save = form.getByRole('button', { name: 'Save Contact' });
    expect(trigger).toHaveTextContent('Not set');
    await user.type(form.getByLabelText('Full Name *'), 'Kai Mori');
    await user.type(form.getByLabelText('Email *'), 'kai@label.jp');
    await user.click(trigger);
    // The browser's zones are offered ('Not set' first), filtered as one types.
    expect((await screen.findAllByRole('option'))[0]).toHaveTextContent('Not set');
    await user.type(screen.getByRole('combobox', { name: 'Find a time zone' }), 'Tokyo');
    const zoneSelect = createWrapper(screen.getByRole('form', { name: 'Add New Contact' })).findAllSelects()[1]!;
    const tokyo = zoneSelect.findDropdown().findOptionByValue('Asia/Tokyo');
    // The filter left Tokyo's zone, not the list's first (Africa/Abidjan).
    expect(zoneSelect.findDropdown().findOptionByValue('Africa/Abidjan')).toBeNull();
    await user.click(tokyo!.getElement());
    expect(trigger).toHaveTextContent('Asia/Tokyo');
    await user.click(save);
    expect(await screen.findByText('Contact added!')).toBeInTheDocument();
    expect(server.bodies('POST', '/api/contacts').at(-1)).toMatchObject({ email: 'kai@label.jp', time_zone: 'Asia/Tokyo' });
    expect(await within(cardOf('kai@label.jp')).findByText('Asia/Tokyo')).toBeInTheDocument();
  });

  it('a contact without a zone is added with none', async () => {
    const server = fakeContactsServer([]);
    await openPage(server);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Add Contact' }));
    const form = within(await screen.findByRole('form', { name: 'Add New Contact' }));
    await user.type(form.getByLabelText('Full Name *'), 'No Zone');
    await user.type(form.getByLabelText('Email *'), 'nozone@label.com');
    await user.click(form.getByRole('button', { name: 'Save Contact' }));
    expect(await screen.findByText('Contact added!')).toBeInTheDocument();
    expect(server.bodies('POST', '/api/contacts').at(-1)).toMatchObject({ time_zone: '' });
    expect(await within(cardOf('nozone@label.com')).findByText('Not set')).toBeInTheDocument();
  });

  it('edits show the saved zone (kept even when this browser does not list it) and can clear it', async () => {
    const server = fakeContactsServer([contact(1, { email: 'ny@label.com', name: 'Nia', time_zone: 'US/Eastern' })]);
    await openPage(server);
    await showing(1, 1);
    const user = userEvent.setup();
    await user.click(within(cardOf('ny@label.com')).getByRole('button', { name: 'Edit Nia (ny@label.com)' }));
    let form = within(await screen.findByRole('form', { name: 'Edit Contact' }));
    expect(zoneButton(form)).toHaveTextContent('US/Eastern');
    await user.type(form.getByLabelText('Position'), 'Scout');
    await user.click(form.getByRole('button', { name: 'Update Contact' }));
    expect(await screen.findByText('Contact updated!')).toBeInTheDocument();
    expect(server.bodies('PUT', `/api/contacts/${idOf('ny@label.com')}`).at(-1)).toMatchObject({ time_zone: 'US/Eastern', position: 'Scout' });

    await user.click(within(cardOf('ny@label.com')).getByRole('button', { name: 'Edit Nia (ny@label.com)' }));
    form = within(await screen.findByRole('form', { name: 'Edit Contact' }));
    await user.click(zoneButton(form));
    await user.click(await screen.findByRole('option', { name: 'Not set' }));
    await user.click(form.getByRole('button', { name: 'Update Contact' }));
    await waitFor(() => expect(server.bodies('PUT', `/api/contacts/${idOf('ny@label.com')}`)).toHaveLength(2));
    expect(server.bodies('PUT', `/api/contacts/${idOf('ny@label.com')}`).at(-1)).toMatchObject({ time_zone: '' });
    expect(await within(cardOf('ny@label.com')).findByText('Not set')).toBeInTheDocument();
  });
});

describe('delete', () => {
  const dialog = () => within(screen.getByRole('dialog', { name: 'Delete Contacts' }));

  it('deletes one contact after confirming in the Delete Contacts dialog', async () => {
    const server = fakeContactsServer([contact(1), contact(2, { name: 'Gone Soon', email: 'gone@label.com' })]);
    await openPage(server);
    await showing(2, 2);
    const user = userEvent.setup();
    const remove = within(cardOf('gone@label.com')).getByRole('button', { name: 'Delete Gone Soon (gone@label.com)' });

    await user.click(remove);
    expect(await screen.findByRole('dialog', { name: 'Delete Contacts' })).toBeInTheDocument();
    expect(dialog().getByText('You are about to delete 1 contact. This action cannot be undone.')).toBeInTheDocument();
    await user.click(dialog().getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Delete Contacts' })).not.toBeInTheDocument());
    expect(server.calls('DELETE', `/api/contacts/${idOf('gone@label.com')}`)).toHaveLength(0);

    await user.click(remove);
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Contact deleted')).toBeInTheDocument();
    await showing(1, 1);
    expect(server.contacts.has(idOf('gone@label.com'))).toBe(false);
    expect(tab('Contacts (1)')).toBeInTheDocument();
  });

  it('keeps the contact and says so when the delete fails', async () => {
    const server = fakeContactsServer([contact(1)]);
    server.fail.remove = { status: 500, message: apiMessages.internalError };
    await openPage(server);
    await showing(1, 1);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /^Delete Person 1/ }));
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Failed to delete contact.')).toBeInTheDocument();
    expect(screen.getByText(apiMessages.internalError)).toBeInTheDocument();
    await showing(1, 1);
  });

  it('selects all filtered contacts and deletes 250 in three requests of at most 100, with progress', async () => {
    const server = fakeContactsServer([...manyContacts(250), contact(999, { contact_type: 'Fan', email: 'fan@keep.com' })]);
    await openPage(server);
    await showing(251, 251);
    const user = userEvent.setup();
    // Select all covers the filtered list (not the Fan) and every page of it, not just the 30 cards shown.
    await user.click(screen.getByRole('checkbox', { name: 'Fan (1)' }));
    await showing(250, 251);
    await user.click(screen.getByRole('checkbox', { name: 'Select all' }));
    expect(await screen.findByText('250 selected')).toBeInTheDocument();
    expect(contactCards().findSelectedItems()).toHaveLength(CONTACTS_PAGE_SIZE);

    const held = gate();
    server.hold.bulkDelete = held.promise;
    await user.click(screen.getByRole('button', { name: 'Delete Selected' }));
    expect(dialog().getByText('You are about to delete 250 contacts. This action cannot be undone.')).toBeInTheDocument();
    await user.click(dialog().getByRole('button', { name: 'Delete' }));
    expect(await dialog().findByRole('button', { name: 'Deleting...' })).toBeDisabled();
    expect(dialog().getByRole('progressbar')).toBeInTheDocument();
    expect(dialog().getByText('0 of 250 deleted')).toBeInTheDocument();
    held.open();

    expect(await screen.findByText('Contacts deleted')).toBeInTheDocument();
    expect(screen.getByText('250 contacts have been removed.')).toBeInTheDocument();
    const batches = server.bodies('POST', '/api/contacts/bulk-delete') as { ids: string[] }[];
    expect(batches.map((b) => b.ids.length)).toEqual([100, 100, 50]);
    expect(new Set(batches.flatMap((b) => b.ids)).size).toBe(250);
    expect(server.contacts.size).toBe(1);
    await showing(0, 1);
    await user.click(screen.getByRole('checkbox', { name: 'Fan (1)' }));
    await showing(1, 1);
    expect(screen.queryByText(/selected$/)).not.toBeInTheDocument();
  });

  it('a failure part-way keeps what was deleted removed and the rest selected', async () => {
    const server = fakeContactsServer(manyContacts(250));
    server.fail.bulkDeleteCall = { call: 2, status: 500, message: apiMessages.internalError };
    await openPage(server);
    await showing(250, 250);
    const user = userEvent.setup();
    await user.click(screen.getByRole('checkbox', { name: 'Select all' }));
    await user.click(screen.getByRole('button', { name: 'Delete Selected' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Delete Contacts' })).getByRole('button', { name: 'Delete' }));

    expect(await screen.findByText('Failed to delete contacts.')).toBeInTheDocument();
    expect(screen.getByText(`100 contacts have been removed. ${apiMessages.internalError}`)).toBeInTheDocument();
    await showing(150, 150);
    expect(screen.getByText('150 selected')).toBeInTheDocument();
    expect(server.contacts.size).toBe(150);
    expect(screen.getByRole('checkbox', { name: 'Select all' })).toBeChecked();
  });

  it('selecting cards one by one counts them; unselecting all clears the count', async () => {
    await openPage(fakeContactsServer(manyContacts(3)));
    await showing(3, 3);
    const user = userEvent.setup();
    await user.click(screen.getByRole('checkbox', { name: 'Select Person 2 (person2@example.com)' }));
    expect(await screen.findByText('1 selected')).toBeInTheDocument();
    const selectAll = screen.getByRole('checkbox', { name: 'Select all' });
    expect((selectAll as HTMLInputElement).indeterminate).toBe(true);
    await user.click(selectAll);
    expect(await screen.findByText('3 selected')).toBeInTheDocument();
    await user.click(selectAll);
    await waitFor(() => expect(screen.queryByText(/selected$/)).not.toBeInTheDocument());
    expect(screen.queryByRole('button', { name: 'Delete Selected' })).not.toBeInTheDocument();
  });
});

/** The resubscribe dialog: tick that the recipient asked, then confirm. */
async function confirmResubscribe(user: ReturnType<typeof userEvent.setup>) {
  const dialog = await screen.findByRole('dialog');
  const confirm = within(dialog).getByRole('button', { name: 'Resubscribe' });
  expect(confirm).toBeDisabled();
  await user.click(within(dialog).getByRole('checkbox', { name: 'They asked me to add them back' }));
  await user.click(confirm);
}

describe('unsubscribed tab', () => {
  it('shows the count on load, loads the list only when opened, and resubscribes', async () => {
    const server = fakeContactsServer(manyContacts(1), [
      unsubscribe(3, {
        contact_name: 'Ivy Stone',
        contact_email: 'ivy@stone.com',
        track_name: 'Night Drive',
        unsubscribe_reason: 'Too many emails',
        unsubscribe_reason_details: 'Weekly is enough',
      }),
      unsubscribe(10, { contact_name: null, contact_email: 'anon@x.com' }),
    ]);
    await openPage(server);
    expect(await screen.findByRole('tab', { name: 'Unsubscribed (2)' })).toBeInTheDocument();
    expect(server.calls('GET', '/api/unsubscribes')).toHaveLength(0);

    const user = userEvent.setup();
    await user.click(tab('Unsubscribed (2)'));
    const panel = () => within(createWrapper().findTabs()!.findTabContent()!.getElement());
    expect(await panel().findByText('Ivy Stone')).toBeInTheDocument();
    expect(server.calls('GET', '/api/unsubscribes')).toHaveLength(1);
    expect(panel().getByText('ivy@stone.com')).toBeInTheDocument();
    expect(panel().getByText('Unsubscribed 3 days ago')).toBeInTheDocument();
    expect(panel().getByText('From campaign: Night Drive')).toBeInTheDocument();
    expect(panel().getByText('Too many emails')).toBeInTheDocument();
    expect(panel().getByText('Weekly is enough')).toBeInTheDocument();
    expect(panel().getByText('Unsubscribed 10 days ago')).toBeInTheDocument();
    expect(panel().getAllByText('anon@x.com')).toHaveLength(2); // no name: the address is its title

    await user.click(panel().getByRole('button', { name: 'Resubscribe Ivy Stone' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Resubscribe Ivy Stone?')).toBeInTheDocument();
    expect(within(dialog).getByText(/ivy@stone\.com unsubscribed themselves 3 days ago, from your campaign Night Drive\./)).toBeInTheDocument();
    expect(within(dialog).getByText(/Only do this if they asked you to add them back/)).toBeInTheDocument();
    await confirmResubscribe(user);
    expect(await screen.findByText('Contact resubscribed successfully')).toBeInTheDocument();
    expect(server.bodies('DELETE', '/api/unsubscribes/unsub-3')).toEqual([{ recipient_asked: true }]);
    await waitFor(() => expect(panel().queryByText('Ivy Stone')).not.toBeInTheDocument());
    expect(tab('Unsubscribed (1)')).toBeInTheDocument();
    expect(server.unsubs.has('unsub-3')).toBe(false);
  });

  it('asks first: Cancel, or confirming without ticking that they asked, resubscribes no one', async () => {
    const server = fakeContactsServer([], [unsubscribe(1, { contact_name: 'Ivy Stone' })]);
    await openPage(server);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: 'Unsubscribed (1)' }));
    await user.click(await screen.findByRole('button', { name: 'Resubscribe Ivy Stone' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Resubscribe' }));
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(server.calls('DELETE', '/api/unsubscribes/unsub-1')).toHaveLength(0);
    expect(screen.getByText('Ivy Stone')).toBeInTheDocument();
    // Opened again, the tick starts cleared.
    await user.click(screen.getByRole('button', { name: 'Resubscribe Ivy Stone' }));
    expect(within(await screen.findByRole('dialog')).getByRole('checkbox', { name: 'They asked me to add them back' })).not.toBeChecked();
  });

  it('says when resubscribing fails and keeps the card', async () => {
    const server = fakeContactsServer([], [unsubscribe(1, { contact_name: 'Ivy Stone' })]);
    server.fail.resubscribe = { status: 500, message: apiMessages.internalError };
    await openPage(server);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: 'Unsubscribed (1)' }));
    await user.click(await screen.findByRole('button', { name: 'Resubscribe Ivy Stone' }));
    await confirmResubscribe(user);
    expect(await screen.findByText('Failed to resubscribe contact')).toBeInTheDocument();
    expect(screen.getByText('Ivy Stone')).toBeInTheDocument();
    expect(tab('Unsubscribed (1)')).toBeInTheDocument();
  });

  it('removes a card whose address was already resubscribed elsewhere', async () => {
    const server = fakeContactsServer([], [unsubscribe(1, { contact_name: 'Ivy Stone' }), unsubscribe(2)]);
    await openPage(server);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: 'Unsubscribed (2)' }));
    const button = await screen.findByRole('button', { name: 'Resubscribe Ivy Stone' });
    server.unsubs.delete('unsub-1');
    await user.click(button);
    await confirmResubscribe(user);
    expect(await screen.findByText('Contact resubscribed successfully')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Ivy Stone')).not.toBeInTheDocument());
    expect(tab('Unsubscribed (1)')).toBeInTheDocument();
  });

  it('shows the empty state, and the load failure', async () => {
    const server = fakeContactsServer([]);
    await openPage(server);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: 'Unsubscribed (0)' }));
    expect(await screen.findByText('No unsubscribed contacts yet')).toBeInTheDocument();

    await user.click(tab('Contacts (0)'));
    server.fail.unsubscribes = { status: 500, message: apiMessages.internalError };
    await user.click(tab('Unsubscribed (0)'));
    expect(await screen.findAllByText('Failed to fetch unsubscribed contacts')).not.toHaveLength(0);
    expect(screen.getByText(apiMessages.internalError)).toBeInTheDocument();
  });
});
