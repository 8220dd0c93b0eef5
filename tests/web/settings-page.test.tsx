/**
 * Settings (spec §2 Settings, §4 Mailbox token status and connection, §8 Mailbox connection texts):
 * Account Overview, the Mailbox Integration card in each state, connect (to the consent URL the server
 * gives, or 'No authorization URL received from server'), disconnect, and the query flags the mailbox
 * callback redirects with: one toast each, then gone from the URL.
 */
import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Profile } from '../../schema/api/profile';
import { mailboxErrorCodes, mailboxMessages } from '../../schema/api/sending';
import { createApiClient } from '../../web/src/api/client';
import { consentNavigation } from '../../web/src/api/mailbox';
import { browserTimeZone } from '../../web/src/lib/timeZones';
import { currentPath, makeFakeAuth, makeProfile, preloadRoutes, renderApp, testUser, toast } from './helpers';
import { apiMessages, gatewayMessages, NOT_CONFIGURED } from '../../schema/api/serverMessages';

beforeAll(async () => {
  await preloadRoutes();
  await import('../../web/src/pages/settings/SettingsPage');
}, 60_000);

afterEach(() => {
  vi.restoreAllMocks();
});

type Reply = { status: number; body?: unknown };

/** The API as the page sees it: each `METHOD path` answers with its reply; calls are recorded. */
function fakeApi(replies: Record<string, Reply>) {
  const fetchMock = vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
    const reply = replies[`${init?.method ?? 'GET'} ${input as string}`];
    if (!reply)
      return Promise.resolve(
        new Response(JSON.stringify({ message: gatewayMessages.notFound }), { status: 404, headers: { 'content-type': 'application/json' } }),
      );
    return Promise.resolve(
      new Response(reply.body === undefined ? null : JSON.stringify(reply.body), {
        status: reply.status,
        headers: { 'content-type': 'application/json' },
      }),
    );
  });
  return { api: createApiClient(() => Promise.resolve('test-token'), fetchMock), fetchMock };
}

function renderSettings(path: string, { profile = makeProfile(), replies = {} }: { profile?: Profile | null; replies?: Record<string, Reply> } = {}) {
  const { api, fetchMock } = fakeApi(replies);
  const auth = makeFakeAuth({ user: testUser, profile, api });
  const { unmount } = renderApp(path, { auth, stateful: false });
  return { auth, fetchMock, unmount };
}

const workspaceProfile = () =>
  makeProfile({
    gmail_connected: true,
    gmail_email: 'nova@nova-records.test',
    gmail_account_type: 'workspace',
    gmail_daily_limit: 2000,
    tier: 'pro',
    emails_used: 12,
    email_limit: 500,
  });

/** The Cloudscape container whose header is `title`. */
async function card(title: string): Promise<HTMLElement> {
  await screen.findByRole('heading', { name: title });
  const found = createWrapper()
    .findAllContainers()
    .find((container) => container.findHeader()?.getElement().textContent.includes(title));
  if (!found) throw new Error(`no ${title} card`);
  return found.getElement();
}
const mailboxCard = () => card('Mailbox Integration');

