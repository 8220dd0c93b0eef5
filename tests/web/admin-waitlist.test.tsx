import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Papa from 'papaparse';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { INVALID_CURSOR, waitlistListQuerySchema, type WaitlistEntry } from '../../schema/api/waitlist';
import { waitlistMessages } from '../../schema/api/waitlistConstants';
import { createApiClient } from '../../web/src/api/client';
import { fileSaver } from '../../web/src/lib/csv';
import { PAGE_SIZE } from '../../web/src/pages/admin/WaitlistManager';
import { makeFakeAuth, makeProfile, preloadRoutes, renderApp, testUser } from './helpers';
import { apiMessages, gatewayMessages } from '../../schema/api/serverMessages';

beforeAll(async () => {
  await preloadRoutes();
  await import('../../web/src/pages/admin/WaitlistManager');
}, 60_000);

const BASE = Date.UTC(2025, 0, 1, 12, 0);

function entry(i: number, overrides: Partial<WaitlistEntry> = {}): WaitlistEntry {
  return {
    id: `id-${String(i).padStart(5, '0')}`,
    email: `artist${i}@example.com`,
    artist_name: `Artist ${i}`,
    music_style: 'Techno',
    soundcloud_spotify_url: `https://soundcloud.com/artist${i}`,
    why_interested: null,
    status: 'pending',
    submitted_at: new Date(BASE + i * 60_000).toISOString(),
    approved_at: null,
    notes: null,
    ...overrides,
  };
}

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

type Failure = { status: number; message: string } | null;

