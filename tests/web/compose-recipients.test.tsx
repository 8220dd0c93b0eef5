import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { composeMessages } from '../../schema/api/campaigns';
import { contact, manyContacts, unsubscribe } from './contacts-fake-server';
import { containerOf, enter, fakeComposeServer, fillTrack, formField, openCompose, recipientBox, savedList, toast, validTrack } from './compose-fake-server';
import { preloadRoutes } from './helpers';
import { RECIPIENT_ROWS_STEP } from '../../web/src/pages/compose/RecipientsCard';
import { apiMessages } from '../../schema/api/serverMessages';

beforeAll(async () => {
  await preloadRoutes();
  await import('../../web/src/pages/compose/ComposePage');
  // HTML mode's chunk, loaded once here: on a busy machine its first load outlasted a find's 5 s.
  await import('../../web/src/pages/compose/html/HtmlModePanel');
}, 60_000);

const matchLine = (matching: number, selected: number) => screen.findByText(`${matching} contacts match your filters (${selected} selected)`);
const rows = () => within(screen.getByRole('group', { name: 'Recipients' })).getAllByRole('checkbox');
/** The addresses of the rows shown, in order. */
const rowEmails = () => rows().map((row) => /[^\s]+@[a-z.]+\.example/.exec(row.closest('li')!.textContent)?.[0]);
const genreSelect = () => formField('Genres').findControl()!.findMultiselect()!;
const chooseGenre = (key: string) => {
  const multiselect = genreSelect();
  act(() => multiselect.openDropdown());
  act(() => multiselect.selectOptionByValue(key));
  act(() => multiselect.closeDropdown());
};

const ana = contact(4, { name: 'Ana Vogel', email: 'ana@deeprecords.example', label_name: 'Deep Records', contact_type: 'Label', genre: 'House, Deep House' });
const ben = contact(3, { name: 'Ben Ortiz', email: 'ben@nightowl.example', label_name: 'Night Owl', contact_type: 'DJ', genre: 'Techno' });
const cleo = contact(2, { name: 'Cleo Park', email: 'cleo@mail.example', label_name: null, contact_type: 'Fan', genre: 'house' });
const dev = contact(1, { name: 'Dev Ray', email: 'dev@drumcode.example', label_name: 'Drumcode', contact_type: 'DJ', genre: 'Minimal' });
const four = [ana, ben, cleo, dev];

