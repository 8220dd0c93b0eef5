/**
 * The API's route list: the single source for the API Gateway routes in CDK (lib/cloud/api.ts), for
 * the local server (lib/local/server.ts), for the keys of each handler group's route map (typed: see
 * GroupRouteKey) and for the web app's API paths (apiPath). A route names its handler group: one
 * Lambda per group, one module `lambdas/http/<group>.ts` exporting `handler`, `handlerFor` (a configuration's
 * handler: the local server's) and `makeHandler` (tests).
 * No imports: the web app bundles this module.
 */

/** public: no token. user: a valid Cognito ID token. admin: a valid token in the `admins` group. */
export type Access = 'public' | 'user' | 'admin';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteDefinition {
  method: HttpMethod;
  /** API Gateway path syntax: `/api/campaigns/{id}`. */
  path: string;
  handler: HandlerGroup;
  access: Access;
  /** Per-route throttle for public endpoints (requests per second, burst), same value locally. */
  throttle?: { rate: number; burst: number };
}

/** One handler group: its module and its Lambda limits (same locally and in AWS). Its table grant: lib/cloud/tableGrants.ts. */
export interface HandlerGroupDefinition {
  entry: string;
  /** Calls the AI writer (Bedrock in AWS): CDK grants bedrock:InvokeModel on the configured model only. */
  writer?: boolean;
  /** Packages installed beside the bundle instead of bundled (jsdom reads its own files at run time). */
  nodeModules?: readonly string[];
  description: string;
  /** Lambda timeout in seconds (default DEFAULT_LAMBDA_LIMITS); under the API's 30 s integration timeout. */
  timeoutSeconds?: number;
  /** Lambda memory in MB, 128–10240 (default DEFAULT_LAMBDA_LIMITS). */
  memoryMb?: number;
  /** Served by the local runtime only (the local outbox): CDK deploys no Lambda and no route for it. */
  localOnly?: boolean;
  /** Encrypts mailbox refresh tokens (KMS GenerateDataKey in AWS). */
  sealsSecrets?: boolean;
  /** Reads the OAuth state signing key and the Google client secret (Secrets Manager in AWS). */
  readsOAuthSecrets?: boolean;
  /** Reads the Stripe secret key and webhook signing secret (Secrets Manager in AWS) and the plans' price ids. */
  readsBillingSecrets?: boolean;
  /** Removes users from the Cognito user pool (AdminDeleteUser): CDK grants it on the app's pool only. */
  deletesUsers?: boolean;
  /**
   * Uses the tracks' audio bucket (issue 16): 'readwrite' presigns uploads (to `uploads/`), reads them,
   * copies checked ones to `tracks/` and deletes; 'read' only signs GET URLs of `tracks/` (the listen
   * page). CDK grants exactly this (lib/cloud/audio.ts).
   */
  audio?: 'read' | 'readwrite';
  /**
   * Writes the data export's zip (issue 26 §3) to the audio bucket's `exports/` (a multipart upload) and
   * signs its download URL: CDK grants put, abort and get on that prefix only (lib/cloud/audio.ts).
   */
  writesExports?: boolean;
  /**
   * Limits each client of its public POST routes (lambdas/http/clientLimit.ts): in AWS it gets the origin
   * secret CloudFront sends, so it may believe CloudFront's viewer address.
   */
  limitsClients?: boolean;
}

/** The header CloudFront adds to every request it sends the API (lib/cloud/web.ts), holding the origin secret. */
export const ORIGIN_VERIFY_HEADER = 'x-origin-verify';
/** The header CloudFront fills with the viewer's address and port (`198.51.100.10:46532`, `2001:db8::1:46532`). */
export const VIEWER_ADDRESS_HEADER = 'cloudfront-viewer-address';

