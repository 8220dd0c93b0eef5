// The one password rule (issue 26 §1): the Cognito pool's policy (lib/cloud/auth.ts builds it from
// PASSWORD_RULE), the sign-up and reset pages' check and hint, and the local stack's refusal
// (lib/local/cognito-guard.mjs, which cognito-local lacks). Plain JavaScript because the local guard
// runs in plain Node; the types are in passwordRule.d.mts.

/** Cognito's password policy fields, as the CDK UserPool's `passwordPolicy` takes them. */
export const PASSWORD_RULE = Object.freeze({
  minLength: 10,
  requireLowercase: true,
  requireUppercase: true,
  requireDigits: true,
  requireSymbols: true,
});

/** The characters Cognito counts as symbols (its documented list; a space counts, though not at either end). */
export const PASSWORD_SYMBOLS = '^$*.[]{}()?"!@#%&/\\,><\':;|_~`=+- ';

/** Shown under the password field, and as the error when a password breaks the rule, in AWS and locally. */
export const PASSWORD_RULE_MESSAGE = `Use at least ${PASSWORD_RULE.minLength} characters, with an uppercase letter, a lowercase letter, a number and a symbol.`;

/** True when `password` satisfies PASSWORD_RULE as Cognito checks it (ASCII letters and digits). */
export function meetsPasswordRule(password) {
  if (typeof password !== 'string') return false;
  // Cognito refuses a password that starts or ends with a space.
  if (password !== password.trim()) return false;
  // Cognito counts characters (code points), not UTF-16 units.
  if ([...password].length < PASSWORD_RULE.minLength) return false;
  if (PASSWORD_RULE.requireLowercase && !/[a-z]/.test(password)) return false;
  if (PASSWORD_RULE.requireUppercase && !/[A-Z]/.test(password)) return false;
  if (PASSWORD_RULE.requireDigits && !/[0-9]/.test(password)) return false;
  if (PASSWORD_RULE.requireSymbols && ![...password].some((character) => PASSWORD_SYMBOLS.includes(character))) return false;
  return true;
}
