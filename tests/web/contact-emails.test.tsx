import { within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ContactEmail } from '../../schema/api/sending';
import { formatDateTime } from '../../web/src/pages/campaigns/campaignView';
import { contact, fakeContactsServer, gate, openContactCard } from './contacts-fake-server';
import { preloadRoutes } from './helpers';

beforeAll(async () => {
  await preloadRoutes();
  await import('../../web/src/pages/contacts/ContactsPage');
}, 60_000);

const sentEmail = (overrides: Partial<ContactEmail> = {}): ContactEmail => ({
  campaign_id: 'campaign-1',
  track_name: 'Harbour Lights',
  position: 0,
  subject: 'Harbour Lights for Velvet Records',
  sent_at: '2025-03-01T18:00:00.000Z',
  replied_at: null,
  answer: null,
  ...overrides,
});

describe('the emails sent to a contact, on its card', () => {
  it('loads nothing until opened, then lists each email with its track, time, subject and answer, and the Replied mark', async () => {
    const mara = contact(1);
    const server = fakeContactsServer([mara, contact(2)]);
    server.sentEmails.set(mara.id, [
      sentEmail({ campaign_id: 'campaign-2', track_name: 'Night Drive', sent_at: '2025-03-05T18:00:00.000Z', answer: 'interested' }),
      sentEmail({ replied_at: '2025-03-02T09:00:00.000Z' }),
    ]);
    const user = userEvent.setup();
    const card = await openContactCard(server, mara.email);
    expect(server.calls('GET', `/api/contacts/${mara.id}/emails`)).toHaveLength(0);

    await user.click(card.getByRole('button', { name: `Emails sent to ${mara.name} (${mara.email})` }));
    const list = within(await card.findByRole('list', { name: `Emails sent to ${mara.name}` }));
    const items = list.getAllByRole('listitem');
    expect(items).toHaveLength(2);
    const [newest, older] = items.map((item) => within(item));
    expect(newest!.getByText('Night Drive')).toBeInTheDocument();
    expect(newest!.getByText(`· ${formatDateTime('2025-03-05T18:00:00.000Z')} · Answer: Interested`, { exact: false })).toBeInTheDocument();
    expect(newest!.getByRole('button', { name: 'Mark as replied' })).toBeInTheDocument();
    expect(older!.getByText('Harbour Lights for Velvet Records')).toBeInTheDocument();
    expect(older!.getByText('Replied')).toBeInTheDocument();
    expect(older!.getByRole('button', { name: 'Undo replied' })).toBeInTheDocument();
    // Only this card's list was read.
    expect(server.fetchImpl.mock.calls.filter(([url]) => new URL(url as string, 'http://localhost').pathname.endsWith('/emails'))).toHaveLength(1);
  });

  it('marks an email replied and undoes it, by keyboard, through the campaign email’s route', async () => {
    const mara = contact(1);
    const server = fakeContactsServer([mara]);
    server.sentEmails.set(mara.id, [sentEmail({ campaign_id: 'campaign-9', position: 4 })]);
    const user = userEvent.setup();
    const card = await openContactCard(server, mara.email);
    await user.click(card.getByRole('button', { name: `Emails sent to ${mara.name} (${mara.email})` }));
    const mark = await card.findByRole('button', { name: 'Mark as replied' });
    mark.focus();
    await user.keyboard('{Enter}');
    expect(await card.findByText('Replied')).toBeInTheDocument();
    expect(server.calls('PUT', '/api/campaigns/campaign-9/emails/4/replied')).toHaveLength(1);
    expect(server.sentEmails.get(mara.id)![0]!.replied_at).not.toBeNull();

    await user.click(card.getByRole('button', { name: 'Undo replied' }));
    expect(await card.findByRole('button', { name: 'Mark as replied' })).toBeInTheDocument();
    expect(card.queryByText('Replied')).toBeNull();
    expect(server.calls('DELETE', '/api/campaigns/campaign-9/emails/4/replied')).toHaveLength(1);
  });

  it('says when nothing was sent to the contact, and offers Retry when the list cannot be loaded', async () => {
    const mara = contact(1);
    const server = fakeContactsServer([mara]);
    server.fail.contactEmails = { status: 500, message: 'Something went wrong' };
    const user = userEvent.setup();
    const card = await openContactCard(server, mara.email);
    await user.click(card.getByRole('button', { name: `Emails sent to ${mara.name} (${mara.email})` }));
    expect(await card.findByText('Failed to load the emails: Something went wrong')).toBeInTheDocument();

    server.fail.contactEmails = null;
    const held = gate();
    server.hold.contactEmails = held.promise;
    await user.click(card.getByRole('button', { name: 'Retry' }));
    expect(await card.findByText('Loading emails')).toBeInTheDocument();
    held.open();
    expect(await card.findByText('No emails sent to this contact yet.')).toBeInTheDocument();
  });
});
