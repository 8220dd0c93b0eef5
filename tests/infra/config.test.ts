/**
 * lib/cloud/config.ts: defaults, the stage's settings file under TRACKPITCH_* variables under context,
 * the deploy region, the AI writer's model for that region, and one clear message listing every
 * problem with where its value came from.
 */
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULTS, PLACEHOLDER_WEB_DIST, readConfig, SETTINGS, WEB_DIR } from '../../lib/cloud/config';

const placeholder = { webDist: 'placeholder' };
/** Reads no deploy/<stage>.json unless the test gives a settings folder. */
const read = (context: Record<string, unknown>, env: NodeJS.ProcessEnv = {}, rootDir?: string, settingsDir: string | null = null) =>
  readConfig({ context: (key) => context[key], env, settingsDir, ...(rootDir ? { rootDir } : {}) });

function problems(context: Record<string, unknown>, env: NodeJS.ProcessEnv = {}, rootDir?: string, settingsDir: string | null = null): string[] {
  try {
    read(context, env, rootDir, settingsDir);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error('expected a ConfigError');
}

describe('readConfig', () => {
  it('has working defaults, the web app built from web/ during synth', () => {
    const config = read({});
    expect(config).toEqual({
      stage: 'dev',
      region: undefined,
      cognitoDomainPrefix: 'trackpitch-dev',
      google: undefined,
      callbackUrls: [],
      logoutUrls: [],
      bedrockModelId: DEFAULTS.bedrockModelId,
      contactEmails: { support: DEFAULTS.supportEmail, privacy: DEFAULTS.privacyEmail },
      alarmEmail: undefined,
      web: { kind: 'vite', webDir: WEB_DIR },
      apiThrottle: { rate: DEFAULTS.apiRateLimit, burst: DEFAULTS.apiBurstLimit },
      waf: false,
    });
  });

  it('reads every setting from its TRACKPITCH_* variable, and context wins over the environment', () => {
    const env = {
      TRACKPITCH_STAGE: 'staging',
      TRACKPITCH_GOOGLE_CLIENT_ID: 'abc.apps.googleusercontent.com',
      TRACKPITCH_GOOGLE_CLIENT_SECRET_NAME: 'trackpitch/google',
      TRACKPITCH_CALLBACK_URLS: 'https://a.example.com/auth, https://b.example.com/auth',
      TRACKPITCH_API_RATE_LIMIT: '7',
      TRACKPITCH_ALARM_EMAIL: 'ops@example.com',
      TRACKPITCH_WEB_DIST: 'placeholder',
    };
    expect(read({}, env)).toMatchObject({
      stage: 'staging',
      cognitoDomainPrefix: 'trackpitch-staging',
      google: { clientId: 'abc.apps.googleusercontent.com', clientSecretName: 'trackpitch/google' },
      callbackUrls: ['https://a.example.com/auth', 'https://b.example.com/auth'],
      apiThrottle: { rate: 7, burst: DEFAULTS.apiBurstLimit },
      alarmEmail: 'ops@example.com',
      web: { kind: 'placeholder', path: PLACEHOLDER_WEB_DIST },
    });
    expect(read({ stage: 'qa', apiRateLimit: 9, callbackUrls: ['https://c.example.com/auth'] }, env)).toMatchObject({
      stage: 'qa',
      apiThrottle: { rate: 9 },
      callbackUrls: ['https://c.example.com/auth'],
    });
  });

  it('turns the WAF web ACL on only when asked, in us-east-1 only (a CloudFront web ACL lives there)', () => {
    expect(read({ waf: 'true', region: 'us-east-1' }).waf).toBe(true);
    expect(read({}, { TRACKPITCH_WAF: 'true' }).waf).toBe(true);
    expect(read({ waf: false }, { TRACKPITCH_WAF: 'true' }).waf).toBe(false);
    expect(problems({ waf: 'yes' })).toEqual(['waf (from -c waf=…) must be true or false, got "yes"']);
    expect(problems({ waf: true, region: 'eu-west-1' })).toEqual([
      "waf (from -c waf=…): the web ACL guards the CloudFront distribution, and CloudFront's web ACLs are created in us-east-1 only; this stack deploys to eu-west-1. Deploy to us-east-1 or leave waf off",
    ]);
  });

  it('documents an environment variable for every setting', () => {
    for (const [key, setting] of Object.entries(SETTINGS)) {
      expect(setting.env, key).toMatch(/^TRACKPITCH_[A-Z_]+$/);
      expect(setting.help.length, key).toBeGreaterThan(5);
    }
  });

  it('lists every problem at once, naming the setting and its variable', () => {
    const found = problems({
      ...placeholder,
      stage: 'Prod!',
      cognitoDomainPrefix: 'my-cognito-app',
      googleClientId: 'abc.apps.googleusercontent.com',
      callbackUrls: 'http://app.example.com/auth',
      supportEmail: 'not-an-email',
      apiBurstLimit: '0',
    });
    expect(found).toHaveLength(6);
    expect(found.join('\n')).toContain('stage (from -c stage=…)');
    expect(found.join('\n')).toContain('reserved word "cognito"');
    expect(found.join('\n')).toContain('googleClientSecretName');
    expect(found.join('\n')).toContain('must be an https:// URL');
    expect(found.join('\n')).toContain('not an email address');
    expect(found.join('\n')).toContain('whole number above 0');
  });

  it('requires the Google client id and secret name together', () => {
    expect(problems({ ...placeholder, googleClientSecretName: 'x' })[0]).toMatch(/^googleClientId .* is required when googleClientSecretName is set/);
  });

  it('refuses placeholder contact emails on the prod stage, saying where to set them', () => {
    const found = problems({ ...placeholder, stage: 'prod', region: 'us-east-1' });
    expect(found).toEqual([
      'supportEmail (set it in deploy/prod.json) must be a real address for the prod stage (it is shown to users); got "support@example.com"',
      'privacyEmail (set it in deploy/prod.json) must be a real address for the prod stage (it is shown to users); got "privacy@example.com"',
    ]);
    expect(read({ ...placeholder, stage: 'prod', region: 'us-east-1', supportEmail: 'help@trackpitch.io', privacyEmail: 'privacy@trackpitch.io' }).stage).toBe(
      'prod',
    );
  });

  it('needs no web build when webDist is unset: synth builds web/ (a fresh clone has no web/dist)', () => {
    const emptyRoot = mkdtempSync(path.join(tmpdir(), 'trackpitch-config-'));
    expect(read({}, {}, emptyRoot).web).toEqual({ kind: 'vite', webDir: WEB_DIR });
    expect(read({ webDist: '' }, { TRACKPITCH_WEB_DIST: ' ' }, emptyRoot).web).toEqual({ kind: 'vite', webDir: WEB_DIR });
  });

  it('deploys a prebuilt webDist folder as it is, and explains one without index.html', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'trackpitch-config-'));
    const [message] = problems({ webDist: 'build/web' }, {}, root);
    expect(message).toContain(path.join(root, 'build', 'web'));
    expect(message).toContain('index.html missing');
    expect(message).toContain('Leave webDist unset');
    expect(message).toContain('-c webDist=placeholder');

    mkdirSync(path.join(root, 'build', 'web'), { recursive: true });
    writeFileSync(path.join(root, 'build', 'web', 'index.html'), '<!doctype html>');
    expect(read({ webDist: 'build/web' }, {}, root).web).toEqual({ kind: 'prebuilt', path: path.join(root, 'build', 'web') });
    expect(read({}, { TRACKPITCH_WEB_DIST: path.join(root, 'build', 'web') }).web).toEqual({ kind: 'prebuilt', path: path.join(root, 'build', 'web') });
    expect(read(placeholder).web).toEqual({ kind: 'placeholder', path: PLACEHOLDER_WEB_DIST });
  });

  it('prints as one readable message', () => {
    const error = new ConfigError(['a is wrong', 'b is wrong']);
    expect(error.message).toBe(
      'Trackpitch deployment config has 2 problems:\n  - a is wrong\n  - b is wrong\n' +
        'Settings are read from deploy/<stage>.json; a TRACKPITCH_* variable overrides the file, and `-c key=value` overrides both. See docs/deploy.md#settings.',
    );
  });
});