/** A promise the test resolves by hand, to hold a response back. */
function gate() {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

/**
 * An in-memory admin waitlist API with the contract of schema/api/waitlist.ts: the list comes in
 * pages of at most `limit` (and at most `maxPage`, standing in for DynamoDB's 1 MB page), with an
 * opaque next_cursor. `hold` makes a response wait (computed first, sent when the gate opens).
 */
function fakeServer(initial: WaitlistEntry[], { maxPage = Number.POSITIVE_INFINITY } = {}) {
  const entries = new Map(initial.map((e) => [e.id, e]));
  const fail: { list: Failure; status: Failure; notes: Failure } = { list: null, status: null, notes: null };
  const hold: { laterPages?: Promise<void>; status?: Promise<void>; notes?: Promise<void> } = {};
  const fetchImpl = vi.fn<typeof fetch>(async (input, init) => {
    const url = input as string;
    const method = init?.method ?? 'GET';
    const body = init?.body ? (JSON.parse(init.body as string) as Record<string, string>) : {};
    const { pathname, searchParams } = new URL(url, 'http://localhost');
    if (method === 'GET' && pathname === '/api/admin/waitlist') {
      if (fail.list) return json({ message: fail.list.message }, fail.list.status);
      const query = waitlistListQuerySchema.safeParse(Object.fromEntries(searchParams));
      if (!query.success) return json({ message: query.error.issues[0]?.message ?? 'Invalid' }, 400);
      const { limit, cursor = null } = query.data;
      const list = [...entries.values()].sort((a, b) => (a.submitted_at < b.submitted_at ? 1 : -1));
      const start = cursor === null ? 0 : list.findIndex((e) => e.id === atob(cursor)) + 1;
      if (cursor !== null && start === 0) return json({ message: INVALID_CURSOR }, 400);
      if (cursor !== null) await hold.laterPages;
      const page = list.slice(start, start + Math.min(limit, maxPage));
      const more = start + page.length < list.length;
      return json(more ? { entries: page, next_cursor: btoa(page.at(-1)!.id) } : { entries: page });
    }
    const statusMatch = /^\/api\/admin\/waitlist\/([^/]+)$/.exec(url);
    if (method === 'PATCH' && statusMatch) {
      if (fail.status) return json({ message: fail.status.message }, fail.status.status);
      const current = entries.get(decodeURIComponent(statusMatch[1]!));
      if (!current) return json({ message: waitlistMessages.notFound }, 404);
      if (current.status !== 'pending') return json({ message: waitlistMessages.notPending }, 409);
      const status = body.status as 'approved' | 'rejected';
      const next: WaitlistEntry = { ...current, status, approved_at: status === 'approved' ? new Date().toISOString() : null };
      entries.set(next.id, next);
      await hold.status;
      return json(next);
    }
    const notesMatch = /^\/api\/admin\/waitlist\/([^/]+)\/notes$/.exec(url);
    if (method === 'PUT' && notesMatch) {
      if (fail.notes) return json({ message: fail.notes.message }, fail.notes.status);
      const current = entries.get(decodeURIComponent(notesMatch[1]!));
      if (!current) return json({ message: waitlistMessages.notFound }, 404);
      const next = { ...current, notes: body.notes ?? null };
      entries.set(next.id, next);
      await hold.notes;
      return json(next);
    }
    return json({ message: gatewayMessages.notFound }, 404);
  });
  const callsTo = (method: string) => fetchImpl.mock.calls.filter(([, init]) => (init?.method ?? 'GET') === method);
  return { entries, fail, hold, fetchImpl, callsTo };
}

type Server = ReturnType<typeof fakeServer>;

async function renderAdmin(server: Server, { isAdmin = true } = {}) {
  const api = createApiClient(() => Promise.resolve('admin-id-token'), server.fetchImpl);
  const result = renderApp('/admin/beta-waitlist', { auth: makeFakeAuth({ user: testUser, profile: makeProfile(), isAdmin, api }) });
  if (isAdmin) await screen.findByRole('heading', { name: 'Beta Waitlist Management', level: 1 });
  return result;
}

const countText = (label: string) => screen.getByRole('group', { name: label }).textContent.replace(label, '');

async function expectCounts(total: number, pending: number, approved: number, rejected: number) {
  await waitFor(() => expect(countText('Total')).toBe(total.toLocaleString()));
  expect(countText('Pending')).toBe(pending.toLocaleString());
  expect(countText('Approved')).toBe(approved.toLocaleString());
  expect(countText('Rejected')).toBe(rejected.toLocaleString());
}

const table = () => createWrapper().findTable()!;
const bodyRows = () =>
  table()
    .findRows()
    .map((row) => row.getElement());

/** The table row whose email is `email` (the browser tests scope by the row's email too). */
function rowOf(email: string): HTMLElement {
  const row = bodyRows().find((r) => within(r).queryByText(email, { exact: true }));
  if (!row) throw new Error(`no row for ${email}`);
  return row;
}

const emailsShown = () => bodyRows().map((r) => r.querySelector('th, td')?.textContent ?? '');

const mixed = () => [
  entry(1, { email: 'zed@example.com', artist_name: 'Zed', music_style: 'House', why_interested: 'I love pitching' }),
  entry(2, { email: 'amy@example.com', artist_name: 'Amy', music_style: 'Trance', status: 'approved', approved_at: new Date(BASE).toISOString() }),
  entry(3, { email: 'bob@example.com', artist_name: 'Bob', music_style: 'Techno', status: 'rejected', notes: 'Spam account' }),
  entry(4, { email: 'cat@example.com', artist_name: 'Cat Beats', music_style: 'Deep House', soundcloud_spotify_url: null }),
];

describe('admin waitlist page', () => {
  it('shows counts, exactly the spec columns and the entries newest first, with the ID token on the request', async () => {
    const server = fakeServer(mixed());
    await renderAdmin(server);
    await expectCounts(4, 2, 1, 1);
    expect(document.title).toBe('Beta Waitlist Management · Trackpitch');
    const headers = table()
      .findColumnHeaders()
      .map((h) => h.getElement().textContent);
    const names = ['Email', 'Artist Name', 'Music Style', 'URL', 'Submitted', 'Status', 'Actions'];
    expect(headers).toHaveLength(names.length);
    names.forEach((name, i) => expect(headers[i]!.startsWith(name), `${headers[i]} is ${name}`).toBe(true));
    expect(emailsShown()).toEqual(['cat@example.com', 'bob@example.com', 'amy@example.com', 'zed@example.com']);
    const [, init] = server.fetchImpl.mock.calls[0]!;
    expect((init?.headers as Record<string, string>).Authorization).toBe('Bearer admin-id-token');

    // URL opens in a new tab without giving the opened page a handle on ours.
    const link = within(rowOf('zed@example.com')).getByRole('link', { name: /soundcloud\.com\/artist1/ });
    expect(link).toHaveAttribute('href', 'https://soundcloud.com/artist1');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link.getAttribute('rel')).toContain('noopener');
    // Why interested and notes live in the notes dialog, not the table; status is shown as text.
    expect(within(table().getElement()).queryByText('I love pitching')).not.toBeInTheDocument();
    expect(within(table().getElement()).queryByText('Spam account')).not.toBeInTheDocument();
    expect(within(rowOf('bob@example.com')).getByText('Rejected')).toBeInTheDocument();
    expect(within(rowOf('zed@example.com')).getByText(/2025/)).toBeInTheDocument();
  });

  it('shows a stored link that is not a plain http(s) website (saved before the link rule) as text, not a link', async () => {
    const server = fakeServer([entry(1, { email: 'old@example.com', soundcloud_spotify_url: 'https://soundcloud.com@evil.example/x' })]);
    await renderAdmin(server);
    await expectCounts(1, 1, 0, 0);
    expect(within(rowOf('old@example.com')).getByText('https://soundcloud.com@evil.example/x')).toBeInTheDocument();
    expect(within(rowOf('old@example.com')).queryByRole('link')).not.toBeInTheDocument();
  });

  it('offers Approve and Reject on pending rows only', async () => {
    await renderAdmin(fakeServer(mixed()));
    await expectCounts(4, 2, 1, 1);
    for (const email of ['zed@example.com', 'cat@example.com']) {
      expect(within(rowOf(email)).getByRole('button', { name: 'Approve' })).toBeInTheDocument();
      expect(within(rowOf(email)).getByRole('button', { name: 'Reject' })).toBeInTheDocument();
    }
    for (const email of ['amy@example.com', 'bob@example.com']) {
      expect(within(rowOf(email)).queryByRole('button', { name: 'Approve' })).not.toBeInTheDocument();
      expect(within(rowOf(email)).queryByRole('button', { name: 'Reject' })).not.toBeInTheDocument();
      expect(within(rowOf(email)).getByRole('button', { name: 'Add Internal Notes' })).toBeInTheDocument();
      expect(within(rowOf(email)).getByRole('button', { name: 'Copy email' })).toBeInTheDocument();
    }
  });

  it('approves: calls the API, updates the row and counts, and says so', async () => {
    const server = fakeServer(mixed());
    await renderAdmin(server);
    await expectCounts(4, 2, 1, 1);
    await userEvent.setup().click(within(rowOf('zed@example.com')).getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('Entry approved')).toBeInTheDocument();
    expect(screen.getByText('Waitlist entry has been approved.')).toBeInTheDocument();
    await expectCounts(4, 1, 2, 1);
    const patch = server.callsTo('PATCH')[0]!;
    expect(patch[0]).toBe('/api/admin/waitlist/id-00001');
    expect(JSON.parse(patch[1]?.body as string)).toEqual({ status: 'approved' });
    expect(within(rowOf('zed@example.com')).getByText('Approved')).toBeInTheDocument();
    expect(within(rowOf('zed@example.com')).queryByRole('button', { name: 'Approve' })).not.toBeInTheDocument();
    expect(within(rowOf('zed@example.com')).queryByRole('button', { name: 'Reject' })).not.toBeInTheDocument();
  });

  it('rejects: calls the API, updates the row and counts, and says so', async () => {
    const server = fakeServer(mixed());
    await renderAdmin(server);
    await expectCounts(4, 2, 1, 1);
    await userEvent.setup().click(within(rowOf('cat@example.com')).getByRole('button', { name: 'Reject' }));
    expect(await screen.findByText('Entry rejected')).toBeInTheDocument();
    expect(screen.getByText('Waitlist entry has been rejected.')).toBeInTheDocument();
    await expectCounts(4, 1, 1, 2);
    expect(JSON.parse(server.callsTo('PATCH')[0]![1]?.body as string)).toEqual({ status: 'rejected' });
    expect(within(rowOf('cat@example.com')).getByText('Rejected')).toBeInTheDocument();
    expect(server.entries.get('id-00004')?.status).toBe('rejected');
  });

  it('shows an error toast with the message when the status change fails, and shows the real state after a conflict', async () => {
    const server = fakeServer(mixed());
    await renderAdmin(server);
    await expectCounts(4, 2, 1, 1);
    // Another admin approved it meanwhile: the API answers 409.
    server.entries.set('id-00001', { ...server.entries.get('id-00001')!, status: 'approved' });
    await userEvent.setup().click(within(rowOf('zed@example.com')).getByRole('button', { name: 'Reject' }));
    expect(await screen.findByText('Error updating status')).toBeInTheDocument();
    expect(screen.getByText(waitlistMessages.notPending)).toBeInTheDocument();
    await expectCounts(4, 1, 2, 1);
    expect(within(rowOf('zed@example.com')).queryByRole('button', { name: 'Reject' })).not.toBeInTheDocument();

    server.fail.status = { status: 500, message: apiMessages.internalError };
    await userEvent.setup().click(within(rowOf('cat@example.com')).getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText(apiMessages.internalError)).toBeInTheDocument();
    expect(within(rowOf('cat@example.com')).getByText('Pending')).toBeInTheDocument();
    expect(within(rowOf('cat@example.com')).getByRole('button', { name: 'Approve' })).toBeInTheDocument();
  });

  it('shows an error toast and a retry when the list cannot be fetched', async () => {
    const server = fakeServer(mixed());
    server.fail.list = { status: 500, message: apiMessages.internalError };
    await renderAdmin(server);
    expect(await screen.findByText('Error fetching entries')).toBeInTheDocument();
    expect(screen.getByText(apiMessages.internalError)).toBeInTheDocument();
    expect(screen.getByText('Could not load entries')).toBeInTheDocument();
    server.fail.list = null;
    await userEvent.setup().click(screen.getByRole('button', { name: 'Retry' }));
    await expectCounts(4, 2, 1, 1);
  });

  it('shows an empty state when nobody has joined', async () => {
    await renderAdmin(fakeServer([]));
    expect(await screen.findByText('No waitlist entries yet')).toBeInTheDocument();
    await expectCounts(0, 0, 0, 0);
    expect(screen.getByRole('button', { name: 'Export as CSV' })).toBeDisabled();
  });

  it('notes dialog: shows why interested read-only and the current notes, ready to edit', async () => {
    await renderAdmin(fakeServer(mixed()));
    await expectCounts(4, 2, 1, 1);
    const user = userEvent.setup();
    await user.click(within(rowOf('zed@example.com')).getByRole('button', { name: 'Add Internal Notes' }));
    let dialog = await screen.findByRole('dialog');
    const why = within(dialog).getByRole('group', { name: 'Why interested' });
    expect(within(why).getByText('I love pitching')).toBeInTheDocument();
    expect(within(why).queryByRole('textbox')).not.toBeInTheDocument();
    expect(within(dialog).getByLabelText('Internal notes')).toHaveValue('');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await user.click(within(rowOf('bob@example.com')).getByRole('button', { name: 'Add Internal Notes' }));
    dialog = await screen.findByRole('dialog');
    expect(within(within(dialog).getByRole('group', { name: 'Why interested' })).getByText('Not given')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Internal notes')).toHaveValue('Spam account');
  });

  it('notes dialog: Cancel closes without saving', async () => {
    const server = fakeServer(mixed());
    await renderAdmin(server);
    await expectCounts(4, 2, 1, 1);
    const user = userEvent.setup();
    await user.click(within(rowOf('bob@example.com')).getByRole('button', { name: 'Add Internal Notes' }));
    const dialog = await screen.findByRole('dialog');
    const textarea = within(dialog).getByLabelText('Internal notes');
    expect(textarea).toHaveValue('Spam account');
    await user.type(textarea, ' - not saved');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(server.callsTo('PUT')).toHaveLength(0);
    await user.click(within(rowOf('bob@example.com')).getByRole('button', { name: 'Add Internal Notes' }));
    expect(within(await screen.findByRole('dialog')).getByLabelText('Internal notes')).toHaveValue('Spam account');
  });

  it('notes dialog: Save Notes stores the notes, shows them and says so', async () => {
    const server = fakeServer(mixed());
    await renderAdmin(server);
    await expectCounts(4, 2, 1, 1);
    const user = userEvent.setup();
    await user.click(within(rowOf('zed@example.com')).getByRole('button', { name: 'Add Internal Notes' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('Internal notes'), 'Great demo, invite next week');
    await user.click(within(dialog).getByRole('button', { name: 'Save Notes' }));
    expect(await screen.findByText('Notes saved')).toBeInTheDocument();
    expect(screen.getByText('Internal notes have been updated.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const put = server.callsTo('PUT')[0]!;
    expect(put[0]).toBe('/api/admin/waitlist/id-00001/notes');
    expect(JSON.parse(put[1]?.body as string)).toEqual({ notes: 'Great demo, invite next week' });
    // Opening the dialog again shows the saved notes.
    await user.click(within(rowOf('zed@example.com')).getByRole('button', { name: 'Add Internal Notes' }));
    expect(within(await screen.findByRole('dialog')).getByLabelText('Internal notes')).toHaveValue('Great demo, invite next week');
  });

  it('keeps both changes when an approve and a notes save overlap, whichever answer comes last', async () => {
    const server = fakeServer(mixed());
    await renderAdmin(server);
    await expectCounts(4, 2, 1, 1);
    const user = userEvent.setup();
    const notesDialogSave = async (email: string, notes: string) => {
      await user.click(within(rowOf(email)).getByRole('button', { name: 'Add Internal Notes' }));
      const dialog = await screen.findByRole('dialog');
      await user.type(within(dialog).getByLabelText('Internal notes'), notes);
      await user.click(within(dialog).getByRole('button', { name: 'Save Notes' }));
    };

    // zed: the approve's answer (notes still empty then) arrives after the notes save's.
    const approveHeld = gate();
    server.hold.status = approveHeld.promise;
    await user.click(within(rowOf('zed@example.com')).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(server.callsTo('PATCH')).toHaveLength(1));
    server.hold.status = undefined;
    await notesDialogSave('zed@example.com', 'Zed notes');
    expect(await screen.findByText('Notes saved')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    approveHeld.open();
    expect(await screen.findByText('Entry approved')).toBeInTheDocument();

    // cat: the notes save's answer (still pending then) arrives after the reject's.
    const notesHeld = gate();
    server.hold.notes = notesHeld.promise;
    await notesDialogSave('cat@example.com', 'Cat notes');
    await waitFor(() => expect(server.callsTo('PUT')).toHaveLength(2));
    server.hold.notes = undefined;
    await user.click(within(rowOf('cat@example.com')).getByRole('button', { name: 'Reject' }));
    expect(await screen.findByText('Entry rejected')).toBeInTheDocument();
    notesHeld.open();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await expectCounts(4, 0, 2, 2);
    expect(within(rowOf('zed@example.com')).getByText('Approved')).toBeInTheDocument();
    expect(within(rowOf('cat@example.com')).getByText('Rejected')).toBeInTheDocument();
    await user.click(within(rowOf('zed@example.com')).getByRole('button', { name: 'Add Internal Notes' }));
    expect(within(await screen.findByRole('dialog')).getByLabelText('Internal notes')).toHaveValue('Zed notes');
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await user.click(within(rowOf('cat@example.com')).getByRole('button', { name: 'Add Internal Notes' }));
    expect(within(await screen.findByRole('dialog')).getByLabelText('Internal notes')).toHaveValue('Cat notes');
  });

  it('notes dialog: a failed save shows the error and keeps the draft', async () => {
    const server = fakeServer(mixed());
    server.fail.notes = { status: 400, message: 'Notes must be at most 2000 characters' };
    await renderAdmin(server);
    await expectCounts(4, 2, 1, 1);
    const user = userEvent.setup();
    await user.click(within(rowOf('zed@example.com')).getByRole('button', { name: 'Add Internal Notes' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('Internal notes'), 'Draft');
    await user.click(within(dialog).getByRole('button', { name: 'Save Notes' }));
    expect(await screen.findByText('Error saving notes')).toBeInTheDocument();
    expect(screen.getAllByText('Notes must be at most 2000 characters').length).toBeGreaterThan(0);
    expect(within(screen.getByRole('dialog')).getByLabelText('Internal notes')).toHaveValue('Draft');
  });

  it('copies the email and says so', async () => {
    await renderAdmin(fakeServer(mixed()));
    await expectCounts(4, 2, 1, 1);
    const user = userEvent.setup();
    await user.click(within(rowOf('amy@example.com')).getByRole('button', { name: 'Copy email' }));
    // The toast (the button's own popover also says 'Email copied').
    expect(await screen.findByText('Email address copied to clipboard.')).toBeInTheDocument();
    expect(screen.getAllByText('Email copied').length).toBeGreaterThanOrEqual(2);
    expect(await navigator.clipboard.readText()).toBe('amy@example.com');
  });

  it('filters by status', async () => {
    await renderAdmin(fakeServer(mixed()));
    await expectCounts(4, 2, 1, 1);
    const select = createWrapper().findSelect()!;
    act(() => select.openDropdown());
    act(() => select.selectOptionByValue('pending'));
    await waitFor(() => expect(emailsShown()).toEqual(['cat@example.com', 'zed@example.com']));
    // The status filter counts as a filter: the table counter says 2 of 4.
    expect(screen.getByText('(2/4)')).toBeInTheDocument();
    act(() => select.openDropdown());
    act(() => select.selectOptionByValue('rejected'));
    await waitFor(() => expect(emailsShown()).toEqual(['bob@example.com']));
    expect(screen.getByText('(1/4)')).toBeInTheDocument();
    act(() => select.openDropdown());
    act(() => select.selectOptionByValue('all'));
    await waitFor(() => expect(emailsShown()).toHaveLength(4));
    expect(screen.queryByText('(4/4)')).not.toBeInTheDocument();
    expect(screen.getByText('(4)')).toBeInTheDocument();
    // Counts always describe the whole list.
    await expectCounts(4, 2, 1, 1);
  });

  it('combines the status and text filters, and Clear filters clears both', async () => {
    await renderAdmin(fakeServer(mixed()));
    await expectCounts(4, 2, 1, 1);
    const user = userEvent.setup();
    const select = createWrapper().findSelect()!;
    act(() => select.openDropdown());
    act(() => select.selectOptionByValue('pending'));
    await user.type(screen.getByLabelText('Filter entries by email, artist name or music style'), 'house');
    await waitFor(() => expect(emailsShown()).toEqual(['cat@example.com', 'zed@example.com']));
    await user.clear(screen.getByLabelText('Filter entries by email, artist name or music style'));
    await user.type(screen.getByLabelText('Filter entries by email, artist name or music style'), 'amy');
    expect(await screen.findByText('No matching entries')).toBeInTheDocument();
    expect(screen.getAllByText('0 matches')[0]).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(emailsShown()).toHaveLength(4));
    expect(select.findTrigger().getElement().textContent).toContain('All');
  });

  it('filters by text over email, artist name and style, and offers to clear a filter with no matches', async () => {
    await renderAdmin(fakeServer(mixed()));
    await expectCounts(4, 2, 1, 1);
    const user = userEvent.setup();
    const filter = screen.getByLabelText('Filter entries by email, artist name or music style');
    await user.type(filter, 'HOUSE');
    await waitFor(() => expect(emailsShown()).toEqual(['cat@example.com', 'zed@example.com']));
    expect(screen.getAllByText('2 matches')[0]).toBeInTheDocument();
    await user.clear(filter);
    await user.type(filter, 'cat beats');
    await waitFor(() => expect(emailsShown()).toEqual(['cat@example.com']));
    await user.clear(filter);
    await user.type(filter, 'amy@');
    await waitFor(() => expect(emailsShown()).toEqual(['amy@example.com']));
    await user.clear(filter);
    await user.type(filter, 'nobody-here');
    expect(await screen.findByText('No matching entries')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(emailsShown()).toHaveLength(4));
  });

  it('sorts by email, artist and status', async () => {
    await renderAdmin(fakeServer(mixed()));
    await expectCounts(4, 2, 1, 1);
    act(() => table().findColumnSortingArea(1)!.click());
    await waitFor(() => expect(emailsShown()).toEqual(['amy@example.com', 'bob@example.com', 'cat@example.com', 'zed@example.com']));
    act(() => table().findColumnSortingArea(1)!.click());
    await waitFor(() => expect(emailsShown()[0]).toBe('zed@example.com'));
    act(() => table().findColumnSortingArea(2)!.click());
    await waitFor(() => expect(emailsShown()).toEqual(['amy@example.com', 'bob@example.com', 'cat@example.com', 'zed@example.com']));
    act(() => table().findColumnSortingArea(6)!.click());
    await waitFor(() => expect(emailsShown()).toEqual(['cat@example.com', 'zed@example.com', 'amy@example.com', 'bob@example.com']));
  });

  it('loads every page of the list in order, saying how many are in while more come', async () => {
    const all = Array.from({ length: 5 }, (_, i) => entry(i + 1, { status: i === 0 ? 'approved' : 'pending' }));
    const server = fakeServer(all, { maxPage: 2 });
    const laterPages = gate();
    server.hold.laterPages = laterPages.promise;
    await renderAdmin(server);
    // The first page is in, the rest is held: the table is still loading, and says how far it is.
    expect(await screen.findByText('Loaded 2 entries…')).toBeInTheDocument();
    expect(countText('Total')).toBe('–');
    expect(screen.getByRole('button', { name: 'Export as CSV' })).toBeDisabled();
    laterPages.open();
    await expectCounts(5, 4, 1, 0);
    expect(screen.queryByText(/^Loaded \d+ entries…$/)).not.toBeInTheDocument();
    expect(emailsShown()).toEqual(['artist5@example.com', 'artist4@example.com', 'artist3@example.com', 'artist2@example.com', 'artist1@example.com']);

    const lists = server.fetchImpl.mock.calls.map(([url]) => new URL(url as string, 'http://localhost'));
    expect(lists.map((u) => u.pathname)).toEqual(Array(3).fill('/api/admin/waitlist'));
    expect(lists.map((u) => u.searchParams.get('cursor'))).toEqual([null, btoa('id-00004'), btoa('id-00002')]);
    expect(lists.every((u) => u.searchParams.get('limit') === '500')).toBe(true);

    // Filtering, counts and export work over everything loaded.
    const save = vi.spyOn(fileSaver, 'save').mockImplementation(() => {});
    await userEvent.setup().click(screen.getByRole('button', { name: 'Export as CSV' }));
    const rows = Papa.parse<string[]>(save.mock.calls[0]![1].replace(/^\uFEFF/, '')).data;
    expect(rows.slice(1).map((r) => r[0])).toEqual(all.map((e) => e.email).reverse());
    await userEvent.setup().type(screen.getByLabelText('Filter entries by email, artist name or music style'), 'artist1@');
    await waitFor(() => expect(emailsShown()).toEqual(['artist1@example.com']));
  });

  it('shows the error and no partial list when a later page fails', async () => {
    const server = fakeServer(
      Array.from({ length: 5 }, (_, i) => entry(i + 1)),
      { maxPage: 2 },
    );
    const laterPages = gate();
    server.hold.laterPages = laterPages.promise;
    await renderAdmin(server);
    expect(await screen.findByText('Loaded 2 entries…')).toBeInTheDocument();
    server.fail.list = { status: 500, message: apiMessages.internalError };
    laterPages.open();
    expect(await screen.findByText('Error fetching entries')).toBeInTheDocument();
    expect(screen.getByText('Could not load entries')).toBeInTheDocument();
    server.fail.list = null;
    await userEvent.setup().click(screen.getByRole('button', { name: 'Retry' }));
    await expectCounts(5, 5, 0, 0);
  });

  it('paginates', async () => {
    const all = Array.from({ length: PAGE_SIZE + 5 }, (_, i) => entry(i + 1));
    await renderAdmin(fakeServer(all));
    await expectCounts(PAGE_SIZE + 5, PAGE_SIZE + 5, 0, 0);
    expect(bodyRows()).toHaveLength(PAGE_SIZE);
    expect(emailsShown()[0]).toBe(`artist${PAGE_SIZE + 5}@example.com`);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(bodyRows()).toHaveLength(5));
    expect(emailsShown().at(-1)).toBe('artist1@example.com');
  });

  it('exports every entry as beta-waitlist-{yyyy-MM-dd}.csv with the spec columns, dates and neutralised cells', async () => {
    const save = vi.spyOn(fileSaver, 'save').mockImplementation(() => {});
    const submitted = new Date(2025, 1, 3, 4, 5).toISOString();
    const approved = new Date(2025, 1, 4, 16, 30).toISOString();
    await renderAdmin(
      fakeServer([
        entry(2, {
          email: 'amy@example.com',
          artist_name: '=HYPERLINK("http://evil")',
          why_interested: 'Loves, "quotes"\nand lines',
          status: 'approved',
          submitted_at: submitted,
          approved_at: approved,
          notes: '+notes',
        }),
        entry(1, { email: 'zed@example.com', artist_name: 'Zed', soundcloud_spotify_url: null, submitted_at: new Date(2025, 1, 1, 23, 59).toISOString() }),
      ]),
    );
    await expectCounts(2, 1, 1, 0);
    // Exports all loaded entries even while a filter narrows the table (the spec's behaviour).
    await userEvent.setup().type(screen.getByLabelText('Filter entries by email, artist name or music style'), 'zed');
    await waitFor(() => expect(emailsShown()).toEqual(['zed@example.com']));
    await userEvent.setup().click(screen.getByRole('button', { name: 'Export as CSV' }));
    expect(save).toHaveBeenCalledTimes(1);
    const [filename, content] = save.mock.calls[0]!;
    const today = new Date();
    const stamp = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, '0')}-${String(today.getDate()).padStart(2, '0')}`;
    expect(filename).toBe(`beta-waitlist-${stamp}.csv`);
    // A UTF-8 BOM first, for Excel.
    expect(content.split('\r\n')[0]).toBe('\uFEFFEmail,Artist Name,Music Style,URL,Why Interested,Status,Submitted Date,Approved Date,Notes');
    expect(Papa.parse<string[]>(content.replace(/^\uFEFF/, '')).data).toEqual([
      ['Email', 'Artist Name', 'Music Style', 'URL', 'Why Interested', 'Status', 'Submitted Date', 'Approved Date', 'Notes'],
      [
        'amy@example.com',
        `'=HYPERLINK("http://evil")`,
        'Techno',
        'https://soundcloud.com/artist2',
        'Loves, "quotes"\nand lines',
        'approved',
        '2025-02-03 04:05',
        '2025-02-04 16:30',
        "'+notes",
      ],
      ['zed@example.com', 'Zed', 'Techno', '', '', 'pending', '2025-02-01 23:59', '', ''],
    ]);
  });

  it('downloads through a temporary link with the file name', async () => {
    const created: Blob[] = [];
    // jsdom has neither: what is there (nothing) is put back afterwards.
    const original = { create: Reflect.get(URL, 'createObjectURL') as unknown, revoke: Reflect.get(URL, 'revokeObjectURL') as unknown };
    URL.createObjectURL = vi.fn((blob: Blob) => {
      created.push(blob);
      return 'blob:fake';
    });
    URL.revokeObjectURL = vi.fn();
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    try {
      fileSaver.save('beta-waitlist-2025-01-02.csv', 'Email\r\na@example.com');
      const clicked = click.mock.contexts[0] as HTMLAnchorElement | undefined;
      expect(clicked).toBeDefined();
      expect(clicked!.download).toBe('beta-waitlist-2025-01-02.csv');
      expect(clicked!.href).toBe('blob:fake');
      expect(created[0]!.type).toContain('text/csv');
      expect(await created[0]!.text()).toBe('Email\r\na@example.com');
    } finally {
      Reflect.set(URL, 'createObjectURL', original.create);
      Reflect.set(URL, 'revokeObjectURL', original.revoke);
    }
  });

  it('refuses a non-admin with Not authorised and never calls the admin API', async () => {
    const server = fakeServer(mixed());
    await renderAdmin(server, { isAdmin: false });
    expect(await screen.findByRole('heading', { name: 'Not authorised' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Export as CSV' })).not.toBeInTheDocument();
    expect(server.fetchImpl).not.toHaveBeenCalled();
  });

  // Behaviour only: how long this takes is measured by bench/, never asserted here.
  it('handles 5,000 entries: one page of rows, counts over all, filter and approve', async () => {
    const many = Array.from({ length: 5000 }, (_, i) =>
      entry(i + 1, { status: i === 4998 ? 'pending' : i % 10 === 0 ? 'approved' : i % 7 === 0 ? 'rejected' : 'pending', why_interested: `Reason ${i + 1}` }),
    );
    const approvedCount = many.filter((e) => e.status === 'approved').length;
    const rejectedCount = many.filter((e) => e.status === 'rejected').length;
    await renderAdmin(fakeServer(many));
    await expectCounts(5000, 5000 - approvedCount - rejectedCount, approvedCount, rejectedCount);
    expect(bodyRows()).toHaveLength(PAGE_SIZE);
    expect(screen.getByRole('button', { name: 'Page 200 of all pages' })).toBeInTheDocument();

    const user = userEvent.setup();
    await user.click(screen.getByLabelText('Filter entries by email, artist name or music style'));
    await user.paste('artist4999@');
    await waitFor(() => expect(emailsShown()).toEqual(['artist4999@example.com']));

    await user.click(within(rowOf('artist4999@example.com')).getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('Entry approved')).toBeInTheDocument();
  }, 30_000);
});
