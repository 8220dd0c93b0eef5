import type { Health } from '../../schema/api/common';
import { httpApi, json } from './api';

export const VERSION = process.env.APP_VERSION ?? 'dev';

export const makeHandler = () =>
  httpApi('health', {
    'GET /api/health': async () => json(200, { ok: true, version: VERSION } satisfies Health),
  });

export const handler = makeHandler();
