/**
 * The account deletion's grant (issue 26 §3; schema/routes.ts `deletesUsers`): cognito-idp:AdminDeleteUser
 * on the app's own user pool, for the account function only, which also gets the pool's id.
 */
import type { CfnRole } from 'aws-cdk-lib/aws-iam';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { describe, expect, it } from 'vitest';
import { cloudHandlerGroups, type CloudHandlerGroup } from '../../lib/cloud/api';
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
