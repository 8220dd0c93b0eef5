/**
 * The user's own data (issue 26 §3): GET /api/account/export builds a zip of their contacts
 * (contacts.csv) and campaigns with their emails and answers (campaigns.json), a file and a campaign at
 * a time, and writes it to storage as it is built (ExportStore: S3's multipart upload in AWS; an API
 * answer is capped at 6 MB), then answers a short-lived URL to download it from; DELETE /api/account
 * deletes the account and everything of it once the body's `confirm_email` is the token's own address
 * (400 otherwise). The user is the token's, never the request's: there are no ids to pass. Logs carry
 * counts, never content.
 */
import { accountDeleteSchema, accountExportFileName, type AccountExport } from '../../schema/api/account';
import { accountExportFiles, accountExportKey, deleteAccount, EXPORT_URL_SECONDS, type AccountDeletionDeps } from '../core/account';
import { zipStream } from '../adapters/zip/zipStream';
import type { AudioUrls, Clock, ExportStore, IdGenerator } from '../ports';
import { readServerConfig, type ServerConfig } from '../composition/config';
import { accountDeps } from '../composition/account';
import { httpApi, json, lazyHandler, logger, noContent, parse } from './api';

export interface AccountDeps extends AccountDeletionDeps {
  clock: Clock;
  ids: IdGenerator;
  /** Where the export's zip is written, and who signs its download URL. */
  exports: ExportStore;
  exportUrls: AudioUrls;
}

export const makeHandler = (deps: AccountDeps) =>
  httpApi('account', {
    'GET /api/account/export': async ({ identity }) => {
      const now = deps.clock.now();
      const key = accountExportKey(identity.userId, deps.ids.next(now));
      const zip = zipStream(await accountExportFiles(identity.userId, deps.data), now);
      const { bytes } = await deps.exports.write(key, zip, { contentType: 'application/zip' });
      const fileName = accountExportFileName(now);
      const url = await deps.exportUrls.signedGetUrl(key, { expiresInSeconds: EXPORT_URL_SECONDS, now, downloadName: fileName });
      logger.info('Data exported', { bytes });
      const body: AccountExport = { url, file_name: fileName, expires_at: new Date(now.getTime() + EXPORT_URL_SECONDS * 1000).toISOString() };
      return json(200, body);
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
