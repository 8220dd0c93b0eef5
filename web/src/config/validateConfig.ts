import type { RuntimeConfig } from '../../../schema/api/runtimeConfig';

/**
 * A dependency-free check of /config.json against schema/api/runtimeConfig.ts. It exists so the
 * landing page does not download zod (about 24 KB gzip) just to read six fields; tests/web/config.test.tsx
 * runs it side by side with the zod schema (same verdicts, same field list) so the two cannot drift.
 */
export type ConfigCheck = { ok: true; config: RuntimeConfig } | { ok: false; problems: string[] };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export function validateRuntimeConfig(input: unknown): ConfigCheck {
  const problems: string[] = [];
  if (!isObject(input)) return { ok: false, problems: ['(root)'] };

  const requireString = (object: Record<string, unknown>, key: string, path: string) => {
    if (typeof object[key] !== 'string') problems.push(path);
  };

  if (input.mode !== 'aws' && input.mode !== 'local') problems.push('mode');
  requireString(input, 'region', 'region');
  requireString(input, 'userPoolId', 'userPoolId');
  requireString(input, 'userPoolClientId', 'userPoolClientId');
  if (input.userPoolEndpoint !== undefined) requireString(input, 'userPoolEndpoint', 'userPoolEndpoint');

  if (input.oauth !== undefined) {
    if (!isObject(input.oauth)) problems.push('oauth');
    else for (const key of ['domain', 'redirectSignIn', 'redirectSignOut']) requireString(input.oauth, key, `oauth.${key}`);
  }

  if (!isObject(input.contactEmails)) problems.push('contactEmails');
  else for (const key of ['support', 'privacy']) requireString(input.contactEmails, key, `contactEmails.${key}`);

  if (problems.length > 0) return { ok: false, problems };

  // Like zod's object(): keep the known fields only.
  const oauth = input.oauth as RuntimeConfig['oauth'];
  const contactEmails = input.contactEmails as RuntimeConfig['contactEmails'];
  const config: RuntimeConfig = {
    mode: input.mode as RuntimeConfig['mode'],
    region: input.region as string,
    userPoolId: input.userPoolId as string,
    userPoolClientId: input.userPoolClientId as string,
    contactEmails: { support: contactEmails.support, privacy: contactEmails.privacy },
  };
  if (typeof input.userPoolEndpoint === 'string') config.userPoolEndpoint = input.userPoolEndpoint;
  if (oauth) config.oauth = { domain: oauth.domain, redirectSignIn: oauth.redirectSignIn, redirectSignOut: oauth.redirectSignOut };
  return { ok: true, config };
}
