/**
 * The mailbox connection's OAuth scopes (spec §5: send and the user's email only). Apart from the Google
 * adapter so the local twin can ask for the same ones without loading googleapis.
 */
export const GMAIL_SEND_SCOPE = 'https://www.googleapis.com/auth/gmail.send';
export const USERINFO_EMAIL_SCOPE = 'https://www.googleapis.com/auth/userinfo.email';
export const MAILBOX_SCOPES = [GMAIL_SEND_SCOPE, USERINFO_EMAIL_SCOPE] as const;
