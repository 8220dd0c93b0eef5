/**
 * The security headers every page of the site carries: CloudFront's response headers policy in AWS
 * (lib/cloud/web.ts), the local server locally (lib/local/static.ts), and what the smoke test checks
 * after a deploy (scripts/smoke/checks.ts). One list, so the three cannot drift; only the CSP's hosts
 * differ (Cognito and the audio bucket in AWS, cognito-local and the app itself locally).
 */

/** Two years, as browsers' HSTS preload lists ask. */
export const HSTS_MAX_AGE_SECONDS = 730 * 24 * 60 * 60;
export const PERMISSIONS_POLICY = 'camera=(), microphone=(), geolocation=(), payment=()';
export const CROSS_ORIGIN_OPENER_POLICY = 'same-origin';

/** The headers whose value is the same everywhere (lower-case names, as Node and fetch report them). */
export const FIXED_SECURITY_HEADERS = {
  'strict-transport-security': `max-age=${HSTS_MAX_AGE_SECONDS}; includeSubDomains`,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'permissions-policy': PERMISSIONS_POLICY,
  'cross-origin-opener-policy': CROSS_ORIGIN_OPENER_POLICY,
} as const;

export const CSP_HEADER = 'content-security-policy';

/** Every security header the site sends, the CSP included. */
export const SECURITY_HEADER_NAMES = [...Object.keys(FIXED_SECURITY_HEADERS), CSP_HEADER] as const;

export interface CspHosts {
  /** Origins the app calls besides its own: Cognito, and the audio bucket for uploads. */
  connect: readonly string[];
  /** Origins the player streams from besides its own: the audio bucket. */
  media: readonly string[];
  /**
   * The site is served over https (AWS): images from any https host (emails' remote images), and every
   * http:// subresource fetched over https. Locally the site itself is http: images from http hosts too.
   */
  https: boolean;
}

/** Content-Security-Policy for the React SPA: own scripts only, Cognito for auth, images in previews. */
export function contentSecurityPolicy({ connect, media, https }: CspHosts): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    // Cloudscape sets inline style attributes.
    "style-src 'self' 'unsafe-inline'",
    // Email previews (and the local outbox) show remote images.
    `img-src 'self' data: blob: https:${https ? '' : ' http:'}`,
    "font-src 'self' data:",
    // The audio bucket: track uploads (presigned POST) and, for the listen page, the player's signed GETs.
    ["connect-src 'self'", ...connect].join(' '),
    ["media-src 'self'", ...media].join(' '),
    "frame-src 'self'",
    "frame-ancestors 'none'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    ...(https ? ['upgrade-insecure-requests'] : []),
  ].join('; ');
}

/** The local server's headers: the same list, the CSP naming cognito-local (`userPoolEndpoint`) instead of AWS's hosts. */
export function localSecurityHeaders(userPoolEndpoint: string | undefined): Record<string, string> {
  const cognito = userPoolEndpoint ? [new URL(userPoolEndpoint).origin] : [];
  return { ...FIXED_SECURITY_HEADERS, [CSP_HEADER]: contentSecurityPolicy({ connect: cognito, media: [], https: false }) };
}
