/** Defaults of spec §3 and §9 for a new profile. */
export const DEFAULT_EMAIL_LIMIT = 50;
export const DEFAULT_GMAIL_DAILY_LIMIT = 500;

/** Spec §9: a Google Workspace mailbox may send 2000 emails a day; a consumer (free) Gmail account 500. */
export const WORKSPACE_GMAIL_DAILY_LIMIT = 2000;
export const FREE_GMAIL_DAILY_LIMIT = DEFAULT_GMAIL_DAILY_LIMIT;

export type MailboxAccountType = 'free' | 'workspace';

/** The account type and daily limit of a mailbox: Workspace when Google names its domain (`hd`). */
export function mailboxAccount(hostedDomain: string | null): { accountType: MailboxAccountType; dailyLimit: number } {
  return hostedDomain ? { accountType: 'workspace', dailyLimit: WORKSPACE_GMAIL_DAILY_LIMIT } : { accountType: 'free', dailyLimit: FREE_GMAIL_DAILY_LIMIT };
}
