/**
 * The Outbox page (local mode): the local mailbox's messages newest first, refreshed while open, one
 * opened as a mail client shows it (envelope, the HTML in a frame that runs no script but lets the pixel
 * load and links open a new tab through tracking, the headers and the text part), the empty state, and
 * the AWS mode's explanation. The sidebar offers 'Outbox' only locally.
 */
import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { outboxMessages, type OutboxMessage } from '../../schema/api/sending';
import { localServerMessages } from '../../schema/api/serverMessages';
import { createApiClient } from '../../web/src/api/client';
import { groupThreads, MAIL_FRAME_SANDBOX, withLinksInNewTab } from '../../web/src/pages/outbox/mailView';
import { OUTBOX_REFRESH_MS } from '../../web/src/pages/outbox/OutboxPage';
import { tourFlagKey } from '../../web/src/tour/tourRules';
import { outboxSummary } from '../fakes/outbox';
import { awsConfigWithGoogle, currentPath, makeFakeAuth, makeProfile, preloadRoutes, renderApp, testUser } from './helpers';

beforeAll(async () => {
  await preloadRoutes();
  await import('../../web/src/pages/outbox/OutboxPage');
}, 60_000);

afterEach(() => {
  vi.useRealTimers();
});

const PIXEL = 'http://127.0.0.1:3000/api/t/o/tok-a';
const CLICK = 'http://127.0.0.1:3000/api/t/c/tok-a/0';

function message(n: number, overrides: Partial<OutboxMessage> = {}): OutboxMessage {
  return {
    id: `01KAKZ3R00000000000000000${n}`,
    sent_at: new Date(Date.UTC(2025, 2, 9, 10, 30 + n)).toISOString(),
    from: 'Nova Sørensen <nova@gmail.com>',
    to: `Contact ${n} <contact${n}@label.example>`,
    subject: `New track for contact ${n}`,
    campaign_id: '01KAKZ3R00000000000000000A',
    thread_id: `01KAKZ3R00000000000000000${n}`,
    html: `<!DOCTYPE html><html><head><title>x</title></head><body><p>Hi contact ${n}</p><a href="${CLICK}">Listen</a><img src="${PIXEL}" width="1" height="1" alt=""></body></html>`,
    text: `Hi contact ${n}\n\nListen: ${CLICK}`,
    headers: [
      ['From', 'Nova =?UTF-8?Q?S=C3=B8rensen?= <nova@gmail.com>'],
      ['To', `Contact ${n} <contact${n}@label.example>`],
      ['Subject', `New track for contact ${n}`],
      ['List-Unsubscribe', '<http://127.0.0.1:3000/api/unsubscribe/one-click?token=tok-a>'],
      ['List-Unsubscribe-Post', 'List-Unsubscribe=One-Click'],
    ],
    raw: 'From: …',
    ...overrides,
  };
}

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** An in-memory outbox API: newest first (ids are ULIDs), summaries in the list, 404 for unknown ids. */
function fakeOutboxServer(initial: OutboxMessage[]) {
  const messages = [...initial];
  const fetchImpl = vi.fn<typeof fetch>((input) => {
    const path = input as string;
    if (path === '/api/local/outbox') {
      const newestFirst = [...messages].sort((a, b) => (a.id < b.id ? 1 : -1));
      return Promise.resolve(
        json({
          messages: newestFirst.map(outboxSummary),
        }),
      );
    }
    const one = /^\/api\/local\/outbox\/([^/]+)$/.exec(path);
    const found = one && messages.find((m) => m.id === decodeURIComponent(one[1]!));
    return Promise.resolve(found ? json(found) : json({ message: outboxMessages.messageNotFound }, 404));
  });
  return { messages, fetchImpl, listCalls: () => fetchImpl.mock.calls.filter(([input]) => (input as string) === '/api/local/outbox').length };
}

function openOutbox(server: ReturnType<typeof fakeOutboxServer>, options: { path?: string; config?: typeof awsConfigWithGoogle } = {}) {
  window.localStorage.setItem(tourFlagKey(testUser.userId), 'true');
  const auth = makeFakeAuth({ user: testUser, profile: makeProfile(), api: createApiClient(() => Promise.resolve('token'), server.fetchImpl) });
  return renderApp(options.path ?? '/dashboard/outbox', { auth, ...(options.config ? { config: options.config } : {}) });
}

const rowsText = () =>
  createWrapper()
    .findTable()!
    .findRows()
    .map((row) => row.getElement().textContent);

