import { profileUpdateSchema } from '../../schema/api/profile';
import type { Clock, ProfileStore } from '../ports';
import { compose } from '../compose';
import { HttpError, httpApi, json, lazyHandler, parse } from './api';
import { ensureProfile } from './ensureProfile';

export interface ProfileDeps {
  profiles: ProfileStore;
  clock: Clock;
}

export const makeHandler = ({ profiles, clock }: ProfileDeps) =>
  httpApi({
    /** Creates the profile on first sign-in (spec §3 defaults), then returns it. */
    'GET /api/profile': async ({ identity }) => json(200, await ensureProfile(profiles, identity!, clock.now())),
    'PATCH /api/profile': async ({ identity, body }) => {
      const update = parse(profileUpdateSchema, body);
      const updated = await profiles.update(identity!.userId, update);
      if (!updated) throw new HttpError(404, 'No profile yet: sign in again to create it.');
      return json(200, updated);
    },
  });

export const handler = lazyHandler(() => makeHandler(compose()));
