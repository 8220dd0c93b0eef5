/**
 * "1 contact", "3 contacts", "1,200 emails": a count and its noun, never "contact(s)". The count is in the
 * reader's locale; a message built on the server passes 'en-US', so its words do not follow the host's.
 */
export const plural = (count: number, one: string, many = `${one}s`, locale?: string) => `${count.toLocaleString(locale)} ${count === 1 ? one : many}`;
