/**
 * The sending pipeline and the mailbox connection in the template (issue 6, DESIGN §4/§5): the sender
 * Lambda fed by the FIFO queue with partial batch failures, its alarms, the token key and the OAuth
 * secrets granted to exactly the functions that use them, APP_URL = the site, the local outbox kept out
 * of AWS, and a template without a dependency cycle (CloudFormation would refuse it at deploy time,
 * synthesis does not check).
 */
import type { CfnResource } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { cloudHandlerGroups } from '../../lib/cloud/api';
import { DEFAULTS } from '../../lib/cloud/config';
import { OAUTH_STATE_KEY_LENGTH, operatorSecretArn } from '../../lib/cloud/secrets';
import { MAX_RECEIVE_COUNT, SEND_QUEUE_VISIBILITY_TIMEOUT, SENDER_BATCH_SIZE } from '../../lib/cloud/sending';
import { LOCAL_BATCH_SIZE, LOCAL_MAX_RECEIVE_COUNT, LOCAL_VISIBILITY_TIMEOUT_MS } from '../../lib/local/ticker';
import { handlerGroups, routes, type HandlerGroup, type HandlerGroupDefinition } from '../../schema/routes';
import { actionsOf, GOOGLE_CONTEXT, onlyResource, resourcesOfType, statementsOfRole, synth, type Synthesized } from './synth';

type Statement = ReturnType<typeof statementsOfRole>[number];
type Template = Record<string, { Type: string; Properties?: Record<string, unknown>; DependsOn?: string | string[] }>;

const definitionOf = (group: HandlerGroup): HandlerGroupDefinition => handlerGroups[group];
const sealingGroups = cloudHandlerGroups().filter((g) => definitionOf(g).sealsSecrets);
const oauthGroups = cloudHandlerGroups().filter((g) => definitionOf(g).readsOAuthSecrets);
const localOnlyGroups = (Object.keys(handlerGroups) as HandlerGroup[]).filter((g) => definitionOf(g).localOnly);

function helpers({ stack, template }: Synthesized) {
  const logicalId = (construct: { node: { defaultChild?: unknown } }) => stack.getLogicalId(construct.node.defaultChild as CfnResource);
  const resources = template.toJSON().Resources as Template;
  const roleOf = (fn: { role: { node: { defaultChild?: unknown } } }) => logicalId(fn.role);
  const functionProps = (fn: { fn: { node: { defaultChild?: unknown } } }) => resources[logicalId(fn.fn)]!.Properties!;
  const variables = (fn: { fn: { node: { defaultChild?: unknown } } }) => (functionProps(fn).Environment as { Variables: Record<string, unknown> }).Variables;
  /** Every role (logical id) with a statement that allows `action` on a resource mentioning `resourceId`. */
  const rolesAllowed = (action: string, resourceText: string) =>
    resourcesOfType(template, 'AWS::IAM::Policy')
      .filter(([, policy]) =>
        (policy.Properties!.PolicyDocument as { Statement: Statement[] }).Statement.some(
          (s) => s.Effect === 'Allow' && actionsOf([s]).includes(action) && JSON.stringify(s.Resource).includes(resourceText),
        ),
      )
      .flatMap(([, policy]) => (policy.Properties!.Roles as Array<{ Ref: string }>).map((r) => r.Ref))
      .sort();
  const siteUrl = { 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [logicalId(stack.web.distribution), 'DomainName'] }]] };
  return { logicalId, resources, roleOf, functionProps, variables, rolesAllowed, siteUrl };
}

/** The resources each resource waits for: DependsOn, Ref, Fn::GetAtt and Fn::Sub references. */
function dependencyGraph(resources: Template): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  const collect = (value: unknown, into: Set<string>): void => {
    if (Array.isArray(value)) {
      value.forEach((v) => collect(v, into));
      return;
    }
    if (!value || typeof value !== 'object') return;
    for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
      if (key === 'Ref' && typeof inner === 'string' && inner in resources) into.add(inner);
      else if (key === 'Fn::GetAtt') {
        const target: unknown = Array.isArray(inner) ? inner[0] : String(inner).split('.')[0];
        if (typeof target === 'string' && target in resources) into.add(target);
      } else if (key === 'Fn::Sub') {
        const text: unknown = Array.isArray(inner) ? inner[0] : inner;
        for (const [, name] of String(text).matchAll(/\$\{([A-Za-z0-9]+)(?:\.[^}]*)?\}/g)) if (name! in resources) into.add(name!);
        if (Array.isArray(inner)) collect(inner[1], into);
      } else collect(inner, into);
    }
  };
  for (const [id, resource] of Object.entries(resources)) {
    const deps = new Set<string>();
    for (const dep of [resource.DependsOn ?? []].flat()) deps.add(dep);
    collect(resource.Properties, deps);
    graph.set(id, deps);
  }
  return graph;
}

