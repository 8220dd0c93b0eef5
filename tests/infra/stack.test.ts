/**
 * The synthesized template of the default configuration (no Google): the properties that matter for
 * data safety, auth, least privilege, the sending pipeline, the web edge and monitoring.
 * One synthesis for the whole file.
 */
import { runInNewContext } from 'node:vm';
import { Token } from 'aws-cdk-lib';
import { Match } from 'aws-cdk-lib/assertions';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import type { CfnRole } from 'aws-cdk-lib/aws-iam';
import { describe, expect, it } from 'vitest';
import { cloudHandlerGroups } from '../../lib/cloud/api';
import { CUSTOM_MESSAGE_ENTRY } from '../../lib/cloud/auth';
import { DEFAULTS } from '../../lib/cloud/config';
import { MetricNames, METRICS_NAMESPACE, METRICS_SERVICE } from '../../schema/metrics';
import { SPA_REWRITE_CODE } from '../../lib/cloud/web';
import { CSP_HEADER, FIXED_SECURITY_HEADERS, SECURITY_HEADER_NAMES } from '../../lib/securityHeaders';
import { runtimeConfigSchema } from '../../schema/api/runtimeConfig';
import { PASSWORD_RULE } from '../../schema/passwordRule.mjs';
import { ADMIN_GROUP, cloudRoutes, handlerGroups, lambdaLimits, routeKey, type HandlerGroupDefinition } from '../../schema/routes';
import { createTableInput } from '../../schema/table';
import { actionsOf, onlyResource, resourcesOfType, statementsOfRole, synth } from './synth';
import { arrayContaining } from '../support/matchers';

const { stack, template } = synth();
const logicalId = (construct: { node: { defaultChild?: unknown } }) => stack.getLogicalId(construct.node.defaultChild as CfnFunction);

