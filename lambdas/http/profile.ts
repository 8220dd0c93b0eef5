import type { Profile } from '../../schema/api/profile';
import type { Clock, ProfileStore, SendQueueStore } from '../ports';
import { readServerConfig, type ServerConfig } from '../composition/config';
import { profileDeps } from '../composition/profile';
import { HttpError, httpApi, json, lazyHandler, parse } from './api';
import { ensureProfile } from './ensureProfile';
import { monthlyLimitOf } from '../core/plans';

export interface ProfileDeps {
  profiles: ProfileStore;
  clock: Clock;
  /** The pipeline's counters: emails_used is this Pacific month's count. Absent, the stored value is shown. */
  sendQueue?: Pick<SendQueueStore, 'usage'>;
}

/**
 * The update schema, loaded by the first PATCH: the GET every page load makes validates nothing, so a
 * container that serves only reads never loads zod.
 */
const profileSchemas = () => import('../../schema/api/profile');

export const makeHandler = ({ profiles, clock, sendQueue }: ProfileDeps) => {
  /**
   * The profile with this month's usage as the pipeline counted it (one more read, alongside the
   * profile's) and its plan's monthly limit as the limits read it (the tier's, core/plans.ts).
   */
  const withUsage = async (userId: string, read: Promise<Profile | undefined>): Promise<Profile | undefined> => {
    const [profile, usage] = await Promise.all([read, sendQueue?.usage(userId, clock.now())]);
    if (!profile) return undefined;
    return { ...profile, email_limit: monthlyLimitOf(profile), ...(usage ? { emails_used: usage.usedThisMonth } : {}) };
  };

  return httpApi('profile', {
    /** Creates the profile on first sign-in (spec §3 defaults), then returns it. */
    'GET /api/profile': async ({ identity }) => json(200, await withUsage(identity.userId, ensureProfile(profiles, identity, clock.now()))),
    'PATCH /api/profile': async ({ identity, body }) => {
      const update = parse((await profileSchemas()).profileUpdateSchema, body);
      const updated = await withUsage(identity.userId, profiles.update(identity.userId, update));
      if (!updated) throw new HttpError(404, 'No profile yet: sign in again to create it.');
      return json(200, updated);
    },
  });
};

/** This group's handler over its own adapters for `config` (the local server builds one per stack). */
export const handlerFor = (config: ServerConfig) => makeHandler(profileDeps(config));
/** The Lambda entry: reads the environment once, on the first request. */
export const handler = lazyHandler(() => handlerFor(readServerConfig(process.env)));
