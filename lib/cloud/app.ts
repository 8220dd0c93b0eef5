/**
 * Builds the CDK app: config → stack → cdk-nag (AwsSolutions). bin/app.ts runs it for the CLI; the
 * infra tests call it with their own context (bundling skipped: no esbuild, no Vite).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { App, type AppProps, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { type ConfigSources, readConfig, REPO_ROOT, type TrackpitchConfig } from './config';
import { stackName, TrackpitchStack } from './stack';

export interface BuiltApp {
  app: App;
  stack: TrackpitchStack;
  config: TrackpitchConfig;
}

/** The `context` of cdk.json (feature flags): applied by the CLI, and here for apps built in tests. */
export function cdkJsonContext(): Record<string, unknown> {
  const cdkJson = JSON.parse(readFileSync(path.join(REPO_ROOT, 'cdk.json'), 'utf8')) as { context?: Record<string, unknown> };
  return cdkJson.context ?? {};
}

export function buildApp(props: AppProps = {}, env: NodeJS.ProcessEnv = process.env, sources: Pick<ConfigSources, 'settingsDir' | 'rootDir'> = {}): BuiltApp {
  const app = new App({
    // CDK's built-in CloudFormation schema validation adds ~10 s to every synth on this machine, so it
    // is opt-in (TRACKPITCH_CFN_VALIDATION=true); cdk-nag always runs.
    builtinCloudFormationValidation: env.TRACKPITCH_CFN_VALIDATION === 'true',
    ...props,
    context: { ...cdkJsonContext(), ...props.context },
  });
  const config = readConfig({ context: (key) => app.node.tryGetContext(key) as unknown, env, ...sources });
  // The region the Bedrock model was chosen for is the one the stack deploys to; the account stays the CLI's.
  const stack = new TrackpitchStack(app, stackName(config.stage), { config, ...(config.region ? { env: { region: config.region } } : {}) });
  // DESIGN §5 and §7: every AwsSolutions finding is fixed or acknowledged with a reason; synth fails otherwise.
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return { app, stack, config };
}
