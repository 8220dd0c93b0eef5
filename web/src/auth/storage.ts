/** Amplify v6 keeps every Cognito key in localStorage under this prefix (tokens, LastAuthUser, OAuth state). */
export const AUTH_KEY_PREFIX = 'CognitoIdentityServiceProvider.';

function keys(storage: Storage): string[] {
  const result: string[] = [];
  for (let i = 0; i < storage.length; i++) {
    const key = storage.key(i);
    if (key !== null) result.push(key);
  }
  return result;
}

function safeLocalStorage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

/**
 * Spec §5: stored auth keys whose value is or contains the text 'undefined' are corrupted and removed
 * (Amplify also writes keys like `…<clientId>.undefined.idToken` after a half-finished sign-in).
 * Returns the removed keys.
 */
export function removeCorruptedAuthKeys(storage: Storage | null = safeLocalStorage()): string[] {
  if (!storage) return [];
  const removed: string[] = [];
  for (const key of keys(storage)) {
    if (!key.startsWith(AUTH_KEY_PREFIX)) continue;
    const value = storage.getItem(key);
    if (key.includes('undefined') || (value !== null && value.includes('undefined'))) {
      storage.removeItem(key);
      removed.push(key);
    }
  }
  return removed;
}

/** Removes every stored Cognito key (used when the session check fails or times out). */
export function clearStoredAuthKeys(storage: Storage | null = safeLocalStorage()): void {
  if (!storage) return;
  for (const key of keys(storage)) if (key.startsWith(AUTH_KEY_PREFIX)) storage.removeItem(key);
}

/** True when there is something for Amplify to restore: stored tokens or an OAuth sign-in in flight. */
export function hasStoredAuthState(storage: Storage | null = safeLocalStorage()): boolean {
  if (!storage) return false;
  return keys(storage).some((key) => key.startsWith(AUTH_KEY_PREFIX));
}

/** True on the hosted UI's redirect back (`?code=…&state=…` or `?error=…&state=…`). */
export function isOAuthCallback(search: string = typeof window === 'undefined' ? '' : window.location.search): boolean {
  const params = new URLSearchParams(search);
  return params.has('state') && (params.has('code') || params.has('error'));
}
