/** The user's own data (issue 26 §3; schema/api/account.ts): download it all, delete the account. */
import type { AccountDeleteBody } from '../../../schema/api/account';
import { accountExportFileName } from '../../../schema/api/accountValues';
import { apiPath } from '../../../schema/routes';
import type { ApiClient } from './client';

/** GET /api/account/export: the zip of the user's contacts and campaigns, and the name to save it under. */
export async function downloadAccountData(api: ApiClient, now: Date = new Date()): Promise<{ fileName: string; zip: Blob }> {
  const zip = await api.request<Blob>(apiPath('GET /api/account/export'), { blob: true });
  return { fileName: accountExportFileName(now), zip };
}

/** DELETE /api/account: 204 once everything is gone; 400 when the typed email is not the account's. */
export async function deleteAccount(api: ApiClient, confirmEmail: string): Promise<void> {
  const body: AccountDeleteBody = { confirm_email: confirmEmail };
  await api.request(apiPath('DELETE /api/account'), { method: 'DELETE', body });
}
