/**
 * Compose's pre-send check (issue 28 §2): 'Already released' in the track details reaches the draft; the
 * per-recipient preview shows each recipient's warnings (a form-only label with a link to its form, a
 * private-links-only label offered the private listen page, a pass with its date); the send dialog
 * lists the recipients with warnings, leaves out a form-only label unless 'Send anyway' is ticked (and
 * then names it in the request), and leaves out a recipient the artist chooses to.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Contact } from '../../schema/api/contacts';
import { preSendMessages } from '../../lambdas/core/preSendCheck';
import { buildDemoPolicy } from '../fakes/builders';
import { contact } from './contacts-fake-server';
import {
  chooseMyTrack,
  containerOf,
  fakeComposeServer,
  fillTrack,
  openCompose,
  recipientBox,
  toast,
  uploadedTrack,
  type ComposeServer,
  type FakeSending,
} from './compose-fake-server';
import { preloadRoutes } from './helpers';

beforeAll(async () => {
  await preloadRoutes();
  await import('../../web/src/pages/compose/ComposePage');
}, 60_000);

// Listed (and previewed) newest first: Velvet, then Harbour, then Kai, then Ada.
const velvet = contact(4, {
  name: 'Velvet Moth',
  email: 'demos@velvetmoth.example',
  label_name: 'Velvet Moth Records',
  demo_policy: buildDemoPolicy({ submit_by: 'web_form', submit_url: 'https://velvetmoth.example/demos' }),
});
const harbour = contact(3, {
  name: 'Harbour Audio',
  email: 'ar@harbour.example',
  label_name: 'Harbour Audio',
  demo_policy: buildDemoPolicy({ private_streaming_only: true, unreleased_only: true }),
});
const kai = contact(2, { name: 'Kai Lund', email: 'kai@lund.example' });
const ada = contact(1, { name: 'Ada Vell', email: 'ada@vell.example' });

const connected = { gmail_connected: true } as const;
const slow = { timeout: 60_000 };
const draftId = (server: ComposeServer) => [...server.campaigns.keys()][0]!;
const sendBodies = (server: ComposeServer) => server.bodies('POST', `/api/campaigns/${draftId(server)}/send`);

async function withPreview(chosen: readonly Contact[], sending: Partial<FakeSending> = {}, { released = false } = {}) {
  const nightDrive = uploadedTrack('01KAKZ3R0000000000000000AC', 'Night Drive');
  const server = fakeComposeServer({ contacts: [velvet, harbour, kai, ada], sending, tracks: [nightDrive] });
  const user = userEvent.setup();
  await openCompose(server, connected);
  await fillTrack(user);
  if (released) await user.click(screen.getByRole('checkbox', { name: /Already released/ }));
  for (const one of chosen) await user.click(recipientBox(one.email));
  await user.click(screen.getByRole('button', { name: 'Generate Email Preview' }));
  await within(containerOf('Email Preview')).findByRole('button', { name: 'Edit' });
  return { server, user, nightDrive };
}

const previewCard = () => containerOf('Preview per recipient');
const previewWarnings = () => within(previewCard()).findByRole('region', { name: 'Pre-send check' });

async function openDialog(user: UserEvent) {
  await user.click(screen.getByRole('button', { name: 'Send Campaign' }));
  const dialog = await screen.findByRole('dialog', { name: 'Send Campaign' });
  await waitFor(() => expect(screen.queryByText('Checking sending capacity...')).toBeNull());
  return dialog;
}
const rowOf = (dialog: HTMLElement, name: string) =>
  within(within(dialog).getByRole('list', { name: 'Recipients with warnings' })).getByRole('listitem', { name });
const count = (dialog: HTMLElement, testId: string) => within(dialog).getByTestId(testId).textContent;

describe('compose: the track details say whether the track is released', slow, () => {
  it("'Already released' goes with the draft, and a label taking unreleased music only is warned", async () => {
    const { server } = await withPreview([harbour], {}, { released: true });
    expect(server.bodies('POST', '/api/campaigns/generate-preview')[0]).toMatchObject({ track: { released: true } });
    expect(server.campaigns.get(draftId(server))?.released).toBe(true);
    const warnings = await previewWarnings();
    expect(warnings).toHaveTextContent(preSendMessages.unreleasedOnly);
    expect(warnings).toHaveTextContent(preSendMessages.privateLinksOnly);
  });

  it('unticked, the draft is not released and nothing warns of it', async () => {
    const { server } = await withPreview([harbour]);
    expect(server.bodies('POST', '/api/campaigns/generate-preview')[0]).toMatchObject({ track: { released: false } });
    expect(await previewWarnings()).not.toHaveTextContent(preSendMessages.unreleasedOnly);
  });
});

describe('compose: the pre-send check in the preview', slow, () => {
  it("shows each recipient's warnings: the form-only label's form, the private listen page offered, a pass with its date; none for a plain contact", async () => {
    const { user } = await withPreview([velvet, harbour, kai, ada], { passed: new Map([[kai.id, '2026-11-03T18:00:00.000Z']]) });
    let warnings = await previewWarnings();
    expect(warnings).toHaveTextContent(preSendMessages.webFormOnly);
    expect(within(warnings).getByRole('link', { name: /Open their form/ })).toHaveAttribute('href', 'https://velvetmoth.example/demos');
    expect(warnings).toHaveTextContent("unless you tick 'Send anyway'");

    await user.click(within(previewCard()).getByRole('button', { name: 'Next recipient' }));
    await within(previewCard()).findByText(`${harbour.name} <${harbour.email}>`);
    warnings = await previewWarnings();
    expect(warnings).toHaveTextContent(preSendMessages.privateLinksOnly);
    expect(within(warnings).getByRole('button', { name: 'Use the private listen page' })).toBeInTheDocument();
    expect(warnings).not.toHaveTextContent("unless you tick 'Send anyway'");

    await user.click(within(previewCard()).getByRole('button', { name: 'Next recipient' }));
    await within(previewCard()).findByText(`${kai.name} <${kai.email}>`);
    expect(await within(previewCard()).findByText('Passed on Midnight Drive on Nov 3, 2026.')).toBeInTheDocument();

    await user.click(within(previewCard()).getByRole('button', { name: 'Next recipient' }));
    await within(previewCard()).findByText(`${ada.name} <${ada.email}>`);
    await waitFor(() => expect(within(previewCard()).queryByRole('region', { name: 'Pre-send check' })).toBeNull());
  });

  it("'Use the private listen page' without an uploaded track shows the upload; with one, the draft is saved with it and the warning goes", async () => {
    const { server, user, nightDrive } = await withPreview([harbour]);
    await user.click(within(await previewWarnings()).getByRole('button', { name: 'Use the private listen page' }));
    await toast('Upload the track or pick one from My tracks: each recipient then gets a private listen page.');
    expect(server.calls('PUT', `/api/campaigns/${draftId(server)}`)).toHaveLength(0);

    await chooseMyTrack(user, nightDrive.name);
    await user.click(within(await previewWarnings()).getByRole('button', { name: 'Use the private listen page' }));
    await toast("The email now links each recipient's private listen page.");
    expect(server.bodies('PUT', `/api/campaigns/${draftId(server)}`)[0]).toMatchObject({ track: { track_id: nightDrive.id } });
    expect(server.campaigns.get(draftId(server))?.track_id).toBe(nightDrive.id);
    await waitFor(() => expect(within(previewCard()).queryByRole('region', { name: 'Pre-send check' })).toBeNull());
  });
});

describe('compose: the pre-send check in the send dialog', slow, () => {
  it('lists the recipients with warnings and leaves the form-only label out by default: the request does not carry it', async () => {
    const { server, user } = await withPreview([velvet, harbour, ada]);
    const dialog = await openDialog(user);
    expect(within(dialog).getByText('Pre-send check: 2 recipients with warnings')).toBeInTheDocument();
    expect(rowOf(dialog, velvet.name)).toHaveTextContent(preSendMessages.webFormOnly);
    expect(within(rowOf(dialog, velvet.name)).getByRole('checkbox', { name: 'Send anyway' })).not.toBeChecked();
    expect(within(rowOf(dialog, harbour.name)).getByRole('button', { name: 'Use the private listen page' })).toBeInTheDocument();
    expect(within(rowOf(dialog, harbour.name)).getByRole('checkbox', { name: 'Leave out' })).not.toBeChecked();
    expect(count(dialog, 'left-out-count')).toBe('1');
    expect(count(dialog, 'requested-count')).toBe('2');

    await user.click(within(dialog).getByRole('button', { name: 'Start Sending' }));
    await waitFor(() => expect(sendBodies(server)).toHaveLength(1));
    expect(sendBodies(server)[0]).toMatchObject({ contact_ids: [harbour.id, ada.id], total: 2 });
    expect(sendBodies(server)[0]).not.toHaveProperty('send_anyway_ids');
  });

  it("sends to the form-only label when 'Send anyway' is ticked, naming it in the request; 'Leave out' drops a recipient that only warns", async () => {
    const { server, user } = await withPreview([velvet, harbour, ada]);
    const dialog = await openDialog(user);
    await user.click(within(rowOf(dialog, velvet.name)).getByRole('checkbox', { name: 'Send anyway' }));
    expect(count(dialog, 'left-out-count')).toBe('0');
    expect(count(dialog, 'requested-count')).toBe('3');
    await user.click(within(rowOf(dialog, harbour.name)).getByRole('checkbox', { name: 'Leave out' }));
    expect(count(dialog, 'left-out-count')).toBe('1');
    expect(count(dialog, 'requested-count')).toBe('2');

    await user.click(within(dialog).getByRole('button', { name: 'Start Sending' }));
    await waitFor(() => expect(sendBodies(server)).toHaveLength(1));
    expect(sendBodies(server)[0]).toMatchObject({ contact_ids: [velvet.id, ada.id], total: 2, send_anyway_ids: [velvet.id] });
    const queued = server.campaigns.get(draftId(server));
    expect(queued?.total_queued).toBe(2);
  });

  it("'Send anyway' on a contact who passed sends them the track again without 'Send again anyway': counted, and named in the request", async () => {
    const { server, user } = await withPreview([kai, ada], { passed: new Map([[kai.id, '2026-11-03T18:00:00.000Z']]), alreadySent: new Set([kai.id]) });
    const dialog = await openDialog(user);
    expect(count(dialog, 'requested-count')).toBe('1');
    await user.click(within(rowOf(dialog, kai.name)).getByRole('checkbox', { name: 'Send anyway' }));
    expect(count(dialog, 'left-out-count')).toBe('0');
    expect(count(dialog, 'requested-count')).toBe('2');
    await user.click(within(dialog).getByRole('button', { name: 'Start Sending' }));
    await waitFor(() => expect(sendBodies(server)).toHaveLength(1));
    expect(sendBodies(server)[0]).toMatchObject({ contact_ids: [kai.id, ada.id], send_again: false, send_anyway_ids: [kai.id] });
    expect(server.campaigns.get(draftId(server))?.total_queued).toBe(2);
  });

  it('a contact who passed is left out unless insisted on, and not counted twice while they are skipped as already sent', async () => {
    const { server, user } = await withPreview([kai, ada], { passed: new Map([[kai.id, '2026-11-03T18:00:00.000Z']]), alreadySent: new Set([kai.id]) });
    const dialog = await openDialog(user);
    expect(rowOf(dialog, kai.name)).toHaveTextContent('Passed on Midnight Drive on Nov 3, 2026.');
    // Already sent: the capacity check skips them; the pre-send check adds nothing to that.
    expect(count(dialog, 'left-out-count')).toBe('0');
    expect(count(dialog, 'requested-count')).toBe('1');
    await user.click(within(dialog).getByRole('checkbox', { name: 'Send again anyway' }));
    expect(count(dialog, 'left-out-count')).toBe('1');
    expect(count(dialog, 'requested-count')).toBe('1');
    await user.click(within(rowOf(dialog, kai.name)).getByRole('checkbox', { name: 'Send anyway' }));
    expect(count(dialog, 'requested-count')).toBe('2');
    await user.click(within(dialog).getByRole('button', { name: 'Start Sending' }));
    await waitFor(() => expect(sendBodies(server)).toHaveLength(1));
    expect(sendBodies(server)[0]).toMatchObject({ contact_ids: [kai.id, ada.id], send_again: true, send_anyway_ids: [kai.id] });
  });
});