describe('Settings page', () => {
  it('shows the title, the Account Overview (email, plan badge, Emails Used, Email Limit, Sign Out)', async () => {
    renderSettings('/dashboard/settings', { profile: workspaceProfile() });
    expect(await screen.findByRole('heading', { name: 'Settings', level: 1 })).toBeInTheDocument();
    const overview = await card('Account Overview');
    expect(within(overview).getByText(testUser.email)).toBeInTheDocument();
    expect(within(overview).getByText('Pro')).toBeInTheDocument();
    expect(within(overview).getByText('Emails Used').nextElementSibling).toHaveTextContent('12');
    expect(within(overview).getByText('Email Limit').nextElementSibling).toHaveTextContent('500');
    expect(within(overview).getByRole('button', { name: 'Sign Out' })).toBeInTheDocument();
  });

  it('Sign Out signs out and goes to /auth', async () => {
    const { auth } = renderSettings('/dashboard/settings');
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Sign Out' }));
    await waitFor(() => expect(currentPath()).toBe('/auth'));
    expect(auth.signOut).toHaveBeenCalledTimes(1);
  });

  it('while the profile loads, the mailbox card shows nothing (no Connect, no Disconnect)', async () => {
    renderSettings('/dashboard/settings', { profile: null });
    const card = await mailboxCard();
    expect(within(card).queryByRole('button')).toBeNull();
    expect(within(card).queryByText(/^Gmail (not )?connected$/)).toBeNull();
  });

  it('connected: the mailbox address, the business workspace account type and its daily limit', async () => {
    renderSettings('/dashboard/settings', { profile: workspaceProfile() });
    const card = await mailboxCard();
    expect(within(card).getByText('nova@nova-records.test')).toBeInTheDocument();
    expect(within(card).getByText('Business workspace account')).toBeInTheDocument();
    expect(within(card).getByText('2000 emails per day')).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Disconnect' })).toBeInTheDocument();
    expect(within(card).queryByRole('button', { name: 'Connect Gmail' })).toBeNull();
  });

  it('a personal account shows 500 a day', async () => {
    renderSettings('/dashboard/settings', { profile: makeProfile({ gmail_connected: true, gmail_email: 'me@gmail.test' }) });
    const card = await mailboxCard();
    expect(within(card).getByText('Personal Gmail account')).toBeInTheDocument();
    expect(within(card).getByText('500 emails per day')).toBeInTheDocument();
  });
});

describe('connect', () => {
  it('Connect Gmail asks the server to start and sends the browser to the consent URL it returns', async () => {
    const go = vi.spyOn(consentNavigation, 'go').mockImplementation(() => undefined);
    const { fetchMock } = renderSettings('/dashboard/settings', {
      replies: { 'POST /api/mailbox/connect': { status: 200, body: { authUrl: 'https://accounts.google.com/o/oauth2/v2/auth?state=s' } } },
    });
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Connect Gmail' }));
    await waitFor(() => expect(go).toHaveBeenCalledWith('https://accounts.google.com/o/oauth2/v2/auth?state=s'));
    const [, init] = fetchMock.mock.calls.find(([url]) => (url as string) === '/api/mailbox/connect')!;
    expect(init?.method).toBe('POST');
    expect((init?.headers as Record<string, string>).Authorization).toBe('Bearer test-token');
  });

  it("without an authUrl: 'Connection Failed' / 'No authorization URL received from server', and the browser stays", async () => {
    const go = vi.spyOn(consentNavigation, 'go').mockImplementation(() => undefined);
    renderSettings('/dashboard/settings', { replies: { 'POST /api/mailbox/connect': { status: 200, body: {} } } });
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Connect Gmail' }));
    expect(await screen.findByText(mailboxMessages.noAuthUrl)).toBeInTheDocument();
    expect(screen.getByText(mailboxMessages.connectionFailed)).toBeInTheDocument();
    expect(go).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Connect Gmail' })).toBeEnabled();
  });

  it("a server failure: 'Connection Failed' with the server's message", async () => {
    renderSettings('/dashboard/settings', { replies: { 'POST /api/mailbox/connect': { status: 500, body: { message: apiMessages.internalError } } } });
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Connect Gmail' }));
    expect(await screen.findByText(apiMessages.internalError)).toBeInTheDocument();
    expect(screen.getByText(mailboxMessages.connectionFailed)).toBeInTheDocument();
  });

  it('on a deployment without Gmail (503 not_configured): the card says so, Connect is off, and no generic failure is shown', async () => {
    const go = vi.spyOn(consentNavigation, 'go').mockImplementation(() => undefined);
    renderSettings('/dashboard/settings', {
      replies: { 'POST /api/mailbox/connect': { status: 503, body: { message: mailboxMessages.notConfigured, code: NOT_CONFIGURED } } },
    });
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Connect Gmail' }));
    const card = await mailboxCard();
    expect(await within(card).findByText(mailboxMessages.notConfigured)).toBeInTheDocument();
    expect(mailboxMessages.notConfigured).toMatch(/^Gmail sending is not configured on this deployment/);
    expect(within(card).getByRole('button', { name: 'Connect Gmail' })).toBeDisabled();
    expect(screen.queryByText(mailboxMessages.connectionFailed)).toBeNull();
    expect(screen.queryByText(apiMessages.internalError)).toBeNull();
    expect(go).not.toHaveBeenCalled();
  });
});

