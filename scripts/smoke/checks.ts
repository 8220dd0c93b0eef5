/**
 * The smoke test's checks (issue 24 §5): what `npm run smoke -- <site>` asks a deployed stack, or
 * `npm start`, from outside, as a browser or a mail client would. Read-only, but for the disposable user
 * the runner creates and deletes (./disposableUser.ts) and what that user's own requests write (its
 * profile, a pending track that expires after a day).
 *
 * Each check is data: a name, and a run that resolves with what it saw or throws a SmokeFailure saying
 * what came back instead. The site checks need only the site (and its config.json, when it answered);
 * the user checks also need the disposable user's ID token.
 */
import { newEmailToken } from '../../lambdas/core/emailToken';
import { runtimeConfigSchema, type RuntimeConfig } from '../../schema/api/runtimeConfig';
import { cloudRoutes, routes } from '../../schema/routes';
import { CSP_HEADER, FIXED_SECURITY_HEADERS, SECURITY_HEADER_NAMES } from '../../lib/securityHeaders';

export class SmokeFailure extends Error {}

/** One answer of the site, body read. */
export interface Answer {
  status: number;
  headers: Headers;
  body: Buffer;
  text: string;
  json: unknown;
}

export interface RequestOptions {
  method?: string;
  token?: string;
  /** Sent as JSON. */
  body?: unknown;
}

/** A request to the site: no redirects followed, no cookies, given up after `timeoutMs`. */
export async function request(base: string, path: string, { method = 'GET', token, body }: RequestOptions = {}, timeoutMs = 15_000): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(`${base}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    throw new SmokeFailure(`${method} ${path} got no answer: ${(error as Error).message}`);
  }
  const bytes = Buffer.from(await response.arrayBuffer());
  const text = bytes.toString('utf8');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, body: bytes, text, json };
}

/** 'GET /x answered 500 (expected 401): <the start of the body>' unless the status is one of `expected`. */
export function expectStatus(answer: Answer, what: string, ...expected: number[]): void {
  if (expected.includes(answer.status)) return;
  throw new SmokeFailure(`${what} answered ${answer.status} (expected ${expected.join(' or ')}): ${answer.text.slice(0, 200).replace(/\s+/g, ' ')}`);
}

const codeOf = (answer: Answer) => (answer.json as { code?: unknown } | undefined)?.code;

export interface Site {
  /** The site's origin, e.g. https://d111111abcdef8.cloudfront.net or http://localhost:3000. */
  base: string;
  /** Its config.json, when that answered (the config check reads it first). */
  config: RuntimeConfig | undefined;
  timeoutMs: number;
}

export interface SignedIn extends Site {
  config: RuntimeConfig;
  user: { email: string; idToken: string };
}

export interface SmokeCheck<C> {
  name: string;
  run(context: C): Promise<string>;
}

/** The first check, GET /config.json: the runtime config the web app starts from, which the other checks and the disposable user need. */
export const configCheck = {
  name: 'config.json is the app runtime config',
  async run(site: Pick<Site, 'base' | 'timeoutMs'>): Promise<{ detail: string; config: RuntimeConfig }> {
    const answer = await request(site.base, '/config.json', {}, site.timeoutMs);
    expectStatus(answer, 'GET /config.json', 200);
    const parsed = runtimeConfigSchema.safeParse(answer.json);
    if (!parsed.success) {
      throw new SmokeFailure(
        `config.json is not the app's runtime config: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`).join('; ')}`,
      );
    }
    const config = parsed.data;
    return { detail: `mode ${config.mode}, region ${config.region}, user pool ${config.userPoolId}`, config };
  },
};

const normalized = (value: string) =>
  value
    .trim()
    .replace(/\s*;\s*/g, '; ')
    .toLowerCase();

/** The directives CloudFront's policy and the local server both put in the CSP, whatever the hosts. */
const CSP_MUST_HAVE = ["default-src 'self'", "script-src 'self'", "object-src 'none'", "frame-ancestors 'none'"];

/** What is wrong with a page's security headers (lib/securityHeaders.ts), one phrase each; empty when nothing. */
export function securityHeaderProblems(headers: Headers): string[] {
  const problems: string[] = [];
  for (const [name, expected] of Object.entries(FIXED_SECURITY_HEADERS)) {
    const value = headers.get(name);
    if (value === null) problems.push(`no ${name}`);
    else if (normalized(value) !== normalized(expected)) problems.push(`${name} is "${value}" (expected "${expected}")`);
  }
  const csp = headers.get(CSP_HEADER);
  const missing = CSP_MUST_HAVE.filter((directive) => !csp?.includes(directive));
  if (csp === null) problems.push(`no ${CSP_HEADER}`);
  else if (missing.length > 0) problems.push(`${CSP_HEADER} lacks ${missing.join(', ')}`);
  return problems;
}

/** The app's shell: the root and a client-side route (CloudFront's SPA rewrite, the local server's fallback). */
const APP_PATHS = ['/', '/dashboard/settings'];

/** A path of `route` with every parameter filled in, e.g. /api/contacts/smoke. */
const pathOf = (path: string) => path.replace(/\{[^}]+\}/g, 'smoke');

