import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { screen, waitFor, within } from '@testing-library/react';
import { vi } from 'vitest';
import { contactsFromImportRows } from '../../lambdas/core/contacts';
import {
  bulkDeleteSchema,
  contactImportSchema,
  contactInputSchema,
  contactListQuerySchema,
  contactMessages,
  csvContactSchema,
  normaliseEmail,
  resubscribeRequestSchema,
  type Contact,
  type Unsubscribe,
} from '../../schema/api/contacts';
import { gatewayMessages } from '../../schema/api/serverMessages';
import { sendingApiMessages, type ContactEmail } from '../../schema/api/sending';
import { createApiClient } from '../../web/src/api/client';
import { tourFlagKey } from '../../web/src/tour/tourRules';
import { buildContact } from '../fakes/builders';
import { campaignEmail } from './campaigns-fake-server';
import { makeFakeAuth, makeProfile, renderApp, testUser } from './helpers';

/**
 * An in-memory contacts API with the contract of schema/api/contacts.ts, for the web tests of the
 * Contacts page: pages of at most `limit` newest first with an opaque next_cursor, one contact per
 * email (the id is derived from the address, so an email change moves the contact to a new id), bulk
 * delete of at most 100 ids, import batches that skip known addresses, and the unsubscribed list; the
 * emails sent to a contact (its card) and their "Replied" mark, as the sending handler answers them.
 */

const BASE = Date.UTC(2025, 0, 1, 12, 0);

/** The server derives ids from the address; any injective function of it does here. */
export const idOf = (email: string) => `id-${normaliseEmail(email).replace(/[^a-z0-9]/g, '_')}`;

export function contact(i: number, overrides: Partial<Contact> = {}): Contact {
  const email = overrides.email ?? `person${i}@example.com`;
  return buildContact({ id: idOf(email), name: `Person ${i}`, email, label_name: null, created_at: new Date(BASE + i * 60_000).toISOString(), ...overrides });
}

/** `count` contacts, person1 oldest, each with a distinct address. */
export const manyContacts = (count: number) => Array.from({ length: count }, (_, i) => contact(i + 1));

export function unsubscribe(i: number, overrides: Partial<Unsubscribe> = {}): Unsubscribe {
  return {
    id: `unsub-${i}`,
    contact_name: `Gone ${i}`,
    contact_email: `gone${i}@example.com`,
    unsubscribed_at: new Date(Date.now() - i * 24 * 3600 * 1000).toISOString(),
    unsubscribe_reason: null,
    unsubscribe_reason_details: null,
    campaign_id: null,
    track_name: null,
    ...overrides,
  };
}

export const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

type Failure = { status: number; message: string } | null;

/** Another fake's routes: its answer to a request, or null when the path is not one of its. */
export type ExtraRoutes = (method: string, pathname: string, body: unknown) => Promise<Response | null>;

