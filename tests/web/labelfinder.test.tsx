import { buildDemoPolicy } from '../fakes/builders';
import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { act, configure, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { Contact } from '../../schema/api/contacts';
import { genreLabels } from '../../schema/api/options';
import {
  DIRECTORY_LIMIT_CODE,
  applyDirectoryDefaults,
  cannotAddMessage,
  directoryMessages,
  type DirectoryAllowance,
  type DirectoryEntry,
  type RawDirectoryEntry,
} from '../../schema/api/directory';
import { apiMessages, gatewayMessages } from '../../schema/api/serverMessages';
import { ApiError, createApiClient } from '../../web/src/api/client';
import { DIRECTORY_ADD_CHUNK } from '../../web/src/api/directory';
import { NotificationsProvider, useNotifications, type NotifyInput } from '../../web/src/notifications/NotificationsContext';
import { addFailureNotice, bulkAddSummary, refusalBeforeAdd, UPGRADE_HREF } from '../../web/src/pages/labelfinder/allowance';
import { pageOf } from '../../web/src/components/ListPagination';
import { CARDS_PAGE_SIZE, entryState } from '../../web/src/pages/labelfinder/DirectorySection';
import { defaultFilters, filterEntries, genreCounts, splitFeatured, typeCounts, type DirectoryFilters } from '../../web/src/pages/labelfinder/filters';
import { currentPath, makeFakeAuth, makeProfile, preloadRoutes, renderApp, testUser } from './helpers';

// Role queries skip the per-element visibility check (getComputedStyle up every ancestor), which is
// what makes them slow on a page of cards; nothing these tests look for is hidden.
configure({ defaultHidden: true });

beforeAll(async () => {
  await preloadRoutes();
  await import('../../web/src/pages/labelfinder/LabelFinderPage');
}, 60_000);

/** A directory entry as the API returns it, defaults filled by the contract's own rule. */
function entry(raw: RawDirectoryEntry): DirectoryEntry {
  return applyDirectoryDefaults(raw);
}

const filters = (overrides: Partial<DirectoryFilters> = {}): DirectoryFilters => ({ ...defaultFilters, ...overrides });
const ids = (list: readonly DirectoryEntry[]) => list.map((e) => e.id);

const sample = [
  entry({
    id: 'a',
    name: 'Velvet Records',
    email: 'demos@velvet.example',
    genres: ['techno', 'minimal'],
    location: 'Berlin, Germany',
    description: 'Dark warehouse techno.',
    is_featured: true,
  }),
  entry({
    id: 'b',
    name: 'DJ Amber',
    email: 'amber@dj.example',
    genres: 'House, Deep House',
    location: 'unknown',
    contact_type: 'DJ',
    description: 'Plays VELVET grooves.',
  }),
  entry({ id: 'c', name: 'Copper Tone', email: 'a-and-r@copper.example', genres: ['trance'], location: '', description: 'Uplifting trance label.' }),
  entry({ id: 'd', name: 'Hollow Sounds', email: null, genres: ['techno'], location: 'Lisbon', contact_type: 'dj', description: null }),
  entry({ id: 'e', name: 'Static Lab', email: 'hello@static.example', genres: [], location: 'Unknown Location', submission_guidelines: 'techno only' }),
];

describe('LabelFinder filter rules', () => {
  it('searches name, email and description case-insensitively, and nothing else', () => {
    expect(ids(filterEntries(sample, filters({ search: 'velvet' })))).toEqual(['a', 'b']);
    expect(ids(filterEntries(sample, filters({ search: '  COPPER.example ' })))).toEqual(['c']);
    expect(ids(filterEntries(sample, filters({ search: 'uplifting' })))).toEqual(['c']);
    // Location and submission guidelines are not searched.
    expect(ids(filterEntries(sample, filters({ search: 'berlin' })))).toEqual([]);
    expect(ids(filterEntries(sample, filters({ search: 'techno only' })))).toEqual([]);
    expect(ids(filterEntries(sample, filters({ search: '   ' })))).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('keeps the selected types (none selected keeps none) and any of the selected genres', () => {
    expect(ids(filterEntries(sample, filters({ types: ['DJ'] })))).toEqual(['b', 'd']);
    expect(ids(filterEntries(sample, filters({ types: [] })))).toEqual([]);
    expect(ids(filterEntries(sample, filters({ genres: ['techno'] })))).toEqual(['a', 'd']);
    expect(ids(filterEntries(sample, filters({ genres: ['trance', 'deep-house'] })))).toEqual(['b', 'c']);
    expect(ids(filterEntries(sample, filters({ genres: ['techno'], types: ['Label'] })))).toEqual(['a']);
  });

  it('location filter drops blank, unknown and the Unknown Location default', () => {
    expect(ids(filterEntries(sample, filters({ withLocationOnly: true })))).toEqual(['a', 'd']);
    const odd = [entry({ id: 'x', location: '  UNKNOWN ' }), entry({ id: 'y', location: 'unknown location' }), entry({ id: 'z', location: 'Unknownville' })];
    expect(ids(filterEntries(odd, filters({ withLocationOnly: true })))).toEqual(['z']);
  });

  it('counts each type and genre over what the other filters keep, genres in option order and only those present', () => {
    expect(typeCounts(sample, defaultFilters)).toEqual([
      { value: 'Label', count: 3 },
      { value: 'DJ', count: 2 },
    ]);
    expect(genreCounts(sample, defaultFilters)).toEqual([
      { value: 'house', count: 1 },
      { value: 'techno', count: 2 },
      { value: 'trance', count: 1 },
      { value: 'deep-house', count: 1 },
      { value: 'minimal', count: 1 },
    ]);
    // The type filter narrows the genre counts but not the type counts; and the other way round.
    const labelsOnly = filters({ types: ['Label'], genres: ['techno'] });
    expect(typeCounts(sample, labelsOnly)).toEqual([
      { value: 'Label', count: 1 },
      { value: 'DJ', count: 1 },
    ]);
    expect(genreCounts(sample, labelsOnly).find((c) => c.value === 'techno')).toEqual({ value: 'techno', count: 1 });
    expect(genreCounts(sample, labelsOnly).find((c) => c.value === 'house')).toEqual({ value: 'house', count: 0 });
    expect(genreCounts(sample, filters({ withLocationOnly: true, search: 'velvet' }))).toContainEqual({ value: 'minimal', count: 1 });
  });

  it('splits featured from the rest, pages with clamping, and knows which entries have an email', () => {
    const { featured, others } = splitFeatured(sample);
    expect(ids(featured)).toEqual(['a']);
    expect(ids(others)).toEqual(['b', 'c', 'd', 'e']);
    expect(pageOf([1, 2, 3, 4, 5], 2, 2)).toEqual({ items: [3, 4], currentPage: 2, pagesCount: 3 });
    expect(pageOf([1, 2, 3, 4, 5], 9, 2)).toEqual({ items: [5], currentPage: 3, pagesCount: 3 });
    expect(pageOf([], 1, 2)).toEqual({ items: [], currentPage: 1, pagesCount: 1 });
    expect(sample.map((e) => entryState(e, new Set(), new Set()))).toEqual(['addable', 'addable', 'addable', 'no-email', 'addable']);
    expect(sample[3]!.email).toBe('No email');
  });

  // Such entries were stored before imports refused them.
  it('treats an email holding an invisible character as no address, and says why on the card', () => {
    const hidden = entry({ id: 'z', name: 'Hidden Space', email: 'a\u200b@labels.example' });
    expect(entryState(hidden, new Set(), new Set())).toBe('no-email');
    expect(cannotAddMessage(hidden)).toBe(
      'The email address of Hidden Space contains an invisible or control character, so it cannot be added to your contacts.',
    );
    expect(cannotAddMessage(entry({ id: 'n', name: 'Silent', email: null }))).toBe(directoryMessages.noEmail('Silent'));
  });
});

describe('LabelFinder tier rules', () => {
  const free = (used: number): DirectoryAllowance => ({ used, limit: 5 });
  const paid = (used: number): DirectoryAllowance => ({ used, limit: 1000 });
  const upgrade = { label: 'Upgrade', href: '/dashboard/subscription' };

  it('refuses a selection larger than what is left, and anything at the limit, before any request', () => {
    expect(refusalBeforeAdd(3, free(2))).toBeNull();
    expect(refusalBeforeAdd(4, free(2))).toEqual({ type: 'warning', title: directoryMessages.onlyNMore(3), action: upgrade });
    expect(directoryMessages.onlyNMore(3)).toBe('You can only add 3 more contacts. Please select fewer contacts or upgrade to Premium.');
    expect(refusalBeforeAdd(1, free(5))).toEqual({ type: 'warning', title: directoryMessages.freeLimitReached, action: upgrade });
    expect(refusalBeforeAdd(1, free(7))).toEqual({ type: 'warning', title: directoryMessages.freeLimitReached, action: upgrade });
    // A paid plan has no bigger plan to go to: same refusals, no Upgrade.
    expect(refusalBeforeAdd(1, paid(1000))).toEqual({ type: 'warning', title: directoryMessages.paidLimitReached(1000) });
    expect(refusalBeforeAdd(11, paid(990))).toEqual({ type: 'warning', title: directoryMessages.onlyNMore(10) });
    expect(refusalBeforeAdd(10, paid(990))).toBeNull();
  });

  it('maps failures: the server limit like the local refusal, 409 per entry, 401, anything else', () => {
    const limit = new ApiError(403, directoryMessages.onlyNMore(1), undefined, DIRECTORY_LIMIT_CODE);
    expect(addFailureNotice(limit, free(0))).toEqual({ type: 'warning', title: directoryMessages.onlyNMore(1), action: upgrade });
    expect(addFailureNotice(new ApiError(409, 'x'), free(0), { name: 'Velvet' })).toEqual({ type: 'info', title: 'Velvet is already in your contacts.' });
    expect(addFailureNotice(new ApiError(401, 'x'), free(0))).toEqual({ type: 'error', title: 'Please log in to add contacts.' });
    expect(addFailureNotice(new ApiError(500, 'Database unavailable'), free(0), { name: 'V' })).toEqual({
      type: 'error',
      title: 'Failed to add contact. Please try again.',
      message: 'Database unavailable',
    });
    // A 403 without the code is not a limit; a bulk failure has the bulk text.
    expect(addFailureNotice(new ApiError(403, 'Forbidden'), free(0))).toEqual({
      type: 'error',
      title: 'Failed to add contacts. Please try again.',
      message: 'Forbidden',
    });
    expect(bulkAddSummary(3, 2)).toBe('3 contacts added, 2 already in your contacts (skipped).');
    expect(UPGRADE_HREF).toBe('/dashboard/subscription');
  });
});

// ---------------------------------------------------------------------------------------------------
// The page against an in-memory API with the contract of schema/api/directory.ts

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

function gate() {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

function contactFor(e: DirectoryEntry): Contact {
  return {
    id: `c-${e.id}`,
    name: e.name,
    email: e.email,
    label_name: e.name,
    contact_type: e.contact_type,
    position: e.contact_type === 'DJ' ? 'DJ' : 'A&R Manager',
    genre: e.genres.map((genre) => genreLabels[genre]).join(', ') || null,
    website_url: e.website_url,
    notes: e.description,
    genre_focus: e.genres.join(', ') || null,
    time_zone: null,
    created_at: '2025-01-01T00:00:00.000Z',
  };
}

/**
 * GET /api/directory and POST /api/directory/contacts as the contract says: entries already in the
 * user's contacts are skipped as duplicates (a single one is a 409), more new ones than the allowance
 * leaves are a 403 directory_limit with nothing added. `holds` makes the next POSTs wait for a gate.
 */
function fakeServer(entries: DirectoryEntry[], allowance: DirectoryAllowance, { contacts = [] as string[] } = {}) {
  const state = { allowance: { ...allowance }, contacts: new Set(contacts), failList: null as number | null, failAdd: null as number | null };
  const holds: Promise<void>[] = [];
  /** A 5xx as the API answers it (API Gateway's own for a 503). */
  const failure = (status: number) => json({ message: status === 503 ? gatewayMessages.serviceUnavailable : apiMessages.internalError }, status);
  const fetchImpl = vi.fn<typeof fetch>(async (input, init) => {
    const url = input as string;
    const method = init?.method ?? 'GET';
    if (method === 'GET' && url === '/api/directory') {
      if (state.failList) return failure(state.failList);
      return json({ entries, allowance: state.allowance, in_contacts: [...state.contacts] });
    }
    if (method === 'POST' && url === '/api/directory/contacts') {
      const hold = holds.shift();
      if (hold) await hold;
      if (state.failAdd) return failure(state.failAdd);
      const { entry_ids } = JSON.parse(init?.body as string) as { entry_ids: string[] };
      const wanted = entry_ids.map((id) => entries.find((e) => e.id === id));
      if (wanted.some((e) => !e)) return json({ message: directoryMessages.unknownEntries }, 404);
      const found = wanted as DirectoryEntry[];
      const duplicates = found.filter((e) => state.contacts.has(e.id));
      const fresh = found.filter((e) => !state.contacts.has(e.id));
      if (found.length === 1 && duplicates.length === 1) return json({ message: directoryMessages.alreadyInContacts(found[0]!.name) }, 409);
      const remaining = Math.max(0, state.allowance.limit - state.allowance.used);
      if (fresh.length > remaining) {
        const message = remaining === 0 ? directoryMessages.freeLimitReached : directoryMessages.onlyNMore(remaining);
        return json({ message, code: DIRECTORY_LIMIT_CODE }, 403);
      }
      for (const e of fresh) state.contacts.add(e.id);
      state.allowance = { ...state.allowance, used: state.allowance.used + fresh.length };
      return json({ added: fresh.map(contactFor), duplicates: duplicates.map((e) => ({ id: e.id, name: e.name })), allowance: state.allowance });
    }
    return json({ message: gatewayMessages.notFound }, 404);
  });
  const posts = () =>
    fetchImpl.mock.calls
      .filter(([, init]) => init?.method === 'POST')
      .map(([, init]) => (JSON.parse(init?.body as string) as { entry_ids: string[] }).entry_ids);
  return { state, holds, fetchImpl, posts };
}

type Server = ReturnType<typeof fakeServer>;

async function renderPage(server: Server, { tier = 'free' }: { tier?: 'free' | 'pro' } = {}) {
  const api = createApiClient(() => Promise.resolve('id-token'), server.fetchImpl);
  const refreshProfile = vi.fn(async () => {});
  const auth = makeFakeAuth({ user: testUser, profile: makeProfile({ tier }), api, refreshProfile });
  renderApp('/dashboard/labelfinder', { auth });
  await screen.findByRole('heading', { name: 'LabelFinder', level: 1 });
  return { refreshProfile };
}

const wrapper = () => createWrapper();
/** The cards section (Featured Contacts, All Contacts) whose heading is `title`. */
function section(title: string) {
  const found = wrapper()
    .findAllCards()
    .find((cards) => cards.findHeader()?.getElement().textContent.startsWith(title));
  return found ?? null;
}
const namesIn = (title: string) =>
  section(title)
    ?.findItems()
    .map((item) => item.findCardHeader()?.getElement().textContent ?? '') ?? [];
/** The card of the entry called `name`. */
function card(name: string): HTMLElement {
  const found = wrapper()
    .findAllCards()
    .flatMap((cards) => cards.findItems())
    .find((item) => item.findCardHeader()?.getElement().textContent === name);
  if (!found) throw new Error(`no card for ${name}`);
  return found.getElement();
}
const checkbox = (name: string | RegExp) => screen.getByRole('checkbox', { name });
/** The bulk-add dialog while it is open (by name: other dialogs may be on the page too). */
const bulkDialog = () => screen.queryByRole('dialog', { name: /^(Adding contacts|Contacts added)$/ });
/** A toast (Flashbar item) whose header is `title`. */
async function toast(title: string): Promise<HTMLElement> {
  return waitFor(() => {
    const item = wrapper()
      .findFlashbar()
      ?.findItems()
      .find((i) => i.findHeader()?.getElement().textContent === title);
    if (!item) throw new Error(`no toast '${title}'`);
    return item.getElement();
  });
}

const directory = () => [
  ...sample,
  entry({
    id: 'f',
    name: 'Salt Collective',
    email: 'salt@collective.example',
    genres: ['house'],
    location: 'Leeds, UK',
    label_size: 'Boutique',
    website_url: 'salt.example',
    is_featured: 'yes',
    submission_guidelines: 'Private SoundCloud links only.',
  }),
];

describe('LabelFinder page', () => {
  it('shows the header, the allowance, the Upgrade link on the free tier, and featured apart from the rest', async () => {
    const server = fakeServer(directory(), { used: 2, limit: 5 });
    await renderPage(server);
    expect(await screen.findByText('Directory additions: 2 of 5 used')).toBeInTheDocument();
    expect(screen.getByText('Browse labels and DJs accepting demos and add them to your contacts.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Upgrade to Premium' })).toHaveAttribute('href', '/dashboard/subscription');
    expect(document.title).toBe('LabelFinder · Trackpitch');
    expect(namesIn('Featured Contacts')).toEqual(['Velvet Records', 'Salt Collective']);
    expect(namesIn('All Contacts')).toEqual(['DJ Amber', 'Copper Tone', 'Hollow Sounds', 'Static Lab']);
    expect(screen.getByText('Showing 6 of 6 contacts')).toBeInTheDocument();

    const salt = within(card('Salt Collective'));
    expect(salt.getByRole('heading', { name: 'Salt Collective', level: 3 })).toBeInTheDocument();
    expect(salt.getByText('Label')).toBeInTheDocument();
    expect(salt.getByText('Leeds, UK')).toBeInTheDocument();
    expect(salt.getByText('Boutique')).toBeInTheDocument();
    expect(within(salt.getByRole('list', { name: 'Salt Collective genres' })).getByText('House')).toBeInTheDocument();
    expect(salt.getByText('Submission guidelines')).toBeInTheDocument();
    expect(salt.getByText('Private SoundCloud links only.')).toBeInTheDocument();
    const site = salt.getByRole('link', { name: 'Visit website: Salt Collective (opens in a new tab)' });
    expect(site).toHaveAttribute('href', 'https://salt.example');
    expect(site).toHaveAttribute('target', '_blank');
    expect(site.getAttribute('rel')).toContain('noopener');
    expect(salt.getByRole('checkbox', { name: 'Select Salt Collective' })).toBeInTheDocument();

    // The defaults of spec §3 for an entry that has almost nothing.
    const hollow = within(card('Hollow Sounds'));
    expect(hollow.getByText('No description available')).toBeInTheDocument();
    expect(hollow.getByText('No guidelines provided')).toBeInTheDocument();
    expect(hollow.getByText('Independent')).toBeInTheDocument();
    expect(hollow.getByText('DJ')).toBeInTheDocument();
    // No email: cannot be added or selected.
    expect(hollow.getByRole('button', { name: 'Add to Contacts: Hollow Sounds' })).toHaveAttribute('aria-disabled', 'true');
    expect(hollow.getByRole('checkbox', { name: 'Select Hollow Sounds' })).toBeDisabled();
  });

  it('links a website only over http(s): a bare domain as https, a javascript: or data: one not at all', async () => {
    const sites = [
      entry({ id: 'w1', name: 'Upper Case', email: 'u@labels.example', website_url: 'HTTPS://Upper.example/Demos' }),
      entry({ id: 'w2', name: 'Bare Domain', email: 'b@labels.example', website_url: 'bare.example:8080/x' }),
      entry({ id: 'w3', name: 'Script Site', email: 's@labels.example', website_url: 'javascript:alert(1)//x.com' }),
      entry({ id: 'w4', name: 'Data Site', email: 'd@labels.example', website_url: 'data:text/html,<b>x</b>.com' }),
      entry({ id: 'w5', name: 'Posing Site', email: 'p@labels.example', website_url: 'https://upper.example@evil.example' }),
    ];
    await renderPage(fakeServer(sites, { used: 0, limit: 5 }));
    await screen.findByText('Showing 5 of 5 contacts');
    expect(within(card('Upper Case')).getByRole('link', { name: 'Visit website: Upper Case (opens in a new tab)' })).toHaveAttribute(
      'href',
      'https://Upper.example/Demos',
    );
    expect(within(card('Bare Domain')).getByRole('link', { name: 'Visit website: Bare Domain (opens in a new tab)' })).toHaveAttribute(
      'href',
      'https://bare.example:8080/x',
    );
    for (const name of ['Script Site', 'Data Site', 'Posing Site']) {
      expect(within(card(name)).queryByRole('link'), name).toBeNull();
      expect(within(card(name)).getByText('No website')).toBeInTheDocument();
    }
  });

  it('has no Upgrade link on a paid plan', async () => {
    await renderPage(fakeServer(directory(), { used: 0, limit: 1000 }), { tier: 'pro' });
    expect(await screen.findByText('Directory additions: 0 of 1000 used')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Upgrade to Premium' })).not.toBeInTheDocument();
  });

  it('filters by search, type, genre and location, with counts, and says when nothing matches', async () => {
    const user = userEvent.setup();
    await renderPage(fakeServer(directory(), { used: 0, limit: 5 }));
    await screen.findByText('Showing 6 of 6 contacts');
    expect(checkbox('Label (4)')).toBeChecked();
    expect(checkbox('DJ (2)')).toBeChecked();
    expect(checkbox('Techno (2)')).not.toBeChecked();
    expect(checkbox('House (2)')).toBeInTheDocument();

    await user.click(checkbox('DJ (2)'));
    expect(namesIn('All Contacts')).toEqual(['Copper Tone', 'Static Lab']);
    expect(checkbox('Techno (1)')).toBeInTheDocument();
    await user.click(checkbox('DJ (2)'));

    await user.click(checkbox('Techno (2)'));
    expect(namesIn('Featured Contacts')).toEqual(['Velvet Records']);
    expect(namesIn('All Contacts')).toEqual(['Hollow Sounds']);
    expect(screen.getByText('Showing 2 of 6 contacts')).toBeInTheDocument();
    expect(checkbox('Label (1)')).toBeInTheDocument();
    await user.click(checkbox('Techno (2)'));

    await user.click(checkbox('Only contacts with location info'));
    expect(namesIn('Featured Contacts')).toEqual(['Velvet Records', 'Salt Collective']);
    expect(namesIn('All Contacts')).toEqual(['Hollow Sounds']);
    await user.click(checkbox('Only contacts with location info'));

    await user.type(screen.getByRole('searchbox', { name: 'Search contacts by name, email or description' }), 'VELVET');
    expect(namesIn('Featured Contacts')).toEqual(['Velvet Records']);
    expect(namesIn('All Contacts')).toEqual(['DJ Amber']);

    await user.type(screen.getByRole('searchbox', { name: 'Search contacts by name, email or description' }), ' nothing like this');
    expect(await screen.findByRole('heading', { name: 'No contacts found' })).toBeInTheDocument();
    expect(section('Featured Contacts')).toBeNull();
    expect(section('All Contacts')).toBeNull();
    // Clear filters from the empty state brings everything back.
    const empty = screen.getByRole('heading', { name: 'No contacts found' }).parentElement!.parentElement!;
    await user.click(within(empty).getByRole('button', { name: 'Clear filters' }));
    expect(screen.getByText('Showing 6 of 6 contacts')).toBeInTheDocument();
  }, 30_000);

  it('adds one entry: success toast, Added, allowance and profile refreshed', async () => {
    const user = userEvent.setup();
    const server = fakeServer(directory(), { used: 2, limit: 5 });
    const { refreshProfile } = await renderPage(server);
    await screen.findByText('Directory additions: 2 of 5 used');
    await user.click(within(card('Copper Tone')).getByRole('button', { name: 'Add to Contacts: Copper Tone' }));
    const added = await toast('Contact added!');
    expect(added).toHaveTextContent('Copper Tone has been added to your contacts.');
    expect(server.posts()).toEqual([['c']]);
    expect((server.fetchImpl.mock.calls[1]![1]?.headers as Record<string, string>).Authorization).toBe('Bearer id-token');
    expect(within(card('Copper Tone')).getByRole('button', { name: 'Added' })).toHaveAttribute('aria-disabled', 'true');
    expect(within(card('Copper Tone')).getByRole('checkbox', { name: 'Select Copper Tone' })).toBeDisabled();
    expect(screen.getByText('Directory additions: 3 of 5 used')).toBeInTheDocument();
    expect(refreshProfile).toHaveBeenCalled();
  });

  it('shows the entries the server says are already contacts as Added, with no checkbox to select them', async () => {
    const server = fakeServer(directory(), { used: 1, limit: 5 }, { contacts: ['a'] });
    await renderPage(server);
    const velvet = await waitFor(() => card('Velvet Records'));
    expect(within(velvet).getByRole('button', { name: 'Added' })).toHaveAttribute('aria-disabled', 'true');
    expect(within(velvet).getByRole('checkbox', { name: 'Select Velvet Records' })).toBeDisabled();
    expect(within(card('Copper Tone')).getByRole('button', { name: 'Add to Contacts: Copper Tone' })).not.toHaveAttribute('aria-disabled');
  });

  it('says "<name> is already in your contacts." on a 409 and shows the entry as added', async () => {
    const user = userEvent.setup();
    const server = fakeServer(directory(), { used: 0, limit: 5 });
    await renderPage(server);
    // Added in another tab after this page loaded.
    server.state.contacts.add('a');
    await user.click(within(await waitFor(() => card('Velvet Records'))).getByRole('button', { name: 'Add to Contacts: Velvet Records' }));
    await toast('Velvet Records is already in your contacts.');
    expect(within(card('Velvet Records')).getByRole('button', { name: 'Added' })).toBeInTheDocument();
    expect(screen.getByText('Directory additions: 0 of 5 used')).toBeInTheDocument();
  });

  it('says "Failed to add contact. Please try again." when the add fails otherwise, and the entry stays addable', async () => {
    const user = userEvent.setup();
    const server = fakeServer(directory(), { used: 0, limit: 5 });
    server.state.failAdd = 500;
    await renderPage(server);
    await user.click(within(await waitFor(() => card('Static Lab'))).getByRole('button', { name: 'Add to Contacts: Static Lab' }));
    expect(await toast('Failed to add contact. Please try again.')).toHaveTextContent(apiMessages.internalError);
    expect(within(card('Static Lab')).getByRole('button', { name: 'Add to Contacts: Static Lab' })).not.toHaveAttribute('aria-disabled');
  });

  it('at the free limit refuses a single add without a request, with an Upgrade action', async () => {
    const user = userEvent.setup();
    const server = fakeServer(directory(), { used: 5, limit: 5 });
    await renderPage(server);
    await user.click(within(await waitFor(() => card('Static Lab'))).getByRole('button', { name: 'Add to Contacts: Static Lab' }));
    const notice = await toast("You've reached the free limit (5 contacts). Upgrade to Premium to access all 743+ industry contacts!");
    expect(within(notice).getByRole('link', { name: 'Upgrade' })).toHaveAttribute('href', '/dashboard/subscription');
    expect(server.posts()).toEqual([]);
  });

  it('bulk add: Select All over the filtered entries, chunks of 25 with progress, then the summary', async () => {
    const user = userEvent.setup();
    const many = Array.from({ length: 60 }, (_, i) =>
      entry({
        id: `m${String(i).padStart(2, '0')}`,
        name: `Label ${String(i).padStart(2, '0')}`,
        email: `l${i}@labels.example`,
        genres: i % 2 ? ['techno'] : ['house'],
      }),
    );
    const server = fakeServer([...many, ...directory()], { used: 0, limit: 1000 });
    const { refreshProfile } = await renderPage(server, { tier: 'pro' });
    await screen.findByText('Showing 66 of 66 contacts');
    // Two become contacts in another tab after the page loaded: the server skips them as duplicates.
    server.state.contacts.add('m03');
    server.state.contacts.add('m40');
    const addSelected = screen.getByRole('button', { name: 'Add Selected to Contacts' });
    expect(addSelected).toHaveAttribute('aria-disabled', 'true');

    // Select All keeps to the filtered entries, across pages, and skips the entry without email.
    await user.click(screen.getByRole('searchbox', { name: /Search contacts/ }));
    await user.paste('labels.example');
    expect(screen.getByText('Showing 60 of 66 contacts')).toBeInTheDocument();
    expect(namesIn('All Contacts')).toHaveLength(CARDS_PAGE_SIZE);
    await user.click(checkbox('Select All'));
    expect(screen.getByText('60 selected')).toBeInTheDocument();
    expect(checkbox('Select Label 00')).toBeChecked();
    expect(checkbox('Select Label 23')).toBeChecked();

    const first = gate();
    const second = gate();
    server.holds.push(first.promise, second.promise);
    await user.click(addSelected);
    const running = await screen.findByRole('dialog', { name: 'Adding contacts' });
    const bar = () => within(running).getByRole<HTMLProgressElement>('progressbar');
    expect(bar().value).toBe(0);
    expect(running).toHaveTextContent('Adding contacts... 0 of 60');
    await act(() => {
      first.open();
      return Promise.resolve();
    });
    await waitFor(() => expect(running).toHaveTextContent('Adding contacts... 25 of 60'));
    expect(bar().value).toBe(42);
    await act(() => {
      second.open();
      return Promise.resolve();
    });
    const done = await screen.findByRole('dialog', { name: 'Contacts added' });
    expect(done).toHaveTextContent('58 contacts added, 2 already in your contacts (skipped).');

    const sent = server.posts();
    expect(sent.map((chunk) => chunk.length)).toEqual([DIRECTORY_ADD_CHUNK, DIRECTORY_ADD_CHUNK, 10]);
    expect(sent.flat()).toEqual(ids(many));
    expect(DIRECTORY_ADD_CHUNK).toBe(25);
    await user.click(within(done).getByRole('button', { name: 'Close' }));
    expect(bulkDialog()).toBeNull();
    expect(screen.getByText('Directory additions: 58 of 1000 used')).toBeInTheDocument();
    expect(screen.getByText('0 selected')).toBeInTheDocument();
    expect(within(card('Label 00')).getByRole('button', { name: 'Added' })).toBeInTheDocument();
    expect(refreshProfile).toHaveBeenCalled();
  }, 30_000);

  it('refuses a selection larger than the allowance before any request, with an Upgrade action to the plans', async () => {
    const user = userEvent.setup();
    const server = fakeServer(directory(), { used: 2, limit: 5 });
    await renderPage(server);
    await screen.findByText('Showing 6 of 6 contacts');
    await user.click(checkbox('Select All'));
    expect(screen.getByText('5 selected')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Add Selected to Contacts' }));
    const notice = await toast('You can only add 3 more contacts. Please select fewer contacts or upgrade to Premium.');
    expect(server.posts()).toEqual([]);
    expect(bulkDialog()).toBeNull();
    await user.click(within(notice).getByRole('link', { name: 'Upgrade' }));
    await waitFor(() => expect(currentPath()).toBe('/dashboard/subscription'));
  });

  it('shows the server refusal (403 directory_limit, another tab used the allowance) the same way', async () => {
    const user = userEvent.setup();
    const server = fakeServer(directory(), { used: 2, limit: 5 });
    await renderPage(server);
    await screen.findByText('Directory additions: 2 of 5 used');
    server.state.allowance = { used: 4, limit: 5 };
    await user.click(checkbox('Select Velvet Records'));
    await user.click(checkbox('Select Salt Collective'));
    await user.click(screen.getByRole('button', { name: 'Add Selected to Contacts' }));
    const notice = await toast('You can only add 1 more contacts. Please select fewer contacts or upgrade to Premium.');
    expect(server.posts()).toEqual([['a', 'f']]);
    expect(within(notice).getByRole('link', { name: 'Upgrade' })).toHaveAttribute('href', '/dashboard/subscription');
    // The real allowance is fetched again; nothing was marked added.
    expect(await screen.findByText('Directory additions: 4 of 5 used')).toBeInTheDocument();
    expect(within(card('Velvet Records')).getByRole('button', { name: 'Add to Contacts: Velvet Records' })).toBeInTheDocument();
    await user.click(within(notice).getByRole('link', { name: 'Upgrade' }));
    await waitFor(() => expect(currentPath()).toBe('/dashboard/subscription'));
  });

  it('says "Failed to add contacts. Please try again." when a bulk add fails', async () => {
    const user = userEvent.setup();
    const server = fakeServer(directory(), { used: 0, limit: 5 });
    server.state.failAdd = 503;
    await renderPage(server);
    await user.click(await waitFor(() => checkbox('Select Static Lab')));
    await user.click(screen.getByRole('button', { name: 'Add Selected to Contacts' }));
    await toast('Failed to add contacts. Please try again.');
    expect(bulkDialog()).toBeNull();
    expect(screen.getByText('1 selected')).toBeInTheDocument();
  });

  it('pages a large directory', async () => {
    const user = userEvent.setup();
    const many = Array.from({ length: 30 }, (_, i) => entry({ id: `p${i}`, name: `Page Label ${i}`, email: `p${i}@x.example` }));
    await renderPage(fakeServer(many, { used: 0, limit: 5 }));
    await screen.findByText('Showing 30 of 30 contacts');
    expect(namesIn('All Contacts')).toHaveLength(CARDS_PAGE_SIZE);
    await user.click(screen.getByRole('button', { name: 'All Contacts: next page' }));
    expect(namesIn('All Contacts')).toEqual(['Page Label 24', 'Page Label 25', 'Page Label 26', 'Page Label 27', 'Page Label 28', 'Page Label 29']);
  });

  it('says "Failed to load contacts. Please try again." with a Retry that loads', async () => {
    const user = userEvent.setup();
    const server = fakeServer(directory(), { used: 0, limit: 5 });
    server.state.failList = 500;
    await renderPage(server);
    const notice = await toast('Failed to load contacts. Please try again.');
    expect(screen.getByRole('button', { name: 'Reload directory' })).toBeInTheDocument();
    server.state.failList = null;
    await user.click(within(notice).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Showing 6 of 6 contacts')).toBeInTheDocument();
  });
});

// ---------------------------------------------------------------------------------------------------

function Notifier({ inputs }: { inputs: readonly NotifyInput[] }) {
  const { notify } = useNotifications();
  return <button onClick={() => inputs.forEach((input) => notify(input))}>Notify</button>;
}

function renderNotifier(...inputs: NotifyInput[]) {
  render(
    <MemoryRouter initialEntries={['/here']}>
      <NotificationsProvider>
        <Routes>
          <Route path="/here" element={<Notifier inputs={inputs} />} />
          <Route path="/dashboard/subscription" element={<h1>Plans</h1>} />
        </Routes>
      </NotificationsProvider>
    </MemoryRouter>,
  );
}

describe('notification actions', () => {
  it('renders an onClick action as a button that runs it and dismisses the notification', async () => {
    const user = userEvent.setup();
    const onClick = vi.fn();
    renderNotifier({ type: 'error', title: 'Broke', action: { label: 'Retry', onClick } });
    await user.click(screen.getByRole('button', { name: 'Notify' }));
    const item = await toast('Broke');
    await user.click(within(item).getByRole('button', { name: 'Retry' }));
    expect(onClick).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(screen.queryByText('Broke')).toBeNull());
  });

  it('follows an href action through the router', async () => {
    const user = userEvent.setup();
    renderNotifier({ type: 'warning', title: 'Limit', action: { label: 'Upgrade', href: '/dashboard/subscription' } });
    await user.click(screen.getByRole('button', { name: 'Notify' }));
    const item = await toast('Limit');
    await user.click(within(item).getByRole('link', { name: 'Upgrade' }));
    expect(await screen.findByRole('heading', { name: 'Plans' })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Limit')).toBeNull());
  });

  it('shows no action button without an action', async () => {
    const user = userEvent.setup();
    renderNotifier({ type: 'success', title: 'Saved' });
    await user.click(screen.getByRole('button', { name: 'Notify' }));
    const item = await toast('Saved');
    expect(within(item).queryByRole('link')).toBeNull();
    expect(
      within(item)
        .getAllByRole('button')
        .map((b) => b.getAttribute('aria-label')),
    ).toEqual(['Dismiss notification']);
  });

  it('keeps a notification with an action until it is used or dismissed, while others time out', async () => {
    await import('../../web/src/notifications/Toasts');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    renderNotifier({ type: 'success', title: 'Goes' }, { type: 'info', title: 'Stays', action: { label: 'Do it', onClick: () => {} } });
    await act(() => {
      screen.getByRole('button', { name: 'Notify' }).click();
      return Promise.resolve();
    });
    expect(wrapper().findFlashbar()?.findItems()).toHaveLength(2);
    await act(() => {
      vi.advanceTimersByTime(60_000);
      return Promise.resolve();
    });
    await act(() => {
      vi.advanceTimersByTime(60_000);
      return Promise.resolve();
    });
    const titles = () =>
      wrapper()
        .findFlashbar()
        ?.findItems()
        .map((item) => item.findHeader()?.getElement().textContent) ?? [];
    expect(titles()).toEqual(['Stays']);
  });
});

describe('LabelFinder demo policies (issue 28 §2)', () => {
  const basePolicy = buildDemoPolicy();
  const withPolicies = (): DirectoryEntry[] => {
    const [velvet, amber, copper, hollow, staticLab, salt] = directory();
    return [
      { ...velvet!, demo_policy: { ...basePolicy, submit_by: 'email' as const, private_streaming_only: true, unreleased_only: true, response_days: 14 } },
      { ...amber!, demo_policy: { ...basePolicy, submit_by: 'email' as const } },
      { ...copper!, demo_policy: { ...basePolicy, submit_by: 'web_form' as const, submit_url: 'https://copper.example/demos' } },
      hollow!,
      { ...staticLab!, demo_policy: { ...basePolicy, submit_by: 'platform_only' as const, submit_url: 'https://submit.example/static' } },
      salt!,
    ];
  };

  it('the rule keeps only entries whose policy takes email demos, and counts as a filter', () => {
    const entries = withPolicies();
    expect(ids(filterEntries(entries, filters({ emailDemosOnly: true })))).toEqual(['a', 'b']);
    expect(ids(filterEntries(entries, filters({ emailDemosOnly: true, types: ['DJ'] })))).toEqual(['b']);
    expect(ids(filterEntries(entries, filters()))).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
  });

  it('filters by "Accepts email demos" and shows each policy in plain words, with the page of a form-only label', async () => {
    const user = userEvent.setup();
    await renderPage(fakeServer(withPolicies(), { used: 0, limit: 5 }));
    await screen.findByText('Showing 6 of 6 contacts');

    const velvet = within(card('Velvet Records'));
    expect(velvet.getByText('Demos by email · Private streaming links only · Unreleased music only · Replies in about 14 days')).toBeInTheDocument();
    const copper = within(card('Copper Tone'));
    expect(copper.getByText('Demos through their web form only')).toBeInTheDocument();
    expect(copper.getByRole('link', { name: 'Submission page: Copper Tone (opens in a new tab)' })).toHaveAttribute('href', 'https://copper.example/demos');
    expect(within(card('Hollow Sounds')).getByText('Not listed')).toBeInTheDocument();

    const accepts = checkbox('Accepts email demos');
    expect(accepts).not.toBeChecked();
    // Keyboard: focus the box and toggle it with Space.
    accepts.focus();
    await user.keyboard(' ');
    expect(accepts).toBeChecked();
    expect(namesIn('Featured Contacts')).toEqual(['Velvet Records']);
    expect(namesIn('All Contacts')).toEqual(['DJ Amber']);
    expect(screen.getByText('Showing 2 of 6 contacts')).toBeInTheDocument();
    // With the other filters as before: the DJ type off leaves the label.
    await user.click(checkbox(/^DJ \(/));
    expect(namesIn('All Contacts')).toEqual([]);
    expect(namesIn('Featured Contacts')).toEqual(['Velvet Records']);

    await user.click(screen.getAllByRole('button', { name: 'Clear filters' })[0]!);
    expect(checkbox('Accepts email demos')).not.toBeChecked();
    expect(screen.getByText('Showing 6 of 6 contacts')).toBeInTheDocument();
  }, 30_000);
});