describe('the Outbox page in local mode', () => {
  it("is titled 'Outbox', says it is the local mailbox, and lists To, Subject and Sent newest first", async () => {
    const server = fakeOutboxServer([message(1), message(3), message(2)]);
    openOutbox(server);
    expect(await screen.findByRole('heading', { name: 'Outbox', level: 1 })).toBeInTheDocument();
    expect(screen.getByText(/The local mailbox: every email Trackpitch sent/)).toBeInTheDocument();
    await screen.findByText('New track for contact 3');
    const headers = createWrapper()
      .findTable()!
      .findColumnHeaders()
      .map((h) => h.getElement().textContent);
    expect(headers).toEqual(['To', 'Subject', 'Sent']);
    const rows = rowsText();
    expect(rows).toHaveLength(3);
    expect(rows[0]).toContain('Contact 3 <contact3@label.example>');
    expect(rows[1]).toContain('New track for contact 2');
    expect(rows[2]).toContain('New track for contact 1');
    const sent = createWrapper().findTable()!.findBodyCell(1, 3)!.getElement().querySelector('time');
    expect(sent).toHaveAttribute('dateTime', message(3).sent_at);
  });

  it("offers 'Outbox' in the sidebar and highlights it", async () => {
    openOutbox(fakeOutboxServer([]));
    const link = await screen.findByRole('link', { name: 'Outbox' });
    expect(link).toHaveAttribute('href', '/dashboard/outbox');
    expect(link).toHaveAttribute('aria-current', 'page');
  });

  it("shows 'No messages yet' with a hint to send a campaign", async () => {
    openOutbox(fakeOutboxServer([]));
    expect(await screen.findByText('No messages yet')).toBeInTheDocument();
    expect(screen.getByText(/Send a campaign/)).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Compose a campaign' }));
    await waitFor(() => expect(currentPath()).toBe('/dashboard/compose'));
  });

  it('refreshes the list every 5 seconds while open, so new emails appear without a reload', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const server = fakeOutboxServer([message(1)]);
    const { unmount } = openOutbox(server);
    await screen.findByText('New track for contact 1');
    server.messages.push(message(2));
    expect(screen.queryByText('New track for contact 2')).not.toBeInTheDocument();
    await act(() => {
      vi.advanceTimersByTime(OUTBOX_REFRESH_MS);
      return Promise.resolve();
    });
    expect(await screen.findByText('New track for contact 2')).toBeInTheDocument();
    expect(rowsText()[0]).toContain('New track for contact 2');
    unmount();
    const calls = server.listCalls();
    await act(() => {
      vi.advanceTimersByTime(OUTBOX_REFRESH_MS * 3);
      return Promise.resolve();
    });
    expect(server.listCalls()).toBe(calls);
  });

  it('keeps the list and says so when a refresh fails', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const server = fakeOutboxServer([message(1)]);
    openOutbox(server);
    await screen.findByText('New track for contact 1');
    server.fetchImpl.mockImplementationOnce(() => Promise.resolve(json({ message: localServerMessages.starting }, 503)));
    await act(() => {
      vi.advanceTimersByTime(OUTBOX_REFRESH_MS);
      return Promise.resolve();
    });
    expect(await screen.findByText(localServerMessages.starting)).toBeInTheDocument();
    expect(screen.getByText('New track for contact 1')).toBeInTheDocument();
  });

  it('opens a message as a mail client shows it: envelope, sandboxed HTML with links to a new tab, headers and text', async () => {
    const server = fakeOutboxServer([message(1), message(2)]);
    openOutbox(server);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('link', { name: 'New track for contact 2' }));
    expect(currentPath()).toBe(`/dashboard/outbox?message=${message(2).id}`);

    expect(await screen.findByRole('heading', { name: 'New track for contact 2', level: 2 })).toBeInTheDocument();
    const pairs = createWrapper().findKeyValuePairs()!;
    const labelled = Object.fromEntries(
      pairs.findItems().map((item) => [item.findLabel()!.getElement().textContent, item.findValue()!.getElement().textContent]),
    );
    expect(labelled).toMatchObject({
      From: 'Nova Sørensen <nova@gmail.com>',
      To: 'Contact 2 <contact2@label.example>',
      Subject: 'New track for contact 2',
    });
    expect(labelled.Date).toBeTruthy();

    const frame = screen.getByTitle<HTMLIFrameElement>('Email message');
    expect(frame.getAttribute('sandbox')).toBe('allow-popups allow-popups-to-escape-sandbox');
    expect(frame.getAttribute('sandbox')).not.toMatch(/allow-scripts|allow-same-origin/);
    const srcDoc = frame.getAttribute('srcdoc')!;
    expect(srcDoc).toContain('<head><base target="_blank"><title>x</title>');
    // The pixel and the tracked link are the email's own: loading and clicking them is what tracking counts.
    expect(srcDoc).toContain(`<img src="${PIXEL}"`);
    expect(srcDoc).toContain(`<a href="${CLICK}">`);

    const headersSection = createWrapper().findExpandableSection()!;
    expect(headersSection.findHeaderText()!.getElement()).toHaveTextContent('Show headers');
    await user.click(headersSection.findExpandButton().getElement());
    const content = headersSection.findContent().getElement();
    expect(within(content).getByText('List-Unsubscribe:')).toBeInTheDocument();
    expect(within(content).getByText('<http://127.0.0.1:3000/api/unsubscribe/one-click?token=tok-a>')).toBeInTheDocument();
    expect(within(content).getByText('List-Unsubscribe=One-Click')).toBeInTheDocument();
    expect(content.querySelector('pre')).toHaveTextContent(`Hi contact 2 Listen: ${CLICK}`);

    await user.click(screen.getByRole('button', { name: 'Back to Outbox' }));
    expect(await screen.findByRole('link', { name: 'New track for contact 1' })).toBeInTheDocument();
    expect(currentPath()).toBe('/dashboard/outbox');
  });

  it('groups a thread: its newest message (a follow-up) in the list, the first email under it when expanded', async () => {
    const first = message(1, { subject: 'Night Drive' });
    const followUp = message(3, {
      subject: 'Re: Night Drive',
      thread_id: first.id,
      headers: [
        ['Subject', 'Re: Night Drive'],
        ['In-Reply-To', '<01KAKZ3R00000000000000000A.1.aaaaaaaa@trackpitch>'],
        ['References', '<01KAKZ3R00000000000000000A.1.aaaaaaaa@trackpitch>'],
      ],
    });
    const server = fakeOutboxServer([first, message(2), followUp]);
    openOutbox(server);
    const user = userEvent.setup();
    await screen.findByRole('link', { name: 'Re: Night Drive' });
    expect(rowsText()).toHaveLength(2);
    expect(rowsText()[0]).toContain('Re: Night Drive (2 messages in this thread)');
    expect(rowsText()[1]).toContain('New track for contact 2');
    expect(screen.queryByRole('link', { name: 'Night Drive' })).toBeNull();

    await user.click(createWrapper().findTable()!.findExpandToggle(1)!.getElement());
    expect(await screen.findByRole('link', { name: 'Night Drive' })).toBeInTheDocument();
    expect(rowsText()).toHaveLength(3);
    expect(rowsText()[1]).toContain('Night Drive');

    // The follow-up names the email it answers.
    await user.click(screen.getByRole('link', { name: 'Re: Night Drive' }));
    await screen.findByRole('heading', { name: 'Re: Night Drive', level: 2 });
    const labelled = Object.fromEntries(
      createWrapper()
        .findKeyValuePairs()!
        .findItems()
        .map((item) => [item.findLabel()!.getElement().textContent, item.findValue()!.getElement().textContent]),
    );
    expect(labelled).toMatchObject({
      'In-Reply-To': '<01KAKZ3R00000000000000000A.1.aaaaaaaa@trackpitch>',
      References: '<01KAKZ3R00000000000000000A.1.aaaaaaaa@trackpitch>',
    });
  });

  it("says 'Message not found.' for an id that is not the user's", async () => {
    openOutbox(fakeOutboxServer([message(1)]), { path: '/dashboard/outbox?message=01KAKZ3R0000000000000000ZZ' });
    expect(await screen.findByText(outboxMessages.messageNotFound)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Back to Outbox' })).toBeInTheDocument();
  });
});

