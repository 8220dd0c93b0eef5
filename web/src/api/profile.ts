import { profileSchema, type Profile, type ProfileUpdate } from '../../../schema/api/profile';
import { apiPath } from '../../../schema/routes';
import type { ApiClient } from './client';

/** PATCH /api/profile (schema/api/profile.ts profileUpdateSchema): the saved profile. Throws ApiError 400 naming a field it refuses. */
export function updateProfile(api: ApiClient, update: { [K in keyof ProfileUpdate]: string }): Promise<Profile> {
  return api.patch(apiPath('PATCH /api/profile'), update, (data) => profileSchema.parse(data));
}
