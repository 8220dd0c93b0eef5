/**
 * The Compose screen's pickers (spec §2 Compose, §7): campaign templates (the seeded system templates
 * first, then the user's own, each by name; save and delete the user's) and saved recipient lists
 * (newest first; save, delete). Another user's template or list id is not found under the caller's
 * partition, and a system template's id is never a user's: both 404. Logs carry ids, never text.
 */
import type { z } from 'zod';
import {
  composeMessages,
  composeSpecTexts,
  contactListInputSchema,
  templateInputSchema,
  type SavedContactList,
  type savedContactListsSchema,
  type templateListSchema,
} from '../../schema/api/campaigns';
import type { CampaignTemplate } from '../../schema/api/templates';
import { userTemplateDescription } from '../core/templateDescription';
import { isUlid } from '../core/ids';
import type { Clock, ContactListStore, TemplateStore } from '../ports';
import { readServerConfig, type ServerConfig } from '../composition/config';
import { composeDeps } from '../composition/compose';
import { HttpError, httpApi, json, knownId, lazyHandler, logger, noContent, parseForm, type FormTexts } from './api';

export interface ComposeDeps {
  templates: TemplateStore;
  contactLists: ContactListStore;
  clock: Clock;
}

/** A dialog's one required field: a blank name is answered with the spec's text (§5). */
/** A dialog's form: its name is required, with the spec's text (§5). */
const nameRequired = (message: string): FormTexts => ({ required: [{ path: ['name'], message }], specTexts: composeSpecTexts });

/** The same values once each, in their first order. */
const unique = <T>(values: readonly T[]): T[] => [...new Set(values)];

export const makeHandler = ({ templates, contactLists, clock }: ComposeDeps) =>
  httpApi('compose', {
    /** Spec §7: "ordered by is_system_template descending then name". */
    'GET /api/templates': async ({ identity }) => {
      const [system, own] = await Promise.all([templates.listSystem(), templates.listForUser(identity.userId)]);
      return json(200, { templates: [...system, ...own] } satisfies z.infer<typeof templateListSchema>);
    },

    /** The save-template dialog: the preview's subject and body under a name. */
    'POST /api/templates': async ({ identity, body }) => {
      const input = parseForm(templateInputSchema, body, nameRequired(composeMessages.templateNameRequired));
      const template = await templates.add(
        identity.userId,
        {
          name: input.name,
          description: userTemplateDescription(input.body),
          subject_template: input.subject,
          body_template: input.body,
          ai_tone: input.ai_tone,
        },
        clock.now(),
      );
      logger.info('Template saved', { templateId: template.id });
      return json(201, template satisfies CampaignTemplate);
    },

    'DELETE /api/templates/{id}': async ({ identity, params }) => {
      // User template ids are ULIDs: a system template's id (its name) is a 404 with no read.
      const id = knownId(params.id, isUlid, composeMessages.templateNotFound);
      if (!(await templates.remove(identity.userId, id))) throw new HttpError(404, composeMessages.templateNotFound);
      logger.info('Template deleted', { templateId: id });
      return noContent();
    },

    'GET /api/contact-lists': async ({ identity }) =>
      json(200, { lists: await contactLists.list(identity.userId) } satisfies z.infer<typeof savedContactListsSchema>),

    /** 'Save Contact List': the picker's filters and selection. Repeated ids and filter values are kept once. */
    'POST /api/contact-lists': async ({ identity, body }) => {
      const input = parseForm(contactListInputSchema, body, nameRequired(composeMessages.listNameRequired));
      const list = await contactLists.add(
        identity.userId,
        {
          name: input.name,
          contact_types: unique(input.contact_types),
          selected_genres: unique(input.selected_genres),
          contact_ids: unique(input.contact_ids),
        },
        clock.now(),
      );
      logger.info('Contact list saved', { listId: list.id, contacts: list.contact_ids.length });
      return json(201, list satisfies SavedContactList);
    },

    'DELETE /api/contact-lists/{id}': async ({ identity, params }) => {
      const id = knownId(params.id, isUlid, composeMessages.listNotFound);
      if (!(await contactLists.remove(identity.userId, id))) throw new HttpError(404, composeMessages.listNotFound);
      logger.info('Contact list deleted', { listId: id });
      return noContent();
    },
  });

/** This group's handler over its own adapters for `config` (the local server builds one per stack). */
export const handlerFor = (config: ServerConfig) => makeHandler(composeDeps(config));
/** The Lambda entry: reads the environment once, on the first request. */
export const handler = lazyHandler(() => handlerFor(readServerConfig(process.env)));
