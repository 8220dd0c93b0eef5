/**
 * The user's own data (issue 26 §3): GET /api/account/export answers a zip of their contacts
 * (contacts.csv) and campaigns with their emails and answers (campaigns.json), written a file and a
 * campaign at a time; DELETE /api/account deletes the account and everything of it once the body's
 * `confirm_email` is the token's own address (400 otherwise). The user is the token's, never the
 * request's: there are no ids to pass. Logs carry counts, never content.
 */
import { accountDeleteSchema, accountExportFileName } from '../../schema/api/account';
import { accountExportFiles, deleteAccount, type AccountDeletionDeps } from '../core/account';
import { zipStream } from '../adapters/zip/zipStream';
import type { Clock } from '../ports';
import { readServerConfig, type ServerConfig } from '../composition/config';
import { accountDeps } from '../composition/account';
import { httpApi, lazyHandler, logger, noContent, parse } from './api';

export interface AccountDeps extends AccountDeletionDeps {
  clock: Clock;
}

export const makeHandler = (deps: AccountDeps) =>
  httpApi('account', {
    'GET /api/account/export': async ({ identity }) => {
      const now = deps.clock.now();
      const chunks: Buffer[] = [];
      for await (const chunk of zipStream(await accountExportFiles(identity.userId, deps.data), now)) chunks.push(chunk);
      const zip = Buffer.concat(chunks);
      logger.info('Data exported', { bytes: zip.length });
      return {
        statusCode: 200,
        headers: {
          'content-type': 'application/zip',
          'content-disposition': `attachment; filename="${accountExportFileName(now)}"`,
          'cache-control': 'no-store',
        },
        // A Lambda's answer is one body (API Gateway buffers it): the archive, base64 as binary answers are.
        body: zip.toString('base64'),
        isBase64Encoded: true,
      };
    },

    'DELETE /api/account': async ({ identity, body }) => {
      const { confirm_email } = parse(accountDeleteSchema, body);
      const deleted = await deleteAccount(deps, identity, confirm_email);
      logger.info('Account deleted', { ...deleted });
      return noContent();
    },
  });

/** This group's handler over its own adapters for `config` (the local server builds one per stack). */
export const handlerFor = (config: ServerConfig) => makeHandler(accountDeps(config));
/** The Lambda entry: reads the environment once, on the first request. */
export const handler = lazyHandler(() => handlerFor(readServerConfig(process.env)));
