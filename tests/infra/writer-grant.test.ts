/**
 * The AI writer's grant (schema/routes.ts `writer: true`, and the sender): bedrock:InvokeModel on the
 * configured model only, for the handler groups that write emails and no others; a cross-region profile
 * with its model in each region its geography routes to; an application inference profile with foundation
 * models through that profile only; the default model swapped for the region's profile where it is not
 * served on demand; every form cdk-nag clean. Also: a group's `nodeModules` reach its bundling.
 */
import { App, Stack, Validations } from 'aws-cdk-lib';
import type { CfnRole } from 'aws-cdk-lib/aws-iam';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import { cloudHandlerGroups } from '../../lib/cloud/api';
import { bedrockInvokeGrants, GEOGRAPHY_REGIONS } from '../../lib/cloud/bedrock';
import { DEFAULTS } from '../../lib/cloud/config';
import type { AppFunction } from '../../lib/cloud/functions';
import { handlerGroups, type HandlerGroupDefinition } from '../../schema/routes';
import { actionsOf, statementsOfRole, synth, type Synthesized } from './synth';

// The groups deployed as Lambdas (a localOnly group has none).
const groups = cloudHandlerGroups().map((group) => [group, handlerGroups[group] as HandlerGroupDefinition] as const);
const writerGroups = groups.filter(([, definition]) => definition.writer).map(([group]) => group);

/** A CloudFormation string (plain, Ref or Fn::Join) as text, pseudo parameters as `${AWS::Region}`. */
function text(value: unknown): string {
  if (typeof value === 'string') return value;
  const intrinsic = value as { Ref?: string; 'Fn::Join'?: [string, unknown[]] };
  if (intrinsic.Ref) return `\${${intrinsic.Ref}}`;
  if (intrinsic['Fn::Join']) return intrinsic['Fn::Join'][1].map(text).join(intrinsic['Fn::Join'][0]);
  throw new Error(`not a string expression: ${JSON.stringify(value)}`);
}

/** The bedrock statements of a function's role, resources as text. */
function bedrockGrantsOf({ stack, template }: Synthesized, fn: AppFunction) {
  return statementsOfRole(template, stack.getLogicalId(fn.role.node.defaultChild as CfnRole))
    .filter((s) => actionsOf([s]).some((a) => a.startsWith('bedrock:')))
    .map((s) => ({
      effect: s.Effect,
      actions: actionsOf([s]),
      // Sorted: the IAM policy minimizer may reorder a statement's resources.
      resources: (Array.isArray(s.Resource) ? s.Resource : [s.Resource]).map(text).sort(),
      ...((s as { Condition?: unknown }).Condition ? { condition: (s as { Condition?: unknown }).Condition } : {}),
    }));
}
const writerFunctions = ({ stack }: Synthesized) => [
  ...writerGroups.map((group) => [group, stack.api.functions[group]] as const),
  ['sender', stack.sending.sender] as const,
];

/** Environment variable BEDROCK_MODEL_ID of a function. */
function modelIdOf({ stack, template }: Synthesized, fn: AppFunction): unknown {
  const logicalId = stack.getLogicalId(fn.fn.node.defaultChild as CfnFunction);
  const resources = template.toJSON().Resources as Record<string, { Properties: { Environment: { Variables: Record<string, unknown> } } }>;
  return resources[logicalId]!.Properties.Environment.Variables.BEDROCK_MODEL_ID;
}

/** The rule ids and reasons acknowledged on a function's role. */
const acknowledgedOn = (fn: AppFunction) =>
  fn.role.node.metadata.filter((m) => m.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY).flatMap((m) => Object.entries(m.data as Record<string, string>));

const novaLite = 'amazon.nova-lite-v1:0';
const modelArn = (region: string, model = novaLite) => `arn:\${AWS::Partition}:bedrock:${region}::foundation-model/${model}`;

