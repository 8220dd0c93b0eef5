/**
 * The AI writer's Bedrock model: which id it calls in the deploy region (lib/cloud/config.ts) and what
 * `bedrock:InvokeModel` (which Converse is authorised as) must name so the call is allowed, and nothing more.
 *
 * Where the two tables come from (Amazon Bedrock user guide; update them when AWS adds a region):
 * - "Supported Regions and models for batch inference" and the Nova Lite model card: Nova Lite, Micro and
 *   Pro are served in-region (on demand) in us-east-1 only (and us-gov-west-1, outside this app's `aws`
 *   partition); every other region reaches them through its geography's cross-region inference profile.
 * - "Supported Regions and models for inference profiles": the regions each geography's Nova profile is
 *   called from, which are also the regions it routes requests to.
 * - "Geographic cross-Region inference": to call a geographic profile, allow the profile and the model in
 *   the source region and in every destination region.
 * - "Prerequisites for inference profiles": the `bedrock:InferenceProfileArn` condition key limits a
 *   grant on foundation models to calls made through one inference profile.
 */
import { Stack } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';
import type { AppFunction } from './functions';
import { acknowledge } from './nag';

/** The AI writer's model when `bedrockModelId` is unset (outside its on-demand regions: its geography's profile). */
export const DEFAULT_BEDROCK_MODEL = 'amazon.nova-lite-v1:0';

/** Models with a known list of regions that serve them on demand; a model not listed here is not checked. */
export const ON_DEMAND_REGIONS: Readonly<Record<string, readonly string[]>> = {
  'amazon.nova-lite-v1:0': ['us-east-1'],
  'amazon.nova-micro-v1:0': ['us-east-1'],
  'amazon.nova-pro-v1:0': ['us-east-1'],
};

/** Geography prefix of a cross-region inference profile id → the regions it is called from and routes to. */
export const GEOGRAPHY_REGIONS: Readonly<Record<string, readonly string[]>> = {
  us: ['us-east-1', 'us-east-2', 'us-west-2'],
  eu: ['eu-central-1', 'eu-north-1', 'eu-south-1', 'eu-south-2', 'eu-west-1', 'eu-west-3'],
  apac: ['ap-northeast-1', 'ap-northeast-2', 'ap-south-1', 'ap-southeast-1', 'ap-southeast-2'],
};

/** Every prefix AWS gives its cross-region profiles; those missing from GEOGRAPHY_REGIONS are granted the model in any region. */
const PROFILE_PREFIXES = ['us', 'us-gov', 'eu', 'apac', 'jp', 'au', 'ca', 'global'];
const PROFILE_ID = new RegExp(`^(${PROFILE_PREFIXES.join('|')})\\.(.+)$`);
const BEDROCK_ARN = /^arn:[^:]+:bedrock:([^:]*):[^:]*:([a-z-]+)\/(.+)$/;

/** What a `bedrockModelId` names. `region` is the region written in an ARN, if any. */
export type BedrockModelRef =
  | { kind: 'foundation-model'; model: string; arn?: string; region?: string }
  | { kind: 'inference-profile'; geography: string; model: string; arn?: string; region?: string }
  | { kind: 'application-inference-profile'; arn: string; region?: string }
  | { kind: 'other-arn'; arn: string; region?: string };

/** `<geography>.<model>` → its two parts; anything else → undefined. */
function profileParts(id: string): { geography: string; model: string } | undefined {
  const [, geography, model] = PROFILE_ID.exec(id) ?? [];
  return geography && model ? { geography, model } : undefined;
}

export function parseBedrockModelId(modelId: string): BedrockModelRef {
  const [, arnRegion, resourceType, name = ''] = BEDROCK_ARN.exec(modelId) ?? [];
  if (resourceType === undefined) {
    const profile = profileParts(modelId);
    return profile ? { kind: 'inference-profile', ...profile } : { kind: 'foundation-model', model: modelId };
  }
  const region = arnRegion || undefined;
  if (resourceType === 'foundation-model') return { kind: 'foundation-model', model: name, arn: modelId, region };
  if (resourceType === 'application-inference-profile') return { kind: 'application-inference-profile', arn: modelId, region };
  const profile = resourceType === 'inference-profile' ? profileParts(name) : undefined;
  if (profile) return { kind: 'inference-profile', ...profile, arn: modelId, region };
  return { kind: 'other-arn', arn: modelId, region };
}

/** The geography whose profiles are called from `region` (undefined: none we know of). */
export function geographyOf(region: string): string | undefined {
  return Object.entries(GEOGRAPHY_REGIONS).find(([, regions]) => regions.includes(region))?.[0];
}

/** How `model` can be called from `region`: its own id on demand, or its geography's profile id (undefined: neither). */
function servedAs(model: string, region: string): string | undefined {
  const onDemand = ON_DEMAND_REGIONS[model];
  if (!onDemand || onDemand.includes(region)) return model;
  const geography = geographyOf(region);
  return geography ? `${geography}.${model}` : undefined;
}

const geographiesText = () =>
  Object.entries(GEOGRAPHY_REGIONS)
    .map(([geography, regions]) => `${geography}.: ${regions.join(', ')}`)
    .join('; ');

