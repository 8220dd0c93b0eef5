/**
 * Least privilege per function on the table (DESIGN §15), read from the synthesized IAM policies: each
 * deployed Lambda's DynamoDB actions on the table, and the indexes it may query, are exactly the reviewed
 * list below (lib/cloud/tableGrants.ts says why each is needed). Any widening fails here, as does a
 * narrowing nobody wrote down; the rules after it hold whatever the list says.
 */
import type { CfnResource } from 'aws-cdk-lib';
import type { CfnRole, Role } from 'aws-cdk-lib/aws-iam';
import { describe, expect, it } from 'vitest';
import { cloudHandlerGroups, type CloudHandlerGroup } from '../../lib/cloud/api';
import { deployedLambdas, type DeployedLambdaName } from '../../lib/cloud/lambdaEntries';
import { cloudRoutes } from '../../schema/routes';
import { allIndexes, indexes } from '../../schema/table';
import { actionsOf, statementsOfRole, synth } from './synth';

const { stack, template } = synth();

interface Granted {
  /** Actions on the table's ARN. */
  table: string[];
  /** The indexes it may Query. */
  queries: string[];
}

const GSI1 = indexes.byLookup.name;
const DUE = indexes.due.name;

/** The reviewed grants. A change here is a change of privilege: say why in lib/cloud/tableGrants.ts. */
const EXPECTED: Record<DeployedLambdaName, Granted> = {
  health: { table: [], queries: [] },
  profile: { table: ['BatchGetItem', 'GetItem', 'PutItem', 'UpdateItem'], queries: [] },
  waitlist: { table: ['GetItem', 'PutItem', 'UpdateItem'], queries: [] },
  admin: { table: ['BatchWriteItem', 'GetItem', 'Query', 'UpdateItem'], queries: [GSI1] },
  contacts: { table: ['BatchGetItem', 'BatchWriteItem', 'DeleteItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'], queries: [GSI1] },
  directory: { table: ['BatchGetItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'], queries: [] },
  campaigns: { table: ['GetItem', 'PutItem', 'Query', 'UpdateItem'], queries: [] },
  compose: { table: ['DeleteItem', 'PutItem', 'Query'], queries: [] },
  sending: { table: ['BatchGetItem', 'BatchWriteItem', 'ConditionCheckItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'], queries: [] },
  mailbox: { table: ['ConditionCheckItem', 'DeleteItem', 'GetItem', 'PutItem', 'UpdateItem'], queries: [] },
  tracking: { table: ['GetItem', 'PutItem', 'UpdateItem'], queries: [] },
  billing: { table: ['GetItem', 'PutItem', 'UpdateItem'], queries: [] },
  tracks: { table: ['DeleteItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'], queries: [] },
  listen: { table: ['GetItem', 'UpdateItem'], queries: [] },
  pipeline: { table: ['GetItem', 'Query', 'UpdateItem'], queries: [GSI1] },
  insights: { table: ['BatchGetItem', 'GetItem', 'Query'], queries: [GSI1] },
  account: { table: ['BatchWriteItem', 'DeleteItem', 'GetItem', 'Query'], queries: [GSI1] },
  dispatcher: { table: [], queries: [DUE] },
  sender: { table: ['BatchGetItem', 'ConditionCheckItem', 'DeleteItem', 'GetItem', 'PutItem', 'UpdateItem'], queries: [] },
  cognitoCustomMessage: { table: [], queries: [] },
};

const roles: Record<DeployedLambdaName, Role> = {
  ...(Object.fromEntries(cloudHandlerGroups().map((group) => [group, stack.api.functions[group].role])) as Record<DeployedLambdaName, Role>),
  dispatcher: stack.sending.dispatcher.role,
  sender: stack.sending.sender.role,
  cognitoCustomMessage: stack.auth.customMessage!.role,
};

const tableArn = JSON.stringify({ 'Fn::GetAtt': [stack.getLogicalId(stack.data.table.node.defaultChild as CfnResource), 'Arn'] });
/** An index's ARN as CloudFormation spells it: `…:table/<table>/index/<name>`, the table by its Ref. */
const indexOf = (resource: unknown) => /\/index\/([^"/]+)"\]\]\}$/.exec(JSON.stringify(resource))?.[1];

/** A function's DynamoDB grant as the template has it; throws on a resource that is neither the table nor a named index. */
function grantedTo(name: DeployedLambdaName): Granted {
  const role = roles[name];
  const statements = statementsOfRole(template, stack.getLogicalId(role.node.defaultChild as CfnRole)).filter((s) =>
    actionsOf([s]).some((action) => action.startsWith('dynamodb:')),
  );
  const granted: Granted = { table: [], queries: [] };
  for (const statement of statements) {
    expect(statement.Effect, name).toBe('Allow');
    const actions = actionsOf([statement]).map((action) => action.replace(/^dynamodb:/, ''));
    for (const resource of [statement.Resource].flat()) {
      const index = indexOf(resource);
      if (JSON.stringify(resource) === tableArn) granted.table.push(...actions);
      else if (index !== undefined && allIndexes.some((i) => i.name === index)) {
        expect(actions, `${name} on index ${index}`).toEqual(['Query']);
        granted.queries.push(index);
      } else throw new Error(`${name}: DynamoDB actions on ${JSON.stringify(resource)}, neither the table nor a named index`);
    }
  }
  return { table: [...new Set(granted.table)].sort(), queries: [...new Set(granted.queries)].sort() };
}

const names = deployedLambdas().map(({ name }) => name);
/** The functions a stranger can call: a handler group with a public route. */
const publicFunctions = [...new Set(cloudRoutes().flatMap((route) => (route.access === 'public' ? [route.handler as CloudHandlerGroup] : [])))];

describe('table grants per function', () => {
  it('lists every deployed Lambda', () => {
    expect(Object.keys(EXPECTED).sort()).toEqual([...names].sort());
  });

  it.each(names)('%s may do to the table exactly what the reviewed list says', (name) => {
    expect(grantedTo(name)).toEqual(EXPECTED[name]);
  });

  it('the public functions never Scan, DeleteItem or BatchWriteItem, but mailbox, whose OAuth callback consumes a single-use state', () => {
    expect(publicFunctions.sort()).toEqual(['billing', 'health', 'listen', 'mailbox', 'tracking', 'waitlist']);
    for (const name of publicFunctions) {
      const refused = name === 'mailbox' ? ['Scan', 'BatchWriteItem'] : ['Scan', 'DeleteItem', 'BatchWriteItem'];
      expect(
        grantedTo(name).table.filter((action) => refused.includes(action)),
        name,
      ).toEqual([]);
    }
  });

  it('nobody scans, uses PartiQL, a wildcard or an admin action: only the actions DocumentClient commands need', () => {
    const needed = ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem', 'ConditionCheckItem', 'BatchWriteItem'];
    for (const name of names)
      expect(
        grantedTo(name).table.filter((action) => !needed.includes(action)),
        name,
      ).toEqual([]);
  });

  it('only the dispatcher reads the DUE index, and it reads nothing else', () => {
    expect(names.filter((name) => grantedTo(name).queries.includes(DUE))).toEqual(['dispatcher']);
    expect(grantedTo('dispatcher')).toEqual({ table: [], queries: [DUE] });
  });
});
