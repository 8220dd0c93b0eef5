import type { Profile, ProfileUpdate } from '../../../schema/api/profile';
import { apiPath } from '../../../schema/routes';
import { ApiError, type ApiClient } from './client';

/**
 * PATCH /api/profile (schema/api/profile.ts profileUpdateSchema): the saved profile, checked as the
 * sign-in's GET is. Throws ApiError 400 naming a field the server refuses. The check is imported on
 * demand, as AuthProvider does (already loaded by then): a module imported both ways makes the bundler
 * split out a runtime chunk that every route would download.
 */
export async function updateProfile(api: ApiClient, update: { [K in keyof Omit<ProfileUpdate, 'tour_completed'>]: string }): Promise<Profile> {
  const [data, { checkProfile }] = await Promise.all([api.patch(apiPath('PATCH /api/profile'), update), import('../auth/checkProfile')]);
  const saved = checkProfile(data);
  if (!saved) throw new ApiError(200, 'The server sent a profile in an unexpected format.');
  return saved;
}

/** PATCH /api/profile { tour_completed: true }: the tour was finished or skipped, for every browser. */
export async function markTourCompletedOnProfile(api: ApiClient): Promise<void> {
  await api.patch(apiPath('PATCH /api/profile'), { tour_completed: true } satisfies ProfileUpdate);
}