describe('compose: select recipients', () => {
  it('counts the matches and the selection, and filters by type (with counts) and genre', async () => {
    const server = fakeComposeServer({ contacts: four });
    const user = userEvent.setup();
    await openCompose(server);
    expect(screen.getByRole('heading', { name: 'Select Recipients' })).toBeInTheDocument();
    await matchLine(4, 0);
    expect(rowEmails()).toEqual([ana.email, ben.email, cleo.email, dev.email]);

    const types = within(screen.getByRole('group', { name: 'Contact type' }));
    await user.click(types.getByRole('checkbox', { name: 'DJ (2)' }));
    await matchLine(2, 0);
    expect(rowEmails()).toEqual([ana.email, cleo.email]);
    await user.click(recipientBox(cleo.email));
    await matchLine(2, 1);

    // Genres: grouped without case; any selected genre matches.
    chooseGenre('house');
    await matchLine(2, 1);
    await user.click(types.getByRole('checkbox', { name: 'Fan (1)' }));
    await matchLine(1, 1);
    expect(rowEmails()).toEqual([ana.email]);
    await user.click(types.getByRole('checkbox', { name: 'DJ (2)' }));
    chooseGenre('minimal');
    await matchLine(2, 1);
    expect(rowEmails()).toEqual([ana.email, dev.email]);
  });

  it('searches name, email and label without case', async () => {
    const server = fakeComposeServer({ contacts: four });
    const user = userEvent.setup();
    await openCompose(server);
    const search = screen.getByRole('searchbox', { name: 'Search recipients' });
    expect(search).toHaveAttribute('placeholder', 'Search by name, email or label');
    for (const [text, email] of [
      ['cleo', cleo.email],
      ['NIGHTOWL.example', ben.email],
      ['drumCODE', dev.email],
    ] as const) {
      await user.clear(search);
      await enter(user, search, text);
      await matchLine(1, 0);
      expect(rowEmails()).toEqual([email]);
    }
    await user.clear(search);
    await enter(user, search, 'nobody here');
    await matchLine(0, 0);
    expect(screen.getByText('No contacts match your filters')).toBeInTheDocument();
  });

  it('Select All selects every contact matching the filters; Deselect All Filtered only those', async () => {
    const server = fakeComposeServer({ contacts: four });
    const user = userEvent.setup();
    await openCompose(server);
    const types = within(screen.getByRole('group', { name: 'Contact type' }));
    await user.click(types.getByRole('checkbox', { name: 'Label (1)' }));
    await user.click(types.getByRole('checkbox', { name: 'Fan (1)' }));
    await matchLine(2, 0);
    await user.click(screen.getByRole('button', { name: 'Select All' }));
    await matchLine(2, 2);

    await user.click(types.getByRole('checkbox', { name: 'Label (1)' }));
    await matchLine(3, 2);
    expect(recipientBox(ana.email)).not.toBeChecked();
    expect(recipientBox(ben.email)).toBeChecked();
    expect(recipientBox(dev.email)).toBeChecked();
    await user.click(recipientBox(ana.email));
    await matchLine(3, 3);

    // Only the DJs are hidden now: deselecting the filtered list leaves them selected.
    await user.click(types.getByRole('checkbox', { name: 'DJ (2)' }));
    await matchLine(1, 3);
    await user.click(screen.getByRole('button', { name: 'Deselect All Filtered' }));
    await matchLine(1, 2);
    await user.click(types.getByRole('checkbox', { name: 'DJ (2)' }));
    await matchLine(3, 2);
    expect(recipientBox(ana.email)).not.toBeChecked();
    expect(recipientBox(ben.email)).toBeChecked();
  });

  it('marks contacts on the unsubscribed list (compared without case)', async () => {
    const server = fakeComposeServer({ contacts: four, unsubscribes: [unsubscribe(1, { contact_email: 'BEN@NightOwl.example' })] });
    await openCompose(server);
    await waitFor(() => expect(within(recipientBox(ben.email).closest('li')!).getByText('Unsubscribed')).toBeInTheDocument());
    expect(screen.getAllByText('Unsubscribed')).toHaveLength(1);
  });

  it('says when there are no contacts at all, with links to Contacts and LabelFinder', async () => {
    const server = fakeComposeServer();
    await openCompose(server);
    expect(await screen.findByText('No contacts found')).toBeInTheDocument();
    const card = within(containerOf('Select Recipients'));
    expect(card.getByRole('link', { name: 'Contacts' })).toHaveAttribute('href', '/dashboard/contacts');
    expect(card.getByRole('link', { name: 'LabelFinder' })).toHaveAttribute('href', '/dashboard/labelfinder');
    expect(screen.queryByText('No contacts match your filters')).not.toBeInTheDocument();
  });

  it('renders the first 100 rows of a long list and more on request', async () => {
    const server = fakeComposeServer({ contacts: manyContacts(130) });
    const user = userEvent.setup();
    await openCompose(server);
    await matchLine(130, 0);
    expect(rows()).toHaveLength(RECIPIENT_ROWS_STEP);
    // Select All reaches every match, not only the rows on screen.
    await user.click(screen.getByRole('button', { name: 'Select All' }));
    await matchLine(130, 130);
    await user.click(screen.getByRole('button', { name: 'Show more (30 more)' }));
    expect(rows()).toHaveLength(130);
    expect(rows().at(-1)).toBeChecked();
    expect(screen.queryByRole('button', { name: /Show more/ })).not.toBeInTheDocument();
  });
});