/** A promise the test resolves by hand, to hold a response back. */
export function gate() {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

export function fakeContactsServer(initial: Contact[] = [], unsubscribes: Unsubscribe[] = []) {
  const contacts = new Map(initial.map((c) => [c.id, c]));
  const unsubs = new Map(unsubscribes.map((u) => [u.id, u]));
  /** The emails sent to each contact id, newest first (a test fills it). */
  const sentEmails = new Map<string, ContactEmail[]>();
  let clock = BASE + 10_000_000;
  const fail: {
    list: Failure;
    /** The page number (1-based) of a list load that fails. */
    listPage: number | null;
    add: Failure;
    update: Failure;
    remove: Failure;
    /** The bulk-delete request (1-based) that fails, with its answer. */
    bulkDeleteCall: { call: number; status: number; message: string } | null;
    /**
     * The import request (1-based, in the order received) that fails, with its answer; `writtenFirst`
     * of its rows are stored before it fails (a write that dies part-way, its answer lost).
     */
    importCall: { call: number; status: number; message: string; writtenFirst?: number } | null;
    /** Addresses the import turns down as rows (a server rule the page does not know), each with this reason. */
    importRefuses: Map<string, string>;
    unsubscribes: Failure;
    resubscribe: Failure;
    contactEmails: Failure;
  } = {
    list: null,
    listPage: null,
    add: null,
    update: null,
    remove: null,
    bulkDeleteCall: null,
    importCall: null,
    importRefuses: new Map(),
    unsubscribes: null,
    resubscribe: null,
    contactEmails: null,
  };
  const hold: {
    laterPages?: Promise<void>;
    bulkDelete?: Promise<void>;
    /** Holds the answer of one import request (1-based, in the order received). */
    importCall?: { call: number; promise: Promise<void> };
    contactEmails?: Promise<void>;
  } = {};
  let bulkDeleteCalls = 0;
  let importCalls = 0;

  const sorted = () => [...contacts.values()].sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : a.id < b.id ? 1 : -1));
  const byEmail = (email: string) => [...contacts.values()].find((c) => normaliseEmail(c.email) === normaliseEmail(email));
  const now = () => new Date((clock += 1000)).toISOString();

  /** Other fakes' routes this one also serves (a contact's tracks: the pipeline fake's), asked first. */
  const also: ExtraRoutes[] = [];

  const fetchImpl = vi.fn<typeof fetch>(async (input, init) => {
    const method = init?.method ?? 'GET';
    const body: unknown = init?.body ? JSON.parse(init.body as string) : undefined;
    const { pathname, searchParams } = new URL(input as string, 'http://localhost');
    for (const routes of also) {
      const answer = await routes(method, pathname, body);
      if (answer) return answer;
    }

    if (method === 'GET' && pathname === '/api/contacts') {
      const query = contactListQuerySchema.safeParse(Object.fromEntries(searchParams));
      if (!query.success) return json({ message: query.error.issues[0]?.message ?? 'Invalid' }, 400);
      const { limit, cursor = null } = query.data;
      const list = sorted();
      const start = cursor === null ? 0 : Number(atob(cursor));
      const pageNumber = Math.floor(start / limit) + 1;
      if (fail.list && (fail.listPage === null || fail.listPage === pageNumber)) return json({ message: fail.list.message }, fail.list.status);
      if (cursor !== null) await hold.laterPages;
      const page = list.slice(start, start + limit);
      const more = start + page.length < list.length;
      return json(more ? { contacts: page, next_cursor: btoa(String(start + page.length)) } : { contacts: page });
    }

    if (method === 'POST' && pathname === '/api/contacts') {
      if (fail.add) return json({ message: fail.add.message }, fail.add.status);
      const parsed = contactInputSchema.safeParse(body);
      if (!parsed.success) return json({ message: parsed.error.issues[0]?.message ?? 'Invalid' }, 400);
      if (byEmail(parsed.data.email)) return json({ message: contactMessages.duplicateEmail }, 409);
      const created: Contact = { ...parsed.data, id: idOf(parsed.data.email), genre_focus: null, created_at: now() };
      contacts.set(created.id, created);
      return json(created, 201);
    }

    if (method === 'POST' && pathname === '/api/contacts/bulk-delete') {
      bulkDeleteCalls += 1;
      const parsed = bulkDeleteSchema.safeParse(body);
      if (!parsed.success) return json({ message: parsed.error.issues[0]?.message ?? 'Invalid' }, 400);
      const { ids } = parsed.data;
      if (fail.bulkDeleteCall?.call === bulkDeleteCalls) return json({ message: fail.bulkDeleteCall.message }, fail.bulkDeleteCall.status);
      await hold.bulkDelete;
      const deleted = ids.filter((id) => contacts.delete(id));
      if (deleted.length === 0) return json({ message: contactMessages.noneFound }, 404);
      return json({ deleted });
    }

    if (method === 'POST' && pathname === '/api/contacts/import') {
      importCalls += 1;
      const call = importCalls;
      const parsed = contactImportSchema.safeParse(body);
      if (!parsed.success) return json({ message: parsed.error.issues[0]?.message ?? 'Invalid' }, 400);
      if (hold.importCall?.call === call) await hold.importCall.promise;
      const failure = fail.importCall?.call === call ? fail.importCall : null;
      // The route's own row check: good rows imported, bad ones answered in `rejected`.
      const checked = contactsFromImportRows(parsed.data.contacts, csvContactSchema);
      const refused = parsed.data.contacts.flatMap((row, index) => {
        const reason = fail.importRefuses.get((row as { email?: string }).email ?? '');
        return reason === undefined ? [] : [{ row: index + 1, reason }];
      });
      const valid = checked.contacts.filter((contact) => !fail.importRefuses.has(contact.email));
      const rejected = [...checked.rejected, ...refused].sort((a, b) => a.row - b.row);
      const rows = failure ? valid.slice(0, failure.writtenFirst ?? 0) : valid;
      const created: Contact[] = [];
      let skipped = 0;
      for (const row of rows) {
        if (byEmail(row.email)) {
          skipped += 1;
          continue;
        }
        const made: Contact = { ...row, id: idOf(row.email), created_at: now() };
        contacts.set(made.id, made);
        created.push(made);
      }
      if (failure) return json({ message: failure.message }, failure.status);
      return json({ created, skipped, rejected });
    }

    const emailsOf = /^\/api\/contacts\/([^/]+)\/emails$/.exec(pathname);
    if (emailsOf && method === 'GET') {
      if (fail.contactEmails) return json({ message: fail.contactEmails.message }, fail.contactEmails.status);
      await hold.contactEmails;
      const id = decodeURIComponent(emailsOf[1]!);
      if (!contacts.has(id)) return json({ message: contactMessages.notFound }, 404);
      return json({ emails: sentEmails.get(id) ?? [] });
    }
    const replied = /^\/api\/campaigns\/([^/]+)\/emails\/(\d+)\/replied$/.exec(pathname);
    if (replied && (method === 'PUT' || method === 'DELETE')) {
      const [campaignId, position] = [decodeURIComponent(replied[1]!), Number(replied[2])];
      for (const [contactId, list] of sentEmails) {
        const found = list.find((email) => email.campaign_id === campaignId && email.position === position);
        if (!found) continue;
        const marked = { ...found, replied_at: method === 'PUT' ? (found.replied_at ?? now()) : null };
        sentEmails.set(
          contactId,
          list.map((email) => (email === found ? marked : email)),
        );
        // The sending handler answers the campaign's email (the card reads its mark).
        const {
          html: _html,
          text: _text,
          ...answered
        } = campaignEmail(position, {
          subject: found.subject,
          sent_at: found.sent_at,
          answer: found.answer,
          replied_at: marked.replied_at,
        });
        return json(answered);
      }
      return json({ message: sendingApiMessages.emailNotFound }, 404);
    }

    const one = /^\/api\/contacts\/([^/]+)$/.exec(pathname);
    if (one && method === 'PUT') {
      if (fail.update) return json({ message: fail.update.message }, fail.update.status);
      const id = decodeURIComponent(one[1]!);
      const current = contacts.get(id);
      if (!current) return json({ message: contactMessages.notFound }, 404);
      const parsed = contactInputSchema.safeParse(body);
      if (!parsed.success) return json({ message: parsed.error.issues[0]?.message ?? 'Invalid' }, 400);
      const other = byEmail(parsed.data.email);
      if (other && other.id !== id) return json({ message: contactMessages.duplicateEmail }, 409);
      const updated: Contact = { ...current, ...parsed.data, id: idOf(parsed.data.email) };
      contacts.delete(id);
      contacts.set(updated.id, updated);
      return json(updated);
    }
    if (one && method === 'DELETE') {
      if (fail.remove) return json({ message: fail.remove.message }, fail.remove.status);
      if (!contacts.delete(decodeURIComponent(one[1]!))) return json({ message: contactMessages.notFound }, 404);
      return new Response(null, { status: 204 });
    }

    if (method === 'GET' && pathname === '/api/unsubscribes/count') return json({ count: unsubs.size });
    if (method === 'GET' && pathname === '/api/unsubscribes') {
      if (fail.unsubscribes) return json({ message: fail.unsubscribes.message }, fail.unsubscribes.status);
      return json({ unsubscribes: [...unsubs.values()].sort((a, b) => (a.unsubscribed_at < b.unsubscribed_at ? 1 : -1)) });
    }
    const unsub = /^\/api\/unsubscribes\/([^/]+)$/.exec(pathname);
    if (unsub && method === 'DELETE') {
      if (fail.resubscribe) return json({ message: fail.resubscribe.message }, fail.resubscribe.status);
      if (!resubscribeRequestSchema.safeParse(body).success) return json({ message: contactMessages.resubscribeNeedsRequest }, 400);
      if (!unsubs.delete(decodeURIComponent(unsub[1]!))) return json({ message: contactMessages.unsubscribeNotFound }, 404);
      return new Response(null, { status: 204 });
    }
    return json({ message: gatewayMessages.notFound }, 404);
  });

  const calls = (method: string, path: string) =>
    fetchImpl.mock.calls.filter(([url, init]) => (init?.method ?? 'GET') === method && new URL(url as string, 'http://localhost').pathname === path);
  const bodies = (method: string, path: string) => calls(method, path).map(([, init]) => JSON.parse(init?.body as string) as unknown);

  return { contacts, unsubs, sentEmails, fail, hold, also, fetchImpl, calls, bodies };
}

export type ContactsServer = ReturnType<typeof fakeContactsServer>;

export function renderContacts(server: ContactsServer) {
  // A stored flag keeps the guided tour from opening over the page.
  window.localStorage.setItem(tourFlagKey(testUser.userId), 'true');
  const api = createApiClient(() => Promise.resolve('user-id-token'), server.fetchImpl);
  return renderApp('/dashboard/contacts', { auth: makeFakeAuth({ user: testUser, profile: makeProfile(), api }) });
}

/** Renders the Contacts page and finds the card of the contact with `email`, for queries within it. */
export async function openContactCard(server: ContactsServer, email: string) {
  renderContacts(server);
  await screen.findByRole('heading', { name: 'Contacts', level: 1 });
  const card = await waitFor(() => {
    const found = createWrapper()
      .findCards()!
      .findItems()
      .map((item) => item.getElement())
      .find((element) => within(element).queryByText(email, { exact: true }));
    if (!found) throw new Error(`no card for ${email}`);
    return found;
  });
  return within(card);
}