export const siteChecks: readonly SmokeCheck<Site>[] = [
  {
    name: 'the app is served with its security headers',
    async run({ base, timeoutMs }) {
      for (const path of APP_PATHS) {
        const answer = await request(base, path, {}, timeoutMs);
        expectStatus(answer, `GET ${path}`, 200);
        const type = answer.headers.get('content-type') ?? '';
        if (!type.startsWith('text/html') || !answer.text.includes('<div id="root">')) {
          throw new SmokeFailure(`GET ${path} is not the app's shell (content-type ${type || 'none'})`);
        }
        const problems = securityHeaderProblems(answer.headers);
        if (problems.length > 0) throw new SmokeFailure(`GET ${path}: ${problems.join('; ')}`);
      }
      return `${APP_PATHS.join(' and ')}: the app's HTML with ${SECURITY_HEADER_NAMES.length} security headers`;
    },
  },
  {
    name: 'every signed-in /api route answers 401 without a token',
    async run({ base, config, timeoutMs }) {
      // The local runtime's own routes (the outbox) exist only under npm start.
      const signedIn = (config?.mode === 'local' ? routes : cloudRoutes()).filter((route) => route.access !== 'public');
      const open: string[] = [];
      // One at a time: a burst of unsigned requests must not meet the API's own throttle instead.
      for (const route of signedIn) {
        const answer = await request(base, pathOf(route.path), { method: route.method }, timeoutMs);
        if (answer.status !== 401) open.push(`${route.method} ${pathOf(route.path)} answered ${answer.status}`);
      }
      if (open.length > 0) throw new SmokeFailure(open.join('; '));
      return `${signedIn.length} routes`;
    },
  },
  {
    name: 'the open pixel answers a GIF for an unknown token',
    async run({ base, timeoutMs }) {
      const answer = await request(base, `/api/t/o/${newEmailToken()}`, {}, timeoutMs);
      expectStatus(answer, 'GET /api/t/o/<unknown>', 200);
      const type = answer.headers.get('content-type');
      if (type !== 'image/gif' || answer.body.subarray(0, 4).toString('latin1') !== 'GIF8') {
        throw new SmokeFailure(`GET /api/t/o/<unknown> is not a GIF (content-type ${type ?? 'none'}, ${answer.body.length} bytes)`);
      }
      return `image/gif, ${answer.body.length} bytes`;
    },
  },
  {
    name: 'a listen link that does not exist answers 404 or 410',
    async run({ base, timeoutMs }) {
      const answer = await request(base, `/api/l/${newEmailToken()}`, {}, timeoutMs);
      expectStatus(answer, 'GET /api/l/<unknown>', 404, 410);
      return String(answer.status);
    },
  },
  {
    name: 'the Stripe webhook refuses an unsigned body',
    async run({ base, timeoutMs }) {
      const event = { id: 'evt_smoke_test', object: 'event', type: 'invoice.paid', data: { object: { customer: 'cus_smoke_test' } } };
      const answer = await request(base, '/api/billing/webhook', { method: 'POST', body: event }, timeoutMs);
      expectStatus(answer, 'POST /api/billing/webhook without Stripe-Signature', 400);
      if (codeOf(answer) !== 'invalid_signature') throw new SmokeFailure(`the webhook's 400 says ${answer.text.slice(0, 200)}, not invalid_signature`);
      return '400 invalid_signature';
    },
  },
];

export const userChecks: readonly SmokeCheck<SignedIn>[] = [
  {
    name: 'a signed-in user reads their profile',
    async run({ base, user, timeoutMs }) {
      const answer = await request(base, '/api/profile', { token: user.idToken }, timeoutMs);
      expectStatus(answer, 'GET /api/profile', 200);
      const email = (answer.json as { email?: unknown } | undefined)?.email;
      if (email !== user.email) throw new SmokeFailure(`GET /api/profile answered the profile of ${String(email)}, not ${user.email}`);
      return `200, ${user.email}`;
    },
  },
  {
    name: 'completing a track before its upload answers 409 not_uploaded',
    async run({ base, user, timeoutMs }) {
      const started = await request(
        base,
        '/api/tracks/uploads',
        { method: 'POST', token: user.idToken, body: { name: 'Smoke test.mp3', content_type: 'audio/mpeg', size: 1024 } },
        timeoutMs,
      );
      expectStatus(started, 'POST /api/tracks/uploads', 201);
      const id = (started.json as { track_id?: unknown } | undefined)?.track_id;
      if (typeof id !== 'string') throw new SmokeFailure(`POST /api/tracks/uploads gave no track_id: ${started.text.slice(0, 200)}`);
      const completed = await request(base, `/api/tracks/${id}/complete`, { method: 'POST', token: user.idToken, body: {} }, timeoutMs);
      // S3 answers a missing key 403 to a caller that may not list the bucket: the tracks function would then crash (500).
      if (completed.status >= 500) {
        throw new SmokeFailure(
          `POST /api/tracks/{id}/complete answered ${completed.status}: does the tracks function lack s3:ListBucket on uploads/ and tracks/ (S3 then answers 403 for a missing key)?`,
        );
      }
      expectStatus(completed, 'POST /api/tracks/{id}/complete before any upload', 409);
      if (codeOf(completed) !== 'not_uploaded') throw new SmokeFailure(`the 409 says ${completed.text.slice(0, 200)}, not not_uploaded`);
      return '409 not_uploaded: storage answers a missing key as missing';
    },
  },
];
