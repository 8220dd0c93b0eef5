/** The form of an email address uniqueness is decided on (case-insensitive, surrounding spaces ignored). */
export const normaliseEmail = (email: string) => email.trim().toLowerCase();