export const handlerGroups = {
  health: { entry: 'lambdas/http/health.ts', description: 'liveness and version' },
  profile: { entry: 'lambdas/http/profile.ts', description: "the signed-in user's profile" },
  waitlist: { entry: 'lambdas/http/waitlist.ts', description: 'public beta waitlist: join, spots left', limitsClients: true },
  admin: {
    entry: 'lambdas/http/admin.ts',
    description: 'admin-only screens: waitlist, directory import',
    // A directory import parses and upserts a whole file (thousands of entries) in one request.
    timeoutSeconds: 28,
    memoryMb: 1024,
  },
  contacts: {
    entry: 'lambdas/http/contacts.ts',
    description: "the user's contacts, CSV import batches, unsubscribed list",
  },
  directory: {
    entry: 'lambdas/http/directory.ts',
    description: 'LabelFinder directory: list, add entries to contacts',
    // A paid user's bulk add writes up to 1000 contacts.
    timeoutSeconds: 28,
  },
  campaigns: {
    entry: 'lambdas/http/campaigns.ts',
    description: 'campaign drafts, the AI email preview, per-recipient previews',
    writer: true,
    nodeModules: ['jsdom'],
    // The writer may take 10–20 s; the HTML sanitizer builds a DOM (jsdom) once per container.
    timeoutSeconds: 28,
    memoryMb: 1024,
  },
  compose: {
    entry: 'lambdas/http/compose.ts',
    description: "the user's campaign templates and saved recipient lists",
  },
  sending: {
    entry: 'lambdas/http/sending.ts',
    description: 'send a campaign (checks, queueing in batches), pause, resume, retry failed, sending status, sent emails',
  },
  mailbox: {
    entry: 'lambdas/http/mailbox.ts',
    description: 'connect a Gmail mailbox (OAuth consent and callback), disconnect it',
    sealsSecrets: true,
    readsOAuthSecrets: true,
  },
  tracking: {
    entry: 'lambdas/http/tracking.ts',
    description: 'public: open pixel, click redirect, the unsubscribe page lookup and confirm, RFC 8058 one-click',
  },
  billing: {
    entry: 'lambdas/http/billing.ts',
    description: 'plans and billing: Checkout, the billing portal, subscription sync, the provider webhook',
    readsBillingSecrets: true,
  },
  tracks: {
    entry: 'lambdas/http/tracks.ts',
    description: "the artist's tracks: upload straight to storage (presigned POST), complete (metadata read), cover art, My tracks, delete",
    audio: 'readwrite',
    // Completing reads the stored file's header (an MP4's may sit after its audio: a long read).
    timeoutSeconds: 28,
  },
  listen: {
    entry: 'lambdas/http/listen.ts',
    description: "public: a recipient's private listen page (its data and a signed audio URL), its listen beacons and one-click answer",
    audio: 'read',
    limitsClients: true,
  },
  pipeline: {
    entry: 'lambdas/http/pipeline.ts',
    description: "the pitch pipeline (issue 28 §1): the artist's tracks with counts, a track's board, marks, to-dos, a contact's tracks",
  },
  insights: {
    entry: 'lambdas/http/insights.ts',
    description: 'dashboard statistics and analytics: reads of the counters, recent sends and per-recipient activity',
  },
  account: {
    entry: 'lambdas/http/account.ts',
    description: "the user's own data (issue 26): download it all (a zip), delete the account and everything of it",
    // The deletion cancels the subscription (Stripe), removes the audio and the sign-in: every grant of its own.
    readsBillingSecrets: true,
    audio: 'readwrite',
    // The export's zip is streamed to storage as it is built (an API answer is capped at 6 MB).
    writesExports: true,
    deletesUsers: true,
    // A large account's export (thousands of contacts and emails) and erasure take seconds, not milliseconds.
    timeoutSeconds: 28,
    memoryMb: 1024,
  },
  outbox: {
    entry: 'lambdas/http/outbox.ts',
    description: 'local runtime only: the messages the local mailbox sent',
    localOnly: true,
  },
} as const satisfies Record<string, HandlerGroupDefinition>;

