/**
 * Compose with an uploaded track (issue 16): the track stands for the link in AI mode (each email links
 * to the recipient's own listen page), and 'Allow downloads' / 'Listen link valid for (days)' appear for
 * it and reach the request; a link validity out of range is shown and nothing is sent.
 */
import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { composeMessages } from '../../schema/api/campaigns';
import { listenLimits, listenMessages } from '../../schema/api/listenValues';
import { contact } from './contacts-fake-server';
import {
  chooseMyTrack,
  containerOf,
  fakeComposeServer,
  fillTrack,
  formField,
  openCompose,
  recipientBox,
  toast,
  uploadedTrack,
  validTrack,
} from './compose-fake-server';
import { preloadRoutes } from './helpers';

beforeAll(async () => {
  await preloadRoutes();
  await import('../../web/src/pages/compose/ComposePage');
}, 60_000);

const ana = contact(1, { name: 'Ana Vogel', email: 'ana@deeprecords.example', label_name: 'Deep Records' });
const nightDrive = uploadedTrack('01KAKZ3R0000000000000000AC', 'Night Drive');

const generateButton = () => screen.getByRole('button', { name: /^(Generate Email Preview|Generating\.\.\.)$/ });
const listenDaysInput = () => formField('Listen link valid for (days)').findControl()!.findInput()!;
const setListenDays = (value: string) => {
  act(() => listenDaysInput().setInputValue(value));
};
const downloadsBox = () => screen.queryByRole('checkbox', { name: /Allow downloads/ });

async function composeWithTrack() {
  const server = fakeComposeServer({ contacts: [ana], tracks: [nightDrive] });
  const user = userEvent.setup();
  await openCompose(server);
  await fillTrack(user, { track_name: validTrack.track_name, genre: validTrack.genre, description: validTrack.description });
  await user.click(recipientBox(ana.email));
  return { server, user };
}

describe('compose: an uploaded track in AI mode', () => {
  it('needs no Track URL: no required error, Generate is enabled, and the preview request carries the track with a blank link', async () => {
    const { server, user } = await composeWithTrack();
    // Without a track the blank link is required.
    expect(generateButton()).toBeDisabled();
    expect(screen.getByText('Still needed: Track URL')).toBeInTheDocument();

    await chooseMyTrack(user, nightDrive.name);
    const url = screen.getByRole('textbox', { name: 'Track URL' });
    await user.click(url);
    await user.tab();
    expect(screen.queryByText(composeMessages.trackUrlRequired)).not.toBeInTheDocument();
    expect(url).not.toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByText(/^Still needed/)).not.toBeInTheDocument();
    await waitFor(() => expect(generateButton()).toBeEnabled());

    await user.click(generateButton());
    await waitFor(() => expect(server.bodies('POST', '/api/campaigns/generate-preview')).toHaveLength(1));
    expect(server.bodies('POST', '/api/campaigns/generate-preview')[0]).toMatchObject({
      track: { track_url: '', track_id: nightDrive.id, track_name: validTrack.track_name },
      contact_id: ana.id,
    });
    expect(await screen.findByRole('heading', { name: 'Preview per recipient' })).toBeInTheDocument();

    // Removing the track makes the link required again.
    await user.click(screen.getByRole('button', { name: 'Remove the track' }));
    expect(await screen.findByText(composeMessages.trackUrlRequired)).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Track URL *' })).toHaveAttribute('aria-invalid', 'true');
    expect(generateButton()).toBeDisabled();
  });
});

describe('compose: a campaign template with an uploaded track and no Track URL', () => {
  it('puts [TRACK_URL] where the template links the track (each recipient gets their listen link), and saving sends the track', async () => {
    const { server, user } = await composeWithTrack();
    await chooseMyTrack(user, nightDrive.name);
    await user.click(await screen.findByRole('button', { name: 'Use template DJ Promo' }));
    await toast(composeMessages.templateApplied);
    const card = within(containerOf('Email Preview'));
    const body = card.getByRole<HTMLTextAreaElement>('textbox', { name: 'Email Body' });
    expect(body.value).toContain('Listen and download: [TRACK_URL]');

    await user.click(card.getByRole('button', { name: 'Save' }));
    await toast(composeMessages.emailUpdatedTitle);
    expect(server.bodies('POST', '/api/campaigns')[0]).toMatchObject({ mode: 'ai', track: { track_url: '', track_id: nightDrive.id } });
    expect(String(server.bodies('POST', '/api/campaigns')[0]!.email_body)).toContain('[TRACK_URL]');
  });
});

