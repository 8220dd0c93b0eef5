/**
 * The tracks' audio bucket in the template (issue 16; lib/cloud/audio.ts): private, encrypted, TLS
 * only, access-logged, uploads (`uploads/`) expired by the lifecycle, CORS for the site's origin only;
 * only the tracks function may use it (on `uploads/*` and `tracks/*`, with exactly its actions, and list those
 * prefixes so that S3 answers a missing key with 404, not 403) and knows its name; the site's CSP lets the
 * browser post to and play from it; its name is new at each creation of the stack (it is retained, and a
 * failed first deployment must not block the retry).
 */
import { App, type CfnResource, Stack } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { AUDIO_ACTIONS, AUDIO_PREFIXES, audioBucketName } from '../../lib/cloud/audio';
import { coverUploadKey, trackCoverKey } from '../../lambdas/core/tracks';
import { readConfig } from '../../lib/cloud/config';
import { cloudHandlerGroups } from '../../lib/cloud/api';
import { handlerGroups, type HandlerGroupDefinition } from '../../schema/routes';
import { actionsOf, resourcesOfType, statementsOfRole, synth } from './synth';

describe('the audio bucket', () => {
  const { stack, template } = synth();
  const logicalId = (construct: { node: { defaultChild?: unknown } }) => stack.getLogicalId(construct.node.defaultChild as CfnResource);
  const bucketId = logicalId(stack.audio.bucket);
  const resources = template.toJSON().Resources as Record<string, { Type: string; Properties: Record<string, unknown> }>;
  const bucket = resources[bucketId]!.Properties;

  it('is private, encrypted, owner-enforced and logged', () => {
    expect(bucket.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
    expect(JSON.stringify(bucket.BucketEncryption)).toContain('AES256');
    expect(bucket.OwnershipControls).toEqual({ Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] });
    expect(bucket.LoggingConfiguration).toMatchObject({ LogFilePrefix: 's3-audio/' });
    expect(bucket.VersioningConfiguration).toBeUndefined();
  });

  it('refuses every request without TLS', () => {
    const [, policy] = resourcesOfType(template, 'AWS::S3::BucketPolicy').find(([, p]) => JSON.stringify(p.Properties?.Bucket).includes(bucketId))!;
    const statements = (policy.Properties!.PolicyDocument as { Statement: Array<{ Effect: string; Condition?: unknown }> }).Statement;
    expect(statements).toContainEqual(expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }));
  });

  it("expires uploads and data exports a day on, never a ready track's audio, and aborts incomplete multipart uploads", () => {
    const rules = (bucket.LifecycleConfiguration as { Rules: Array<Record<string, unknown>> }).Rules;
    const expiring = rules.filter((rule) => rule.ExpirationInDays !== undefined);
    // The data exports' zips (issue 26 §3) expire a day on too.
    expect(expiring).toEqual([
      expect.objectContaining({ Status: 'Enabled', ExpirationInDays: 1, Prefix: 'uploads/' }),
      expect.objectContaining({ Status: 'Enabled', ExpirationInDays: 1, Prefix: 'exports/' }),
    ]);
    expect(rules).toContainEqual(expect.objectContaining({ Status: 'Enabled', AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 } }));
  });

  it("lets only the site's origin POST and GET across origins", () => {
    const [rule, ...others] = (bucket.CorsConfiguration as { CorsRules: Array<{ AllowedMethods: string[]; AllowedOrigins: unknown[] }> }).CorsRules;
    expect(others).toEqual([]);
    expect(rule?.AllowedMethods.sort()).toEqual(['GET', 'HEAD', 'POST']);
    expect(rule?.AllowedOrigins).toHaveLength(1);
    expect(JSON.stringify(rule?.AllowedOrigins)).toContain(logicalId(stack.web.distribution));
  });

  it('is used by the tracks function (uploads/ and tracks/, read and write) and the listen function (tracks/, read only), with exactly their actions, and named in their environment', () => {
    expect(cloudHandlerGroups()).toEqual(expect.arrayContaining(['tracks', 'listen']));
    for (const group of cloudHandlerGroups()) {
      const access = (handlerGroups[group] as HandlerGroupDefinition).audio;
      const s3Statements = statementsOfRole(template, logicalId(stack.api.functions[group].role)).filter((s) =>
        actionsOf([s]).some((a) => a.startsWith('s3:')),
      );
      // The export writer's own statement on `exports/*`: tests/infra/account-grant.test.ts.
      const statements = s3Statements.filter((s) => !actionsOf([s]).includes('s3:ListBucket') && !JSON.stringify(s.Resource).includes('/exports/*'));
      const lists = s3Statements.filter((s) => actionsOf([s]).includes('s3:ListBucket'));
      const variables = (resources[logicalId(stack.api.functions[group].fn)]!.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
      if (access === undefined) {
        expect(s3Statements, group).toEqual([]);
        expect(variables, group).not.toHaveProperty('AUDIO_BUCKET_NAME');
        continue;
      }
      expect(statements, group).toHaveLength(1);
      expect(actionsOf(statements).sort(), group).toEqual([...AUDIO_ACTIONS[access]].sort());
      const objects = (prefix: string) => ({ 'Fn::Join': ['', [{ 'Fn::GetAtt': [bucketId, 'Arn'] }, `/${prefix}*`]] });
      const granted = [statements[0]!.Resource].flat();
      expect(granted, group).toHaveLength(AUDIO_PREFIXES[access].length);
      expect(granted, group).toEqual(expect.arrayContaining(AUDIO_PREFIXES[access].map(objects)));
      expect(variables.AUDIO_BUCKET_NAME).toEqual({ Ref: bucketId });
      // Listing: only the tracks function, which heads uploads (complete: "not there yet" must be a 404
      // from S3, not a 403); the bucket itself, and only under its own two prefixes. The listen function lists nothing.
      // The account function (issue 26 §3) has the same read-write grant: its deletion removes the objects.
      expect(lists, group).toEqual(
        access === 'readwrite'
          ? [
              expect.objectContaining({
                Effect: 'Allow',
                Action: 's3:ListBucket',
                Resource: { 'Fn::GetAtt': [bucketId, 'Arn'] },
                Condition: { StringLike: { 's3:prefix': ['uploads/*', 'tracks/*'] } },
              }),
            ]
          : [],
      );
    }
    expect((handlerGroups.tracks as HandlerGroupDefinition).audio).toBe('readwrite');
    // The public listen page only signs GET URLs: never a write or a delete.
    expect((handlerGroups.listen as HandlerGroupDefinition).audio).toBe('read');
    const listenStatements = statementsOfRole(template, logicalId(stack.api.functions.listen.role)).filter((s) =>
      actionsOf([s]).some((a) => a.startsWith('s3:')),
    );
    expect(actionsOf(listenStatements)).toEqual(['s3:GetObject']);
    // Upload (Put), inspect (Get), copy (Get then Put) and delete both: nothing more; a reader gets ready tracks only.
    expect([...AUDIO_ACTIONS.readwrite].sort()).toEqual(['s3:DeleteObject', 's3:GetObject', 's3:PutObject']);
    expect(AUDIO_PREFIXES.readwrite).toEqual(['uploads/', 'tracks/']);
    expect([AUDIO_ACTIONS.read, AUDIO_PREFIXES.read]).toEqual([['s3:GetObject'], ['tracks/']]);
  });

  it("names the bucket's host in the site's CSP, for uploads and the player", () => {
    const [, policy] = resourcesOfType(template, 'AWS::CloudFront::ResponseHeadersPolicy')[0]!;
    const config = policy.Properties!.ResponseHeadersPolicyConfig as { SecurityHeadersConfig: { ContentSecurityPolicy: { ContentSecurityPolicy: unknown } } };
    const csp = evaluate(config.SecurityHeadersConfig.ContentSecurityPolicy.ContentSecurityPolicy, firstCreation) as string;
    const host = `https://${evaluate(bucket.BucketName, firstCreation) as string}.s3.eu-west-1.amazonaws.com`;
    expect(csp).toMatch(new RegExp(`connect-src 'self' [^;]*${host.replaceAll('.', '\\.')}(;| )`));
    expect(csp).toContain(`media-src 'self' ${host};`);
  });

  it('serves cover art (issue 25 §5) with what the audio has: its keys under the granted prefixes and expiring uploads, its signed URL allowed as an image', () => {
    const [, policy] = resourcesOfType(template, 'AWS::CloudFront::ResponseHeadersPolicy')[0]!;
    const config = policy.Properties!.ResponseHeadersPolicyConfig as { SecurityHeadersConfig: { ContentSecurityPolicy: { ContentSecurityPolicy: unknown } } };
    const csp = evaluate(config.SecurityHeadersConfig.ContentSecurityPolicy.ContentSecurityPolicy, firstCreation) as string;
    expect(csp).toMatch(/img-src 'self' data: blob: https:;/);
    // The listen function reads tracks/* only; the tracks function writes uploads/* and tracks/*; uploads/ expires.
    expect(trackCoverKey('u', 't').startsWith(AUDIO_PREFIXES.read[0])).toBe(true);
    expect(AUDIO_PREFIXES.readwrite.some((prefix) => coverUploadKey('u', 't').startsWith(prefix))).toBe(true);
    expect(coverUploadKey('u', 't').startsWith('uploads/')).toBe(true);
    // Its two routes are the tracks function's, behind the JWT authorizer.
    const routes = resourcesOfType(template, 'AWS::ApiGatewayV2::Route').map(([, r]) => r.Properties!);
    for (const routeKey of ['POST /api/tracks/{id}/cover/uploads', 'POST /api/tracks/{id}/cover/complete']) {
      const route = routes.find((r) => r.RouteKey === routeKey);
      expect(route, routeKey).toMatchObject({ AuthorizationType: 'JWT' });
      const complete = routes.find((r) => r.RouteKey === 'POST /api/tracks/{id}/complete');
      expect(route?.Target, routeKey).toEqual(complete?.Target);
    }
  });

  it('is named anew at each creation of the stack, so the retry of a failed first deployment does not meet the retained bucket', () => {
    // A retained bucket outlives a failed first deployment; CloudFormation cannot generate the name (the CSP
    // names the bucket and the bucket's CORS names the site, so that would be a cycle): the stack id makes it new.
    expect((resources[bucketId] as { DeletionPolicy?: string }).DeletionPolicy).toBe('Retain');
    const first = evaluate(bucket.BucketName, firstCreation);
    expect(first).toBe('trackpitch-dev-audio-123456789012-5e0b3a70');
    expect(evaluate(bucket.BucketName, { ...firstCreation, 'AWS::StackId': retryStackId })).toBe('trackpitch-dev-audio-123456789012-9c41d2e8');
    // An update keeps the stack id, so the bucket is never replaced.
    expect(evaluate(bucket.BucketName, firstCreation)).toBe(first);
  });

  it('keeps a valid S3 name for the longest stage', () => {
    const longestStage = 'a234567890123456';
    expect(readConfig({ context: (key) => ({ stage: longestStage })[key], env: {}, settingsDir: null }).stage).toBe(longestStage);
    const name = evaluate(new Stack(new App(), 'Bare').resolve(audioBucketName(longestStage)), firstCreation);
    expect(name).toMatch(/^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/);
  });
});