/** One dependency cycle (as a path of logical ids), or undefined when the graph is acyclic. */
function findCycle(graph: Map<string, Set<string>>): string[] | undefined {
  const state = new Map<string, 'visiting' | 'done'>();
  const path: string[] = [];
  const visit = (id: string): string[] | undefined => {
    if (state.get(id) === 'done') return undefined;
    if (state.get(id) === 'visiting') return [...path.slice(path.indexOf(id)), id];
    state.set(id, 'visiting');
    path.push(id);
    for (const dep of graph.get(id) ?? []) {
      const cycle = visit(dep);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(id, 'done');
    return undefined;
  };
  for (const id of graph.keys()) {
    const cycle = visit(id);
    if (cycle) return cycle;
  }
  return undefined;
}

describe('sending pipeline and mailbox secrets (default configuration, no Google)', () => {
  const synthesized = synth();
  const { stack, template } = synthesized;
  const h = helpers(synthesized);
  const sender = stack.sending.sender;
  const queueId = h.logicalId(stack.sending.queue);
  const tokenKeyId = h.logicalId(stack.data.tokenKey);
  const secretId = h.logicalId(stack.secrets.oauthStateSecret);

  it('feeds the sender from the FIFO queue, 10 ticks a batch, reporting partial batch failures', () => {
    const mapping = onlyResource(template, 'AWS::Lambda::EventSourceMapping');
    expect(SENDER_BATCH_SIZE).toBe(10);
    expect(mapping.Properties).toMatchObject({
      EventSourceArn: { 'Fn::GetAtt': [queueId, 'Arn'] },
      FunctionName: { Ref: h.logicalId(sender.fn) },
      BatchSize: 10,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
  });

  it('the local ticker’s in-process FIFO behaves as this queue and event source: batch size, visibility timeout, redrive', () => {
    expect(LOCAL_BATCH_SIZE).toBe(SENDER_BATCH_SIZE);
    expect(LOCAL_VISIBILITY_TIMEOUT_MS).toBe(SEND_QUEUE_VISIBILITY_TIMEOUT.toMilliseconds());
    expect(LOCAL_MAX_RECEIVE_COUNT).toBe(MAX_RECEIVE_COUNT);
    expect(h.resources[queueId]!.Properties!.RedrivePolicy).toMatchObject({ maxReceiveCount: LOCAL_MAX_RECEIVE_COUNT });
  });

  it('runs the sender for at most 60 s, and the queue hides a received tick for at least six times that', () => {
    expect(h.functionProps(sender).Timeout).toBe(60);
    const queue = h.resources[queueId]!.Properties!;
    expect(queue.VisibilityTimeout as number).toBeGreaterThanOrEqual(6 * 60);
    expect(h.functionProps(sender).Handler).toBe('index.handler');
    expect(sender.bundling.nodeModules).toEqual(['jsdom']);
  });

  it('gives the sender the API environment: table, site URL, token key, model; no SEND_INTERVAL_SECONDS (60 s in AWS)', () => {
    const variables = h.variables(sender);
    expect(variables).toMatchObject({
      TABLE_NAME: { Ref: h.logicalId(stack.data.table) },
      APP_URL: h.siteUrl,
      TOKEN_KEY_ID: { 'Fn::GetAtt': [tokenKeyId, 'Arn'] },
      BEDROCK_MODEL_ID: DEFAULTS.bedrockModelId,
    });
    expect(variables.SEND_INTERVAL_SECONDS).toBeUndefined();
    expect(variables.GOOGLE_CLIENT_ID).toBeUndefined();
    for (const fn of Object.values(stack.api.functions)) expect(h.variables(fn).SEND_INTERVAL_SECONDS).toBeUndefined();
  });

  it('lets the sender read and write the table, consume the queue, open tokens and call the model, and nothing else', () => {
    const statements = statementsOfRole(template, h.roleOf(sender));
    const actions = actionsOf(statements);
    expect(actions).toEqual(
      expect.arrayContaining(['dynamodb:UpdateItem', 'dynamodb:BatchGetItem', 'sqs:ReceiveMessage', 'sqs:DeleteMessage', 'bedrock:InvokeModel']),
    );
    expect(actions).not.toContain('dynamodb:Scan');
    expect(actions).not.toContain('sqs:SendMessage');
    expect(actions).not.toContain('kms:GenerateDataKey');
    const allowed =
      /^(logs:|dynamodb:|sqs:(ReceiveMessage|DeleteMessage|ChangeMessageVisibility|GetQueueAttributes|GetQueueUrl)$|kms:Decrypt$|bedrock:InvokeModel$)/;
    expect(actions.filter((a) => !allowed.test(a))).toEqual([]);
    // kms:Decrypt on exactly the queue's key and the token key.
    const decrypt = statements.filter((s) => actionsOf([s]).includes('kms:Decrypt')).map((s) => JSON.stringify(s.Resource));
    expect(decrypt.some((r) => r.includes(h.logicalId(stack.sending.key)))).toBe(true);
    expect(decrypt.some((r) => r.includes(tokenKeyId))).toBe(true);
    expect(decrypt.every((r) => r.includes(h.logicalId(stack.sending.key)) || r.includes(tokenKeyId))).toBe(true);
  });

  it('alarms on one message in the dead-letter queue within one period, and on sender errors, into the alarm topic', () => {
    const alarms = resourcesOfType(template, 'AWS::CloudWatch::Alarm').map(([, a]) => a.Properties!);
    const topic = { Ref: h.logicalId(stack.monitoring.topic) };
    const dlq = alarms.find(
      (a) => a.MetricName === 'ApproximateNumberOfMessagesVisible' && JSON.stringify(a.Dimensions).includes(h.logicalId(stack.sending.deadLetterQueue)),
    );
    expect(dlq).toMatchObject({ Threshold: 1, EvaluationPeriods: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold', AlarmActions: [topic] });
    const errors = alarms.find((a) => a.MetricName === 'Errors' && JSON.stringify(a.Dimensions).includes(`"${h.logicalId(sender.fn)}"`));
    expect(errors).toMatchObject({ Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold', AlarmActions: [topic] });
  });

  it('seals mailbox tokens with a rotating KMS key that only the sealing groups (seal, open) and the sender (open) may use', () => {
    expect(sealingGroups).toContain('mailbox');
    expect(h.resources[tokenKeyId]!.Properties!.EnableKeyRotation).toBe(true);
    const sealers = sealingGroups.map((g) => h.roleOf(stack.api.functions[g])).sort();
    expect(h.rolesAllowed('kms:GenerateDataKey', tokenKeyId)).toEqual(sealers);
    expect(h.rolesAllowed('kms:Decrypt', tokenKeyId)).toEqual([...sealers, h.roleOf(sender)].sort());
    for (const group of cloudHandlerGroups()) {
      const expected = sealingGroups.includes(group) ? { 'Fn::GetAtt': [tokenKeyId, 'Arn'] } : undefined;
      expect(h.variables(stack.api.functions[group]).TOKEN_KEY_ID, group).toEqual(expected);
    }
  });

  it('generates the OAuth state key (at least 48 characters) and lets only the mailbox group read it', () => {
    const secret = h.resources[secretId]!;
    expect(secret.Type).toBe('AWS::SecretsManager::Secret');
    const generated = secret.Properties!.GenerateSecretString as { PasswordLength: number };
    expect(generated.PasswordLength).toBeGreaterThanOrEqual(48);
    expect(OAUTH_STATE_KEY_LENGTH).toBe(generated.PasswordLength);
    expect(oauthGroups).toEqual(['mailbox']);
    expect(h.rolesAllowed('secretsmanager:GetSecretValue', secretId)).toEqual([h.roleOf(stack.api.functions.mailbox)]);
    for (const group of cloudHandlerGroups()) {
      const expected = oauthGroups.includes(group) ? { Ref: secretId } : undefined;
      expect(h.variables(stack.api.functions[group]).OAUTH_STATE_SECRET_NAME, group).toEqual(expected);
    }
    expect(h.variables(sender).OAUTH_STATE_SECRET_NAME).toBeUndefined();
  });

  it('without Google configured, grants no Google secret and sets no GOOGLE_* variable', () => {
    const everything = JSON.stringify(template.toJSON());
    expect(everything).not.toContain('GOOGLE_CLIENT');
    expect(resourcesOfType(template, 'AWS::IAM::Policy').some(([, p]) => JSON.stringify(p).includes(':secret:'))).toBe(false);
  });

  it('keeps the local outbox out of AWS: no Lambda, no route', () => {
    expect(localOnlyGroups).toEqual(['outbox']);
    const localRoutes = routes.filter((r) => localOnlyGroups.includes(r.handler));
    expect(localRoutes.length).toBeGreaterThan(0);
    const deployed = resourcesOfType(template, 'AWS::ApiGatewayV2::Route').map(([, r]) => String(r.Properties!.RouteKey));
    for (const route of localRoutes) expect(deployed).not.toContain(`${route.method} ${route.path}`);
    expect(deployed.some((key) => key.includes('/api/local/'))).toBe(false);
    expect(Object.keys(stack.api.functions)).not.toContain('outbox');
    const descriptions = resourcesOfType(template, 'AWS::Lambda::Function').map(([, f]) => (f.Properties?.Description as string | undefined) ?? '');
    for (const group of localOnlyGroups) expect(descriptions.some((d) => d.includes(definitionOf(group).description))).toBe(false);
    expect(descriptions.some((d) => d.includes(definitionOf('mailbox').description))).toBe(true);
  });

  it('gives every API Lambda and the sender APP_URL = the CloudFront site URL', () => {
    for (const group of cloudHandlerGroups()) expect(h.variables(stack.api.functions[group]).APP_URL, group).toEqual(h.siteUrl);
    expect(h.variables(sender).APP_URL).toEqual(h.siteUrl);
  });

  it('has no dependency cycle (the distribution waits for the HttpApi, the Lambdas for the distribution)', () => {
    const graph = dependencyGraph(h.resources);
    expect(findCycle(graph)).toBeUndefined();
    // The edges that make APP_URL possible, so the check above covers the interesting part of the graph.
    const distributionId = h.logicalId(stack.web.distribution);
    expect(graph.get(h.logicalId(stack.api.functions.mailbox.fn))).toContain(distributionId);
    expect(graph.get(distributionId)).toContain(h.logicalId(stack.api.httpApi));
  });

  it('the cycle check finds a cycle when there is one', () => {
    const resources: Template = {
      Fn: { Type: 'AWS::Lambda::Function', Properties: { Environment: { Variables: { URL: { 'Fn::GetAtt': ['Cdn', 'DomainName'] } } } } },
      Cdn: { Type: 'AWS::CloudFront::Distribution', Properties: { Origin: { 'Fn::Sub': '${Route.Id}.example' } } },
      Route: { Type: 'AWS::ApiGatewayV2::Route', DependsOn: 'Perm', Properties: {} },
      Perm: { Type: 'AWS::Lambda::Permission', Properties: { FunctionName: { Ref: 'Fn' } } },
    };
    expect(findCycle(dependencyGraph(resources))).toEqual(['Fn', 'Cdn', 'Route', 'Perm', 'Fn']);
    delete resources.Route!.DependsOn;
    expect(findCycle(dependencyGraph(resources))).toBeUndefined();
  });
});

describe('with Google configured', () => {
  const synthesized = synth(GOOGLE_CONTEXT);
  const { stack } = synthesized;
  const h = helpers(synthesized);
  const secretArnText = `:secret:${GOOGLE_CONTEXT.googleClientSecretName}-??????`;

  it('lets only the OAuth groups and the sender read the Google client secret, by its name', () => {
    const readers = [...oauthGroups.map((g) => h.roleOf(stack.api.functions[g])), h.roleOf(stack.sending.sender)].sort();
    expect(h.rolesAllowed('secretsmanager:GetSecretValue', secretArnText)).toEqual(readers);
  });

  it('tells them the client id and the secret name', () => {
    const expected = { GOOGLE_CLIENT_ID: GOOGLE_CONTEXT.googleClientId, GOOGLE_CLIENT_SECRET_NAME: GOOGLE_CONTEXT.googleClientSecretName };
    expect(h.variables(stack.sending.sender)).toMatchObject(expected);
    for (const group of cloudHandlerGroups()) {
      const variables = h.variables(stack.api.functions[group]);
      if (oauthGroups.includes(group)) expect(variables, group).toMatchObject(expected);
      else expect(variables.GOOGLE_CLIENT_ID, group).toBeUndefined();
    }
  });

  it('names an operator secret by name, partial ARN or complete ARN', () => {
    const scope = stack.secrets;
    const complete = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:trackpitch/google-AbC123';
    expect(operatorSecretArn(scope, complete)).toBe(complete);
    expect(operatorSecretArn(scope, 'arn:aws:secretsmanager:us-east-1:123456789012:secret:trackpitch/google')).toBe(
      'arn:aws:secretsmanager:us-east-1:123456789012:secret:trackpitch/google-??????',
    );
    expect(stack.resolve(operatorSecretArn(scope, 'trackpitch/google'))).toEqual({
      'Fn::Join': [
        '',
        ['arn:', { Ref: 'AWS::Partition' }, ':secretsmanager:', { Ref: 'AWS::Region' }, ':', { Ref: 'AWS::AccountId' }, ':secret:trackpitch/google-??????'],
      ],
    });
  });
});