describe('compose: saved contact lists', () => {
  it('saves the filters and selection under a name; a blank name is refused first', async () => {
    const server = fakeComposeServer({ contacts: four });
    const user = userEvent.setup();
    await openCompose(server);
    await user.click(within(screen.getByRole('group', { name: 'Contact type' })).getByRole('checkbox', { name: 'Fan (1)' }));
    chooseGenre('house');
    await user.click(recipientBox(ana.email));
    await matchLine(1, 1);

    await user.click(screen.getByRole('button', { name: 'Save Contact List' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Save Contact List' }));
    await user.click(dialog.getByRole('button', { name: 'Save' }));
    expect(dialog.getByText(composeMessages.listNameRequired)).toBeInTheDocument();
    expect(server.calls('POST', '/api/contact-lists')).toHaveLength(0);

    server.fail.saveList = { status: 500, message: apiMessages.internalError };
    await user.type(dialog.getByRole('textbox', { name: 'List Name' }), 'House labels');
    await user.click(dialog.getByRole('button', { name: 'Save' }));
    expect(await toast(composeMessages.saveListFailed)).toHaveTextContent(apiMessages.internalError);
    expect(dialog.getByRole('textbox', { name: 'List Name' })).toHaveValue('House labels');

    server.fail.saveList = null;
    await user.click(dialog.getByRole('button', { name: 'Save' }));
    await toast(composeMessages.listSaved);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Save Contact List' })).not.toBeInTheDocument());
    expect(server.bodies('POST', '/api/contact-lists').at(-1)).toEqual({
      name: 'House labels',
      contact_types: ['Label', 'DJ'],
      selected_genres: ['house'],
      contact_ids: [ana.id],
    });
    const quickLoad = formField('Quick Load').findControl()!.findSelect()!;
    act(() => quickLoad.openDropdown());
    expect(
      quickLoad
        .findDropdown()
        .findOptions()
        .map((option) => option.findLabel().getElement().textContent),
    ).toEqual(['House labels']);
  });

  it('Quick Load applies a saved list: its types and genres, and its contacts that still exist', async () => {
    const list = savedList(1, { name: 'Techno DJs', contact_types: ['DJ'], selected_genres: ['techno'], contact_ids: [ben.id, 'id-deleted-contact'] });
    const server = fakeComposeServer({ contacts: four, lists: [list, savedList(2)] });
    await openCompose(server);
    await matchLine(4, 0);
    const quickLoad = formField('Quick Load').findControl()!.findSelect()!;
    await waitFor(() => expect(quickLoad.isDisabled()).toBe(false));
    act(() => quickLoad.openDropdown());
    act(() => quickLoad.selectOptionByValue(list.id));

    expect(await toast(composeMessages.listLoaded)).toHaveTextContent('"Techno DJs": 1 contacts selected.');
    await matchLine(1, 1);
    expect(rowEmails()).toEqual([ben.email]);
    expect(recipientBox(ben.email)).toBeChecked();
    const types = within(screen.getByRole('group', { name: 'Contact type' }));
    expect(types.getByRole('checkbox', { name: 'DJ (2)' })).toBeChecked();
    expect(types.getByRole('checkbox', { name: 'Label (1)' })).not.toBeChecked();
    expect(
      genreSelect()
        .findTokens()
        .map((token) => token.findLabel().getElement().textContent),
    ).toEqual(['Techno']);
  });
});

describe('compose: modes', () => {
  it('keeps the track and the selection across AI and HTML mode; HTML mode drops the asterisks and saves an HTML draft', async () => {
    const server = fakeComposeServer({ contacts: four });
    const user = userEvent.setup();
    await openCompose(server);
    await fillTrack(user, { track_name: validTrack.track_name });
    const modes = createWrapper().findSegmentedControl()!;
    act(() => modes.findSegmentById('html')!.click());

    expect(await screen.findByRole('textbox', { name: 'Track Name' })).toHaveValue(validTrack.track_name);
    expect(screen.queryByRole('textbox', { name: 'Track Name *' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Generate Email Preview' })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Email Preview' })).not.toBeInTheDocument();

    // No recipient yet: only the recipients are asked for (HTML mode needs no track fields), nothing saved.
    const create = await screen.findByRole('button', { name: 'Create Preview' });
    await user.click(create);
    await toast(composeMessages.selectRecipient);
    expect(screen.queryByText(composeMessages.previewNeeds)).not.toBeInTheDocument();
    expect(server.calls('POST', '/api/campaigns')).toHaveLength(0);

    await user.click(recipientBox(ben.email));
    await user.click(recipientBox(dev.email));
    await user.click(screen.getByRole('button', { name: 'Create Preview' }));
    await toast(composeMessages.htmlPreviewCreated);
    const [body] = server.bodies('POST', '/api/campaigns');
    expect(body).toMatchObject({ mode: 'html', total_recipients: 2, track: { track_name: validTrack.track_name } });
    expect(String(body!.email_subject)).toContain(validTrack.track_name);
    expect(await screen.findByRole('heading', { name: 'Preview per recipient' })).toBeInTheDocument();
    expect(await screen.findByText(`${ben.name} <${ben.email}>`)).toBeInTheDocument();

    act(() => modes.findSegmentById('ai')!.click());
    expect(await screen.findByRole('textbox', { name: 'Track Name *' })).toHaveValue(validTrack.track_name);
    expect(recipientBox(ben.email)).toBeChecked();
    expect(recipientBox(dev.email)).toBeChecked();
    await matchLine(4, 2);
  });
});
