/** Defaults of spec §3 and §9 for a new profile. */
export const DEFAULT_EMAIL_LIMIT = 50;
export const DEFAULT_GMAIL_DAILY_LIMIT = 500;