/**
 * The model id the writer calls when the stack deploys to `region`: the requested one, or for the
 * default model outside its on-demand regions, its geography's cross-region profile. `problem` says why
 * `region` cannot call the requested model and what to use instead (the caller prefixes the setting).
 * With the region unknown (a synth without the CDK CLI) nothing can be checked: the id is kept.
 */
export function bedrockModelForRegion(requested: string | undefined, region: string | undefined): { modelId: string } | { problem: string } {
  const modelId = requested ?? DEFAULT_BEDROCK_MODEL;
  if (region === undefined) return { modelId };
  const ref = parseBedrockModelId(modelId);
  if (ref.region !== undefined && ref.region !== region) {
    return {
      problem: `"${modelId}" is in ${ref.region}, but the stack deploys to ${region}: the Lambdas call Bedrock in their own region, so name one in ${region}`,
    };
  }
  if (ref.kind === 'foundation-model') {
    const onDemand = ON_DEMAND_REGIONS[ref.model];
    if (!onDemand || onDemand.includes(region)) return { modelId };
    const profile = servedAs(ref.model, region);
    if (requested === undefined && profile) return { modelId: profile };
    const what = requested === undefined ? `the default model ${modelId}` : `"${modelId}"`;
    return {
      problem: profile
        ? `${what} is served on demand in ${onDemand.join(', ')} only: in ${region} use its cross-region inference profile "${profile}"`
        : `${what} is served on demand in ${onDemand.join(', ')} only, and no cross-region inference profile is called from ${region} (${geographiesText()}): deploy to one of those regions, or name a model that ${region} serves`,
    };
  }
  if (ref.kind === 'inference-profile') {
    const regions = GEOGRAPHY_REGIONS[ref.geography];
    if (!regions || regions.includes(region)) return { modelId };
    const instead = servedAs(ref.model, region);
    return {
      problem:
        `"${modelId}" is called from ${regions.join(', ')} only: ` +
        (instead ? `in ${region} use "${instead}"` : `no profile of ${ref.model} is called from ${region} (${geographiesText()})`),
    };
  }
  return { modelId };
}

/** One grant of bedrock:InvokeModel; `throughProfile`: only for calls made through that inference profile. */
export interface BedrockGrant {
  resources: string[];
  throughProfile?: string;
}

/**
 * What the writer must be allowed to invoke to run `modelId` from the stack's region: a foundation model
 * there; for a cross-region profile, the profile plus its model in the stack's region and in each region
 * the geography routes to (any region for a geography missing from GEOGRAPHY_REGIONS); for an application
 * inference profile, the profile plus foundation models called through it only (its models are not
 * visible in its ARN); any other ARN as given.
 */
export function bedrockInvokeGrants(scope: Construct, modelId: string): BedrockGrant[] {
  const { partition, region, account } = Stack.of(scope);
  const modelIn = (modelRegion: string, model: string) => `arn:${partition}:bedrock:${modelRegion}::foundation-model/${model}`;
  const ref = parseBedrockModelId(modelId);
  switch (ref.kind) {
    case 'foundation-model':
      return [{ resources: [ref.arn ?? modelIn(region, ref.model)] }];
    case 'inference-profile': {
      const profile = ref.arn ?? `arn:${partition}:bedrock:${region}:${account}:inference-profile/${modelId}`;
      const destinations = GEOGRAPHY_REGIONS[ref.geography];
      const models = destinations ? [...new Set([region, ...destinations])].map((r) => modelIn(r, ref.model)) : [modelIn('*', ref.model)];
      return [{ resources: [profile, ...models] }];
    }
    case 'application-inference-profile':
      return [{ resources: [ref.arn] }, { resources: [modelIn('*', '*')], throughProfile: ref.arn }];
    case 'other-arn':
      return [{ resources: [ref.arn] }];
  }
}

/** Lets a writer Lambda (schema/routes.ts `writer: true`, and the sender) call the configured model. */
export function grantModelInvocation(fn: AppFunction, modelId: string): void {
  for (const grant of bedrockInvokeGrants(fn, modelId)) {
    fn.role.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['bedrock:InvokeModel'],
        resources: grant.resources,
        ...(grant.throughProfile ? { conditions: { StringEquals: { 'bedrock:InferenceProfileArn': grant.throughProfile } } } : {}),
      }),
    );
    for (const resource of grant.resources.filter((r) => r.includes(':bedrock:*:'))) {
      acknowledge(fn.role, {
        id: `AwsSolutions-IAM5[Resource::${nagResourceName(resource)}]`,
        reason: grant.throughProfile
          ? `Foundation models only when called through the application inference profile ${grant.throughProfile} (bedrock:InferenceProfileArn condition): its models and regions are not visible in its ARN.`
          : `A cross-region inference profile (${modelId}) sends each request to the model in one of its geography's regions, ` +
            'chosen by Bedrock per request: the model is named exactly, only the region is a wildcard (AWS documents this grant for inference profiles).',
      });
    }
  }
}

/** How cdk-nag prints a resource with pseudo-parameters: `arn:<AWS::Partition>:bedrock:…`. */
function nagResourceName(resource: string): string {
  return resource.replace(/\$\{Token\[AWS\.(\w+)\.\d+\]\}/g, '<AWS::$1>');
}
