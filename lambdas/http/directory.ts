/**
 * The LabelFinder directory for signed-in users: every entry with the caller's allowance, and adding
 * entries to the caller's contacts within the tier's limit (spec §5, §6, §8). Logs counts, never emails.
 */
import {
  cannotAddMessage,
  DIRECTORY_LIMIT_CODE,
  directoryAddSchema,
  directoryMessages,
  isFreeAllowance,
  remainingAdditions,
  type DirectoryAddResult,
  type DirectoryAllowance,
  type DirectoryList,
} from '../../schema/api/directory';
import { isContactEmail } from '../../schema/api/contacts';
import { addressId, directoryAllowance } from '../core/contacts';
import { directoryAdditionsOf } from '../core/plans';
import type { Identity } from '../core/profile';
import type { Clock, ContactStore, DirectoryStore, ProfileStore } from '../ports';
import { readServerConfig, type ServerConfig } from '../composition/config';
import { directoryDeps } from '../composition/directory';
import { HttpError, httpApi, json, lazyHandler, logger, parse } from './api';
import { ensureProfile } from './ensureProfile';

export interface DirectoryDeps {
  directory: DirectoryStore;
  contacts: ContactStore;
  profiles: ProfileStore;
  clock: Clock;
}

/** The refusal of an add over the allowance: the free-limit text (with Upgrade), the paid limit, or "only N more". */
function overAllowanceMessage(allowance: DirectoryAllowance): string {
  if (allowance.used >= allowance.limit) {
    return isFreeAllowance(allowance) ? directoryMessages.freeLimitReached : directoryMessages.paidLimitReached(allowance.limit);
  }
  return directoryMessages.onlyNMore(remainingAdditions(allowance));
}

export const makeHandler = ({ directory, contacts, profiles, clock }: DirectoryDeps) => {
  /** The allowance is counted on the profile: create it on first use, as GET /api/profile does. */
  const profileOf = (identity: Identity) => ensureProfile(profiles, identity, clock.now());

  return httpApi('directory', {
    'GET /api/directory': async ({ identity }) => {
      const userId = identity.userId;
      const [entries, profile] = await Promise.all([directory.list(), profileOf(identity)]);
      // Which entries the caller already has: the contact id is a function of the email (one BatchGet per 100).
      const entryByContactId = new Map(entries.filter((entry) => isContactEmail(entry.email)).map((entry) => [addressId(userId, entry.email), entry.id]));
      const existing = await contacts.existingIds(userId, [...entryByContactId.keys()]);
      const inContacts = [...existing].flatMap((contactId) => entryByContactId.get(contactId) ?? []);
      return json(200, { entries, allowance: directoryAllowance(profile), in_contacts: inContacts } satisfies DirectoryList);
    },

    /**
     * 200 with what was added and skipped. A single entry already in the contacts is a 409; a selection
     * over the allowance a 403 with DIRECTORY_LIMIT_CODE and nothing added.
     */
    'POST /api/directory/contacts': async ({ identity, body }) => {
      const { entry_ids } = parse(directoryAddSchema, body);
      const userId = identity.userId;
      const profile = await profileOf(identity);
      const result = await directory.addToContacts(userId, entry_ids, directoryAdditionsOf(profile.tier), clock.now());
      switch (result.outcome) {
        case 'unknown_entries':
          throw new HttpError(404, directoryMessages.unknownEntries);
        case 'no_email':
          throw new HttpError(400, cannotAddMessage(result.entry));
        case 'no_profile':
          throw new HttpError(404, 'No profile yet: sign in again to create it.');
        case 'over_allowance':
          logger.info('Directory add refused over the allowance', { userId, requested: result.requested, ...result.allowance });
          throw new HttpError(403, overAllowanceMessage(result.allowance), DIRECTORY_LIMIT_CODE);
        case 'added': {
          const single = new Set(entry_ids).size === 1;
          const [duplicate] = result.duplicates;
          if (single && result.added.length === 0 && duplicate) throw new HttpError(409, directoryMessages.alreadyInContacts(duplicate.name));
          logger.info('Directory entries added to contacts', {
            userId,
            added: result.added.length,
            duplicates: result.duplicates.length,
            used: result.allowance.used,
          });
          return json(200, { added: result.added, duplicates: result.duplicates, allowance: result.allowance } satisfies DirectoryAddResult);
        }
      }
    },
  });
};

/** This group's handler over its own adapters for `config` (the local server builds one per stack). */
export const handlerFor = (config: ServerConfig) => makeHandler(directoryDeps(config));
/** The Lambda entry: reads the environment once, on the first request. */
export const handler = lazyHandler(() => handlerFor(readServerConfig(process.env)));
