/** The local server's account pages the web app calls in local mode (lib/local/server.ts); none exist in AWS. */

/** POST {"email"}: confirms a just-created local account (no confirmation email is sent locally). */
export const LOCAL_CONFIRM_SIGNUP_PATH = '/local/confirm-signup';
/** POST {"email"}: the password reset code cognito-local keeps, {"code": string | null} (no email is sent locally). */
export const LOCAL_RESET_CODE_PATH = '/local/reset-code';