describe('data', () => {
  it('builds the one table from schema/table.ts: keys, GSIs, on-demand, PITR, TTL, deletion protection, retained', () => {
    const expected = createTableInput('unused');
    const table = onlyResource(template, 'AWS::DynamoDB::Table');
    expect(table.Properties.KeySchema).toEqual(expected.KeySchema);
    expect(table.Properties.AttributeDefinitions).toEqual(expect.arrayContaining(expected.AttributeDefinitions));
    expect((table.Properties.AttributeDefinitions as unknown[]).length).toBe(expected.AttributeDefinitions.length);
    expect(table.Properties.GlobalSecondaryIndexes).toEqual(expect.arrayContaining(expected.GlobalSecondaryIndexes));
    expect((table.Properties.GlobalSecondaryIndexes as unknown[]).length).toBe(expected.GlobalSecondaryIndexes.length);
    expect(table.Properties.BillingMode).toBe('PAY_PER_REQUEST');
    expect(table.Properties.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
    expect(table.Properties.TimeToLiveSpecification).toEqual({ AttributeName: 'expiresAt', Enabled: true });
    expect(table.Properties.DeletionProtectionEnabled).toBe(true);
    expect(table.DeletionPolicy).toBe('Retain');
  });

  it('has a customer-managed key with rotation for Gmail tokens, and every KMS key rotates', () => {
    template.hasResourceProperties('AWS::KMS::Alias', { AliasName: 'alias/trackpitch-dev-gmail-tokens' });
    const keys = resourcesOfType(template, 'AWS::KMS::Key');
    expect(keys.length).toBeGreaterThanOrEqual(3);
    for (const [, key] of keys) expect(key.Properties?.EnableKeyRotation).toBe(true);
  });
});

describe('auth', () => {
  it('signs in by email, requires the name attribute, allows self sign-up and verifies email by code', () => {
    template.hasResourceProperties('AWS::Cognito::UserPool', {
      UsernameAttributes: ['email'],
      AutoVerifiedAttributes: ['email'],
      AdminCreateUserConfig: { AllowAdminCreateUserOnly: false },
      Schema: Match.arrayWith([Match.objectLike({ Name: 'email', Required: true }), Match.objectLike({ Name: 'name', Required: true })]),
      // A code (no link to Cognito's own confirmation page): the custom message trigger links it to the site.
      VerificationMessageTemplate: Match.objectLike({ DefaultEmailOption: 'CONFIRM_WITH_CODE', EmailSubject: 'Confirm your Trackpitch account' }),
      Policies: {
        PasswordPolicy: Match.objectLike({ RequireLowercase: true, RequireUppercase: true, RequireNumbers: true, RequireSymbols: true }),
      },
      DeletionProtection: 'ACTIVE',
    });
    template.hasResourceProperties('AWS::Cognito::UserPoolDomain', { Domain: 'trackpitch-dev' });
  });

  it("enforces the app's one password rule (schema/passwordRule.mjs), the one the pages and the local stack check", () => {
    const pool = onlyResource(template, 'AWS::Cognito::UserPool');
    const policy = (pool.Properties as { Policies: { PasswordPolicy: Record<string, unknown> } }).Policies.PasswordPolicy;
    expect({
      minLength: policy.MinimumLength,
      requireLowercase: policy.RequireLowercase,
      requireUppercase: policy.RequireUppercase,
      requireDigits: policy.RequireNumbers,
      requireSymbols: policy.RequireSymbols,
    }).toEqual(PASSWORD_RULE);
  });

  describe('confirmation email (custom message trigger)', () => {
    const customMessage = stack.auth.customMessage!;
    const fnId = logicalId(customMessage.fn);
    const poolId = logicalId(stack.auth.userPool);

    it("is the user pool's custom message trigger, and the only trigger", () => {
      const pool = onlyResource(template, 'AWS::Cognito::UserPool');
      expect(pool.Properties.LambdaConfig).toEqual({ CustomMessage: { 'Fn::GetAtt': [fnId, 'Arn'] } });
    });

    it("runs lambdas/workers/cognitoCustomMessage.ts with SITE_URL = the CloudFront site URL, inside Cognito's 5 s", () => {
      expect(CUSTOM_MESSAGE_ENTRY).toBe('lambdas/workers/cognitoCustomMessage.ts');
      template.hasResourceProperties('AWS::Lambda::Function', {
        Role: { 'Fn::GetAtt': [stack.getLogicalId(customMessage.role.node.defaultChild as CfnRole), 'Arn'] },
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        Handler: 'index.handler',
        Timeout: 5,
        Environment: {
          Variables: Match.objectLike({
            STAGE: 'dev',
            APP_VERSION: Match.stringLikeRegexp('^\\d+\\.\\d+\\.\\d+'),
            SITE_URL: { 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [logicalId(stack.web.distribution), 'DomainName'] }]] },
          }),
        },
      });
      const variables = JSON.stringify(resourcesOfType(template, 'AWS::Lambda::Function').find(([id]) => id === fnId)![1].Properties!.Environment);
      expect(variables).not.toContain('TABLE_NAME');
    });

    it('may be invoked by Cognito for this pool only, and can do nothing but write its logs', () => {
      template.hasResourceProperties('AWS::Lambda::Permission', {
        Action: 'lambda:InvokeFunction',
        FunctionName: { 'Fn::GetAtt': [fnId, 'Arn'] },
        Principal: 'cognito-idp.amazonaws.com',
        SourceArn: { 'Fn::GetAtt': [poolId, 'Arn'] },
      });
      const statements = statementsOfRole(template, stack.getLogicalId(customMessage.role.node.defaultChild as CfnRole));
      expect(actionsOf(statements).sort()).toEqual(['logs:CreateLogStream', 'logs:PutLogEvents']);
    });

    it('breaks the pool → trigger → distribution → pool cycle: nothing on the web edge refers to Cognito resources', () => {
      // The trigger's SITE_URL needs the distribution; the distribution (via its CSP) must then not need the pool or its domain.
      const cognitoIds = [
        ...resourcesOfType(template, 'AWS::Cognito::UserPool'),
        ...resourcesOfType(template, 'AWS::Cognito::UserPoolDomain'),
        ...resourcesOfType(template, 'AWS::Cognito::UserPoolClient'),
      ].map(([id]) => id);
      const edge = [
        ...resourcesOfType(template, 'AWS::CloudFront::Distribution'),
        ...resourcesOfType(template, 'AWS::CloudFront::ResponseHeadersPolicy'),
        ...resourcesOfType(template, 'AWS::ApiGatewayV2::Api'),
      ];
      for (const [id, resource] of edge) {
        const text = JSON.stringify(resource);
        for (const cognitoId of cognitoIds) expect(text, `${id} refers to ${cognitoId}`).not.toContain(`"${cognitoId}"`);
      }
      // The CSP still names the hosted-UI domain, spelled from the configured prefix.
      const csp = JSON.stringify(onlyResource(template, 'AWS::CloudFront::ResponseHeadersPolicy').Properties);
      expect(csp).toContain('https://trackpitch-dev.auth.');
    });
  });

  it('has the admins group named as in schema/routes.ts', () => {
    template.resourceCountIs('AWS::Cognito::UserPoolGroup', 1);
    template.hasResourceProperties('AWS::Cognito::UserPoolGroup', { GroupName: ADMIN_GROUP });
  });

  it('has one public web client without secret and, without Google configured, no identity provider or OAuth', () => {
    template.resourceCountIs('AWS::Cognito::UserPoolClient', 1);
    template.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      GenerateSecret: false,
      SupportedIdentityProviders: ['COGNITO'],
      AllowedOAuthFlowsUserPoolClient: false,
    });
    template.resourceCountIs('AWS::Cognito::UserPoolIdentityProvider', 0);
  });

  it("signs the web client in with SRP only: no USER_PASSWORD_AUTH (that is for cognito-local's own client)", () => {
    const client = onlyResource(template, 'AWS::Cognito::UserPoolClient');
    expect([...(client.Properties.ExplicitAuthFlows as string[])].sort()).toEqual(['ALLOW_REFRESH_TOKEN_AUTH', 'ALLOW_USER_SRP_AUTH']);
  });
});

