import type { z } from 'zod';

/** zod's expected-type names in plain words ('int' is what `.int()` reports). */
const expectedWords: Record<string, string> = { int: 'a whole number', array: 'a list', object: 'an object' };

/**
 * One problem zod found, in plain words naming its field ('email: Please enter a valid email address.',
 * 'name is required', 'Unknown field: phone'). `whole` names the value itself when it is not an object.
 * Parse with `reportInput: true`: a missing field is then the one issue without an input.
 */
export function describeIssue(issue: z.core.$ZodIssue, whole = 'The request body'): string {
  const field = issue.path.join('.');
  if (issue.code === 'unrecognized_keys') return `Unknown field: ${issue.keys.join(', ')}`;
  if (issue.code === 'invalid_type') {
    if (field === '') return `${whole} must be a JSON object.`;
    if (!('input' in issue) || issue.input === undefined) return `${field} is required`;
    return `${field} must be ${expectedWords[issue.expected] ?? `a ${issue.expected}`}`;
  }
  return field ? `${field}: ${issue.message}` : issue.message;
}
