/**
 * One way to build every Lambda: a NodejsFunction (Node 22, arm64, bundled locally with esbuild as
 * minified ESM with source maps for Node 22, the one Node of .nvmrc that runs locally too),
 * its own execution role and its own log group. The role starts with nothing but "write to my log
 * group"; each construct adds exactly the grants its function needs, so nothing inherits the broad
 * AWSLambdaBasicExecutionRole managed policy.
 */
import path from 'node:path';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime } from 'aws-cdk-lib/aws-lambda';
import { Charset, NodejsFunction, OutputFormat, type BundlingOptions } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { BUNDLE_TARGET, ESM_REQUIRE_BANNER } from './bundling';
import { REPO_ROOT } from './config';
import { METRICS_NAMESPACE, METRICS_SERVICE } from '../../schema/metrics';
import { acknowledge } from './nag';

export const LAMBDA_RUNTIME = Runtime.NODEJS_22_X;
export const LAMBDA_ARCHITECTURE = Architecture.ARM_64;

export interface AppFunctionProps {
  /** Module path relative to the repository root; it exports `handler`. */
  entry: string;
  description: string;
  environment: Record<string, string>;
  timeout: Duration;
  memorySize?: number;
  /** Packages installed beside the bundle instead of bundled (read their own files at run time, e.g. jsdom). */
  nodeModules?: readonly string[];
}

/** Environment every Trackpitch Lambda gets (Powertools Logger and Metrics, version, stage). */
export function commonEnvironment(stage: string, version: string): Record<string, string> {
  return {
    POWERTOOLS_SERVICE_NAME: METRICS_SERVICE,
    POWERTOOLS_METRICS_NAMESPACE: METRICS_NAMESPACE,
    POWERTOOLS_LOG_LEVEL: 'INFO',
    APP_VERSION: version,
    STAGE: stage,
  };
}

export class AppFunction extends Construct {
  readonly fn: NodejsFunction;
  readonly role: Role;
  readonly logGroup: LogGroup;
  /** How the code is bundled (kept so tests can see what a function ships with; synth skips bundling). */
  readonly bundling: BundlingOptions;

  constructor(scope: Construct, id: string, props: AppFunctionProps) {
    super(scope, id);
    this.logGroup = new LogGroup(this, 'Logs', {
      retention: RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `Execution role of ${props.description}`,
    });
    this.logGroup.grantWrite(this.role);

    this.bundling = {
      format: OutputFormat.ESM,
      target: BUNDLE_TARGET,
      mainFields: ['module', 'main'],
      banner: ESM_REQUIRE_BANNER,
      minify: true,
      sourceMap: true,
      sourcesContent: false,
      charset: Charset.UTF8,
      // Pin the SDK version we test with instead of the one the runtime happens to ship.
      bundleAwsSDK: true,
      // Kept out of the bundle and installed by npm into the asset's node_modules, at the version package.json pins.
      ...(props.nodeModules?.length ? { nodeModules: [...props.nodeModules] } : {}),
      // That install takes the packages from npm's cache when it has them (package-lock.json pins each
      // version and checksum): offline, npm would otherwise retry the registry for minutes per function.
      environment: { npm_config_prefer_offline: 'true' },
    };

    this.fn = new NodejsFunction(this, 'Function', {
      entry: path.join(REPO_ROOT, props.entry),
      handler: 'handler',
      description: props.description,
      runtime: LAMBDA_RUNTIME,
      architecture: LAMBDA_ARCHITECTURE,
      memorySize: props.memorySize ?? 512,
      timeout: props.timeout,
      role: this.role,
      logGroup: this.logGroup,
      // Stack traces point at the TypeScript sources (the bundle ships its source map).
      environment: { NODE_OPTIONS: '--enable-source-maps', ...props.environment },
      projectRoot: REPO_ROOT,
      depsLockFilePath: path.join(REPO_ROOT, 'package-lock.json'),
      bundling: this.bundling,
    });

    acknowledge(this.fn, {
      id: 'AwsSolutions-L1',
      reason:
        "Node.js 22 is pinned on purpose (DESIGN §7): it is .nvmrc's Node, which the code is bundled for and tested on locally, and a runtime upgrade is a reviewed change, not something cdk-nag should force.",
    });
  }
}