describe("a stage's settings file, deploy/<stage>.json", () => {
  /** A settings folder holding the given files (name → content). */
  function settingsDir(files: Record<string, string>): string {
    const dir = mkdtempSync(path.join(tmpdir(), 'trackpitch-settings-'));
    for (const [name, content] of Object.entries(files)) writeFileSync(path.join(dir, name), content);
    return dir;
  }
  const prodFile = JSON.stringify({
    region: 'eu-west-1',
    cognitoDomainPrefix: 'trackpitch-yourco-prod',
    supportEmail: 'support@your-domain.com',
    privacyEmail: 'privacy@your-domain.com',
    alarmEmail: 'ops@your-domain.com',
    callbackUrls: ['https://app.your-domain.com/auth'],
    apiRateLimit: 20,
  });

  it("holds the stage's settings, so a deploy with only -c stage=prod keeps every one", () => {
    const dir = settingsDir({ 'prod.json': prodFile });
    expect(read({ stage: 'prod' }, {}, undefined, dir)).toMatchObject({
      stage: 'prod',
      region: 'eu-west-1',
      cognitoDomainPrefix: 'trackpitch-yourco-prod',
      contactEmails: { support: 'support@your-domain.com', privacy: 'privacy@your-domain.com' },
      alarmEmail: 'ops@your-domain.com',
      callbackUrls: ['https://app.your-domain.com/auth'],
      apiThrottle: { rate: 20 },
    });
  });

  it('is read for its own stage only', () => {
    const dir = settingsDir({ 'prod.json': prodFile });
    expect(read({ stage: 'staging' }, {}, undefined, dir)).toMatchObject({ cognitoDomainPrefix: 'trackpitch-staging', alarmEmail: undefined });
  });

  it('is overridden by a TRACKPITCH_* variable, and both by -c key=value', () => {
    const dir = settingsDir({ 'prod.json': prodFile });
    const env = { TRACKPITCH_ALARM_EMAIL: 'ci@your-domain.com', TRACKPITCH_API_RATE_LIMIT: '30' };
    expect(read({ stage: 'prod' }, env, undefined, dir)).toMatchObject({ alarmEmail: 'ci@your-domain.com', apiThrottle: { rate: 30 } });
    expect(read({ stage: 'prod', alarmEmail: 'cli@your-domain.com' }, env, undefined, dir)).toMatchObject({ alarmEmail: 'cli@your-domain.com' });
  });

  it('names the file a bad value came from, and each other source by its own name', () => {
    const dir = settingsDir({ 'prod.json': JSON.stringify({ ...JSON.parse(prodFile), alarmEmail: 'ops-at-your-domain' }) });
    const file = path.join(dir, 'prod.json');
    expect(problems({ stage: 'prod' }, {}, undefined, dir)).toEqual([`alarmEmail (from ${file}) is not an email address: "ops-at-your-domain"`]);
    expect(problems({ stage: 'prod' }, { TRACKPITCH_ALARM_EMAIL: 'x' }, undefined, dir)).toEqual([
      'alarmEmail (from TRACKPITCH_ALARM_EMAIL) is not an email address: "x"',
    ]);
    expect(problems({ stage: 'prod', alarmEmail: 'y' }, {}, undefined, dir)).toEqual(['alarmEmail (from -c alarmEmail=…) is not an email address: "y"']);
  });

  it('refuses a key that is no setting (a typo would otherwise be ignored), a stage in the file, and anything but a JSON object', () => {
    const file = (content: string) => {
      const dir = settingsDir({ 'qa.json': content });
      return problems({ stage: 'qa' }, {}, undefined, dir).map((p) => p.replace(dir + path.sep, ''));
    };
    expect(file('{ "suportEmail": "help@your-domain.com", "stage": "prod" }')).toEqual([
      `qa.json: unknown setting "suportEmail"; the settings are ${Object.keys(SETTINGS)
        .filter((k) => k !== 'stage')
        .join(', ')}`,
      'qa.json: "stage" is the file\'s name, not a setting in it (-c stage=<name> reads deploy/<name>.json); remove it',
    ]);
    expect(file('{ "region": "us-east-1", }')[0]).toMatch(/^qa\.json is not valid JSON \(.+\): fix the file$/);
    expect(file('["us-east-1"]')).toEqual(['qa.json must hold one JSON object of settings, e.g. { "region": "us-east-1" }']);
  });
});