describe('api', () => {
  const authorizers = resourcesOfType(template, 'AWS::ApiGatewayV2::Authorizer');
  const routeResources = resourcesOfType(template, 'AWS::ApiGatewayV2::Route');

  it('has one JWT authorizer: issuer = the user pool, audience = the web client', () => {
    expect(authorizers).toHaveLength(1);
    const [, authorizer] = authorizers[0]!;
    expect(authorizer.Properties).toMatchObject({
      AuthorizerType: 'JWT',
      IdentitySource: ['$request.header.Authorization'],
      JwtConfiguration: {
        Audience: [{ Ref: logicalId(stack.auth.client) }],
        Issuer: { 'Fn::Join': ['', ['https://cognito-idp.', { Ref: 'AWS::Region' }, '.amazonaws.com/', { Ref: logicalId(stack.auth.userPool) }]] },
      },
    });
  });

  // Every route of schema/routes.ts but the local runtime's own (tests/infra/sending.test.ts checks those are absent).
  const routes = cloudRoutes();

  it('has exactly the routes of schema/routes.ts deployed to AWS, with JWT auth unless public', () => {
    const [authorizerId] = authorizers[0]!;
    const actual = routeResources.map(([, r]) => r.Properties!.RouteKey as string).sort();
    expect(actual).toEqual(routes.map(routeKey).sort());
    for (const route of routes) {
      const [, resource] = routeResources.find(([, r]) => r.Properties!.RouteKey === routeKey(route))!;
      if (route.access === 'public') {
        expect(resource.Properties!.AuthorizationType, routeKey(route)).toBe('NONE');
        expect(resource.Properties!.AuthorizerId).toBeUndefined();
      } else {
        expect(resource.Properties!.AuthorizationType, routeKey(route)).toBe('JWT');
        expect(resource.Properties!.AuthorizerId).toEqual({ Ref: authorizerId });
      }
    }
  });

  it("sends each route to its handler group's Lambda", () => {
    const integrations = Object.fromEntries(resourcesOfType(template, 'AWS::ApiGatewayV2::Integration'));
    for (const route of routes) {
      const [, resource] = routeResources.find(([, r]) => r.Properties!.RouteKey === routeKey(route))!;
      const target = JSON.stringify(resource.Properties!.Target);
      const integrationId = Object.keys(integrations).find((id) => target.includes(`"${id}"`))!;
      expect(integrationId, routeKey(route)).toBeDefined();
      const uri = JSON.stringify(integrations[integrationId]!.Properties!.IntegrationUri);
      const group = cloudHandlerGroups().find((g) => g === route.handler)!;
      expect(uri, routeKey(route)).toContain(`"${logicalId(stack.api.functions[group].fn)}"`);
    }
  });

  it('deploys the pitch pipeline (issue 28 §1) as a Lambda of its own behind its six routes, each with JWT auth', () => {
    const pipelineFn = `"${logicalId(stack.api.functions.pipeline.fn)}"`;
    const integrations = Object.fromEntries(resourcesOfType(template, 'AWS::ApiGatewayV2::Integration'));
    const toPipeline = routeResources.filter(([, r]) => {
      const target = JSON.stringify(r.Properties!.Target);
      const integrationId = Object.keys(integrations).find((id) => target.includes(`"${id}"`));
      return integrationId !== undefined && JSON.stringify(integrations[integrationId]!.Properties!.IntegrationUri).includes(pipelineFn);
    });
    expect(toPipeline.map(([, r]) => r.Properties!.RouteKey as string).sort()).toEqual([
      'GET /api/contacts/{id}/tracks',
      'GET /api/pipeline/todos',
      'GET /api/pipeline/tracks',
      'GET /api/pipeline/tracks/{trackKey}',
      'PUT /api/pipeline/tracks/{trackKey}/entries/{addressId}/mark',
      'PUT /api/pipeline/tracks/{trackKey}/entries/{addressId}/todo',
    ]);
    for (const [, route] of toPipeline) expect(route.Properties!.AuthorizationType).toBe('JWT');
  });

  it('has one Lambda per handler group deployed to AWS: Node 22, arm64, ESM bundle, table name and Powertools settings', () => {
    const groups = cloudHandlerGroups();
    expect(Object.keys(stack.api.functions).sort()).toEqual([...groups].sort());
    for (const group of groups) {
      template.hasResourceProperties('AWS::Lambda::Function', {
        FunctionName: Match.absent(),
        Description: Match.stringLikeRegexp(handlerGroups[group].description.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')),
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        Handler: 'index.handler',
        Environment: {
          Variables: Match.objectLike({
            TABLE_NAME: { Ref: logicalId(stack.data.table) },
            POWERTOOLS_SERVICE_NAME: METRICS_SERVICE,
            POWERTOOLS_METRICS_NAMESPACE: METRICS_NAMESPACE,
            NODE_OPTIONS: '--enable-source-maps',
          }),
        },
      });
    }
  });

  // The table grants themselves: table-grants.test.ts.
  it("gives each group's role nothing beyond its logs, its table grant and the extras its handler group declares", () => {
    for (const group of cloudHandlerGroups()) {
      const definition: HandlerGroupDefinition = handlerGroups[group];
      const role = stack.api.functions[group].role;
      const statements = statementsOfRole(template, stack.getLogicalId(role.node.defaultChild as CfnRole));
      // Nothing else in the role but its logs, a writer group's model (checked in writer-grant.test.ts) and
      // a mailbox group's key and secrets (checked in sending.test.ts), the billing group's Stripe secrets (billing.test.ts),
      // an audio group's objects (audio.test.ts), a deleting group's AdminDeleteUser (account-grant.test.ts).
      const other = actionsOf(statements).filter((a) => !a.startsWith('dynamodb:'));
      const allowed = (a: string) =>
        a.startsWith('logs:') ||
        (definition.writer === true && a === 'bedrock:InvokeModel') ||
        (definition.sealsSecrets === true && (a === 'kms:GenerateDataKey' || a === 'kms:Decrypt')) ||
        ((definition.readsOAuthSecrets === true || definition.readsBillingSecrets === true) && a === 'secretsmanager:GetSecretValue') ||
        (definition.audio !== undefined && a.startsWith('s3:')) ||
        // The account deletion removes its user from the pool (account-grant.test.ts).
        (definition.deletesUsers === true && a === 'cognito-idp:AdminDeleteUser');
      expect(other.every(allowed), `${group}: ${other.join(', ')}`).toBe(true);
    }
  });

  it("gives each group's Lambda the timeout and memory of lambdaLimits(), as the local server does", () => {
    for (const group of cloudHandlerGroups()) {
      const limits = lambdaLimits(group);
      const [, fn] = resourcesOfType(template, 'AWS::Lambda::Function').find(([id]) => id === logicalId(stack.api.functions[group].fn))!;
      expect({ Timeout: fn.Properties!.Timeout, MemorySize: fn.Properties!.MemorySize }, group).toEqual({
        Timeout: limits.timeoutSeconds,
        MemorySize: limits.memoryMb,
      });
    }
  });

  it('the health function can only write its own logs', () => {
    const role = stack.api.functions.health.role;
    const statements = statementsOfRole(template, stack.getLogicalId(role.node.defaultChild as CfnRole));
    expect(actionsOf(statements).sort()).toEqual(['logs:CreateLogStream', 'logs:PutLogEvents']);
    expect(statements[0]!.Resource).toEqual({ 'Fn::GetAtt': [stack.getLogicalId(stack.api.functions.health.logGroup.node.defaultChild as CfnRole), 'Arn'] });
  });

  it('no Trackpitch Lambda role uses an AWS managed policy', () => {
    const roles = [...Object.values(stack.api.functions), stack.sending.dispatcher, stack.sending.sender, stack.auth.customMessage!].map((f) => f.role);
    for (const role of roles) {
      const [, resource] = resourcesOfType(template, 'AWS::IAM::Role').find(([id]) => id === stack.getLogicalId(role.node.defaultChild as CfnRole))!;
      expect(resource.Properties!.ManagedPolicyArns).toBeUndefined();
    }
  });

  it('throttles the default stage and each route that declares a throttle, and writes access logs', () => {
    const throttled = routes.filter((r) => r.throttle);
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingRateLimit: DEFAULTS.apiRateLimit, ThrottlingBurstLimit: DEFAULTS.apiBurstLimit },
      RouteSettings: Object.fromEntries(
        throttled.map((r) => [routeKey(r), { ThrottlingRateLimit: r.throttle!.rate, ThrottlingBurstLimit: r.throttle!.burst }]),
      ),
      AccessLogSettings: { DestinationArn: Match.anyValue(), Format: Match.stringLikeRegexp('\\$context\\.requestId') },
    });
  });
});

