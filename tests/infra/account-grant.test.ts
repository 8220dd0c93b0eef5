/**
 * The account deletion's grant (issue 26 §3; schema/routes.ts `deletesUsers`): cognito-idp:AdminDeleteUser
 * on the app's own user pool, for the account function only, which also gets the pool's id. The data
 * export's (`writesExports`): put (the multipart upload), abort and get on the audio bucket's `exports/*`
 * only, for the account function only; the zip's key is under that prefix.
 */
import type { CfnRole } from 'aws-cdk-lib/aws-iam';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { describe, expect, it } from 'vitest';
import { cloudHandlerGroups, type CloudHandlerGroup } from '../../lib/cloud/api';
import { EXPORT_ACTIONS, EXPORTS_PREFIX } from '../../lib/cloud/audio';
import { accountExportKey, EXPORTS_PREFIX as CORE_EXPORTS_PREFIX } from '../../lambdas/core/account';
import { actionsOf, statementsOfRole, synth } from './synth';

const synthesized = synth();
const { stack, template } = synthesized;
const poolId = stack.getLogicalId(stack.auth.userPool.node.defaultChild as never);

const cognitoStatementsOf = (group: CloudHandlerGroup) =>
  statementsOfRole(template, stack.getLogicalId(stack.api.functions[group].role.node.defaultChild as CfnRole)).filter((s) =>
    actionsOf([s]).some((a) => a.startsWith('cognito-idp:')),
  );

describe('the account deletion grant', () => {
  it('lets the account function delete users of the app’s pool only, and no other function any', () => {
    const statements = cognitoStatementsOf('account');
    expect(statements.map((s) => actionsOf([s]))).toEqual([['cognito-idp:AdminDeleteUser']]);
    expect(JSON.stringify(statements[0]?.Resource)).toContain(poolId);
    for (const group of cloudHandlerGroups().filter((g) => g !== 'account')) expect(cognitoStatementsOf(group), group).toEqual([]);
  });

  it('gives the account function the pool’s id', () => {
    const fn = stack.api.functions.account.fn.node.defaultChild as CfnFunction;
    const variables = (stack.resolve(fn.environment) as { variables: Record<string, unknown> }).variables;
    expect(JSON.stringify(variables.USER_POOL_ID)).toContain(poolId);
  });
});

describe('the data export grant', () => {
  const bucketId = stack.getLogicalId(stack.audio.bucket.node.defaultChild as never);
  const roleOf = (group: CloudHandlerGroup) => stack.getLogicalId(stack.api.functions[group].role.node.defaultChild as CfnRole);
  const exportStatementsOf = (group: CloudHandlerGroup) =>
    statementsOfRole(template, roleOf(group)).filter(
      (s) => actionsOf([s]).some((a) => a.startsWith('s3:')) && JSON.stringify(s.Resource).includes(EXPORTS_PREFIX),
    );

  it('lets the account function put (multipart included), abort and get objects under exports/ only, and no other function touch exports/', () => {
    const statements = exportStatementsOf('account');
    expect(statements).toHaveLength(1);
    expect(actionsOf(statements).sort()).toEqual([...EXPORT_ACTIONS].sort());
    expect(actionsOf(statements).sort()).toEqual(['s3:AbortMultipartUpload', 's3:GetObject', 's3:PutObject']);
    expect(statements[0]?.Resource).toEqual({ 'Fn::Join': ['', [{ 'Fn::GetAtt': [bucketId, 'Arn'] }, `/${EXPORTS_PREFIX}*`]] });
    for (const group of cloudHandlerGroups().filter((g) => g !== 'account')) expect(exportStatementsOf(group), group).toEqual([]);
    const fn = stack.api.functions.account.fn.node.defaultChild as CfnFunction;
    const variables = (stack.resolve(fn.environment) as { variables: Record<string, unknown> }).variables;
    expect(variables.AUDIO_BUCKET_NAME).toEqual({ Ref: bucketId });
  });

  it('covers the keys the export writes', () => {
    expect(CORE_EXPORTS_PREFIX).toBe(EXPORTS_PREFIX);
    expect(accountExportKey('user-1', '01KAKZ3R0000000000000000EX').startsWith(EXPORTS_PREFIX)).toBe(true);
  });
});
