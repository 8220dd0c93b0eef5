import * as z from 'zod';

export { accountExportFileName, accountMessages } from './accountValues';

/** DELETE /api/account: the account's own email, typed to confirm (compared without case or surrounding spaces). */
export const accountDeleteSchema = z.object({ confirm_email: z.string().max(320) }).strict();
export type AccountDeleteBody = z.infer<typeof accountDeleteSchema>;

/**
 * GET /api/account/export: the zip, stored as it was built, and a short-lived URL to download it from
 * (storage's, not the API's: an API answer is capped at 6 MB), the name it downloads under, and when the URL stops working.
 */
export const accountExportSchema = z.object({ url: z.url(), file_name: z.string(), expires_at: z.iso.datetime() }).strict();
export type AccountExport = z.infer<typeof accountExportSchema>;