describe('sending', () => {
  const queues = resourcesOfType(template, 'AWS::SQS::Queue');
  const queueId = logicalId(stack.sending.queue);
  const dlqId = logicalId(stack.sending.deadLetterQueue);
  const keyArn = { 'Fn::GetAtt': [logicalId(stack.sending.key), 'Arn'] };

  it('has a KMS-encrypted FIFO queue that redrives to a KMS-encrypted FIFO dead-letter queue', () => {
    expect(queues).toHaveLength(2);
    const queue = Object.fromEntries(queues)[queueId]!.Properties!;
    const dlq = Object.fromEntries(queues)[dlqId]!.Properties!;
    expect(queue).toMatchObject({
      FifoQueue: true,
      KmsMasterKeyId: keyArn,
      RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [dlqId, 'Arn'] }, maxReceiveCount: 5 },
    });
    expect(dlq).toMatchObject({ FifoQueue: true, KmsMasterKeyId: keyArn });
  });

  it('deduplicates on the explicit MessageDeduplicationId per user (message group), never on content', () => {
    const queue = Object.fromEntries(queues)[queueId]!.Properties!;
    expect(queue).toMatchObject({ DeduplicationScope: 'messageGroup', FifoThroughputLimit: 'perMessageGroupId' });
    expect(queue.ContentBasedDeduplication).toBeUndefined();
    expect(Object.fromEntries(queues)[dlqId]!.Properties!.ContentBasedDeduplication).toBeUndefined();
  });

  it('refuses non-TLS access to both queues', () => {
    for (const id of [queueId, dlqId]) {
      template.hasResourceProperties('AWS::SQS::QueuePolicy', {
        Queues: [{ Ref: id }],
        PolicyDocument: {
          Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]),
        },
      });
    }
  });

  it('the dispatcher gets TABLE_NAME and QUEUE_URL, reads the table and may only send to the queue', () => {
    const dispatcher = stack.sending.dispatcher;
    template.hasResourceProperties('AWS::Lambda::Function', {
      Runtime: 'nodejs22.x',
      Architectures: ['arm64'],
      Role: { 'Fn::GetAtt': [stack.getLogicalId(dispatcher.role.node.defaultChild as CfnRole), 'Arn'] },
      Environment: { Variables: Match.objectLike({ TABLE_NAME: { Ref: logicalId(stack.data.table) }, QUEUE_URL: { Ref: queueId } }) },
    });
    const statements = statementsOfRole(template, stack.getLogicalId(dispatcher.role.node.defaultChild as CfnRole));
    const actions = actionsOf(statements);
    expect(actions).toEqual(expect.arrayContaining(['dynamodb:Query', 'sqs:SendMessage', 'kms:GenerateDataKey']));
    expect(actions.filter((a) => /^dynamodb:(Put|Update|Delete|BatchWrite|Scan)/.test(a))).toEqual([]);
    expect(statements.find((s) => actionsOf([s]).includes('sqs:SendMessage'))!.Resource).toEqual({ 'Fn::GetAtt': [queueId, 'Arn'] });
  });

  it('runs the dispatcher every minute, flexible window off, with the scheduled time in the payload', () => {
    template.resourceCountIs('AWS::Scheduler::Schedule', 1);
    template.hasResourceProperties('AWS::Scheduler::Schedule', {
      ScheduleExpression: 'rate(1 minute)',
      FlexibleTimeWindow: { Mode: 'OFF' },
      State: 'ENABLED',
      Target: {
        Arn: { 'Fn::GetAtt': [logicalId(stack.sending.dispatcher.fn), 'Arn'] },
        RoleArn: { 'Fn::GetAtt': [stack.getLogicalId(stack.sending.schedulerRole.node.defaultChild as CfnRole), 'Arn'] },
        Input: JSON.stringify({ scheduledTime: '<aws.scheduler.scheduled-time>' }),
      },
    });
  });

  it("the scheduler's role is trusted by the scheduler of this account only and may only invoke the dispatcher", () => {
    const roleId = stack.getLogicalId(stack.sending.schedulerRole.node.defaultChild as CfnRole);
    const [, role] = resourcesOfType(template, 'AWS::IAM::Role').find(([id]) => id === roleId)!;
    expect(role.Properties!.AssumeRolePolicyDocument).toMatchObject({
      Statement: [
        {
          Action: 'sts:AssumeRole',
          Effect: 'Allow',
          Principal: { Service: 'scheduler.amazonaws.com' },
          Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } },
        },
      ],
    });
    expect(role.Properties!.ManagedPolicyArns).toBeUndefined();
    expect(statementsOfRole(template, roleId)).toEqual([
      expect.objectContaining({
        Action: 'lambda:InvokeFunction',
        Effect: 'Allow',
        Resource: { 'Fn::GetAtt': [logicalId(stack.sending.dispatcher.fn), 'Arn'] },
      }),
    ]);
  });
});

