/**
 * The deployment's typed configuration. A stage's settings live in one file an operator edits once,
 * `deploy/<stage>.json` (the stage comes from `-c stage=…`), so a later deploy cannot drop an earlier
 * setting; a `TRACKPITCH_*` environment variable overrides the file (CI), and CDK context (`-c key=value`,
 * or cdk.json `context`) overrides both; then the default. All problems are reported at once, each
 * naming the setting, where its value came from (or where to set it) and what is wrong.
 * docs/deploy.md documents every key.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PriceTable } from '../../lambdas/core/billing';
import { bedrockModelForRegion, DEFAULT_BEDROCK_MODEL } from './bedrock';

/** The repository root (lib/cloud/../..), so paths work whatever the current directory is. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The web app's sources: by default synth builds them with Vite (lib/cloud/web-build.ts). */
export const WEB_DIR = path.join(REPO_ROOT, 'web');

/** A committed one-page stand-in for the web build, for a synth or deploy without the real app. */
export const PLACEHOLDER_WEB_DIST = path.join(REPO_ROOT, 'lib', 'cloud', 'placeholder-web');

/** Where the stages' settings files are: `deploy/<stage>.json`. */
export const SETTINGS_DIR = path.join(REPO_ROOT, 'deploy');

/** Where the deployed web app comes from (the `webDist` setting). */
export type WebSource =
  /** webDist unset: CDK's asset bundling runs `vite build` on `webDir` during synth. */
  | { kind: 'vite'; webDir: string }
  /** webDist=<folder>: a web app you built yourself, deployed as it is. */
  | { kind: 'prebuilt'; path: string }
  /** webDist=placeholder: the one-page stand-in. */
  | { kind: 'placeholder'; path: string };

export interface GoogleConfig {
  /** OAuth 2.0 web client id from Google Cloud console (ends with .apps.googleusercontent.com). */
  clientId: string;
  /** Name (or ARN) of the Secrets Manager secret whose SecretString is the Google client secret. */
  clientSecretName: string;
}

export interface TrackpitchConfig {
  /** Short environment name: part of the stack name, resource names and the Cognito domain default. */
  stage: string;
  /**
   * The region the stack deploys to: the `region` setting, else the CDK CLI's (CDK_DEFAULT_REGION);
   * undefined only when synthesized without the CLI (the infra tests): the template is then region-agnostic.
   */
  region: string | undefined;
  /** Prefix of the Cognito domain `<prefix>.auth.<region>.amazoncognito.com` (hosted UI: the OAuth endpoints for Google sign-in). */
  cognitoDomainPrefix: string;
  /** Sign-in with Google through Cognito; undefined: email and password only. */
  google: GoogleConfig | undefined;
  /** Extra OAuth sign-in redirect URLs (the CloudFront URL + /auth is always allowed). */
  callbackUrls: string[];
  /** Extra OAuth sign-out redirect URLs (the CloudFront URL + / is always allowed). */
  logoutUrls: string[];
  /** Bedrock model (or inference profile) id used by the AI writer, one the deploy region serves. */
  bedrockModelId: string;
  /** Contact addresses shown in the footer and the legal pages. */
  contactEmails: { support: string; privacy: string };
  /** Address subscribed to the alarm topic (confirm the subscription email once); undefined: no subscription. */
  alarmEmail: string | undefined;
  /** The web app to deploy: built from web/ during synth (default), a prebuilt folder, or the placeholder. */
  web: WebSource;
  /** Default API stage throttle: steady requests per second and burst. */
  apiThrottle: { rate: number; burst: number };
  /** Stripe's price id of each paid plan (docs/deploy.md: Stripe); undefined: the billing routes answer 503. */
  stripePrices: PriceTable | undefined;
  /** A WAF web ACL with per-IP rate rules on the public POST routes (lib/cloud/waf.ts); off by default (it costs). */
  waf: boolean;
}