export interface LambdaLimits {
  timeoutSeconds: number;
  memoryMb: number;
}

export const DEFAULT_LAMBDA_LIMITS: Readonly<LambdaLimits> = { timeoutSeconds: 10, memoryMb: 512 };

/** The effective timeout and memory of a handler group's Lambda: what CDK deploys and the local server applies. */
export function lambdaLimits(group: HandlerGroup): LambdaLimits {
  const definition: HandlerGroupDefinition = handlerGroups[group];
  return {
    timeoutSeconds: definition.timeoutSeconds ?? DEFAULT_LAMBDA_LIMITS.timeoutSeconds,
    memoryMb: definition.memoryMb ?? DEFAULT_LAMBDA_LIMITS.memoryMb,
  };
}

export type HandlerGroup = keyof typeof handlerGroups;

export const ADMIN_GROUP = 'admins';

/** The public routes' throttles (requests per second, burst), named by who calls them. */
const throttles = {
  /** A person submitting a form or coming back from a consent page: a few a second is plenty. */
  person: { rate: 5, burst: 10 },
  /** A person's page that a few others may open at once (the unsubscribe and listen answers). */
  sharedPage: { rate: 10, burst: 20 },
  /** Pages and machines that poll (health, the waitlist's spots, the billing provider's events). */
  polled: { rate: 20, burst: 40 },
  /** What mail clients, privacy proxies and link scanners fetch as an email arrives, and the listen page's beacons. */
  emailLinks: { rate: 50, burst: 100 },
} as const;

