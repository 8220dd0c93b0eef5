/**
 * The public unsubscribe page (spec §2, §4, §5, §8 Unsubscribe), rendered through the app's routes
 * with a fake fetch: every state (loading, no token, a failed lookup, the confirm form, busy, done,
 * already unsubscribed, a failed submit) and exactly the requests it makes (the lookup never posts).
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { unsubscribeReasons } from '../../schema/api/contacts';
import { unsubscribeMessages } from '../../schema/api/sending';
import { gatewayMessages } from '../../schema/api/serverMessages';
import { preloadRoutes, renderApp } from './helpers';

beforeAll(preloadRoutes, 60_000);
afterEach(() => {
  vi.unstubAllGlobals();
});

const TOKEN = 'Zq1xJ2-_abcdefghijklmnopqrstuvwxyzABCDEFGHI';

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

type Answer = () => Promise<Response> | Response;

/** A fake API: the lookup and the submit answered by the given functions; records every request. */
function fakeApi({
  lookup = () => json({ artistName: 'DJ Nova', alreadyUnsubscribed: false }),
  submit = () => json({ artistName: 'DJ Nova', alreadyUnsubscribed: true }),
}: { lookup?: Answer; submit?: Answer } = {}) {
  const requests: { method: string; url: string; body: unknown }[] = [];
  const fetchImpl = vi.fn<typeof fetch>(async (input, init) => {
    const url = input as string;
    const method = init?.method ?? 'GET';
    requests.push({ method, url, body: init?.body === undefined ? undefined : JSON.parse(init.body as string) });
    if (method === 'GET' && url.startsWith('/api/unsubscribe?')) return lookup();
    if (method === 'POST' && url === '/api/unsubscribe') return submit();
    return json({ message: gatewayMessages.notFound }, 404);
  });
  vi.stubGlobal('fetch', fetchImpl);
  return { requests };
}

/** A response the test releases when it wants. */
function held() {
  let release!: (response: Response) => void;
  const promise = new Promise<Response>((resolve) => {
    release = resolve;
  });
  return { answer: () => promise, release };
}

const confirmButton = () => screen.getByRole('button', { name: unsubscribeMessages.confirm });

async function expectDone(artist = 'DJ Nova') {
  expect(await screen.findByRole('heading', { name: unsubscribeMessages.doneTitle })).toBeInTheDocument();
  expect(screen.getByText(unsubscribeMessages.doneLine(artist))).toBeInTheDocument();
  expect(screen.getByText(unsubscribeMessages.doneMistake)).toBeInTheDocument();
  expect(screen.queryByRole('button', { name: unsubscribeMessages.confirm })).not.toBeInTheDocument();
}