/** One setting: its context key, environment variable and meaning (used for errors and the docs). */
export const SETTINGS = {
  stage: { env: 'TRACKPITCH_STAGE', help: 'environment name, e.g. dev or prod' },
  region: { env: 'TRACKPITCH_REGION', help: 'AWS region the stack deploys to, e.g. us-east-1 (required for prod)' },
  cognitoDomainPrefix: { env: 'TRACKPITCH_COGNITO_DOMAIN_PREFIX', help: 'Cognito hosted-UI domain prefix' },
  googleClientId: { env: 'TRACKPITCH_GOOGLE_CLIENT_ID', help: 'Google OAuth client id' },
  googleClientSecretName: { env: 'TRACKPITCH_GOOGLE_CLIENT_SECRET_NAME', help: 'Secrets Manager secret name holding the Google client secret' },
  callbackUrls: { env: 'TRACKPITCH_CALLBACK_URLS', help: 'extra OAuth sign-in redirect URLs, comma-separated' },
  logoutUrls: { env: 'TRACKPITCH_LOGOUT_URLS', help: 'extra OAuth sign-out redirect URLs, comma-separated' },
  bedrockModelId: { env: 'TRACKPITCH_BEDROCK_MODEL_ID', help: 'Bedrock model, inference profile id or ARN for the AI writer' },
  supportEmail: { env: 'TRACKPITCH_SUPPORT_EMAIL', help: 'support contact email shown in the app' },
  privacyEmail: { env: 'TRACKPITCH_PRIVACY_EMAIL', help: 'privacy contact email shown in the app' },
  alarmEmail: { env: 'TRACKPITCH_ALARM_EMAIL', help: 'email subscribed to the alarm topic' },
  webDist: { env: 'TRACKPITCH_WEB_DIST', help: "unset: synth builds web/ with Vite; or a prebuilt web app folder, or 'placeholder'" },
  apiRateLimit: { env: 'TRACKPITCH_API_RATE_LIMIT', help: 'default API requests per second' },
  apiBurstLimit: { env: 'TRACKPITCH_API_BURST_LIMIT', help: 'default API burst' },
  stripePricePro: { env: 'TRACKPITCH_STRIPE_PRICE_PRO', help: 'Stripe price id of the Pro plan ($29/month), e.g. price_1Q…' },
  stripePriceLabel: { env: 'TRACKPITCH_STRIPE_PRICE_LABEL', help: 'Stripe price id of the Expert (label) plan ($99/month)' },
  waf: {
    env: 'TRACKPITCH_WAF',
    help: 'true: a WAF web ACL with per-IP rate limits on the public POST routes (about $8/month + $0.60 per million requests; us-east-1 stacks only)',
  },
} as const;

export type SettingKey = keyof typeof SETTINGS;

export const DEFAULTS = {
  stage: 'dev',
  bedrockModelId: DEFAULT_BEDROCK_MODEL,
  supportEmail: 'support@example.com',
  privacyEmail: 'privacy@example.com',
  apiRateLimit: 50,
  apiBurstLimit: 100,
} as const;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(
      `Trackpitch deployment config has ${problems.length} problem${problems.length === 1 ? '' : 's'}:\n` +
        problems.map((p) => `  - ${p}`).join('\n') +
        '\nSettings are read from deploy/<stage>.json; a TRACKPITCH_* variable overrides the file, and `-c key=value` overrides both. See docs/deploy.md#settings.',
    );
    this.name = 'ConfigError';
  }
}

