/**
 * Typed fetch wrapper for the same-origin API under /api. It adds the Cognito ID token as a bearer
 * token and turns the API's `{ message, requestId? }` error bodies into an ApiError with the status.
 */

export class ApiError extends Error {
  readonly status: number;
  readonly requestId?: string;
  /** The error body's machine-readable `code`, where the API gives one. */
  readonly code?: string;

  constructor(status: number, message: string, requestId?: string, code?: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    if (requestId !== undefined) this.requestId = requestId;
    if (code !== undefined) this.code = code;
  }
}

export type IdTokenGetter = () => Promise<string | null>;

/** Turns the parsed JSON body into a typed value (e.g. a zod schema's `parse`); throws if it does not fit. */
export type Parser<T> = (data: unknown) => T;

export interface RequestOptions<T> {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  /** Send the ID token. Default true; the request fails with 401 before leaving the browser when there is none. */
  auth?: boolean;
  parse?: Parser<T>;
  signal?: AbortSignal;
  /** The answer's bytes as a Blob (a file download), not parsed; an error answer is still read as JSON. */
  blob?: boolean;
}

export interface ApiClient {
  request<T = unknown>(path: string, options?: RequestOptions<T>): Promise<T>;
  get<T = unknown>(path: string, parse?: Parser<T>): Promise<T>;
  post<T = unknown>(path: string, body?: unknown, parse?: Parser<T>): Promise<T>;
  patch<T = unknown>(path: string, body?: unknown, parse?: Parser<T>): Promise<T>;
  put<T = unknown>(path: string, body?: unknown, parse?: Parser<T>): Promise<T>;
  delete<T = unknown>(path: string, parse?: Parser<T>): Promise<T>;
}

const NETWORK_MESSAGE = 'Could not reach the server. Check your connection and try again.';

function errorFromBody(status: number, body: unknown, statusText: string): ApiError {
  if (body && typeof body === 'object' && typeof (body as { message?: unknown }).message === 'string') {
    const { message, requestId, code } = body as { message: string; requestId?: unknown; code?: unknown };
    return new ApiError(status, message, typeof requestId === 'string' ? requestId : undefined, typeof code === 'string' ? code : undefined);
  }
  return new ApiError(status, `Request failed (${status}${statusText ? ` ${statusText}` : ''})`);
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204 || response.status === 205) return undefined;
  const text = await response.text();
  if (text === '') return undefined;
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('json')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      if (response.ok) throw new ApiError(response.status, 'The server sent a response that could not be read.');
      return undefined;
    }
  }
  return text;
}

export function createApiClient(getIdToken: IdTokenGetter, fetchImpl: typeof fetch = (...args) => fetch(...args)): ApiClient {
  async function request<T = unknown>(path: string, options: RequestOptions<T> = {}): Promise<T> {
    const { method = 'GET', body, auth = true, parse, signal, blob = false } = options;
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (auth) {
      const token = await getIdToken();
      if (!token) throw new ApiError(401, 'You are not signed in. Please sign in again.');
      headers.Authorization = `Bearer ${token}`;
    }
    let response: Response;
    try {
      response = await fetchImpl(path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        credentials: 'same-origin',
        signal,
      });
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') throw error;
      throw new ApiError(0, NETWORK_MESSAGE);
    }
    if (blob && response.ok) return (await response.blob()) as T;
    const data = await readBody(response);
    if (!response.ok) throw errorFromBody(response.status, data, response.statusText);
    if (!parse) return data as T;
    try {
      return parse(data);
    } catch {
      throw new ApiError(response.status, 'The server sent a response in an unexpected format.');
    }
  }

  return {
    request,
    get: (path, parse) => request(path, { parse }),
    post: (path, body, parse) => request(path, { method: 'POST', body, parse }),
    patch: (path, body, parse) => request(path, { method: 'PATCH', body, parse }),
    put: (path, body, parse) => request(path, { method: 'PUT', body, parse }),
    delete: (path, parse) => request(path, { method: 'DELETE', parse }),
  };
}

/** The message to show a person for any thrown value. */
export function errorMessage(error: unknown, fallback = 'Something went wrong. Please try again.'): string {
  if (error instanceof Error && error.message) return error.message;
  if (typeof error === 'string' && error) return error;
  return fallback;
}
