/**
 * The tracks' audio bucket in the template (issue 16; lib/cloud/audio.ts): private, encrypted, TLS
 * only, access-logged, uploads (`uploads/`) expired by the lifecycle, CORS for the site's origin only;
 * only the tracks function may use it (on `uploads/*` and `tracks/*`, with exactly its actions, and list those
 * prefixes so that S3 answers a missing key with 404, not 403) and knows its name; the site's CSP lets the
 * browser post to and play from it.
 */
import type { CfnResource } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { AUDIO_ACTIONS, AUDIO_PREFIXES } from '../../lib/cloud/audio';
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

  it("expires uploads a day on, never a ready track's audio, and aborts incomplete multipart uploads", () => {
    const rules = (bucket.LifecycleConfiguration as { Rules: Array<Record<string, unknown>> }).Rules;
    const expiring = rules.filter((rule) => rule.ExpirationInDays !== undefined);
    expect(expiring).toEqual([expect.objectContaining({ Status: 'Enabled', ExpirationInDays: 1, Prefix: 'uploads/' })]);
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
      const statements = s3Statements.filter((s) => !actionsOf([s]).includes('s3:ListBucket'));
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
      expect(lists, group).toEqual(
        group === 'tracks'
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
    const csp = JSON.stringify(policy.Properties);
    expect(csp).toMatch(/connect-src 'self' [^;]*https:\/\/trackpitch-dev-audio-/);
    expect(csp).toMatch(/media-src 'self' https:\/\/trackpitch-dev-audio-/);
  });
});
