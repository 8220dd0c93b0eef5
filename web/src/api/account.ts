/** The user's own data (issue 26 §3; schema/api/account.ts): download it all, delete the account. */
import { accountExportSchema, type AccountDeleteBody, type AccountExport } from '../../../schema/api/account';
import { apiPath } from '../../../schema/routes';
import type { ApiClient } from './client';

/** GET /api/account/export: the zip of the user's contacts and campaigns, stored; a short-lived URL to download it from. */
export function exportAccountData(api: ApiClient): Promise<AccountExport> {
  return api.get(apiPath('GET /api/account/export'), (data) => accountExportSchema.parse(data));
}

/** DELETE /api/account: 204 once everything is gone; 400 when the typed email is not the account's. */
export async function deleteAccount(api: ApiClient, confirmEmail: string): Promise<void> {
  const body: AccountDeleteBody = { confirm_email: confirmEmail };
  await api.request(apiPath('DELETE /api/account'), { method: 'DELETE', body });
}