describe('bedrock:InvokeModel for the writer', () => {
  const synthesized = synth();

  it('is declared for the campaigns group (the AI preview) at least', () => {
    expect(writerGroups).toContain('campaigns');
  });

  it('goes to the writer groups and the sender only, on the configured foundation model in the stack region only', () => {
    for (const [group, definition] of groups) {
      const grants = bedrockGrantsOf(synthesized, synthesized.stack.api.functions[group]);
      if (!definition.writer) {
        expect(grants, group).toEqual([]);
        continue;
      }
      expect(grants, group).toEqual([{ effect: 'Allow', actions: ['bedrock:InvokeModel'], resources: [modelArn('${AWS::Region}', DEFAULTS.bedrockModelId)] }]);
    }
    expect(bedrockGrantsOf(synthesized, synthesized.stack.sending.sender)).toEqual([
      { effect: 'Allow', actions: ['bedrock:InvokeModel'], resources: [modelArn('${AWS::Region}', DEFAULTS.bedrockModelId)] },
    ]);
  });

  it('tells the writer Lambdas which model they may call', () => {
    for (const [name, fn] of writerFunctions(synthesized)) expect(modelIdOf(synthesized, fn), name).toBe(DEFAULTS.bedrockModelId);
  });

  describe('with a cross-region inference profile', () => {
    const profileId = `us.${novaLite}`;
    // Synthesis runs cdk-nag (the plugin is on the app): it throws on an unacknowledged finding.
    const profile = synth({ bedrockModelId: profileId });

    it("grants the profile in the stack's account and region and its model in the stack region and each US region, nothing wider", () => {
      for (const [name, fn] of writerFunctions(profile)) {
        expect(bedrockGrantsOf(profile, fn), name).toEqual([
          {
            effect: 'Allow',
            actions: ['bedrock:InvokeModel'],
            resources: [
              `arn:\${AWS::Partition}:bedrock:\${AWS::Region}:\${AWS::AccountId}:inference-profile/${profileId}`,
              modelArn('${AWS::Region}'),
              ...GEOGRAPHY_REGIONS.us!.map((region) => modelArn(region)),
            ].sort(),
          },
        ]);
      }
    });

    it('needs no cdk-nag acknowledgement: every region is named', () => {
      expect(new AwsSolutionsChecks().validateScope(profile.app).violations).toEqual([]);
      for (const [name, fn] of writerFunctions(profile))
        expect(
          acknowledgedOn(fn).filter(([id]) => id.includes(':bedrock:')),
          name,
        ).toEqual([]);
    });
  });

  describe('deployed to a region that serves the default model through a profile only (eu-west-1)', () => {
    const europe = synth({ region: 'eu-west-1' });

    it("calls the EU profile: the profile in eu-west-1 and the model in each EU region, the stack's own once", () => {
      for (const [name, fn] of writerFunctions(europe)) {
        expect(modelIdOf(europe, fn), name).toBe(`eu.${novaLite}`);
        expect(bedrockGrantsOf(europe, fn), name).toEqual([
          {
            effect: 'Allow',
            actions: ['bedrock:InvokeModel'],
            resources: [
              `arn:\${AWS::Partition}:bedrock:eu-west-1:\${AWS::AccountId}:inference-profile/eu.${novaLite}`,
              ...GEOGRAPHY_REGIONS.eu!.map((r) => modelArn(r)),
            ].sort(),
          },
        ]);
      }
    });

    it('keeps the on-demand model in us-east-1', () => {
      const virginia = synth({ region: 'us-east-1' });
      expect(modelIdOf(virginia, virginia.stack.sending.sender)).toBe(novaLite);
      expect(bedrockGrantsOf(virginia, virginia.stack.sending.sender)[0]?.resources).toEqual([modelArn('us-east-1')]);
    });
  });

  describe('with a global profile (a geography without a region table)', () => {
    const profile = synth({ bedrockModelId: `global.${novaLite}` });

    it('grants its model in any region, acknowledged on the role with a reason', () => {
      expect(new AwsSolutionsChecks().validateScope(profile.app).violations).toEqual([]);
      for (const [name, fn] of writerFunctions(profile)) {
        expect(bedrockGrantsOf(profile, fn)[0]?.resources, name).toContain(modelArn('*'));
        const wildcard = acknowledgedOn(fn).find(([id]) =>
          id.includes(`AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:bedrock:*::foundation-model/${novaLite}]`),
        );
        expect(wildcard?.[1], name).toMatch(/inference profile/);
      }
    });
  });

  describe('with an application inference profile', () => {
    const arn = 'arn:aws:bedrock:eu-west-1:123456789012:application-inference-profile/a1b2c3d4e5f6';
    const application = synth({ region: 'eu-west-1', bedrockModelId: arn });

    it('grants the profile, and foundation models only when called through it', () => {
      for (const [name, fn] of writerFunctions(application)) {
        expect(modelIdOf(application, fn), name).toBe(arn);
        expect(bedrockGrantsOf(application, fn), name).toEqual([
          { effect: 'Allow', actions: ['bedrock:InvokeModel'], resources: [arn] },
          {
            effect: 'Allow',
            actions: ['bedrock:InvokeModel'],
            resources: [modelArn('*', '*')],
            condition: { StringEquals: { 'bedrock:InferenceProfileArn': arn } },
          },
        ]);
      }
    });

    it('stays cdk-nag clean, the wildcard acknowledged with the condition as its reason', () => {
      expect(new AwsSolutionsChecks().validateScope(application.app).violations).toEqual([]);
      const reason = acknowledgedOn(application.stack.sending.sender).find(([id]) => id.includes('foundation-model/*'))?.[1];
      expect(reason).toMatch(/through the application inference profile .*bedrock:InferenceProfileArn/);
    });
  });

  describe('bedrockInvokeGrants', () => {
    const stack = new Stack(new App(), 'Bare');
    const resolved = (modelId: string) => bedrockInvokeGrants(stack, modelId).map((grant) => grant.resources.map((r) => text(stack.resolve(r))));

    it('names a foundation model in the stack region', () => {
      expect(resolved('anthropic.claude-3-5-haiku-20241022-v1:0')).toEqual([[modelArn('${AWS::Region}', 'anthropic.claude-3-5-haiku-20241022-v1:0')]]);
    });

    it.each(['jp', 'au', 'ca', 'global', 'us-gov'])('reads %s.… as an inference profile whose model may run in any region', (geo) => {
      expect(resolved(`${geo}.anthropic.claude-sonnet-4-20250514-v1:0`)).toEqual([
        [
          `arn:\${AWS::Partition}:bedrock:\${AWS::Region}:\${AWS::AccountId}:inference-profile/${geo}.anthropic.claude-sonnet-4-20250514-v1:0`,
          modelArn('*', 'anthropic.claude-sonnet-4-20250514-v1:0'),
        ],
      ]);
    });

    it('grants an ARN as given; a system inference profile ARN also gets its model in its geography', () => {
      const model = 'arn:aws:bedrock:eu-west-1::foundation-model/amazon.nova-pro-v1:0';
      expect(resolved(model)).toEqual([[model]]);
      const profileArn = 'arn:aws:bedrock:ap-southeast-2:123456789012:inference-profile/apac.amazon.nova-pro-v1:0';
      expect(resolved(profileArn)).toEqual([
        [profileArn, modelArn('${AWS::Region}', 'amazon.nova-pro-v1:0'), ...GEOGRAPHY_REGIONS.apac!.map((r) => modelArn(r, 'amazon.nova-pro-v1:0'))],
      ]);
    });
  });
});

describe('nodeModules of a handler group', () => {
  const { stack } = synth();

  it('are installed beside the bundle of exactly the groups that declare them (campaigns: jsdom)', () => {
    expect(handlerGroups.campaigns.nodeModules).toEqual(['jsdom']);
    for (const [group, definition] of groups) {
      expect(stack.api.functions[group].bundling.nodeModules, group).toEqual(definition.nodeModules ? [...definition.nodeModules] : undefined);
    }
  });

  it('keep the rest of the bundling as every function has it', () => {
    const campaigns = stack.api.functions.campaigns.bundling;
    const { nodeModules: _jsdom, ...rest } = campaigns;
    expect(rest).toEqual(stack.api.functions.health.bundling);
  });
});
