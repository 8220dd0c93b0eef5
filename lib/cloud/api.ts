/**
 * The HTTP API: one Lambda per handler group of schema/routes.ts (timeout and memory from
 * lambdaLimits(), as locally), one API route per route (JWT authorizer on the Cognito user pool and
 * web client unless the route is public), the group's table grant from lib/cloud/tableGrants.ts (and, for a
 * group that calls the AI writer, bedrock:InvokeModel on the configured model only; for a group that
 * seals mailbox tokens or reads the OAuth or Stripe secrets, exactly those keys and secrets), a default stage
 * throttle plus per-route throttles, and JSON access logs. Groups served by the local runtime only
 * (the local outbox) get no Lambda and no route.
 */
import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { CfnStage, HttpApi, HttpMethod, HttpNoneAuthorizer, HttpRoute, HttpRouteKey, HttpStage, LogGroupLogDestination } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpUserPoolAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { cloudRoutes, handlerGroups, lambdaLimits, routeKey, type HandlerGroup, type HandlerGroupDefinition, type RouteDefinition } from '../../schema/routes';
import type { Auth } from './auth';
import type { Data } from './data';
import { grantModelInvocation } from './bedrock';
import { AppFunction, commonEnvironment } from './functions';
import type { AudioStorage } from './audio';
import { acknowledge } from './nag';
import type { BillingSecrets, MailboxSecrets } from './secrets';
import { tableGrants } from './tableGrants';

export interface ApiProps {
  stage: string;
  version: string;
  data: Data;
  auth: Auth;
  secrets: MailboxSecrets;
  billingSecrets: BillingSecrets;
  bedrockModelId: string;
  throttle: { rate: number; burst: number };
}

/** The handler groups deployed to AWS: every group but those marked localOnly (the local outbox). */
export type CloudHandlerGroup = {
  [G in HandlerGroup]: (typeof handlerGroups)[G] extends { localOnly: true } ? never : G;
}[HandlerGroup];

export const cloudHandlerGroups = (): CloudHandlerGroup[] =>
  (Object.keys(handlerGroups) as HandlerGroup[]).filter((group): group is CloudHandlerGroup => !(handlerGroups[group] as HandlerGroupDefinition).localOnly);

/** `GET /api/profile/{id}` → `GetApiProfileId`: a stable construct id per route. */
export function routeConstructId(route: Pick<RouteDefinition, 'method' | 'path'>): string {
  const words = [route.method.toLowerCase(), ...route.path.split(/[^A-Za-z0-9]+/)].filter(Boolean);
  return words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');
}

const ACCESS_LOG_FORMAT = AccessLogFormat.custom(
  JSON.stringify({
    requestId: '$context.requestId',
    time: '$context.requestTime',
    ip: '$context.identity.sourceIp',
    userAgent: '$context.identity.userAgent',
    routeKey: '$context.routeKey',
    status: '$context.status',
    protocol: '$context.protocol',
    responseLength: '$context.responseLength',
    latencyMs: '$context.responseLatency',
    integrationStatus: '$context.integrationStatus',
    integrationLatencyMs: '$context.integrationLatency',
    integrationError: '$context.integrationErrorMessage',
    authorizerError: '$context.authorizer.error',
    userId: '$context.authorizer.claims.sub',
  }),
);

export class Api extends Construct {
  readonly httpApi: HttpApi;
  readonly stage: HttpStage;
  readonly accessLogs: LogGroup;
  readonly functions: Record<CloudHandlerGroup, AppFunction>;
  readonly routes: Map<string, HttpRoute> = new Map();
  /**
   * The value CloudFront adds to every request it sends the API (ORIGIN_VERIFY_HEADER, lib/cloud/web.ts):
   * the groups that limit clients (limitsClients) believe CloudFront's viewer address only with it
   * (lambdas/http/clientLimit.ts), since the execute-api endpoint is public too.
   */
  readonly originSecret: Secret;

