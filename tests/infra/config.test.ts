/**
 * lib/cloud/config.ts: defaults, context over environment, and one clear message listing every problem.
 */
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULTS, PLACEHOLDER_WEB_DIST, readConfig, SETTINGS, WEB_DIR } from '../../lib/cloud/config';

const placeholder = { webDist: 'placeholder' };
const read = (context: Record<string, unknown>, env: NodeJS.ProcessEnv = {}, rootDir?: string) =>
  readConfig({ context: (key) => context[key], env, ...(rootDir ? { rootDir } : {}) });

function problems(context: Record<string, unknown>, env: NodeJS.ProcessEnv = {}, rootDir?: string): string[] {
  try {
    read(context, env, rootDir);
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
      cognitoDomainPrefix: 'trackpitch-dev',
      google: undefined,
      callbackUrls: [],
      logoutUrls: [],
      bedrockModelId: DEFAULTS.bedrockModelId,
      contactEmails: { support: DEFAULTS.supportEmail, privacy: DEFAULTS.privacyEmail },
      alarmEmail: undefined,
      web: { kind: 'vite', webDir: WEB_DIR },
      apiThrottle: { rate: DEFAULTS.apiRateLimit, burst: DEFAULTS.apiBurstLimit },
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
    expect(found.join('\n')).toContain('stage (-c stage=…, or TRACKPITCH_STAGE)');
    expect(found.join('\n')).toContain('reserved word "cognito"');
    expect(found.join('\n')).toContain('googleClientSecretName');
    expect(found.join('\n')).toContain('must be an https:// URL');
    expect(found.join('\n')).toContain('not an email address');
    expect(found.join('\n')).toContain('whole number above 0');
  });

  it('requires the Google client id and secret name together', () => {
    expect(problems({ ...placeholder, googleClientSecretName: 'x' })[0]).toMatch(/^googleClientId .* is required when googleClientSecretName is set/);
  });

  it('refuses placeholder contact emails on the prod stage', () => {
    const found = problems({ ...placeholder, stage: 'prod' });
    expect(found).toHaveLength(2);
    expect(found[0]).toContain('real address for the prod stage');
    expect(read({ ...placeholder, stage: 'prod', supportEmail: 'help@trackpitch.io', privacyEmail: 'privacy@trackpitch.io' }).stage).toBe('prod');
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
        'Set a value with `-c key=value`, in cdk.json "context", or with the environment variable shown. See docs/deploy.md.',
    );
  });
});