describe('disconnect', () => {
  const deletes = (fetchMock: { mock: { calls: Parameters<typeof fetch>[] } }) =>
    fetchMock.mock.calls.filter(([url, init]) => (url as string) === '/api/mailbox' && init?.method === 'DELETE').length;

  /** Disconnect pressed: the confirmation dialog, which says what happens to the queued emails. */
  async function confirmation() {
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Disconnect' }));
    const dialog = await screen.findByRole('dialog', { name: 'Disconnect Gmail?' });
    expect(dialog).toHaveTextContent('Emails waiting in your queue will not be sent');
    expect(dialog).toHaveTextContent('their campaigns pause until you connect a mailbox again and resume them');
    return { user, dialog: within(dialog) };
  }

  it("asks first; Disconnect in the dialog deletes the mailbox, reloads the profile and says 'Gmail Disconnected'", async () => {
    const { auth, fetchMock } = renderSettings('/dashboard/settings', { profile: workspaceProfile(), replies: { 'DELETE /api/mailbox': { status: 204 } } });
    const { user, dialog } = await confirmation();
    expect(deletes(fetchMock)).toBe(0);
    await user.click(dialog.getByRole('button', { name: 'Disconnect' }));
    expect(await screen.findByText(mailboxMessages.disconnected)).toBeInTheDocument();
    expect(deletes(fetchMock)).toBe(1);
    expect(auth.refreshProfile).toHaveBeenCalled();
  });

  it('Cancel keeps the mailbox connected and deletes nothing', async () => {
    const { fetchMock } = renderSettings('/dashboard/settings', { profile: workspaceProfile(), replies: { 'DELETE /api/mailbox': { status: 204 } } });
    const { user, dialog } = await confirmation();
    await user.click(dialog.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Disconnect Gmail?' })).toBeNull());
    expect(deletes(fetchMock)).toBe(0);
    expect(screen.getByRole('button', { name: 'Disconnect' })).toBeInTheDocument();
  });

  it('Escape closes the dialog, keeps the mailbox connected and sends no disconnect request', async () => {
    const { fetchMock } = renderSettings('/dashboard/settings', { profile: workspaceProfile(), replies: { 'DELETE /api/mailbox': { status: 204 } } });
    await confirmation();
    // Focus is in the dialog; Escape as a browser sends it (user-event leaves out the keyCode 27 Cloudscape reads).
    expect(screen.getByRole('dialog', { name: 'Disconnect Gmail?' })).toContainElement(document.activeElement as HTMLElement);
    fireEvent.keyDown(document.activeElement!, { key: 'Escape', code: 'Escape', keyCode: 27 });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Disconnect Gmail?' })).toBeNull());
    expect(deletes(fetchMock)).toBe(0);
    expect(screen.queryByText(mailboxMessages.disconnected)).toBeNull();
    const card = await mailboxCard();
    expect(within(card).getByRole('button', { name: 'Disconnect' })).toBeInTheDocument();
    expect(within(card).queryByRole('button', { name: 'Connect Gmail' })).toBeNull();
  });

  it("a failure says 'Disconnection Failed'", async () => {
    renderSettings('/dashboard/settings', {
      profile: workspaceProfile(),
      replies: { 'DELETE /api/mailbox': { status: 500, body: { message: apiMessages.internalError } } },
    });
    const { user, dialog } = await confirmation();
    await user.click(dialog.getByRole('button', { name: 'Disconnect' }));
    expect(await screen.findByText(mailboxMessages.disconnectionFailed)).toBeInTheDocument();
  });
});

describe('after the consent redirect', () => {
  it("gmail_connected=true: 'Gmail Connected!', the profile is reloaded, and the flag leaves the URL (other parameters stay)", async () => {
    const { auth } = renderSettings('/dashboard/settings?tab=mailbox&gmail_connected=true', { profile: workspaceProfile() });
    expect(await screen.findByText(mailboxMessages.connected)).toBeInTheDocument();
    await waitFor(() => expect(currentPath()).toBe('/dashboard/settings?tab=mailbox'));
    expect(auth.refreshProfile).toHaveBeenCalledTimes(1);
    expect(screen.getAllByText(mailboxMessages.connected)).toHaveLength(1);
  });

  it.each(mailboxErrorCodes.map((code) => [code, mailboxMessages.errors[code]] as const))('gmail_error=%s shows %j and leaves the URL', async (code, text) => {
    renderSettings(`/dashboard/settings?gmail_error=${code}`, { profile: makeProfile() });
    expect(await screen.findByText(text)).toBeInTheDocument();
    await waitFor(() => expect(currentPath()).toBe('/dashboard/settings'));
  });

  it("any other gmail_error value: 'Gmail connection failed: {value}'", async () => {
    renderSettings('/dashboard/settings?gmail_error=server_misconfigured');
    expect(await screen.findByText('Gmail connection failed: server_misconfigured')).toBeInTheDocument();
    await waitFor(() => expect(currentPath()).toBe('/dashboard/settings'));
  });
});

describe('Account Overview limits', () => {
  it("an Expert's Email Limit reads 'Unlimited'", async () => {
    renderSettings('/dashboard/settings', { profile: makeProfile({ tier: 'label', email_limit: null }) });
    const overview = await card('Account Overview');
    expect(within(overview).getByText('Expert')).toBeInTheDocument();
    expect(within(overview).getByText('Email Limit').nextElementSibling).toHaveTextContent('Unlimited');
  });
});

const artistProfile = () =>
  makeProfile({
    full_name: 'Robin Example',
    artist_name: 'Nova',
    bio: 'Deep house from Lisbon.',
    website_url: 'https://nova.example',
    soundcloud_url: 'https://soundcloud.com/nova',
    spotify_url: null,
    instagram_url: null,
  });

const profileForm = () => screen.findByRole('form', { name: 'Profile Information' });
const patches = (fetchMock: ReturnType<typeof fakeApi>['fetchMock']) =>
  fetchMock.mock.calls
    .filter(([url, init]) => (url as string) === '/api/profile' && init?.method === 'PATCH')
    .map(([, init]) => JSON.parse(init?.body as string) as unknown);

describe('Profile Information', () => {
  it('shows the profile in the form: full name, artist name, bio, website, SoundCloud, Spotify, Instagram', async () => {
    renderSettings('/dashboard/settings', { profile: artistProfile() });
    const form = await profileForm();
    expect(within(form).getByRole('heading', { name: 'Profile Information' })).toBeInTheDocument();
    expect(within(form).getByLabelText('Full Name')).toHaveValue('Robin Example');
    expect(within(form).getByLabelText('Artist Name')).toHaveValue('Nova');
    expect(within(form).getByLabelText('Bio')).toHaveValue('Deep house from Lisbon.');
    expect(within(form).getByLabelText('Website')).toHaveValue('https://nova.example');
    expect(within(form).getByLabelText('SoundCloud')).toHaveValue('https://soundcloud.com/nova');
    expect(within(form).getByLabelText('Spotify')).toHaveValue('');
    expect(within(form).getByLabelText('Instagram')).toHaveValue('');
  });

  it("saves every field with PATCH /api/profile, says 'Profile Updated' and puts the saved profile into the app's profile", async () => {
    const saved = { ...artistProfile(), artist_name: 'Nova Sound', spotify_url: 'https://open.spotify.com/artist/nova', bio: null };
    const { auth, fetchMock } = renderSettings('/dashboard/settings', {
      profile: artistProfile(),
      replies: { 'PATCH /api/profile': { status: 200, body: saved } },
    });
    const form = await profileForm();
    const user = userEvent.setup();
    await user.clear(within(form).getByLabelText('Artist Name'));
    await user.type(within(form).getByLabelText('Artist Name'), 'Nova Sound');
    await user.clear(within(form).getByLabelText('Bio'));
    await user.type(within(form).getByLabelText('Spotify'), 'https://open.spotify.com/artist/nova');
    await user.click(within(form).getByRole('button', { name: 'Save Changes' }));
    await toast('Profile Updated');
    expect(patches(fetchMock)).toEqual([
      {
        full_name: 'Robin Example',
        artist_name: 'Nova Sound',
        bio: '',
        website_url: 'https://nova.example',
        soundcloud_url: 'https://soundcloud.com/nova',
        spotify_url: 'https://open.spotify.com/artist/nova',
        instagram_url: '',
        // No zone on the profile yet: the browser's is offered and saved with the form.
        time_zone: browserTimeZone(),
      },
    ]);
    expect(auth.patchProfile).toHaveBeenCalledWith(saved);
    expect(within(form).getByLabelText('Spotify')).toHaveValue('https://open.spotify.com/artist/nova');
  });

  it("the time zone (issue 27 §2): the profile's when it has one, else the browser's; a zone picked is saved", async () => {
    const zoneSelect = (form: HTMLElement) =>
      createWrapper(form)
        .findAllFormFields()
        .find((field) => field.findLabel()?.getElement().textContent === 'Time zone')!
        .findControl()!
        .findSelect()!;
    const first = renderSettings('/dashboard/settings', { profile: artistProfile() });
    expect(
      zoneSelect(await profileForm())
        .findTrigger()
        .getElement(),
    ).toHaveTextContent(browserTimeZone().replaceAll('_', ' '));
    first.unmount();

    const { fetchMock } = renderSettings('/dashboard/settings', {
      profile: { ...artistProfile(), time_zone: 'Asia/Tokyo' },
      replies: { 'PATCH /api/profile': { status: 200, body: { ...artistProfile(), time_zone: 'Europe/Berlin' } } },
    });
    const form = await profileForm();
    const select = zoneSelect(form);
    expect(select.findTrigger().getElement()).toHaveTextContent('Asia/Tokyo');
    const user = userEvent.setup();
    await user.click(select.findTrigger().getElement());
    await user.type(screen.getByRole('combobox', { name: 'Find a time zone' }), 'Berlin');
    await user.click(select.findDropdown().findOptionByValue('Europe/Berlin')!.getElement());
    await user.click(within(form).getByRole('button', { name: 'Save Changes' }));
    await toast('Profile Updated');
    expect(patches(fetchMock)).toEqual([expect.objectContaining({ time_zone: 'Europe/Berlin' })]);
    expect(select.findTrigger().getElement()).toHaveTextContent('Europe/Berlin');
  });

  it('checks the fields as the server does before sending: a blank full name and links that are no website are named on their fields', async () => {
    const { fetchMock } = renderSettings('/dashboard/settings', { profile: artistProfile() });
    const form = await profileForm();
    const user = userEvent.setup();
    await user.clear(within(form).getByLabelText('Full Name'));
    await user.clear(within(form).getByLabelText('SoundCloud'));
    await user.type(within(form).getByLabelText('SoundCloud'), 'soundcloud dot com');
    await user.type(within(form).getByLabelText('Instagram'), 'javascript:alert(1)');
    await user.click(within(form).getByRole('button', { name: 'Save Changes' }));
    expect(within(form).getByLabelText('Full Name')).toHaveAccessibleDescription(/Please enter your full name/);
    expect(within(form).getByLabelText('SoundCloud')).toHaveAccessibleDescription('Enter a link such as https://soundcloud.com/yourname');
    expect(within(form).getByLabelText('Instagram')).toHaveAccessibleDescription('Enter a link such as https://soundcloud.com/yourname');
    expect(within(form).getByLabelText('Website')).not.toHaveAccessibleDescription(/Enter a link/);
    expect(patches(fetchMock)).toEqual([]);
    expect(screen.queryByText('Profile Updated')).toBeNull();

    // Correcting a field clears its message.
    await user.type(within(form).getByLabelText('Full Name'), 'Robin Example');
    expect(within(form).getByLabelText('Full Name')).not.toHaveAccessibleDescription(/Please enter your full name/);
  });

  it("links typed without the scheme are saved whole: 'soundcloud.com/norvik' as https://…, '@norvik' in Instagram as the profile link", async () => {
    const { fetchMock } = renderSettings('/dashboard/settings', {
      profile: artistProfile(),
      replies: { 'PATCH /api/profile': { status: 200, body: artistProfile() } },
    });
    const form = await profileForm();
    const user = userEvent.setup();
    await user.clear(within(form).getByLabelText('SoundCloud'));
    await user.type(within(form).getByLabelText('SoundCloud'), 'soundcloud.com/norvik');
    await user.type(within(form).getByLabelText('Instagram'), '@norvik');
    await user.click(within(form).getByRole('button', { name: 'Save Changes' }));
    await toast('Profile Updated');
    expect(patches(fetchMock)).toEqual([
      expect.objectContaining({ soundcloud_url: 'https://soundcloud.com/norvik', instagram_url: 'https://instagram.com/norvik', spotify_url: '' }),
    ]);
    expect(within(form).getByLabelText('SoundCloud')).not.toHaveAccessibleDescription(/Enter a link/);
  });

  it("a refusal from the server: 'Error' with its message, on the form too, and nothing typed is lost", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { auth } = renderSettings('/dashboard/settings', {
      profile: artistProfile(),
      replies: { 'PATCH /api/profile': { status: 400, body: { message: 'bio: Must be at most 1000 characters' } } },
    });
    const form = await profileForm();
    const user = userEvent.setup();
    await user.clear(within(form).getByLabelText('Artist Name'));
    await user.type(within(form).getByLabelText('Artist Name'), 'Nova Sound');
    await user.click(within(form).getByRole('button', { name: 'Save Changes' }));
    expect(await toast('Error')).toHaveTextContent('bio: Must be at most 1000 characters');
    expect(within(form).getByText('bio: Must be at most 1000 characters')).toBeInTheDocument();
    expect(within(form).getByLabelText('Artist Name')).toHaveValue('Nova Sound');
    expect(within(form).getByRole('button', { name: 'Save Changes' })).toBeEnabled();
    expect(auth.patchProfile).not.toHaveBeenCalled();
  });

  it("a server failure: 'Error' with the message, and the typed values stay", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderSettings('/dashboard/settings', {
      profile: artistProfile(),
      replies: { 'PATCH /api/profile': { status: 500, body: { message: apiMessages.internalError } } },
    });
    const form = await profileForm();
    const user = userEvent.setup();
    await user.type(within(form).getByLabelText('Instagram'), 'https://instagram.com/nova');
    await user.click(within(form).getByRole('button', { name: 'Save Changes' }));
    expect(await toast('Error')).toHaveTextContent(apiMessages.internalError);
    expect(within(form).getByLabelText('Instagram')).toHaveValue('https://instagram.com/nova');
  });
});

