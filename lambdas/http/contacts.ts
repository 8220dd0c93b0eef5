/**
 * The signed-in user's contacts (list, add, edit, delete, bulk delete, CSV import batches) and
 * unsubscribed list (list, count, resubscribe). The user id only ever comes from the verified token,
 * so another user's contact id is simply not found under the caller's partition: 404. Logs name
 * contact ids and counts, never email addresses.
 */
import type { z } from 'zod';
import {
  bulkDeleteSchema,
  contactImportSchema,
  contactInputSchema,
  contactListQuerySchema,
  csvContactSchema,
  resubscribeRequestSchema,
  contactMessages,
  type BulkDeleteResult,
  type Contact,
  type ContactImportResult,
  type ContactInput,
  type ContactListPage,
  type unsubscribeCountSchema,
  type unsubscribeListSchema,
} from '../../schema/api/contacts';
import { contactsFromImportRows, isAddressId } from '../core/contacts';
import type { Clock, ContactStore, UnsubscribeStore } from '../ports';
import { readServerConfig, type ServerConfig } from '../composition/config';
import { contactsDeps } from '../composition/contacts';
import { HttpError, httpApi, json, knownId, lazyHandler, logger, noContent, parse, parseForm } from './api';

export interface ContactsDeps {
  contacts: ContactStore;
  unsubscribes: UnsubscribeStore;
  clock: Clock;
}

/**
 * The add/edit form's rules, checked again on the server. A missing, null or blank name or email
 * gives the spec's one message (§5); other problems name the field.
 */
const parseContactInput = (body: unknown): ContactInput =>
  parseForm(contactInputSchema, body, {
    required: [
      { path: ['name'], message: contactMessages.nameAndEmailRequired },
      { path: ['email'], message: contactMessages.nameAndEmailRequired },
    ],
  });

/** The resubscribe confirmation's refusal is answered in its own words. */
const resubscribeTexts: ReadonlySet<string> = new Set([contactMessages.resubscribeNeedsRequest]);

export const makeHandler = ({ contacts, unsubscribes, clock }: ContactsDeps) =>
  httpApi('contacts', {
    // One page per request, newest first; the web follows next_cursor until it is absent.
    'GET /api/contacts': async ({ identity, query }) => {
      const { limit, cursor } = parse(contactListQuerySchema, query);
      const page = await contacts.list(identity.userId, { limit, cursor });
      if (page.outcome === 'invalid_cursor') throw new HttpError(400, contactMessages.invalidCursor);
      const body: ContactListPage = { contacts: page.contacts };
      if (page.nextCursor !== undefined) body.next_cursor = page.nextCursor;
      return json(200, body);
    },

    'POST /api/contacts': async ({ identity, body }) => {
      const input = parseContactInput(body);
      const result = await contacts.add(identity.userId, { ...input, genre_focus: null }, clock.now());
      if (result.outcome !== 'saved') throw new HttpError(409, contactMessages.duplicateEmail);
      logger.info('Contact added', { contactId: result.contact.id });
      return json(201, result.contact satisfies Contact);
    },

    /**
     * One batch of CSV rows (the web sends 100 per request). Good rows are imported and bad ones answered
     * in `rejected` (position and reason), never the whole batch refused for one row. Rows whose address
     * the user already has, or that repeat an address of the same batch, are skipped and counted. No
     * transaction: the contact's key is its address, so re-sending a batch after a failure creates only
     * what is missing.
     */
    'POST /api/contacts/import': async ({ identity, body }) => {
      const { contacts: rows } = parse(contactImportSchema, body);
      const { contacts: valid, rejected } = contactsFromImportRows(rows, csvContactSchema);
      const result = await contacts.importMany(identity.userId, valid, clock.now());
      logger.info('Contacts imported', { rows: rows.length, created: result.created.length, skipped: result.skipped, rejected: rejected.length });
      return json(200, { ...result, rejected } satisfies ContactImportResult);
    },

    'POST /api/contacts/bulk-delete': async ({ identity, body }) => {
      const { ids } = parse(bulkDeleteSchema, body);
      const deleted = await contacts.removeMany(identity.userId, ids.filter(isAddressId));
      if (deleted.length === 0) throw new HttpError(404, contactMessages.noneFound);
      logger.info('Contacts deleted', { requested: ids.length, deleted: deleted.length });
      return json(200, { deleted } satisfies BulkDeleteResult);
    },

    'GET /api/contacts/{id}': async ({ identity, params }) => {
      const contact = await contacts.get(identity.userId, knownId(params.id, isAddressId, contactMessages.notFound));
      if (!contact) throw new HttpError(404, contactMessages.notFound);
      return json(200, contact satisfies Contact);
    },

    /**
     * Replaces every editable field. The id is derived from the address, so changing the email (other
     * than its case) moves the contact to a new id: the answer carries the contact as it is now stored,
     * and the client must use the returned id from then on. created_at and genre_focus are kept.
     */
    'PUT /api/contacts/{id}': async ({ identity, params, body }) => {
      const id = knownId(params.id, isAddressId, contactMessages.notFound);
      const input = parseContactInput(body);
      const result = await contacts.update(identity.userId, id, input);
      if (result.outcome === 'not_found') throw new HttpError(404, contactMessages.notFound);
      if (result.outcome === 'duplicate') throw new HttpError(409, contactMessages.duplicateEmail);
      logger.info('Contact updated', { contactId: result.contact.id, ...(result.contact.id !== id ? { previousId: id } : {}) });
      return json(200, result.contact satisfies Contact);
    },

    'DELETE /api/contacts/{id}': async ({ identity, params }) => {
      const id = knownId(params.id, isAddressId, contactMessages.notFound);
      if (!(await contacts.remove(identity.userId, id))) throw new HttpError(404, contactMessages.notFound);
      logger.info('Contact deleted', { contactId: id });
      return noContent();
    },

    // Loaded when the Unsubscribed tab opens: one user's whole list (a partition read, sorted newest first).
    'GET /api/unsubscribes': async ({ identity }) =>
      json(200, { unsubscribes: await unsubscribes.list(identity.userId) } satisfies z.infer<typeof unsubscribeListSchema>),

    // The tab label's count, before the list is opened.
    'GET /api/unsubscribes/count': async ({ identity }) =>
      json(200, { count: await unsubscribes.count(identity.userId) } satisfies z.infer<typeof unsubscribeCountSchema>),

    /** Resubscribe: the address may be emailed again, once the artist confirms the recipient asked. */
    'DELETE /api/unsubscribes/{id}': async ({ identity, params, body }) => {
      const id = knownId(params.id, isAddressId, contactMessages.unsubscribeNotFound);
      parseForm(resubscribeRequestSchema, body ?? {}, { specTexts: resubscribeTexts });
      const at = clock.now();
      if (!(await unsubscribes.remove(identity.userId, id, { userId: identity.userId, email: identity.email, at }))) {
        throw new HttpError(404, contactMessages.unsubscribeNotFound);
      }
      logger.info("Contact resubscribed at the artist's word that the recipient asked", { unsubscribeId: id, by: identity.userId, at: at.toISOString() });
      return noContent();
    },
  });

/** This group's handler over its own adapters for `config` (the local server builds one per stack). */
export const handlerFor = (config: ServerConfig) => makeHandler(contactsDeps(config));
/** The Lambda entry: reads the environment once, on the first request. */
export const handler = lazyHandler(() => handlerFor(readServerConfig(process.env)));
