/** The id every contact and unsubscribe record of an address is stored under; imports no schema (zod). */
import { createHash } from 'node:crypto';
import { normaliseEmail } from '../../schema/api/emailAddress';

/**
 * The id of a user's contact (and unsubscribe record) with this address: 22 base64url characters of
 * SHA-256 over the user id and the lower-cased address. The key is a function of the email, so two
 * writers of the same address (a form and an import, two tabs, a retried import) always meet on one
 * item: uniqueness needs no guard item and no transaction, and a retried import cannot duplicate.
 * The user id in the hash keeps ids unlinkable across users.
 */
export function addressId(userId: string, email: string): string {
  return createHash('sha256')
    .update(`${userId}\n${normaliseEmail(email)}`)
    .digest('base64url')
    .slice(0, 22);
}

/** Whether a path id could be an addressId at all: anything else is a 404 with no read. */
export const isAddressId = (id: string) => /^[A-Za-z0-9_-]{22}$/.test(id);
