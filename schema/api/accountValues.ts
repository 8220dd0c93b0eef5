/** The user's own data (issue 26 §3): names and texts the server and the web app share. No imports: the web app bundles it. */

/** The data export's file name: the app's name and the day (UTC) it was made. */
export const accountExportFileName = (at: Date) => `trackpitch-data-${at.toISOString().slice(0, 10)}.zip`;

export const accountMessages = {
  /** DELETE /api/account's 400: the typed address is not the account's. */
  confirmEmailMismatch: 'Type the email address of your account to confirm.',
} as const;