/** The table itself, with each route's method, path, group and access as literal types (see RouteKey). */
const routeTable = [
  { method: 'GET', path: '/api/health', handler: 'health', access: 'public', throttle: throttles.polled },
  { method: 'GET', path: '/api/profile', handler: 'profile', access: 'user' },
  { method: 'PATCH', path: '/api/profile', handler: 'profile', access: 'user' },
  { method: 'POST', path: '/api/waitlist', handler: 'waitlist', access: 'public', throttle: throttles.person },
  { method: 'GET', path: '/api/waitlist/spots', handler: 'waitlist', access: 'public', throttle: throttles.polled },
  { method: 'GET', path: '/api/admin/waitlist', handler: 'admin', access: 'admin' },
  { method: 'PATCH', path: '/api/admin/waitlist/{id}', handler: 'admin', access: 'admin' },
  { method: 'PUT', path: '/api/admin/waitlist/{id}/notes', handler: 'admin', access: 'admin' },
  { method: 'POST', path: '/api/admin/directory', handler: 'admin', access: 'admin' },
  { method: 'GET', path: '/api/contacts', handler: 'contacts', access: 'user' },
  { method: 'POST', path: '/api/contacts', handler: 'contacts', access: 'user' },
  { method: 'POST', path: '/api/contacts/import', handler: 'contacts', access: 'user' },
  { method: 'POST', path: '/api/contacts/bulk-delete', handler: 'contacts', access: 'user' },
  { method: 'GET', path: '/api/contacts/{id}', handler: 'contacts', access: 'user' },
  { method: 'PUT', path: '/api/contacts/{id}', handler: 'contacts', access: 'user' },
  { method: 'DELETE', path: '/api/contacts/{id}', handler: 'contacts', access: 'user' },
  { method: 'GET', path: '/api/unsubscribes', handler: 'contacts', access: 'user' },
  { method: 'GET', path: '/api/unsubscribes/count', handler: 'contacts', access: 'user' },
  { method: 'DELETE', path: '/api/unsubscribes/{id}', handler: 'contacts', access: 'user' },
  { method: 'GET', path: '/api/directory', handler: 'directory', access: 'user' },
  { method: 'POST', path: '/api/directory/contacts', handler: 'directory', access: 'user' },
  { method: 'GET', path: '/api/campaigns', handler: 'campaigns', access: 'user' },
  { method: 'POST', path: '/api/campaigns', handler: 'campaigns', access: 'user' },
  { method: 'POST', path: '/api/campaigns/generate-preview', handler: 'campaigns', access: 'user' },
  { method: 'GET', path: '/api/campaigns/{id}', handler: 'campaigns', access: 'user' },
  { method: 'PUT', path: '/api/campaigns/{id}', handler: 'campaigns', access: 'user' },
  { method: 'PATCH', path: '/api/campaigns/{id}', handler: 'campaigns', access: 'user' },
  { method: 'DELETE', path: '/api/campaigns/{id}', handler: 'campaigns', access: 'user' },
  { method: 'POST', path: '/api/campaigns/bulk-delete', handler: 'campaigns', access: 'user' },
  { method: 'POST', path: '/api/campaigns/{id}/recipient-preview', handler: 'campaigns', access: 'user' },
  { method: 'GET', path: '/api/templates', handler: 'compose', access: 'user' },
  { method: 'POST', path: '/api/templates', handler: 'compose', access: 'user' },
  { method: 'DELETE', path: '/api/templates/{id}', handler: 'compose', access: 'user' },
  { method: 'GET', path: '/api/contact-lists', handler: 'compose', access: 'user' },
  { method: 'POST', path: '/api/contact-lists', handler: 'compose', access: 'user' },
  { method: 'DELETE', path: '/api/contact-lists/{id}', handler: 'compose', access: 'user' },
  { method: 'GET', path: '/api/sending/status', handler: 'sending', access: 'user' },
  { method: 'POST', path: '/api/campaigns/{id}/send-check', handler: 'sending', access: 'user' },
  { method: 'POST', path: '/api/campaigns/{id}/send', handler: 'sending', access: 'user' },
  { method: 'POST', path: '/api/campaigns/{id}/pause', handler: 'sending', access: 'user' },
  { method: 'POST', path: '/api/campaigns/{id}/resume', handler: 'sending', access: 'user' },
  { method: 'POST', path: '/api/campaigns/{id}/retry-failed', handler: 'sending', access: 'user' },
  { method: 'GET', path: '/api/campaigns/{id}/emails', handler: 'sending', access: 'user' },
  { method: 'GET', path: '/api/campaigns/{id}/emails/{position}', handler: 'sending', access: 'user' },
  // The artist's "Replied" mark on a sent email (issue 27: gmail.send cannot read replies).
  { method: 'PUT', path: '/api/campaigns/{id}/emails/{position}/replied', handler: 'sending', access: 'user' },
  { method: 'DELETE', path: '/api/campaigns/{id}/emails/{position}/replied', handler: 'sending', access: 'user' },
  { method: 'GET', path: '/api/contacts/{id}/emails', handler: 'sending', access: 'user' },
  { method: 'POST', path: '/api/mailbox/connect', handler: 'mailbox', access: 'user' },
  { method: 'DELETE', path: '/api/mailbox', handler: 'mailbox', access: 'user' },
  // Google (or the local mailbox's consent page) sends the browser here: no token, the signed state says who.
  { method: 'GET', path: '/api/mailbox/callback', handler: 'mailbox', access: 'public', throttle: throttles.person },
  // Mail clients, proxies and scanners fetch these: public, throttled.
  { method: 'GET', path: '/api/t/o/{token}', handler: 'tracking', access: 'public', throttle: throttles.emailLinks },
  { method: 'GET', path: '/api/t/c/{token}/{link}', handler: 'tracking', access: 'public', throttle: throttles.emailLinks },
  { method: 'GET', path: '/api/unsubscribe', handler: 'tracking', access: 'public', throttle: throttles.sharedPage },
  { method: 'POST', path: '/api/unsubscribe', handler: 'tracking', access: 'public', throttle: throttles.sharedPage },
  { method: 'POST', path: '/api/unsubscribe/one-click', handler: 'tracking', access: 'public', throttle: throttles.sharedPage },
  { method: 'GET', path: '/api/unsubscribe/one-click', handler: 'tracking', access: 'public', throttle: throttles.sharedPage },
  { method: 'POST', path: '/api/billing/sync', handler: 'billing', access: 'user' },
  { method: 'POST', path: '/api/billing/checkout', handler: 'billing', access: 'user' },
  { method: 'POST', path: '/api/billing/portal', handler: 'billing', access: 'user' },
  // The billing provider (Stripe, or the local twin) posts events here: no token, the signature says who.
  { method: 'POST', path: '/api/billing/webhook', handler: 'billing', access: 'public', throttle: throttles.polled },
  { method: 'GET', path: '/api/tracks', handler: 'tracks', access: 'user' },
  { method: 'POST', path: '/api/tracks/uploads', handler: 'tracks', access: 'user' },
  { method: 'POST', path: '/api/tracks/{id}/complete', handler: 'tracks', access: 'user' },
  // Cover art (issue 25 §5): the same presigned upload and complete, for a ready track.
  { method: 'POST', path: '/api/tracks/{id}/cover/uploads', handler: 'tracks', access: 'user' },
  { method: 'POST', path: '/api/tracks/{id}/cover/complete', handler: 'tracks', access: 'user' },
  { method: 'DELETE', path: '/api/tracks/{id}', handler: 'tracks', access: 'user' },
  // The listen page (issue 16): opened from emails by people and by link scanners: public, throttled.
  { method: 'GET', path: '/api/l/{token}', handler: 'listen', access: 'public', throttle: throttles.emailLinks },
  { method: 'POST', path: '/api/l/{token}/events', handler: 'listen', access: 'public', throttle: throttles.emailLinks },
  { method: 'POST', path: '/api/l/{token}/answer', handler: 'listen', access: 'public', throttle: throttles.sharedPage },
  // The pitch pipeline (issue 28 §1): a track is its pitch key (core pitchKey), an entry its address id.
  { method: 'GET', path: '/api/pipeline/tracks', handler: 'pipeline', access: 'user' },
  { method: 'GET', path: '/api/pipeline/tracks/{trackKey}', handler: 'pipeline', access: 'user' },
  { method: 'PUT', path: '/api/pipeline/tracks/{trackKey}/entries/{addressId}/mark', handler: 'pipeline', access: 'user' },
  { method: 'PUT', path: '/api/pipeline/tracks/{trackKey}/entries/{addressId}/todo', handler: 'pipeline', access: 'user' },
  { method: 'GET', path: '/api/pipeline/todos', handler: 'pipeline', access: 'user' },
  { method: 'GET', path: '/api/contacts/{id}/tracks', handler: 'pipeline', access: 'user' },
  { method: 'GET', path: '/api/dashboard', handler: 'insights', access: 'user' },
  { method: 'GET', path: '/api/analytics', handler: 'insights', access: 'user' },
  { method: 'GET', path: '/api/analytics/activity', handler: 'insights', access: 'user' },
  { method: 'GET', path: '/api/analytics/campaigns/{id}/links', handler: 'insights', access: 'user' },
  { method: 'GET', path: '/api/account/export', handler: 'account', access: 'user' },
  { method: 'DELETE', path: '/api/account', handler: 'account', access: 'user' },
  { method: 'GET', path: '/api/local/outbox', handler: 'outbox', access: 'user' },
  { method: 'GET', path: '/api/local/outbox/{id}', handler: 'outbox', access: 'user' },
] as const satisfies readonly RouteDefinition[];

