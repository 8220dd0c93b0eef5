import * as z from 'zod';

/** DELETE /api/account: the account's own email, typed to confirm (compared without case or surrounding spaces). */
export const accountDeleteSchema = z.object({ confirm_email: z.string().max(320) }).strict();
export type AccountDeleteBody = z.infer<typeof accountDeleteSchema>;

/** The data export's file name: the app's name and the day (UTC) it was made. */
export const accountExportFileName = (at: Date) => `trackpitch-data-${at.toISOString().slice(0, 10)}.zip`;
