/**
 * Compose's "Follow-ups" (issue 27 §1): off by default; up to two steps (4 and 9 days by default), each
 * written by the AI or in the artist's words; which engagement stops them; checked before a send; sent
 * with the first batch; each step previewed for the selected recipient; kept across a visit elsewhere.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Contact } from '../../schema/api/contacts';
import { followUpMessages } from '../../schema/api/followUpValues';
import { sendingMessages } from '../../schema/api/sending';
import { contact } from './contacts-fake-server';
import { containerOf, fakeComposeServer, fillTrack, openCompose, recipientBox, toast, type ComposeServer } from './compose-fake-server';
import { preloadRoutes } from './helpers';

beforeAll(async () => {
  await preloadRoutes();
  await import('../../web/src/pages/compose/ComposePage');
}, 60_000);

const ana = contact(3, { name: 'Ana Vogel', email: 'ana@deeprecords.example', label_name: 'Deep Records' });
const ben = contact(2, { name: 'Ben Ortiz', email: 'ben@nightowl.example', label_name: 'Night Owl' });
const connected = { gmail_connected: true } as const;
const slow = { timeout: 60_000 };

const card = () => containerOf('Follow-ups');
const stepOf = (n: number) => within(card()).getByRole('region', { name: `Follow-up ${n}` });
const daysOf = (n: number) => within(card()).getByRole('spinbutton', { name: `Follow-up ${n}: after (days)` });
const draftId = (server: ComposeServer) => [...server.campaigns.keys()][0]!;
/** user-event reads '[' as a key: typed literally as '[['. */
const typed = (text: string) => text.replace(/\[/g, '[[');

async function withPreview(server: ComposeServer, chosen: readonly Contact[]): Promise<UserEvent> {
  const user = userEvent.setup();
  await openCompose(server, connected);
  await fillTrack(user);
  for (const one of chosen) await user.click(recipientBox(one.email));
  await user.click(screen.getByRole('button', { name: 'Generate Email Preview' }));
  await within(containerOf('Email Preview')).findByRole('button', { name: 'Edit' });
  return user;
}

/** Send Campaign → Start Sending, and the batches the server was sent; `inDialog` looks at the capacity dialog first. */
async function send(user: UserEvent, server: ComposeServer, inDialog: (dialog: HTMLElement) => void = () => {}) {
  await user.click(screen.getByRole('button', { name: 'Send Campaign' }));
  const dialog = await screen.findByRole('dialog', { name: 'Send Campaign' });
  await within(dialog).findByRole('button', { name: 'Start Sending' });
  inDialog(dialog);
  await user.click(await within(dialog).findByRole('button', { name: 'Start Sending' }));
  await screen.findByRole('dialog', { name: 'Sending Campaign' });
  await waitFor(() => expect(server.bodies('POST', `/api/campaigns/${draftId(server)}/send`)).toHaveLength(1));
  return server.bodies('POST', `/api/campaigns/${draftId(server)}/send`);
}

describe('compose: Follow-ups', slow, () => {
  it('are off by default, and a campaign sent so carries none', async () => {
    const server = fakeComposeServer({ contacts: [ana] });
    const user = await withPreview(server, [ana]);
    expect(within(card()).getByRole('checkbox', { name: 'Send follow-ups' })).not.toBeChecked();
    expect(within(card()).queryByRole('region', { name: 'Follow-up 1' })).toBeNull();
    const [first] = await send(user, server, (dialog) => expect(within(dialog).queryByTestId('follow-ups-notice')).toBeNull());
    expect(first).not.toHaveProperty('follow_ups');
  });

  it('turned on: 4 and 9 days by default, AI or own text, the condition; the first batch carries exactly them', async () => {
    const server = fakeComposeServer({ contacts: [ana, ben] });
    const user = await withPreview(server, [ana, ben]);
    await user.click(within(card()).getByRole('checkbox', { name: 'Send follow-ups' }));
    expect(daysOf(1)).toHaveValue(4);
    expect(within(stepOf(1)).getByRole('radio', { name: 'Written by AI' })).toBeChecked();
    expect(within(card()).getByRole('radio', { name: 'Only if they did not listen' })).toBeChecked();

    await user.click(within(card()).getByRole('button', { name: 'Add follow-up' }));
    expect(daysOf(2)).toHaveValue(9);
    // Two at most.
    expect(within(card()).queryByRole('button', { name: 'Add follow-up' })).toBeNull();
    await user.click(within(stepOf(2)).getByRole('radio', { name: 'My own text' }));
    await user.type(within(stepOf(2)).getByRole('textbox', { name: 'Text' }), typed('Last note on [TRACK_NAME], [FIRST_NAME].'));
    await user.clear(daysOf(2));
    await user.type(daysOf(2), '12');
    await user.click(within(card()).getByRole('radio', { name: 'Only if they did not answer' }));

    // The capacity dialog counts the steps this send may bring this month (the count itself: compose-send.test.tsx).
    const batches = await send(user, server, (dialog) => {
      expect(within(dialog).getByTestId('follow-ups-notice')).toHaveTextContent(/^(Up to \d+ follow-ups later this month|No follow-ups this month)/);
    });
    expect(batches[0]).toMatchObject({
      batch_start: 0,
      follow_ups: {
        steps: [
          { after_days: 4, writer: 'ai', text: null },
          { after_days: 12, writer: 'own', text: 'Last note on [TRACK_NAME], [FIRST_NAME].' },
        ],
        condition: 'not_answered',
      },
    });
    expect(server.campaigns.get(draftId(server))?.follow_ups.steps).toHaveLength(2);
  });

  it('a step out of order or without its text stops the send, says why and shows it beside the field', async () => {
    const server = fakeComposeServer({ contacts: [ana] });
    const user = await withPreview(server, [ana]);
    await user.click(within(card()).getByRole('checkbox', { name: 'Send follow-ups' }));
    await user.click(within(card()).getByRole('button', { name: 'Add follow-up' }));
    await user.clear(daysOf(2));
    await user.type(daysOf(2), '3');
    await user.click(within(stepOf(1)).getByRole('radio', { name: 'My own text' }));
    // Not shown while the artist has not left the field or tried to send.
    expect(within(card()).queryByText(followUpMessages.textRequired)).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Send Campaign' }));
    const item = await toast('Check the follow-ups');
    expect(item).toHaveTextContent(followUpMessages.textRequired);
    expect(within(stepOf(1)).getByText(followUpMessages.textRequired)).toBeInTheDocument();
    expect(within(stepOf(2)).getByText(followUpMessages.daysOrder)).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Send Campaign' })).toBeNull();
    expect(server.calls('POST', `/api/campaigns/${draftId(server)}/send-check`)).toHaveLength(0);

    await user.clear(daysOf(1));
    await user.type(daysOf(1), '31');
    expect(within(stepOf(1)).getByText(followUpMessages.daysRange)).toBeInTheDocument();
  });

  it('removing the only step turns follow-ups off', async () => {
    const server = fakeComposeServer({ contacts: [ana] });
    const user = await withPreview(server, [ana]);
    await user.click(within(card()).getByRole('checkbox', { name: 'Send follow-ups' }));
    await user.click(within(card()).getByRole('button', { name: 'Remove Follow-up 1' }));
    expect(within(card()).getByRole('checkbox', { name: 'Send follow-ups' })).not.toBeChecked();
    const [first] = await send(user, server);
    expect(first).not.toHaveProperty('follow_ups');
  });

  it('the preview per recipient shows each step for the selected recipient, in the first email’s thread', async () => {
    const server = fakeComposeServer({ contacts: [ana, ben] });
    const user = await withPreview(server, [ana, ben]);
    const preview = () => containerOf('Preview per recipient');
    // No steps: no choice of email.
    expect(within(preview()).queryByRole('button', { name: 'Follow-up 1' })).toBeNull();

    await user.click(within(card()).getByRole('checkbox', { name: 'Send follow-ups' }));
    await user.click(within(stepOf(1)).getByRole('radio', { name: 'My own text' }));
    await user.type(within(stepOf(1)).getByRole('textbox', { name: 'Text' }), typed('Hi [FIRST_NAME], did [TRACK_NAME] reach you?'));
    await user.click(within(preview()).getByRole('button', { name: 'Follow-up 1' }));
    const subject = await within(preview()).findByText(/^Re: /);
    expect(subject).toHaveTextContent(`Re: ${server.campaigns.get(draftId(server))!.email_subject}`);
    const request = server.bodies('POST', `/api/campaigns/${draftId(server)}/recipient-preview`).at(-1);
    expect(request).toEqual({
      contact_id: ana.id,
      follow_up: { number: 1, step: { after_days: 4, writer: 'own', text: 'Hi [FIRST_NAME], did [TRACK_NAME] reach you?' } },
    });

    await user.click(within(preview()).getByRole('button', { name: 'Next recipient' }));
    await waitFor(() => expect(server.bodies('POST', `/api/campaigns/${draftId(server)}/recipient-preview`).at(-1)).toMatchObject({ contact_id: ben.id }));
    expect(server.bodies('POST', `/api/campaigns/${draftId(server)}/recipient-preview`).at(-1)).toHaveProperty('follow_up.number', 1);

    await user.click(within(preview()).getByRole('button', { name: 'First email' }));
    await waitFor(() => expect(server.bodies('POST', `/api/campaigns/${draftId(server)}/recipient-preview`).at(-1)).toEqual({ contact_id: ben.id }));
  });

  it('are kept when the artist leaves Compose and comes back', async () => {
    const server = fakeComposeServer({ contacts: [ana] });
    const user = await withPreview(server, [ana]);
    await user.click(within(card()).getByRole('checkbox', { name: 'Send follow-ups' }));
    await user.clear(daysOf(1));
    await user.type(daysOf(1), '6');
    await user.click(screen.getByRole('link', { name: 'Contacts' }));
    await screen.findByRole('heading', { name: 'Contacts', level: 1 });
    await user.click(screen.getByRole('link', { name: 'Compose' }));
    await screen.findByRole('heading', { name: 'Compose Campaign', level: 1 });
    expect(await within(card()).findByRole('checkbox', { name: 'Send follow-ups' })).toBeChecked();
    expect(daysOf(1)).toHaveValue(6);
  });

  it('a sent campaign leaves Compose with follow-ups off again', async () => {
    const server = fakeComposeServer({ contacts: [ana] });
    const user = await withPreview(server, [ana]);
    await user.click(within(card()).getByRole('checkbox', { name: 'Send follow-ups' }));
    await send(user, server);
    await user.click(await screen.findByRole('button', { name: 'Continue' }));
    await screen.findByRole('dialog', { name: sendingMessages.started });
    expect(within(card()).getByRole('checkbox', { name: 'Send follow-ups' })).not.toBeChecked();
  });
});