export const routes: readonly RouteDefinition[] = routeTable;

/** One route of the table, as a literal type. */
export type Route = (typeof routeTable)[number];

/** The `"METHOD /path"` key of each route in a union of routes. */
type KeyOfRoute<R> = R extends { method: infer M extends string; path: infer P extends string } ? `${M} ${P}` : never;

/** A route key of the table: what `event.routeKey` holds, and what handler maps and apiPath take. */
export type RouteKey = KeyOfRoute<Route>;

/** The keys of one handler group's routes: exactly the entries its httpApi map must have. */
export type GroupRouteKey<G extends HandlerGroup> = KeyOfRoute<Extract<Route, { handler: G }>>;

type RouteNamed<R, K> = R extends unknown ? (KeyOfRoute<R> extends K ? R : never) : never;

/** Who may call the route a key names. */
export type AccessOf<K extends RouteKey> = RouteNamed<Route, K>['access'];

type PathOf<K extends string> = K extends `${string} ${infer P}` ? P : never;
type ParamNames<P extends string> = P extends `${string}{${infer Name}}${infer Rest}` ? Name | ParamNames<Rest> : never;

/** The path parameters of the route a key names: `{id}` in the path is `id: string`. */
export type PathParams<K extends RouteKey> = { [N in ParamNames<PathOf<K>>]: string };

