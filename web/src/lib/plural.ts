/** "1 email", "3 emails", "1,200 emails": a count in the reader's locale and its noun. */
export const plural = (count: number, one: string, many = `${one}s`) => `${count.toLocaleString()} ${count === 1 ? one : many}`;