const retryStackId = 'arn:aws:cloudformation:eu-west-1:123456789012:stack/Trackpitch-dev/9c41d2e8-2a7b-11f1-8d1e-0a1b2c3d4e5f';
const firstCreation: Record<string, string> = {
  'AWS::AccountId': '123456789012',
  'AWS::Region': 'eu-west-1',
  'AWS::URLSuffix': 'amazonaws.com',
  'AWS::Partition': 'aws',
  'AWS::StackId': 'arn:aws:cloudformation:eu-west-1:123456789012:stack/Trackpitch-dev/5e0b3a70-1f2c-11f1-8d1e-0a1b2c3d4e5f',
};

/** Evaluates the intrinsics a name is built with (Ref of a pseudo parameter, Fn::Join, Fn::Split, Fn::Select). */
function evaluate(value: unknown, pseudo: Record<string, string>): unknown {
  if (typeof value === 'string') return value;
  const fn = value as { Ref?: string; 'Fn::Join'?: [string, unknown[]]; 'Fn::Split'?: [string, unknown]; 'Fn::Select'?: [number, unknown] };
  if (fn.Ref) {
    if (!(fn.Ref in pseudo)) throw new Error(`no value for ${fn.Ref}`);
    return pseudo[fn.Ref];
  }
  if (fn['Fn::Join']) return fn['Fn::Join'][1].map((part) => evaluate(part, pseudo)).join(fn['Fn::Join'][0]);
  if (fn['Fn::Split']) return (evaluate(fn['Fn::Split'][1], pseudo) as string).split(fn['Fn::Split'][0]);
  if (fn['Fn::Select']) return (evaluate(fn['Fn::Select'][1], pseudo) as unknown[])[fn['Fn::Select'][0]];
  throw new Error(`cannot evaluate ${JSON.stringify(value)}`);
}
