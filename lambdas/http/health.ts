import type { Health } from '../../schema/api/common';
import { httpApi, json } from './api';

/** The version health reports: APP_VERSION in AWS (the entry reads it once), 'dev' locally. */
export interface HealthDeps {
  version: string;
}

export const makeHandler = ({ version }: HealthDeps = { version: 'dev' }) =>
  httpApi('health', {
    'GET /api/health': () => Promise.resolve(json(200, { ok: true, version } satisfies Health)),
  });

/** The local server's health handler: no table, no adapters, the local version. */
export const handlerFor = () => makeHandler();
export const handler = makeHandler({ version: process.env.APP_VERSION ?? 'dev' });