  constructor(scope: Construct, id: string, props: ApiProps) {
    super(scope, id);

    this.httpApi = new HttpApi(this, 'HttpApi', {
      apiName: `trackpitch-${props.stage}`,
      description: 'Trackpitch API (served under /api by CloudFront)',
      createDefaultStage: false,
    });

    this.accessLogs = new LogGroup(this, 'AccessLogs', {
      retention: RetentionDays.THREE_MONTHS,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.stage = new HttpStage(this, 'DefaultStage', {
      httpApi: this.httpApi,
      stageName: '$default',
      autoDeploy: true,
      throttle: { rateLimit: props.throttle.rate, burstLimit: props.throttle.burst },
      accessLogSettings: { destination: new LogGroupLogDestination(this.accessLogs), format: ACCESS_LOG_FORMAT },
    });

    this.originSecret = new Secret(this, 'OriginVerifySecret', {
      description: `Trackpitch ${props.stage}: the header value CloudFront sends the API, proving its viewer address`,
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
      removalPolicy: RemovalPolicy.DESTROY,
    });
    acknowledge(this.originSecret, {
      id: 'AwsSolutions-SMG4',
      reason:
        'Resolved at deploy time into the CloudFront origin header and the Lambdas that check it, so a rotation would break the match until the next deploy; it only proves the viewer address a rate limit counts (a leak lets a caller pick the address its limit is counted under, still bounded by the route throttles).',
    });

    const environment = {
      ...commonEnvironment(props.stage, props.version),
      TABLE_NAME: props.data.table.tableName,
      BEDROCK_MODEL_ID: props.bedrockModelId,
    };
    const functions = {} as Record<CloudHandlerGroup, AppFunction>;
    const integrations = {} as Record<CloudHandlerGroup, HttpLambdaIntegration>;
    for (const group of cloudHandlerGroups()) {
      const definition: HandlerGroupDefinition = handlerGroups[group];
      const name = group.charAt(0).toUpperCase() + group.slice(1);
      // The same limits the local server applies (schema/routes.ts).
      const limits = lambdaLimits(group);
      // API Gateway gives up after 30 s: a longer Lambda timeout would only hide slow handlers.
      if (!(limits.timeoutSeconds >= 1 && limits.timeoutSeconds <= 29)) {
        throw new Error(`schema/routes.ts: handler group ${group} timeoutSeconds must be 1–29 (the HTTP API waits at most 30 s), got ${limits.timeoutSeconds}`);
      }
      const fn = new AppFunction(this, `${name}Handler`, {
        entry: definition.entry,
        description: `Trackpitch ${props.stage} API: ${definition.description}`,
        environment,
        timeout: Duration.seconds(limits.timeoutSeconds),
        memorySize: limits.memoryMb,
        ...(definition.nodeModules ? { nodeModules: definition.nodeModules } : {}),
      });
      props.data.grantTable(fn.fn, tableGrants[group]);
      if (definition.writer) grantModelInvocation(fn, props.bedrockModelId);
      const secretsEnvironment = {
        ...(definition.sealsSecrets ? props.secrets.grantSeal(fn.role) : {}),
        ...(definition.readsOAuthSecrets ? props.secrets.grantOAuthSecrets(fn.role) : {}),
        ...(definition.readsBillingSecrets ? props.billingSecrets.grantRead(fn.role) : {}),
      };
      for (const [name, value] of Object.entries(secretsEnvironment)) fn.fn.addEnvironment(name, value);
      // The value itself (a deploy-time dynamic reference, never in the template): it is checked on every
      // request, and it is as readable in the distribution's config as in the function's.
      if (definition.limitsClients) fn.fn.addEnvironment('ORIGIN_VERIFY_SECRET', this.originSecret.secretValue.unsafeUnwrap());
      if (definition.deletesUsers) {
        // The account deletion removes its own user from this pool: one action, on this pool only.
        props.auth.userPool.grant(fn.role, 'cognito-idp:AdminDeleteUser');
        fn.fn.addEnvironment('USER_POOL_ID', props.auth.userPool.userPoolId);
      }
      functions[group] = fn;
      integrations[group] = new HttpLambdaIntegration(`${name}Integration`, fn.fn);
    }
    this.functions = functions;

    // The web app sends the Cognito ID token: issuer = the user pool, audience = the web client.
    const jwt = new HttpUserPoolAuthorizer('CognitoJwt', props.auth.userPool, {
      userPoolClients: [props.auth.client],
      authorizerName: 'cognito-id-token',
    });
    const none = new HttpNoneAuthorizer();

    const routeSettings: Record<string, { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }> = {};
    const cfnStage = this.stage.node.defaultChild as CfnStage;
    for (const route of cloudRoutes()) {
      const handler = route.handler as CloudHandlerGroup;
      const httpRoute = new HttpRoute(this, routeConstructId(route), {
        httpApi: this.httpApi,
        routeKey: HttpRouteKey.with(route.path, HttpMethod[route.method]),
        integration: integrations[handler],
        authorizer: route.access === 'public' ? none : jwt,
      });
      this.routes.set(routeKey(route), httpRoute);
      if (route.access === 'public') {
        acknowledge(httpRoute, {
          id: 'AwsSolutions-APIG4',
          reason:
            `${routeKey(route)} is public by design (access 'public' in schema/routes.ts): its callers have no session ` +
            `(health checks, emailed links, webhooks), and ${route.throttle ? `its route throttle (${route.throttle.rate}/s, burst ${route.throttle.burst})` : 'the stage throttle'} bounds abuse.`,
        });
      }
      if (route.throttle) {
        // RouteSettings is untyped JSON in CloudFormation: CDK passes it through, so spell the keys as CFN does.
        routeSettings[routeKey(route)] = {
          ThrottlingRateLimit: route.throttle.rate,
          ThrottlingBurstLimit: route.throttle.burst,
        };
        // Route settings name the route key: the route must exist before the stage refers to it.
        cfnStage.node.addDependency(httpRoute);
      }
    }
    if (Object.keys(routeSettings).length > 0) cfnStage.routeSettings = routeSettings;
  }

  /**
   * APP_URL on every API Lambda: the public base of the links and redirects they build (emails'
   * unsubscribe and tracking links, the OAuth redirect URI, the return to /dashboard/settings). Set
   * after the web distribution exists; no cycle: the distribution depends on the HttpApi only.
   */
  setAppUrl(appUrl: string): void {
    for (const fn of Object.values<AppFunction>(this.functions)) fn.fn.addEnvironment('APP_URL', appUrl);
  }

  /**
   * The audio bucket's grants and name on the functions whose group uses it (`audio`, `writesExports` in schema/routes.ts).
   * Set after the web (the bucket's CORS names the site); no cycle: the distribution depends on the HttpApi only.
   */
  useAudio(audio: AudioStorage): void {
    for (const group of cloudHandlerGroups()) {
      const { audio: access, writesExports } = handlerGroups[group] as HandlerGroupDefinition;
      const fn = this.functions[group];
      const variables = { ...audio.grant(fn.role, access), ...(writesExports ? audio.grantExports(fn.role) : {}) };
      for (const [name, value] of Object.entries(variables)) fn.fn.addEnvironment(name, value);
    }
  }

  /** The API's execute-api host name, the CloudFront origin for /api/*. */
  get domainName(): string {
    return `${this.httpApi.apiId}.execute-api.${Stack.of(this).region}.${Stack.of(this).urlSuffix}`;
  }
}
