/** A stand-in for an adapter whose AWS settings are missing: fails when used, not when the Lambda starts. */
export const notConfigured = (what: string) => (): never => {
  throw new Error(`${what} is not configured (see docs/deploy.md: Gmail sending)`);
};