describe("compose: 'Allow downloads' and 'Listen link valid for (days)'", () => {
  it('are shown only with an uploaded track, and what is set reaches the request', async () => {
    const { server, user } = await composeWithTrack();
    expect(downloadsBox()).not.toBeInTheDocument();
    expect(screen.queryByText('Listen link valid for (days)')).not.toBeInTheDocument();

    await chooseMyTrack(user, nightDrive.name);
    expect(downloadsBox()).not.toBeChecked();
    expect(listenDaysInput().getInputValue()).toBe(String(listenLimits.daysDefault));
    await user.click(downloadsBox()!);
    setListenDays('30');
    await user.click(generateButton());

    await waitFor(() => expect(server.bodies('POST', '/api/campaigns/generate-preview')).toHaveLength(1));
    expect(server.bodies('POST', '/api/campaigns/generate-preview')[0]).toMatchObject({
      track: { track_id: nightDrive.id, allow_download: true, listen_days: 30 },
    });
    const [draft] = [...server.campaigns.values()];
    expect(draft).toMatchObject({ track_id: nightDrive.id, allow_download: true, listen_days: 30 });
  });

  it.each([String(listenLimits.daysMin - 1), String(listenLimits.daysMax + 1), '1.5', '-3'])(
    'a link validity of %s shows the range and sends nothing in AI mode',
    async (days) => {
      const { server, user } = await composeWithTrack();
      await chooseMyTrack(user, nightDrive.name);
      await waitFor(() => expect(generateButton()).toBeEnabled());

      setListenDays(days);
      expect(screen.getByText(listenMessages.listenDaysRange)).toBeInTheDocument();
      expect(listenDaysInput().findNativeInput().getElement()).toHaveAttribute('aria-invalid', 'true');
      expect(generateButton()).toBeDisabled();
      expect(screen.getByText('Still needed: Listen link valid for (days)')).toBeInTheDocument();
      await user.click(generateButton());
      expect(server.calls('POST', '/api/campaigns/generate-preview')).toHaveLength(0);

      // Back in range: the message goes and the value is the one sent.
      setListenDays(String(listenLimits.daysMax));
      expect(screen.queryByText(listenMessages.listenDaysRange)).not.toBeInTheDocument();
      await user.click(generateButton());
      await waitFor(() => expect(server.bodies('POST', '/api/campaigns/generate-preview')).toHaveLength(1));
      expect(server.bodies('POST', '/api/campaigns/generate-preview')[0]).toMatchObject({ track: { listen_days: listenLimits.daysMax } });
    },
  );

  it("a link validity out of range stops HTML mode's Create Preview: the range is said and no draft is sent", async () => {
    const { server, user } = await composeWithTrack();
    await chooseMyTrack(user, nightDrive.name);
    setListenDays(String(listenLimits.daysMax + 1));
    act(() => createWrapper().findSegmentedControl()!.findSegmentById('html')!.click());

    // HTML mode's form is a lazy chunk: its first render took over 5 s in a full run on a busy machine.
    await user.click(await screen.findByRole('button', { name: 'Create Preview' }, { timeout: 30_000 }));
    expect(await toast(composeMessages.createPreviewFailed)).toHaveTextContent(listenMessages.listenDaysRange);
    expect(server.calls('POST', '/api/campaigns')).toHaveLength(0);

    setListenDays('7');
    await user.click(screen.getByRole('button', { name: 'Create Preview' }));
    await toast(composeMessages.htmlPreviewCreated);
    expect(server.bodies('POST', '/api/campaigns')[0]).toMatchObject({ mode: 'html', track: { track_id: nightDrive.id, listen_days: 7 } });
  });
});