export interface ConfigSources {
  /** CDK context lookup, e.g. `(key) => app.node.tryGetContext(key)`. */
  context: (key: string) => unknown;
  env?: NodeJS.ProcessEnv;
  /** Base for a relative webDist folder; default: the repository root. */
  rootDir?: string;
  /** Folder of the `<stage>.json` settings files; default: deploy/ in the repository. null: read none (tests). */
  settingsDir?: string | null;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const STAGE = /^[a-z][a-z0-9-]{0,15}$/;
/** Cognito: lowercase letters, digits and hyphens, no leading/trailing hyphen, and no reserved words. */
const DOMAIN_PREFIX = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const RESERVED_IN_DOMAIN = ['aws', 'amazon', 'cognito'];
/** A Stripe price id: `price_` and letters or digits. */
const STRIPE_PRICE = /^price_[A-Za-z0-9]+$/;
const MODEL_ID = /^(arn:aws[a-z-]*:bedrock:[a-z0-9-]*:\d*:[a-z-]+\/)?[a-zA-Z0-9.:_-]+$/;
const REGION = /^[a-z]{2}(-[a-z]+)+-\d+$/;

/** Where a setting's value came from, as the messages name it. */
type SettingSource = { kind: 'context' } | { kind: 'env' } | { kind: 'file'; file: string };

/**
 * A stage's settings file: a JSON object of settings (any key of SETTINGS but `stage`, which is the file's
 * name). Missing: no settings. Each value is checked like the same setting from anywhere else.
 */
function readSettingsFile(file: string, shown: string, problems: string[]): Record<string, unknown> {
  if (!existsSync(file)) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    problems.push(`${shown} is not valid JSON (${(error as Error).message}): fix the file`);
    return {};
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    problems.push(`${shown} must hold one JSON object of settings, e.g. { "region": "us-east-1" }`);
    return {};
  }
  const settings: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(parsed)) {
    if (key === 'stage') problems.push(`${shown}: "stage" is the file's name, not a setting in it (-c stage=<name> reads deploy/<name>.json); remove it`);
    else if (!(key in SETTINGS))
      problems.push(
        `${shown}: unknown setting "${key}"; the settings are ${Object.keys(SETTINGS)
          .filter((k) => k !== 'stage')
          .join(', ')}`,
      );
    else settings[key] = value;
  }
  return settings;
}

