/**
 * Settings → 'Your data' (issue 26 §3): 'Download my data' asks for the export and downloads the zip
 * from the storage URL it answers (the zip never passes through the app); 'Delete
 * account' asks for the account's email, typed (the button waits for it), sends it, then signs out and
 * shows the landing page; a refusal stays in the dialog, and Cancel deletes nothing.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { gatewayMessages } from '../../schema/api/serverMessages';
import { createApiClient } from '../../web/src/api/client';
import { browser } from '../../web/src/lib/browser';
import { afterDeletion } from '../../web/src/pages/settings/AccountDataCard';
import { currentPath, makeFakeAuth, makeProfile, preloadRoutes, renderApp, testUser, toast } from './helpers';

beforeAll(async () => {
  await preloadRoutes();
  await import('../../web/src/pages/settings/SettingsPage');
}, 60_000);

afterEach(() => {
  vi.restoreAllMocks();
});

type Reply = { status: number; json?: unknown };

function renderSettings(replies: Record<string, Reply>) {
  const fetchMock = vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
    const reply = replies[`${init?.method ?? 'GET'} ${input as string}`];
    const status = reply?.status ?? 404;
    const body = reply ? reply.json : { message: gatewayMessages.notFound };
    return Promise.resolve(new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }));
  });
  const auth = makeFakeAuth({ user: testUser, profile: makeProfile(), api: createApiClient(() => Promise.resolve('test-token'), fetchMock) });
  renderApp('/dashboard/settings', { auth, stateful: false });
  return { auth, fetchMock };
}

const calls = (fetchMock: ReturnType<typeof renderSettings>['fetchMock'], method: string, path: string) =>
  fetchMock.mock.calls.filter(([url, init]) => (url as string) === path && (init?.method ?? 'GET') === method);

async function openDeleteDialog() {
  await userEvent.setup().click(await screen.findByRole('button', { name: 'Delete account' }));
  return screen.findByRole('dialog', { name: 'Delete account?' });
}

describe('Download my data', () => {
  const EXPORT = {
    url: 'https://trackpitch-dev-audio.s3.eu-west-1.amazonaws.com/exports/user-1/01KAKZ3R0000000000000000EX?X-Amz-Signature=abc',
    file_name: 'trackpitch-data-2026-11-28.zip',
    expires_at: '2026-11-28T10:10:00.000Z',
  };

  it('asks for the export, then downloads the zip from the URL it answers', async () => {
    const downloaded = vi.spyOn(browser, 'download').mockImplementation(() => undefined);
    const { fetchMock } = renderSettings({ 'GET /api/account/export': { status: 200, json: EXPORT } });
    const button = await screen.findByRole('button', { name: 'Download my data' });
    await userEvent.setup().click(button);
    await waitFor(() => expect(downloaded).toHaveBeenCalledTimes(1));
    expect(downloaded).toHaveBeenCalledWith(EXPORT.url);
    const [[, init]] = calls(fetchMock, 'GET', '/api/account/export') as [[unknown, RequestInit]];
    expect((init.headers as Record<string, string>).Authorization).toBe('Bearer test-token');
    // Only the API is asked: the zip comes from storage, by the browser's own download.
    expect(fetchMock.mock.calls.map(([url]) => url)).not.toContain(EXPORT.url);
    await waitFor(() => expect(button).not.toHaveAttribute('aria-disabled', 'true'));
  });

  it('downloads through a link to the URL, clicked while in the document', () => {
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      expect(this.isConnected).toBe(true);
    });
    browser.download(EXPORT.url);
    expect(click).toHaveBeenCalledTimes(1);
    const link = click.mock.contexts[0] as HTMLAnchorElement;
    expect(link.href).toBe(EXPORT.url);
    expect(link.hasAttribute('download')).toBe(true);
    expect(link.isConnected).toBe(false);
  });

  it('a failure says so, and downloads nothing', async () => {
    const downloaded = vi.spyOn(browser, 'download').mockImplementation(() => undefined);
    renderSettings({ 'GET /api/account/export': { status: 500, json: { message: 'Something broke.' } } });
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Download my data' }));
    expect(await toast('Could not download your data')).toHaveTextContent('Something broke.');
    expect(downloaded).not.toHaveBeenCalled();
  });

  it('an answer without a URL is a failure, not a download', async () => {
    const downloaded = vi.spyOn(browser, 'download').mockImplementation(() => undefined);
    renderSettings({ 'GET /api/account/export': { status: 200, json: { file_name: EXPORT.file_name } } });
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Download my data' }));
    expect(await toast('Could not download your data')).toBeInTheDocument();
    expect(downloaded).not.toHaveBeenCalled();
  });
});

describe('Delete account', () => {
  it('waits for the account’s email, typed, then deletes, signs out and loads the landing page', async () => {
    const left = vi.spyOn(afterDeletion, 'go').mockImplementation(() => undefined);
    const { auth, fetchMock } = renderSettings({ 'DELETE /api/account': { status: 204 } });
    const dialog = await openDeleteDialog();
    const confirm = within(dialog).getByRole('button', { name: 'Delete account' });
    expect(confirm).toBeDisabled();
    const input = within(dialog).getByLabelText('Type your email to confirm');
    const user = userEvent.setup();
    await user.type(input, 'someone@else.com');
    expect(confirm).toBeDisabled();
    await user.clear(input);
    await user.type(input, testUser.email.toUpperCase());
    expect(confirm).toBeEnabled();
    // Enter submits, as the button does.
    await user.keyboard('{Enter}');
    await waitFor(() => expect(left).toHaveBeenCalledWith('/landing'));
    const deletes = calls(fetchMock, 'DELETE', '/api/account');
    expect(deletes).toHaveLength(1);
    expect(JSON.parse(deletes[0]![1]!.body as string)).toEqual({ confirm_email: testUser.email.toUpperCase() });
    expect(auth.signOut).toHaveBeenCalledTimes(1);
    expect(vi.mocked(auth.signOut).mock.invocationCallOrder[0]).toBeLessThan(left.mock.invocationCallOrder[0]!);
  });

  it('a refusal stays in the dialog with its message, signed in', async () => {
    const { auth } = renderSettings({ 'DELETE /api/account': { status: 400, json: { message: 'Type the email address of your account to confirm.' } } });
    const dialog = await openDeleteDialog();
    const user = userEvent.setup();
    await user.type(within(dialog).getByLabelText('Type your email to confirm'), testUser.email);
    await user.click(within(dialog).getByRole('button', { name: 'Delete account' }));
    expect(await within(dialog).findByText('Type the email address of your account to confirm.')).toBeInTheDocument();
    expect(auth.signOut).not.toHaveBeenCalled();
    expect(currentPath()).toBe('/dashboard/settings');
  });

  it('Cancel closes the dialog and deletes nothing', async () => {
    const { fetchMock } = renderSettings({ 'DELETE /api/account': { status: 204 } });
    const dialog = await openDeleteDialog();
    await userEvent.setup().click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Delete account?' })).toBeNull());
    expect(calls(fetchMock, 'DELETE', '/api/account')).toHaveLength(0);
  });
});