describe('the deploy region', () => {
  it('is required, written down, for prod: the CLI region alone is refused', () => {
    expect(
      problems({ ...placeholder, stage: 'prod', supportEmail: 'a@your-domain.com', privacyEmail: 'b@your-domain.com' }, { CDK_DEFAULT_REGION: 'us-east-1' }),
    ).toEqual(['region (set it in deploy/prod.json) is required for the prod stage: the region production deploys to, e.g. "us-east-1"']);
  });

  it("follows the CDK CLI's region on other stages, and is unknown without the CLI", () => {
    expect(read({}, { CDK_DEFAULT_REGION: 'eu-west-1' }).region).toBe('eu-west-1');
    expect(read({ region: 'us-west-2' }, { CDK_DEFAULT_REGION: 'eu-west-1' }).region).toBe('us-west-2');
    expect(read({}).region).toBeUndefined();
  });

  it('must look like a region', () => {
    expect(problems({ region: 'Ireland' })).toEqual(['region (from -c region=…) is not an AWS region such as "us-east-1": got "Ireland"']);
  });
});

describe("the AI writer's model for the deploy region", () => {
  const modelIn = (region: string | undefined, bedrockModelId?: string) =>
    read({ ...(region ? { region } : {}), ...(bedrockModelId ? { bedrockModelId } : {}) }).bedrockModelId;

  it("is the default model where it is served on demand, else its geography's cross-region profile", () => {
    expect(modelIn('us-east-1')).toBe('amazon.nova-lite-v1:0');
    expect(modelIn('us-west-2')).toBe('us.amazon.nova-lite-v1:0');
    expect(modelIn('eu-west-1')).toBe('eu.amazon.nova-lite-v1:0');
    expect(modelIn('ap-southeast-2')).toBe('apac.amazon.nova-lite-v1:0');
    expect(modelIn(undefined)).toBe('amazon.nova-lite-v1:0');
  });

  it('refuses a model the region cannot serve on demand, naming the profile to use', () => {
    expect(problems({ region: 'eu-west-1', bedrockModelId: 'amazon.nova-lite-v1:0' })).toEqual([
      'bedrockModelId (from -c bedrockModelId=…): "amazon.nova-lite-v1:0" is served on demand in us-east-1 only: in eu-west-1 use its cross-region inference profile "eu.amazon.nova-lite-v1:0"',
    ]);
  });

  it("refuses a profile called from outside its geography, naming the region's own", () => {
    expect(problems({ region: 'eu-west-1' }, { TRACKPITCH_BEDROCK_MODEL_ID: 'us.amazon.nova-pro-v1:0' })).toEqual([
      'bedrockModelId (from TRACKPITCH_BEDROCK_MODEL_ID): "us.amazon.nova-pro-v1:0" is called from us-east-1, us-east-2, us-west-2 only: in eu-west-1 use "eu.amazon.nova-pro-v1:0"',
    ]);
    expect(modelIn('us-east-1', 'us.amazon.nova-pro-v1:0')).toBe('us.amazon.nova-pro-v1:0');
  });

  it('refuses the default model in a region no profile serves, saying what to do', () => {
    const [problem] = problems({ region: 'sa-east-1' });
    expect(problem).toMatch(/^bedrockModelId \(set it in deploy\/dev\.json\): the default model amazon\.nova-lite-v1:0 is served on demand in us-east-1 only/);
    expect(problem).toContain('no cross-region inference profile is called from sa-east-1 (us.: us-east-1, us-east-2, us-west-2; eu.: ');
    expect(problem).toContain('deploy to one of those regions, or name a model that sa-east-1 serves');
  });

  it('refuses an ARN in another region than the stack', () => {
    const arn = 'arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/a1b2c3';
    expect(problems({ region: 'eu-west-1', bedrockModelId: arn })).toEqual([
      `bedrockModelId (from -c bedrockModelId=…): "${arn}" is in us-east-1, but the stack deploys to eu-west-1: the Lambdas call Bedrock in their own region, so name one in eu-west-1`,
    ]);
    expect(modelIn('us-east-1', arn)).toBe(arn);
  });

  it('keeps a model it has no region facts about, and any model when the region is unknown', () => {
    expect(modelIn('eu-west-1', 'anthropic.claude-3-haiku-20240307-v1:0')).toBe('anthropic.claude-3-haiku-20240307-v1:0');
    expect(modelIn('eu-west-1', 'global.amazon.nova-2-lite-v1:0')).toBe('global.amazon.nova-2-lite-v1:0');
    expect(modelIn(undefined, 'us.amazon.nova-lite-v1:0')).toBe('us.amazon.nova-lite-v1:0');
  });
});
