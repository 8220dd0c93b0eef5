/**
 * The spec's own texts for a form's problems (§5, §8): shared by every handler's parseForm
 * (lambdas/http/api.ts). Pure.
 */
import type { z } from 'zod';
import { composeMessages } from '../../schema/api/campaigns';

/**
 * The spec's own text for a form problem (§5, §8), when the request has one: a required field missing
 * or blank gives `required`'s message, and a validation issue carrying a spec text gives that text
 * alone (not prefixed by the field's path). Undefined: describe the problems field by field.
 */
export function formMessage(
  schema: z.ZodType,
  body: unknown,
  required: readonly { path: readonly string[]; message: string }[] = [],
): string | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  for (const field of required) {
    const value = field.path.reduce<unknown>((at, name) => (at !== null && typeof at === 'object' ? (at as Record<string, unknown>)[name] : undefined), body);
    if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) return field.message;
  }
  const result = schema.safeParse(body);
  if (result.success) return undefined;
  return result.error.issues.find((issue) => SPEC_TEXTS.has(issue.message))?.message;
}

const SPEC_TEXTS = new Set<string>(Object.values(composeMessages));
