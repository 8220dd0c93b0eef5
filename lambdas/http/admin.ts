import type { WaitlistStore } from '../ports';
import { compose } from '../compose';
import { httpApi, json, lazyHandler } from './api';

export interface AdminDeps {
  waitlist: WaitlistStore;
}

export const makeHandler = ({ waitlist }: AdminDeps) =>
  httpApi({
    'GET /api/admin/waitlist': async () => json(200, { entries: await waitlist.list() }),
  });

export const handler = lazyHandler(() => makeHandler(compose()));
