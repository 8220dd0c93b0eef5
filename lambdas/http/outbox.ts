/**
 * The local mailbox's sent folder (local runtime only; CDK deploys no route for it): the list, newest
 * first without the bodies, and one message in full for the Outbox page. The user id only comes from the
 * verified token: another user's message is not under the caller's partition, so it is the same 404 as a
 * missing one. Without an outbox (not the local mailbox) every route is a 404.
 */
import type { z } from 'zod';
import { outboxMessages, type OutboxMessage, type outboxListSchema } from '../../schema/api/sending';
import { isUlid } from '../core/ids';
import type { OutboxStore } from '../ports';
import { readServerConfig, type ServerConfig } from '../composition/config';
import { outboxDeps } from '../composition/outbox';
import { HttpError, httpApi, json, knownId, lazyHandler } from './api';

export interface OutboxDeps {
  /** Undefined unless the local mailbox sends. */
  outbox: OutboxStore | undefined;
}

export { outboxMessages };

export const makeHandler = ({ outbox }: OutboxDeps) => {
  const localOutbox = (): OutboxStore => {
    if (!outbox) throw new HttpError(404, outboxMessages.notLocal);
    return outbox;
  };
  return httpApi('outbox', {
    'GET /api/local/outbox': async ({ identity }) =>
      json(200, { messages: await localOutbox().list(identity.userId) } satisfies z.infer<typeof outboxListSchema>),

    'GET /api/local/outbox/{id}': async ({ identity, params }) => {
      const store = localOutbox();
      const id = knownId(params.id, isUlid, outboxMessages.messageNotFound);
      const message = await store.get(identity.userId, id);
      if (!message) throw new HttpError(404, outboxMessages.messageNotFound);
      return json(200, message satisfies OutboxMessage);
    },
  });
};

/** This group's handler over its own adapters for `config` (the local server builds one per stack). */
export const handlerFor = (config: ServerConfig) => makeHandler(outboxDeps(config));
/** The Lambda entry: reads the environment once, on the first request. */
export const handler = lazyHandler(() => handlerFor(readServerConfig(process.env)));
