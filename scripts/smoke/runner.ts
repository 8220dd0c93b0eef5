/**
 * Runs the smoke checks (./checks.ts) against one site, in order: config.json, the site checks, then the
 * disposable user (created, the user checks, deleted). Every check runs and reports one line, a failure
 * included; a check whose prerequisite failed fails too, saying which. The run fails if any line does.
 */
import { configCheck, siteChecks, SmokeFailure, userChecks, type Site, type SmokeCheck } from './checks';
import { createDisposableUser, type DisposableUser } from './disposableUser';
import type { RuntimeConfig } from '../../schema/api/runtimeConfig';

export interface CheckResult {
  name: string;
  ok: boolean;
  detail: string;
}

export interface SmokeReport {
  results: CheckResult[];
  passed: number;
  failed: number;
}

export interface SmokeOptions {
  /** Each result's line as soon as it is known (the CLI prints them). */
  onResult?: (result: CheckResult) => void;
  /** How the disposable user is made (tests may replace it); default: Cognito's admin API, then the app's sign-in. */
  createUser?: (config: RuntimeConfig) => Promise<DisposableUser>;
  /** Per request; default 15 s. */
  timeoutMs?: number;
}

export const USER_CREATED = 'a disposable user is created and signs in';
export const USER_DELETED = 'the disposable user is deleted';

/** 'PASS  name: detail' or 'FAIL  name: reason'. */
export const resultLine = ({ name, ok, detail }: CheckResult) => `${ok ? 'PASS' : 'FAIL'}  ${name}: ${detail}`;

export const summaryLine = ({ passed, failed }: SmokeReport) => `${passed} passed, ${failed} failed`;

const reasonOf = (error: unknown) => (error instanceof SmokeFailure || error instanceof Error ? error.message : String(error));

/** `base`: the site's origin (https://<distribution>.cloudfront.net, http://localhost:3000). */
export async function runSmoke(base: string, options: SmokeOptions = {}): Promise<SmokeReport> {
  const { onResult, createUser = createDisposableUser, timeoutMs = 15_000 } = options;
  const results: CheckResult[] = [];
  const record = (name: string, ok: boolean, detail: string) => {
    const result = { name, ok, detail };
    results.push(result);
    onResult?.(result);
  };
  async function attempt<T>(name: string, run: () => Promise<{ detail: string; value: T }>): Promise<T | undefined> {
    try {
      const { detail, value } = await run();
      record(name, true, detail);
      return value;
    } catch (error) {
      record(name, false, reasonOf(error));
      return undefined;
    }
  }
  const runChecks = async <C>(checks: readonly SmokeCheck<C>[], context: C) => {
    for (const check of checks) await attempt(check.name, async () => ({ detail: await check.run(context), value: undefined }));
  };

  const config = await attempt(configCheck.name, async () => {
    const { detail, config: read } = await configCheck.run({ base, timeoutMs });
    return { detail, value: read };
  });
  const site: Site = { base, config, timeoutMs };
  await runChecks(siteChecks, site);

  const user = config
    ? await attempt(USER_CREATED, async () => {
        const created = await createUser(config);
        return { detail: created.email, value: created };
      })
    : undefined;
  if (!config) record(USER_CREATED, false, 'not run: config.json did not answer the runtime config');
  if (config && user) {
    await runChecks(userChecks, { ...site, config, user });
    await attempt(USER_DELETED, async () => {
      await user.delete();
      return { detail: user.email, value: undefined };
    });
  } else {
    for (const check of userChecks) record(check.name, false, 'not run: no signed-in user');
  }

  const failed = results.filter((result) => !result.ok).length;
  return { results, passed: results.length - failed, failed };
}
