/**
 * The AI writer's grant (schema/routes.ts `writer: true`): bedrock:InvokeModel on the configured model
 * only, for the handler groups that write emails and no others; the inference-profile form stays
 * cdk-nag clean with a reasoned acknowledgement. Also: a group's `nodeModules` reach its bundling.
 */
import { App, Stack, Validations } from 'aws-cdk-lib';
import type { CfnRole } from 'aws-cdk-lib/aws-iam';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import { bedrockModelResources, cloudHandlerGroups, type CloudHandlerGroup } from '../../lib/cloud/api';
import { DEFAULTS } from '../../lib/cloud/config';
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

/** The bedrock statements of a handler group's role, resources as text. */
function bedrockGrants({ stack, template }: Synthesized, group: CloudHandlerGroup) {
  const role = stack.api.functions[group].role;
  return statementsOfRole(template, stack.getLogicalId(role.node.defaultChild as CfnRole))
    .filter((s) => actionsOf([s]).some((a) => a.startsWith('bedrock:')))
    .map((s) => ({ effect: s.Effect, actions: actionsOf([s]), resources: (Array.isArray(s.Resource) ? s.Resource : [s.Resource]).map(text) }));
}

describe('bedrock:InvokeModel for the writer', () => {
  const synthesized = synth();

  it('is declared for the campaigns group (the AI preview) at least', () => {
    expect(writerGroups).toContain('campaigns');
  });

  it('goes to the writer groups only, on the configured foundation model in the stack region only', () => {
    for (const [group, definition] of groups) {
      const grants = bedrockGrants(synthesized, group);
      if (!definition.writer) {
        expect(grants, group).toEqual([]);
        continue;
      }
      expect(grants, group).toEqual([
        {
          effect: 'Allow',
          actions: ['bedrock:InvokeModel'],
          resources: [`arn:\${AWS::Partition}:bedrock:\${AWS::Region}::foundation-model/${DEFAULTS.bedrockModelId}`],
        },
      ]);
    }
  });

  it('tells the writer Lambdas which model they may call', () => {
    const { stack, template } = synthesized;
    for (const group of writerGroups) {
      const logicalId = stack.getLogicalId(stack.api.functions[group].fn.node.defaultChild as CfnFunction);
      const resources = template.toJSON().Resources as Record<string, { Properties: { Environment: { Variables: Record<string, string> } } }>;
      const variables = resources[logicalId]!.Properties.Environment.Variables;
      expect(variables.BEDROCK_MODEL_ID, group).toBe(DEFAULTS.bedrockModelId);
    }
  });

  describe('with a cross-region inference profile', () => {
    const profileId = 'us.amazon.nova-lite-v1:0';
    // Synthesis runs cdk-nag (the plugin is on the app): it throws on an unacknowledged finding.
    const profile = synth({ bedrockModelId: profileId });

    it("grants the profile in the stack's account and region and its model in any region, nothing wider", () => {
      for (const group of writerGroups) {
        expect(bedrockGrants(profile, group), group).toEqual([
          {
            effect: 'Allow',
            actions: ['bedrock:InvokeModel'],
            resources: [
              `arn:\${AWS::Partition}:bedrock:\${AWS::Region}:\${AWS::AccountId}:inference-profile/${profileId}`,
              'arn:${AWS::Partition}:bedrock:*::foundation-model/amazon.nova-lite-v1:0',
            ],
          },
        ]);
      }
    });

    it('stays cdk-nag clean: the region wildcard is acknowledged on the role with a reason', () => {
      const report = new AwsSolutionsChecks().validateScope(profile.app);
      expect(report.violations.map((v) => v.ruleName)).toEqual([]);
      for (const group of writerGroups) {
        const rules = profile.stack.api.functions[group].role.node.metadata
          .filter((m) => m.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
          .flatMap((m) => Object.entries(m.data as Record<string, string>));
        const wildcard = rules.find(([id]) =>
          id.includes('AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:bedrock:*::foundation-model/amazon.nova-lite-v1:0]'),
        );
        expect(wildcard?.[1], group).toMatch(/inference profile/);
      }
    });
  });

  describe('bedrockModelResources', () => {
    const stack = new Stack(new App(), 'Bare');
    const resolved = (modelId: string) => bedrockModelResources(stack, modelId).map((r) => text(stack.resolve(r)));

    it('names a foundation model in the stack region', () => {
      expect(resolved('anthropic.claude-3-5-haiku-20241022-v1:0')).toEqual([
        'arn:${AWS::Partition}:bedrock:${AWS::Region}::foundation-model/anthropic.claude-3-5-haiku-20241022-v1:0',
      ]);
    });

    it.each(['us', 'eu', 'apac', 'global', 'us-gov'])('reads %s.… as an inference profile', (geo) => {
      expect(resolved(`${geo}.anthropic.claude-sonnet-4-20250514-v1:0`)).toEqual([
        `arn:\${AWS::Partition}:bedrock:\${AWS::Region}:\${AWS::AccountId}:inference-profile/${geo}.anthropic.claude-sonnet-4-20250514-v1:0`,
        'arn:${AWS::Partition}:bedrock:*::foundation-model/anthropic.claude-sonnet-4-20250514-v1:0',
      ]);
    });

    it('grants an ARN as given; a system inference profile ARN also gets its model in any region', () => {
      const model = 'arn:aws:bedrock:eu-west-1::foundation-model/amazon.nova-pro-v1:0';
      expect(resolved(model)).toEqual([model]);
      const application = 'arn:aws:bedrock:eu-west-1:123456789012:application-inference-profile/abc123';
      expect(resolved(application)).toEqual([application]);
      const profileArn = 'arn:aws:bedrock:eu-west-1:123456789012:inference-profile/eu.amazon.nova-pro-v1:0';
      expect(resolved(profileArn)).toEqual([profileArn, 'arn:${AWS::Partition}:bedrock:*::foundation-model/amazon.nova-pro-v1:0']);
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
