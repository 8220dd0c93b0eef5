import { mailboxConnectSchema } from '../../../schema/api/sending';
import { apiPath } from '../../../schema/routes';
import type { ApiClient } from './client';

/** The mailbox connection API (schema/api/sending.ts; spec §4 Mailbox connection). */

/**
 * POST /api/mailbox/connect: the consent URL the browser must go to, or null when the server gave none
 * (spec §8 'No authorization URL received from server'). The response also sets the cookie that binds
 * the consent to this browser.
 */
export async function startMailboxConnection(api: ApiClient): Promise<string | null> {
  const data = await api.post(apiPath('POST /api/mailbox/connect'));
  const parsed = mailboxConnectSchema.safeParse(data);
  return parsed.success && parsed.data.authUrl.trim() !== '' ? parsed.data.authUrl : null;
}

/** Leaves the app for the consent screen (one object, so tests can replace it: jsdom cannot navigate). */
export const consentNavigation = {
  go(authUrl: string): void {
    window.location.assign(authUrl);
  },
};

/** DELETE /api/mailbox: disconnects (204 also when nothing was connected). */
export async function disconnectMailbox(api: ApiClient): Promise<void> {
  await api.delete(apiPath('DELETE /api/mailbox'));
}