describe('web', () => {
  // The parts of the distribution's CloudFormation these tests read.
  type Origin = { Id: string; S3OriginConfig?: unknown; OriginAccessControlId?: unknown; DomainName?: unknown; CustomOriginConfig?: unknown };
  type CacheBehavior = { PathPattern?: string; TargetOriginId?: string; FunctionAssociations?: unknown; ResponseHeadersPolicyId?: unknown };
  const config = onlyResource(template, 'AWS::CloudFront::Distribution').Properties.DistributionConfig as {
    Origins: Origin[];
    DefaultCacheBehavior: CacheBehavior;
    CacheBehaviors: CacheBehavior[];
    CustomErrorResponses?: unknown;
  };
  const headersId = logicalId(stack.web.headers);

  it('serves a private bucket through origin access control', () => {
    template.resourceCountIs('AWS::CloudFront::OriginAccessControl', 1);
    template.hasResourceProperties('AWS::CloudFront::OriginAccessControl', {
      OriginAccessControlConfig: Match.objectLike({ OriginAccessControlOriginType: 's3', SigningBehavior: 'always' }),
    });
    const s3Origin = config.Origins.find((o) => o.S3OriginConfig);
    expect(s3Origin?.OriginAccessControlId).toBeDefined();
    template.hasResourceProperties('AWS::S3::Bucket', {
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
      LoggingConfiguration: Match.objectLike({ LogFilePrefix: 's3-site/' }),
    });
  });

  it('adds security headers: HSTS, CSP, nosniff, frame DENY, referrer policy', () => {
    template.hasResourceProperties('AWS::CloudFront::ResponseHeadersPolicy', {
      ResponseHeadersPolicyConfig: Match.objectLike({
        SecurityHeadersConfig: Match.objectLike({
          StrictTransportSecurity: Match.objectLike({ AccessControlMaxAgeSec: 63072000, IncludeSubdomains: true }),
          ContentTypeOptions: { Override: true },
          FrameOptions: { FrameOption: 'DENY', Override: true },
          ReferrerPolicy: { ReferrerPolicy: 'strict-origin-when-cross-origin', Override: true },
          ContentSecurityPolicy: Match.objectLike({ Override: true }),
        }),
      }),
    });
    const csp = JSON.stringify(resourcesOfType(template, 'AWS::CloudFront::ResponseHeadersPolicy')[0]![1].Properties);
    for (const directive of ["default-src 'self'", "script-src 'self'", "frame-ancestors 'none'", "object-src 'none'", 'https://cognito-idp.']) {
      expect(csp).toContain(directive);
    }
    expect(config.DefaultCacheBehavior.ResponseHeadersPolicyId).toEqual({ Ref: headersId });
  });

  it('sends the security headers the local server sends and the smoke test checks (lib/securityHeaders.ts), with their values', () => {
    type HeadersConfig = {
      SecurityHeadersConfig: {
        StrictTransportSecurity: { AccessControlMaxAgeSec: number; IncludeSubdomains?: boolean; Preload?: boolean };
        ContentTypeOptions?: unknown;
        FrameOptions: { FrameOption: string };
        ReferrerPolicy: { ReferrerPolicy: string };
        ContentSecurityPolicy?: unknown;
      };
      CustomHeadersConfig: { Items: { Header: string; Value: string }[] };
    };
    const policy = onlyResource(template, 'AWS::CloudFront::ResponseHeadersPolicy').Properties.ResponseHeadersPolicyConfig as HeadersConfig;
    const { StrictTransportSecurity: hsts, FrameOptions, ReferrerPolicy, ContentTypeOptions, ContentSecurityPolicy } = policy.SecurityHeadersConfig;
    // The headers as CloudFront writes them from the policy: names lower-cased as a client reads them.
    const sent = {
      'strict-transport-security': [
        `max-age=${hsts.AccessControlMaxAgeSec}`,
        ...(hsts.IncludeSubdomains ? ['includeSubDomains'] : []),
        ...(hsts.Preload ? ['preload'] : []),
      ].join('; '),
      ...(ContentTypeOptions ? { 'x-content-type-options': 'nosniff' } : {}),
      'x-frame-options': FrameOptions.FrameOption,
      'referrer-policy': ReferrerPolicy.ReferrerPolicy,
      ...Object.fromEntries(policy.CustomHeadersConfig.Items.map(({ Header, Value }) => [Header.toLowerCase(), Value])),
    };
    expect(sent).toEqual(FIXED_SECURITY_HEADERS);
    expect(ContentSecurityPolicy).toBeDefined();
    expect([...Object.keys(sent), CSP_HEADER].sort()).toEqual([...SECURITY_HEADER_NAMES].sort());
  });

  it('routes extension-less paths to /index.html with a viewer-request function, not with error responses', () => {
    template.hasResourceProperties('AWS::CloudFront::Function', { FunctionConfig: Match.objectLike({ Runtime: 'cloudfront-js-2.0' }) });
    expect(config.DefaultCacheBehavior.FunctionAssociations).toEqual([
      { EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [logicalId(stack.web.spaRewrite), 'FunctionARN'] } },
    ]);
    expect(config.CustomErrorResponses).toBeUndefined();
  });

  it('the rewrite function sends client routes to the app shell and leaves files alone', () => {
    const handler = runInNewContext(`${SPA_REWRITE_CODE}; handler`) as (event: { request: { uri: string } }) => { uri: string };
    const rewrite = (uri: string) => handler({ request: { uri } }).uri;
    expect(rewrite('/')).toBe('/index.html');
    expect(rewrite('/dashboard/campaigns/01HX')).toBe('/index.html');
    expect(rewrite('/auth')).toBe('/index.html');
    expect(rewrite('/assets/index-abc123.js')).toBe('/assets/index-abc123.js');
    expect(rewrite('/config.json')).toBe('/config.json');
    expect(rewrite('/favicon.ico')).toBe('/favicon.ico');
  });

  it('forwards /api/* to the HTTP API uncached, with everything but Host, all methods, and no SPA function', () => {
    const api = config.CacheBehaviors.find((b) => b.PathPattern === '/api/*');
    expect(api).toMatchObject({
      CachePolicyId: '4135ea2d-6df8-44a3-9df3-4b5a84be39ad', // Managed-CachingDisabled
      OriginRequestPolicyId: 'b689b0a8-53d0-40ab-baf2-68738e2966ac', // Managed-AllViewerExceptHostHeader
      AllowedMethods: arrayContaining(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD']),
      ViewerProtocolPolicy: 'https-only',
      ResponseHeadersPolicyId: { Ref: headersId },
    });
    expect(api?.FunctionAssociations).toBeUndefined();
    const origin = config.Origins.find((o) => o.Id === api?.TargetOriginId);
    expect(JSON.stringify(origin?.DomainName)).toContain(`"${logicalId(stack.api.httpApi)}"`);
    expect(origin?.CustomOriginConfig).toMatchObject({ OriginProtocolPolicy: 'https-only', OriginSSLProtocols: ['TLSv1.2'] });
  });

  it('deploys the web build plus a config.json matching RuntimeConfig (mode aws, no OAuth without Google)', () => {
    expect(runtimeConfigSchema.safeParse(stack.web.runtimeConfig).success).toBe(true);
    expect(stack.resolve(stack.web.runtimeConfig)).toEqual({
      mode: 'aws',
      region: { Ref: 'AWS::Region' },
      userPoolId: { Ref: logicalId(stack.auth.userPool) },
      userPoolClientId: { Ref: logicalId(stack.auth.client) },
      contactEmails: { support: DEFAULTS.supportEmail, privacy: DEFAULTS.privacyEmail },
    });
    const deployments = resourcesOfType(template, 'Custom::CDKBucketDeployment');
    expect(deployments).toHaveLength(2);
    // Source.jsonData with deploy-time values: the custom resource substitutes the markers.
    expect(deployments.some(([, d]) => JSON.stringify(d.Properties!.SourceMarkers ?? []).includes(`"${logicalId(stack.auth.userPool)}"`))).toBe(true);
  });
});