describe('the Outbox page in AWS mode', () => {
  it('says the outbox exists only when running locally, loads nothing, and the sidebar has no Outbox', async () => {
    const server = fakeOutboxServer([message(1)]);
    openOutbox(server, { config: awsConfigWithGoogle });
    expect(await screen.findByRole('heading', { name: 'Outbox', level: 1 })).toBeInTheDocument();
    expect(screen.getAllByText(/The outbox exists only when Trackpitch runs locally/).length).toBeGreaterThan(0);
    await screen.findByRole('link', { name: 'Contacts' });
    expect(screen.queryByRole('link', { name: 'Outbox' })).not.toBeInTheDocument();
    expect(server.fetchImpl).not.toHaveBeenCalledWith('/api/local/outbox', expect.anything());
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });
});

describe('groupThreads', () => {
  it('keeps the threads in the order of their newest message, each with its earlier messages newest first', () => {
    const m = (id: string, thread_id = id) => ({ id, thread_id });
    expect(groupThreads([m('5', '1'), m('4'), m('3', '1'), m('2', '4'), m('1')])).toEqual([
      { latest: m('5', '1'), earlier: [m('3', '1'), m('1')] },
      { latest: m('4'), earlier: [m('2', '4')] },
    ]);
    expect(groupThreads([])).toEqual([]);
  });
});

describe('withLinksInNewTab', () => {
  it('puts <base target="_blank"> first in the head, creating one when needed', () => {
    expect(withLinksInNewTab('<!DOCTYPE html><html lang="en"><HEAD data-x="1"><style>p{}</style></HEAD><body></body></html>')).toBe(
      '<!DOCTYPE html><html lang="en"><HEAD data-x="1"><base target="_blank"><style>p{}</style></HEAD><body></body></html>',
    );
    expect(withLinksInNewTab('<html><body><header>x</header></body></html>')).toBe(
      '<html><head><base target="_blank"></head><body><header>x</header></body></html>',
    );
    expect(withLinksInNewTab('<p>fragment</p>')).toBe('<base target="_blank"><p>fragment</p>');
    expect(MAIL_FRAME_SANDBOX).toBe('allow-popups allow-popups-to-escape-sandbox');
  });
});
