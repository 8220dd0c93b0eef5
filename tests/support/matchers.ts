import { expect } from 'vitest';

// Vitest types its asymmetric matchers as `any`; these say what they stand for, so the objects that
// hold them keep their types (no-unsafe-assignment).
export const anyString = (): string => expect.any(String) as string;
export const stringMatching = (pattern: string | RegExp): string => expect.stringMatching(pattern) as string;
export const stringContaining = (text: string): string => expect.stringContaining(text) as string;
export const anything = (): unknown => expect.anything();
export const arrayContaining = (items: unknown[]): unknown => expect.arrayContaining(items);
export const objectContaining = (value: object): unknown => expect.objectContaining(value);