describe('monitoring', () => {
  const alarms = resourcesOfType(template, 'AWS::CloudWatch::Alarm').map(([, a]) => a.Properties!);
  const topicRef = { Ref: logicalId(stack.monitoring.topic) };

  it('alarms on the application metrics of DESIGN §9 in the Trackpitch namespace', () => {
    const alarmed = Object.values(MetricNames).filter((name) => name !== MetricNames.EmailsSent);
    for (const name of alarmed) {
      const alarm = alarms.find((a) => a.MetricName === name);
      expect(alarm, name).toBeDefined();
      expect(alarm).toMatchObject({ Namespace: METRICS_NAMESPACE, Dimensions: [{ Name: 'service', Value: METRICS_SERVICE }] });
    }
  });

  it('alarms on the dead-letter queue, the dispatcher heartbeat, every Lambda and API 5xx', () => {
    expect(
      alarms.find(
        (a) => a.MetricName === 'ApproximateNumberOfMessagesVisible' && JSON.stringify(a.Dimensions).includes(logicalId(stack.sending.deadLetterQueue)),
      ),
    ).toMatchObject({
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
    expect(alarms.find((a) => a.MetricName === 'Invocations')).toMatchObject({ ComparisonOperator: 'LessThanThreshold', TreatMissingData: 'breaching' });
    for (const fn of [...Object.values(stack.api.functions), stack.sending.dispatcher, stack.sending.sender, stack.auth.customMessage!]) {
      expect(
        alarms.some((a) => a.MetricName === 'Errors' && JSON.stringify(a.Dimensions).includes(`"${logicalId(fn.fn)}"`)),
        fn.node.path,
      ).toBe(true);
    }
    expect(alarms.find((a) => a.MetricName === '5xx' && a.Namespace === 'AWS/ApiGateway')).toBeDefined();
  });

  it("lets this account's CloudWatch publish to the alarm topic, and still refuses any publish without TLS", () => {
    const { Statement: statements } = onlyResource(template, 'AWS::SNS::TopicPolicy').Properties.PolicyDocument as { Statement: { Effect: string }[] };
    // enforceSSL's policy replaces SNS's default: without this Allow no alarm reaches the topic.
    expect(statements.filter((s) => s.Effect === 'Allow')).toEqual([
      {
        Sid: 'AllowCloudWatchAlarms',
        Effect: 'Allow',
        Principal: { Service: 'cloudwatch.amazonaws.com' },
        Action: 'sns:Publish',
        Resource: topicRef,
        Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } },
      },
    ]);
    expect(statements.filter((s) => s.Effect === 'Deny')).toEqual([
      expect.objectContaining({ Principal: '*', Action: 'sns:Publish', Resource: topicRef, Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
    ]);
  });

  it('every alarm notifies the encrypted topic', () => {
    for (const alarm of alarms) expect(alarm.AlarmActions).toEqual([topicRef]);
    template.hasResourceProperties('AWS::SNS::Topic', { KmsMasterKeyId: Match.anyValue() });
    template.resourceCountIs('AWS::SNS::Subscription', 0);
  });

  it('has a dashboard that shows every application metric', () => {
    const body = JSON.stringify(onlyResource(template, 'AWS::CloudWatch::Dashboard').Properties.DashboardBody);
    for (const name of Object.values(MetricNames)) expect(body, name).toContain(name);
  });
});

it('sets no account or region on the stack', () => {
  expect(Token.isUnresolved(stack.account)).toBe(true);
  expect(Token.isUnresolved(stack.region)).toBe(true);
  expect(stack.environment).toBe('aws://unknown-account/unknown-region');
});