export function readConfig({ context, env = process.env, rootDir = REPO_ROOT, settingsDir = SETTINGS_DIR }: ConfigSources): TrackpitchConfig {
  const problems: string[] = [];
  const blank = (value: unknown) => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

  /** Context, then the environment, then the stage's settings file (read once the stage is known); blank counts as unset. */
  let fileSettings: Record<string, unknown> = {};
  let settingsFile = 'deploy/<stage>.json';
  const found = (key: SettingKey): { value: unknown; source: SettingSource } | undefined => {
    const fromContext = context(key);
    if (!blank(fromContext)) return { value: fromContext, source: { kind: 'context' } };
    const fromEnv = env[SETTINGS[key].env];
    if (!blank(fromEnv)) return { value: fromEnv, source: { kind: 'env' } };
    const fromFile = fileSettings[key];
    return blank(fromFile) ? undefined : { value: fromFile, source: { kind: 'file', file: settingsFile } };
  };
  const raw = (key: SettingKey): unknown => found(key)?.value;
  /** The setting as a message names it: where its value came from, or where to set it. */
  const where = (key: SettingKey) => {
    const source = found(key)?.source;
    if (source?.kind === 'context') return `${key} (from -c ${key}=…)`;
    if (source?.kind === 'env') return `${key} (from ${SETTINGS[key].env})`;
    if (source?.kind === 'file') return `${key} (from ${source.file})`;
    return key === 'stage' ? 'stage (-c stage=…)' : `${key} (set it in ${settingsFile})`;
  };
  const text = (key: SettingKey): string | undefined => {
    const value = raw(key);
    if (value === undefined) return undefined;
    if (typeof value === 'string') return value.trim();
    if (typeof value === 'number' || typeof value === 'boolean') return String(value);
    problems.push(`${where(key)} must be a string, got ${JSON.stringify(value)}`);
    return undefined;
  };
  const list = (key: SettingKey): string[] => {
    const value = raw(key);
    if (value === undefined) return [];
    if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value.map((v) => v.trim()).filter(Boolean);
    if (typeof value === 'string')
      return value
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean);
    problems.push(`${where(key)} must be a comma-separated string or a list of strings`);
    return [];
  };
  const positiveInt = (key: SettingKey, fallback: number): number => {
    const value = raw(key);
    if (value === undefined) return fallback;
    const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value.trim()) : NaN;
    if (!Number.isInteger(n) || n <= 0) {
      problems.push(`${where(key)} must be a whole number above 0, got ${JSON.stringify(value)}`);
      return fallback;
    }
    return n;
  };
  const flag = (key: SettingKey): boolean => {
    const value = raw(key);
    if (value === undefined || value === false || value === 'false') return false;
    if (value === true || value === 'true') return true;
    problems.push(`${where(key)} must be true or false, got ${JSON.stringify(value)}`);
    return false;
  };
  const checkEmail = (key: SettingKey, value: string) => {
    if (!EMAIL.test(value)) problems.push(`${where(key)} is not an email address: "${value}"`);
    return value;
  };
  const email = (key: SettingKey): string | undefined => {
    const value = text(key);
    return value === undefined ? undefined : checkEmail(key, value);
  };
  const emailOr = (key: SettingKey, fallback: string): string => checkEmail(key, text(key) ?? fallback);

  const stage = text('stage') ?? DEFAULTS.stage;
  if (!STAGE.test(stage)) {
    problems.push(`${where('stage')} must start with a lowercase letter and use only a-z, 0-9 and '-', at most 16 characters; got "${stage}"`);
  } else {
    settingsFile = `deploy/${stage}.json`;
    if (settingsDir !== null) {
      const file = path.join(settingsDir, `${stage}.json`);
      fileSettings = readSettingsFile(file, settingsDir === SETTINGS_DIR ? settingsFile : file, problems);
      if (settingsDir !== SETTINGS_DIR) settingsFile = file;
    }
  }

  // Production's region is written down; another stage may follow the CDK CLI's (its profile or AWS_REGION).
  const explicitRegion = text('region');
  const cliRegion = env.CDK_DEFAULT_REGION?.trim() || undefined;
  let region = explicitRegion ?? (stage === 'prod' ? undefined : cliRegion);
  if (explicitRegion !== undefined && !REGION.test(explicitRegion)) {
    problems.push(`${where('region')} is not an AWS region such as "us-east-1": got "${explicitRegion}"`);
    region = undefined;
  } else if (stage === 'prod' && explicitRegion === undefined) {
    problems.push(`${where('region')} is required for the prod stage: the region production deploys to, e.g. "us-east-1"`);
  }

  const explicitPrefix = text('cognitoDomainPrefix');
  const cognitoDomainPrefix = explicitPrefix ?? `trackpitch-${stage}`;
  if (explicitPrefix === undefined && !STAGE.test(stage)) {
    // Derived from the stage, already reported above.
  } else if (!DOMAIN_PREFIX.test(cognitoDomainPrefix)) {
    problems.push(
      `${where('cognitoDomainPrefix')} must be 1-63 lowercase letters, digits or '-', not starting or ending with '-'; got "${cognitoDomainPrefix}"`,
    );
  } else {
    const reserved = RESERVED_IN_DOMAIN.find((word) => cognitoDomainPrefix.includes(word));
    if (reserved)
      problems.push(`${where('cognitoDomainPrefix')} must not contain the reserved word "${reserved}" (Cognito rejects it); got "${cognitoDomainPrefix}"`);
  }

  const googleClientId = text('googleClientId');
  const googleClientSecretName = text('googleClientSecretName');
  let google: GoogleConfig | undefined;
  if (googleClientId && !googleClientSecretName) {
    problems.push(`${where('googleClientSecretName')} is required when googleClientId is set (the secret holding the Google client secret)`);
  } else if (!googleClientId && googleClientSecretName) {
    problems.push(`${where('googleClientId')} is required when googleClientSecretName is set`);
  } else if (googleClientId && googleClientSecretName) {
    if (!googleClientId.endsWith('.apps.googleusercontent.com')) {
      problems.push(`${where('googleClientId')} should look like "1234-abc.apps.googleusercontent.com"; got "${googleClientId}"`);
    }
    if (!/^[A-Za-z0-9/_+=.@:-]+$/.test(googleClientSecretName)) {
      problems.push(`${where('googleClientSecretName')} is not a valid Secrets Manager name or ARN: "${googleClientSecretName}"`);
    }
    google = { clientId: googleClientId, clientSecretName: googleClientSecretName };
  }

  const checkUrls = (key: SettingKey, urls: string[]) => {
    for (const url of urls) {
      let parsed: URL | undefined;
      try {
        parsed = new URL(url);
      } catch {
        parsed = undefined;
      }
      const localhost = parsed?.protocol === 'http:' && parsed.hostname === 'localhost';
      if (!parsed || (parsed.protocol !== 'https:' && !localhost)) {
        problems.push(`${where(key)}: "${url}" must be an https:// URL (http:// is allowed for localhost only)`);
      }
    }
    return urls;
  };
  const callbackUrls = checkUrls('callbackUrls', list('callbackUrls'));
  const logoutUrls = checkUrls('logoutUrls', list('logoutUrls'));

  const requestedModel = text('bedrockModelId');
  let bedrockModelId = requestedModel ?? DEFAULTS.bedrockModelId;
  if (!MODEL_ID.test(bedrockModelId)) {
    problems.push(`${where('bedrockModelId')} is not a Bedrock model id: "${bedrockModelId}"`);
  } else {
    const served = bedrockModelForRegion(requestedModel, region);
    if ('problem' in served) problems.push(`${where('bedrockModelId')}: ${served.problem}`);
    else bedrockModelId = served.modelId;
  }

  const support = emailOr('supportEmail', DEFAULTS.supportEmail);
  const privacy = emailOr('privacyEmail', DEFAULTS.privacyEmail);
  if (stage === 'prod') {
    for (const [key, value] of [
      ['supportEmail', support],
      ['privacyEmail', privacy],
    ] as const) {
      if (/@([a-z0-9-]+\.)*example\.(com|org|net)$|\.(example|test|invalid|localhost)$/i.test(value)) {
        problems.push(`${where(key)} must be a real address for the prod stage (it is shown to users); got "${value}"`);
      }
    }
  }
  const alarmEmail = email('alarmEmail');

  const webDist = text('webDist');
  let web: WebSource;
  if (webDist === undefined) {
    web = { kind: 'vite', webDir: WEB_DIR };
  } else if (webDist === 'placeholder') {
    web = { kind: 'placeholder', path: PLACEHOLDER_WEB_DIST };
  } else {
    web = { kind: 'prebuilt', path: path.resolve(rootDir, webDist) };
    if (!existsSync(path.join(web.path, 'index.html'))) {
      problems.push(
        `${where('webDist')}: no web build at ${web.path} (index.html missing). ` +
          'Leave webDist unset to have synth build web/ itself, or use `-c webDist=placeholder` to deploy a placeholder page.',
      );
    }
  }

  const apiThrottle = {
    rate: positiveInt('apiRateLimit', DEFAULTS.apiRateLimit),
    burst: positiveInt('apiBurstLimit', DEFAULTS.apiBurstLimit),
  };

  const stripePricePro = text('stripePricePro');
  const stripePriceLabel = text('stripePriceLabel');
  let stripePrices: TrackpitchConfig['stripePrices'];
  if ((stripePricePro === undefined) !== (stripePriceLabel === undefined)) {
    problems.push(
      `${where(stripePricePro === undefined ? 'stripePricePro' : 'stripePriceLabel')} is required when the other plan's price is set (both paid plans need a price)`,
    );
  } else if (stripePricePro !== undefined && stripePriceLabel !== undefined) {
    for (const [setting, value] of [
      ['stripePricePro', stripePricePro],
      ['stripePriceLabel', stripePriceLabel],
    ] as const) {
      if (!STRIPE_PRICE.test(value)) problems.push(`${where(setting)} is not a Stripe price id (price_…): "${value}"`);
    }
    if (stripePricePro === stripePriceLabel) problems.push(`${where('stripePriceLabel')} must differ from stripePricePro (each plan has its own price)`);
    stripePrices = { pro: stripePricePro, label: stripePriceLabel };
  }

  const waf = flag('waf');
  // A CLOUDFRONT-scope web ACL (the only kind that can guard this API: lib/cloud/waf.ts) exists in us-east-1 only.
  if (waf && region !== undefined && region !== 'us-east-1') {
    problems.push(
      `${where('waf')}: the web ACL guards the CloudFront distribution, and CloudFront's web ACLs are created in us-east-1 only; this stack deploys to ${region}. Deploy to us-east-1 or leave waf off`,
    );
  }

  if (problems.length > 0) throw new ConfigError(problems);
  return {
    stage,
    region,
    cognitoDomainPrefix,
    google,
    callbackUrls,
    logoutUrls,
    bedrockModelId,
    contactEmails: { support, privacy },
    alarmEmail,
    web,
    apiThrottle,
    stripePrices,
    waf,
  };
}
