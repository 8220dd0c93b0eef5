import * as z from 'zod';

export { accountExportFileName, accountMessages } from './accountValues';

/** DELETE /api/account: the account's own email, typed to confirm (compared without case or surrounding spaces). */
export const accountDeleteSchema = z.object({ confirm_email: z.string().max(320) }).strict();
export type AccountDeleteBody = z.infer<typeof accountDeleteSchema>;