/** The route keys whose path has `{params}`. */
type KeyWithParams = Extract<RouteKey, `${string}{${string}`>;

/**
 * The URL path of a route, its `{params}` filled and URI-encoded: `apiPath('GET /api/campaigns/{id}', { id })`.
 * The web app builds every API path with it, so a path exists only in the table above. Uses no table
 * entry at run time (the key is checked by the compiler), so the web bundle carries no route list.
 */
export function apiPath(key: Exclude<RouteKey, KeyWithParams>): string;
export function apiPath<K extends KeyWithParams>(key: K, params: { [N in ParamNames<PathOf<K>>]: string | number }): string;
export function apiPath(key: RouteKey, params: Record<string, string | number> = {}): string {
  return key.slice(key.indexOf(' ') + 1).replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`apiPath: no value for {${name}} of ${key}`);
    return encodeURIComponent(String(value));
  });
}

/** The routes deployed to AWS: every route but the local runtime's own (the outbox). */
export const cloudRoutes = (): readonly RouteDefinition[] => routes.filter((route) => !(handlerGroups[route.handler] as HandlerGroupDefinition).localOnly);

/** The API Gateway route key, as it appears in `event.routeKey`. */
export const routeKey = (route: Pick<RouteDefinition, 'method' | 'path'>) => `${route.method} ${route.path}`;

/** Match a concrete path against a route path; returns the path parameters or undefined. */
export function matchPath(routePath: string, actualPath: string): Record<string, string> | undefined {
  const expected = routePath.split('/');
  const actual = actualPath.split('/');
  if (expected.length !== actual.length) return undefined;
  const params: Record<string, string> = {};
  for (const [i, part] of expected.entries()) {
    const value = actual[i] ?? ''; // same length: always there
    if (part.startsWith('{') && part.endsWith('}')) {
      if (value === '') return undefined;
      try {
        params[part.slice(1, -1)] = decodeURIComponent(value);
      } catch {
        return undefined; // a malformed %-escape matches no route: 404, not a crash
      }
    } else if (part !== value) {
      return undefined;
    }
  }
  return params;
}

/** The route for a method and path, as API Gateway picks it (most literal segments first), or undefined. */
export function findRoute(method: string, path: string) {
  const candidates = routes
    .map((route) => ({ route, params: matchPath(route.path, path) }))
    .filter((m): m is { route: RouteDefinition; params: Record<string, string> } => m.params !== undefined);
  const sameMethod = candidates.filter((c) => c.route.method === method);
  // Prefer the route with the most literal segments, as API Gateway does.
  const literalCount = (p: string) => p.split('/').filter((s) => !s.startsWith('{')).length;
  sameMethod.sort((a, b) => literalCount(b.route.path) - literalCount(a.route.path));
  // API Gateway answers 404 (undefined here) for an unknown path and for a known path with another method.
  return sameMethod[0];
}
