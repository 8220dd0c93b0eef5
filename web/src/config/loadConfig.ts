import type { RuntimeConfig } from '../../../schema/api/runtimeConfig';
import { validateRuntimeConfig } from './validateConfig';

export type { RuntimeConfig };

/** Fetch /config.json (written by CDK in AWS and by the local server locally) and validate it. */
export async function loadRuntimeConfig(fetchImpl: typeof fetch = (...args) => fetch(...args)): Promise<RuntimeConfig> {
  let response: Response;
  try {
    response = await fetchImpl('/config.json', { cache: 'no-store', headers: { Accept: 'application/json' } });
  } catch {
    throw new Error('Could not reach the server to load the app configuration.');
  }
  if (!response.ok) throw new Error(`The app configuration could not be loaded (HTTP ${response.status}).`);
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    throw new Error('The app configuration is not valid JSON.');
  }
  const checked = validateRuntimeConfig(body);
  if (!checked.ok) throw new Error(`The app configuration is invalid (${checked.problems.join(', ')}).`);
  return checked.config;
}
