/** Types of passwordRule.mjs (plain JavaScript so the local Cognito guard can import it in plain Node). */
export declare const PASSWORD_RULE: Readonly<{
  minLength: 10;
  requireLowercase: true;
  requireUppercase: true;
  requireDigits: true;
  requireSymbols: true;
}>;
export declare const PASSWORD_SYMBOLS: string;
export declare const PASSWORD_RULE_MESSAGE: string;
export declare function meetsPasswordRule(password: unknown): boolean;