describe('Subscription card', () => {
  it("a free user sees the Free plan and 'Upgrade Plan', which opens the Subscription page", async () => {
    renderSettings('/dashboard/settings', { profile: makeProfile() });
    const subscription = await card('Subscription');
    expect(within(subscription).getByText('Current Plan').nextElementSibling).toHaveTextContent('Free');
    expect(within(subscription).getByText('50 emails per month')).toBeInTheDocument();
    await userEvent.setup().click(within(subscription).getByRole('button', { name: 'Upgrade Plan' }));
    await waitFor(() => expect(currentPath()).toBe('/dashboard/subscription'));
  });

  it.each([
    ['pro', 500],
    ['label', null],
  ] as const)("a %s subscriber does not see 'Upgrade Plan', and sees the renewal date", async (tier, limit) => {
    renderSettings('/dashboard/settings', {
      profile: makeProfile({ tier, email_limit: limit, subscription_status: 'active', subscription_end: '2026-12-26T12:00:00.000Z' }),
    });
    const subscription = await card('Subscription');
    expect(within(subscription).getByText('Current Plan').nextElementSibling).toHaveTextContent(tier === 'pro' ? 'Pro' : 'Expert');
    expect(within(subscription).getByText('Renews on December 26, 2026')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Upgrade Plan' })).toBeNull();
  });
});
