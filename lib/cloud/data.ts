/**
 * The one DynamoDB table, built from schema/table.ts (keys, GSIs, TTL), and the KMS key for the
 * envelope encryption of Gmail refresh tokens. Table grants are written out action by action
 * (no Scan: DESIGN §3 forbids it in request paths) on the table and its named indexes only.
 */
import { RemovalPolicy, Stack } from 'aws-cdk-lib';
import { AttributeType, BillingMode, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import { type IGrantable, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';
import { allIndexes, keys, ttlAttribute } from '../../schema/table';
import type { TableAccess } from '../../schema/routes';

export const TABLE_READ_ACTIONS = [
  'dynamodb:GetItem',
  'dynamodb:BatchGetItem',
  'dynamodb:Query',
  'dynamodb:ConditionCheckItem',
  'dynamodb:DescribeTable',
] as const;

/** TransactWriteItems / TransactGetItems are authorised through these per-item actions. */
export const TABLE_WRITE_ACTIONS = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'] as const;

export interface DataProps {
  stage: string;
}

export class Data extends Construct {
  readonly table: Table;
  /** For envelope encryption of Gmail refresh tokens (granted in lib/cloud/secrets.ts to the functions that seal or open them). */
  readonly tokenKey: Key;

  constructor(scope: Construct, id: string, props: DataProps) {
    super(scope, id);
    this.table = new Table(this, 'Table', {
      partitionKey: { name: keys.partition, type: AttributeType.STRING },
      sortKey: { name: keys.sort, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      timeToLiveAttribute: ttlAttribute,
      deletionProtection: true,
      encryption: TableEncryption.AWS_MANAGED,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    for (const index of allIndexes) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
        sortKey: { name: index.sortKey, type: AttributeType.STRING },
      });
    }

    this.tokenKey = new Key(this, 'TokenKey', {
      description: `Trackpitch ${props.stage}: envelope encryption of Gmail refresh tokens`,
      alias: `alias/trackpitch-${props.stage}-gmail-tokens`,
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
  }

  /** ARNs of the table and each of its indexes, listed by name (no `index/*` wildcard). */
  tableResources(): string[] {
    const stack = Stack.of(this);
    return [
      this.table.tableArn,
      ...allIndexes.map((index) => stack.formatArn({ service: 'dynamodb', resource: 'table', resourceName: `${this.table.tableName}/index/${index.name}` })),
    ];
  }

  /** Grant exactly what `handlerGroups[*].table` says: nothing, read, or read and write. */
  grantTable(grantee: IGrantable, access: TableAccess): void {
    if (access === 'none') return;
    const actions = access === 'read' ? [...TABLE_READ_ACTIONS] : [...TABLE_READ_ACTIONS, ...TABLE_WRITE_ACTIONS];
    grantee.grantPrincipal.addToPrincipalPolicy(
      new PolicyStatement({ sid: access === 'read' ? 'TableRead' : 'TableReadWrite', actions, resources: this.tableResources() }),
    );
  }
}
