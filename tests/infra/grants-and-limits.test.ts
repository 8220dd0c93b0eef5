/**
 * Two small contracts lib/cloud builds on, checked on bare stacks (no full app):
 * - Data.grantTable: a grant's actions on the table's ARN only, and Query on exactly the indexes it
 *   names; an empty grant gives nothing. Independent of which function has which grant today
 *   (table-grants.test.ts checks those).
 * - lambdaLimits(): defaults 10 s / 512 MB, per-group overrides, and the API Lambdas deploy exactly those.
 */
import { App, type CfnResource, Duration, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import { Api, cloudHandlerGroups } from '../../lib/cloud/api';
import { Auth } from '../../lib/cloud/auth';
import { Data } from '../../lib/cloud/data';
import { BillingSecrets, MailboxSecrets } from '../../lib/cloud/secrets';
import type { TableGrant } from '../../lib/cloud/tableGrants';
import { DEFAULT_LAMBDA_LIMITS, handlerGroups, lambdaLimits, type HandlerGroup, type HandlerGroupDefinition } from '../../schema/routes';
import { indexes } from '../../schema/table';
import { actionsOf, resourcesOfType } from './synth';

function bareStack() {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new Stack(app, 'Bare');
  const data = new Data(stack, 'Data', { stage: 'test' });
  return { stack, data };
}

type Statement = { Sid?: string; Action: string | string[]; Resource: unknown };

function grantedStatements(grant: TableGrant) {
  const { stack, data } = bareStack();
  const role = new Role(stack, 'Grantee', { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
  data.grantTable(role, grant);
  const template = Template.fromStack(stack);
  const statements = resourcesOfType(template, 'AWS::IAM::Policy').flatMap(
    ([, policy]) => (policy.Properties!.PolicyDocument as { Statement: Statement[] }).Statement,
  );
  return { statements, tableId: stack.getLogicalId(data.table.node.defaultChild as CfnResource) };
}

/** An index's ARN as CloudFormation spells it: `…:table/<table>/index/<name>`. */
const indexNameOf = (arn: unknown) => /\/index\/([^"/]+)"\]\]\}$/.exec(JSON.stringify(arn))?.[1];

describe('Data.grantTable', () => {
  it('an empty grant grants nothing', () => {
    expect(grantedStatements({ table: [], queries: [] }).statements).toEqual([]);
  });

  it("grants its actions on the table's ARN alone, and Query on exactly the indexes it names", () => {
    const { statements, tableId } = grantedStatements({ table: ['GetItem', 'UpdateItem', 'ConditionCheckItem'], queries: [indexes.byLookup.name] });
    expect(statements).toEqual([
      {
        Sid: 'TableItems',
        Effect: 'Allow',
        Action: ['dynamodb:GetItem', 'dynamodb:UpdateItem', 'dynamodb:ConditionCheckItem'],
        Resource: { 'Fn::GetAtt': [tableId, 'Arn'] },
      },
      expect.objectContaining({ Sid: 'IndexQueries', Effect: 'Allow', Action: 'dynamodb:Query' }),
    ]);
    const indexResource = statements[1]!.Resource;
    expect(Array.isArray(indexResource)).toBe(false);
    expect(indexNameOf(indexResource)).toBe(indexes.byLookup.name);
    expect(JSON.stringify(statements)).not.toContain('*');
  });

  it('a grant of index queries alone (the dispatcher) gives nothing on the table itself', () => {
    const { statements } = grantedStatements({ table: [], queries: [indexes.due.name] });
    expect(statements).toHaveLength(1);
    expect(actionsOf(statements)).toEqual(['dynamodb:Query']);
    expect(indexNameOf(statements[0]!.Resource)).toBe(indexes.due.name);
  });
});

describe('lambdaLimits', () => {
  const mutable = (group: HandlerGroup) => handlerGroups[group] as unknown as HandlerGroupDefinition;
  const saved = Object.fromEntries(
    (Object.keys(handlerGroups) as HandlerGroup[]).map((g) => [g, { timeoutSeconds: mutable(g).timeoutSeconds, memoryMb: mutable(g).memoryMb }]),
  );
  afterEach(() => {
    for (const [group, limits] of Object.entries(saved)) {
      const definition = mutable(group as HandlerGroup);
      if (limits.timeoutSeconds === undefined) delete definition.timeoutSeconds;
      else definition.timeoutSeconds = limits.timeoutSeconds;
      if (limits.memoryMb === undefined) delete definition.memoryMb;
      else definition.memoryMb = limits.memoryMb;
    }
  });

  it('defaults to 10 s and 512 MB', () => {
    expect(DEFAULT_LAMBDA_LIMITS).toEqual({ timeoutSeconds: 10, memoryMb: 512 });
    const group = 'health' satisfies HandlerGroup;
    delete mutable(group).timeoutSeconds;
    delete mutable(group).memoryMb;
    expect(lambdaLimits(group)).toEqual({ timeoutSeconds: 10, memoryMb: 512 });
  });

  it("uses a group's own timeoutSeconds and memoryMb, each independently", () => {
    // profile sets neither limit itself, so each override shows on its own.
    mutable('profile').timeoutSeconds = 20;
    expect(lambdaLimits('profile')).toEqual({ timeoutSeconds: 20, memoryMb: 512 });
    mutable('profile').memoryMb = 1024;
    expect(lambdaLimits('profile')).toEqual({ timeoutSeconds: 20, memoryMb: 1024 });
  });

  it('every group declares limits Lambda and the HTTP API accept (1–29 s, 128–10240 MB)', () => {
    for (const group of Object.keys(handlerGroups) as HandlerGroup[]) {
      const { timeoutSeconds, memoryMb } = lambdaLimits(group);
      expect(timeoutSeconds, group).toBeGreaterThanOrEqual(1);
      expect(timeoutSeconds, group).toBeLessThanOrEqual(29);
      expect(Number.isInteger(timeoutSeconds), group).toBe(true);
      expect(memoryMb, group).toBeGreaterThanOrEqual(128);
      expect(memoryMb, group).toBeLessThanOrEqual(10240);
    }
  });

  function buildApi() {
    const { stack, data } = bareStack();
    const auth = new Auth(stack, 'Auth', { stage: 'test', domainPrefix: 'trackpitch-test', google: undefined });
    const secrets = new MailboxSecrets(stack, 'Secrets', { stage: 'test', tokenKey: data.tokenKey, google: undefined });
    const billingSecrets = new BillingSecrets(stack, 'BillingSecrets', { stage: 'test', prices: undefined });
    return new Api(stack, 'Api', {
      stage: 'test',
      version: '0.0.0',
      data,
      auth,
      secrets,
      billingSecrets,
      bedrockModelId: 'model',
      throttle: { rate: 1, burst: 1 },
    });
  }

  it('lib/cloud deploys each API Lambda with exactly lambdaLimits() (an override included)', () => {
    mutable('admin').timeoutSeconds = 20;
    mutable('admin').memoryMb = 1024;
    const api = buildApi();
    const template = Template.fromStack(Stack.of(api));
    for (const group of cloudHandlerGroups()) {
      const id = Stack.of(api).getLogicalId(api.functions[group].fn.node.defaultChild as CfnFunction);
      const [, fn] = resourcesOfType(template, 'AWS::Lambda::Function').find(([logicalId]) => logicalId === id)!;
      const limits = lambdaLimits(group);
      expect([fn.Properties!.Timeout, fn.Properties!.MemorySize], group).toEqual([limits.timeoutSeconds, limits.memoryMb]);
    }
    expect(api.functions.admin.fn.timeout?.toSeconds()).toBe(Duration.seconds(20).toSeconds());
  });

  it('refuses a timeout the HTTP API would cut short', () => {
    mutable('admin').timeoutSeconds = 60;
    expect(() => buildApi()).toThrow(/admin timeoutSeconds must be 1–29/);
  });
});