describe('the unsubscribe page', () => {
  it("says 'Invalid unsubscribe link' without a token, and asks the server nothing", async () => {
    const { requests } = fakeApi();
    renderApp('/unsubscribe');
    expect(await screen.findByText(unsubscribeMessages.invalidLink)).toBeInTheDocument();
    renderApp('/unsubscribe?token=%20%20');
    expect(await screen.findAllByText(unsubscribeMessages.invalidLink)).toHaveLength(2);
    expect(requests).toEqual([]);
  });

  it('shows loading while the lookup runs, then the confirm form for the artist', async () => {
    const lookup = held();
    const { requests } = fakeApi({ lookup: lookup.answer });
    renderApp(`/unsubscribe?token=${TOKEN}`);
    expect(await screen.findByText('Loading...')).toBeInTheDocument();
    lookup.release(json({ artistName: 'DJ Nova', alreadyUnsubscribed: false }));
    expect(await screen.findByRole('heading', { name: unsubscribeMessages.title('DJ Nova') })).toBeInTheDocument();
    expect(screen.queryByText('Loading...')).not.toBeInTheDocument();
    expect(requests).toEqual([{ method: 'GET', url: `/api/unsubscribe?token=${TOKEN}`, body: undefined }]);
  });

  it('offers the five optional reasons, and the details box only once a reason is chosen', async () => {
    fakeApi();
    renderApp(`/unsubscribe?token=${TOKEN}`);
    await screen.findByRole('heading', { name: unsubscribeMessages.title('DJ Nova') });
    expect(screen.getAllByRole('radio')).toHaveLength(5);
    for (const reason of unsubscribeReasons) expect(screen.getByRole('radio', { name: reason })).not.toBeChecked();
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('radio', { name: 'Wrong genre' }));
    expect(screen.getByRole('radio', { name: 'Wrong genre' })).toBeChecked();
    expect(screen.getByRole('textbox')).toBeInTheDocument();
  });

  it("unsubscribes with the reason and details: 'Processing...' while busy, then done and the success toast", async () => {
    const submit = held();
    const { requests } = fakeApi({ submit: submit.answer });
    renderApp(`/unsubscribe?token=${TOKEN}`);
    await screen.findByRole('heading', { name: unsubscribeMessages.title('DJ Nova') });
    const user = userEvent.setup();
    await user.click(screen.getByRole('radio', { name: 'Too many emails' }));
    await user.type(screen.getByRole('textbox'), '  One a month would be fine.  ');
    await user.click(confirmButton());
    expect(await screen.findByRole('button', { name: unsubscribeMessages.processing })).toBeInTheDocument();
    // A second press while busy sends nothing more.
    await user.click(screen.getByRole('button', { name: unsubscribeMessages.processing }));
    submit.release(json({ artistName: 'DJ Nova', alreadyUnsubscribed: true }));
    await expectDone();
    expect(await screen.findByText(unsubscribeMessages.success)).toBeInTheDocument();
    expect(requests.filter((request) => request.method === 'POST')).toEqual([
      { method: 'POST', url: '/api/unsubscribe', body: { token: TOKEN, reason: 'Too many emails', reasonDetails: 'One a month would be fine.' } },
    ]);
  });

  it('unsubscribes without a reason, from the keyboard', async () => {
    const { requests } = fakeApi();
    renderApp(`/unsubscribe?token=${TOKEN}`);
    await screen.findByRole('heading', { name: unsubscribeMessages.title('DJ Nova') });
    confirmButton().focus();
    await userEvent.setup().keyboard('{Enter}');
    await expectDone();
    expect(requests.at(-1)).toEqual({ method: 'POST', url: '/api/unsubscribe', body: { token: TOKEN, reason: null, reasonDetails: null } });
  });

  it('goes straight to done when the address is already unsubscribed, and posts nothing', async () => {
    const { requests } = fakeApi({ lookup: () => json({ artistName: 'Luna Vale', alreadyUnsubscribed: true }) });
    renderApp(`/unsubscribe?token=${TOKEN}`);
    await expectDone('Luna Vale');
    expect(requests.map((request) => request.method)).toEqual(['GET']);
  });

  it("says 'Invalid or expired token' when the lookup finds no such token", async () => {
    fakeApi({ lookup: () => json({ message: unsubscribeMessages.invalidToken, error: unsubscribeMessages.invalidToken }, 404) });
    renderApp(`/unsubscribe?token=${TOKEN}`);
    expect(await screen.findByText(unsubscribeMessages.invalidToken)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: unsubscribeMessages.confirm })).not.toBeInTheDocument();
  });

  // 'Invalid or expired token' for a 404 without a body; 'Invalid or expired link' as the fallback.
  it("shows the response's error field, a 404 message when there is no body, and a fallback otherwise", async () => {
    fakeApi({ lookup: () => new Response('', { status: 404 }) });
    const first = renderApp(`/unsubscribe?token=${TOKEN}`);
    expect(await screen.findByText(unsubscribeMessages.invalidToken)).toBeInTheDocument();
    first.unmount();

    fakeApi({ lookup: () => json({ error: 'This link was replaced by a newer one' }) });
    const second = renderApp(`/unsubscribe?token=${TOKEN}`);
    expect(await screen.findByText('This link was replaced by a newer one')).toBeInTheDocument();
    second.unmount();

    fakeApi({ lookup: () => new Response('upstream timeout', { status: 502 }) });
    renderApp(`/unsubscribe?token=${TOKEN}`);
    expect(await screen.findByText(unsubscribeMessages.invalidOrExpiredLink)).toBeInTheDocument();
  });

  // The error is 'Failed to unsubscribe', or the response's own.
  it('keeps the form after a failed submit with the error, and lets the person try again', async () => {
    let answer: Answer = () => new Response('', { status: 500 });
    fakeApi({ submit: () => answer() });
    renderApp(`/unsubscribe?token=${TOKEN}`);
    await screen.findByRole('heading', { name: unsubscribeMessages.title('DJ Nova') });
    const user = userEvent.setup();
    await user.click(screen.getByRole('radio', { name: 'Other' }));
    await user.click(confirmButton());
    expect(await screen.findByText(unsubscribeMessages.failed)).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Other' })).toBeChecked();

    answer = () => json({ message: unsubscribeMessages.invalidToken, error: unsubscribeMessages.invalidToken }, 404);
    await user.click(confirmButton());
    expect(await screen.findByText(unsubscribeMessages.invalidToken)).toBeInTheDocument();
    expect(screen.queryByText(unsubscribeMessages.failed)).not.toBeInTheDocument();

    answer = () => json({ artistName: 'DJ Nova', alreadyUnsubscribed: true });
    await user.click(confirmButton());
    await expectDone();
  });

  it('sets the tab title', async () => {
    fakeApi();
    renderApp(`/unsubscribe?token=${TOKEN}`);
    await waitFor(() => expect(document.title).toBe('Unsubscribe · Trackpitch'));
    await screen.findByRole('heading', { name: unsubscribeMessages.title('DJ Nova') });
    expect(within(document.body).getAllByRole('radio')).toHaveLength(unsubscribeReasons.length);
  });
});
