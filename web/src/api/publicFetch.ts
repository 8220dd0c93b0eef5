/**
 * A call of a public page (unsubscribe, listen): no sign-in, the email's token is the whole authority,
 * so a plain fetch without the Authorization header. Answers the status and the JSON body (undefined when
 * empty or not JSON); a server that cannot be reached throws `unreachable()`, an abort stays an abort.
 */
export async function fetchPublicJson(
  path: string,
  init: Omit<RequestInit, 'headers'> & { headers?: Record<string, string> },
  fetchImpl: typeof fetch,
  unreachable: () => Error,
): Promise<{ status: number; ok: boolean; body: unknown }> {
  let response: Response;
  try {
    response = await fetchImpl(path, { ...init, headers: { Accept: 'application/json', ...init.headers } });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw unreachable();
  }
  const text = await response.text();
  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, ok: response.ok, body };
}

/** The browser's fetch, called late so tests that replace it are seen. */
export const defaultFetch: typeof fetch = (...args) => fetch(...args);
