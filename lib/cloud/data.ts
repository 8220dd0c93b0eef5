/**
 * The one DynamoDB table, built from schema/table.ts (keys, GSIs, TTL), and the KMS key for the
 * envelope encryption of Gmail refresh tokens. A function's table grant (lib/cloud/tableGrants.ts) is
 * written out action by action on the table's ARN, and Query on the ARN of each index it reads.
 */
import { RemovalPolicy, Stack } from 'aws-cdk-lib';
import { AttributeType, BillingMode, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import { type IGrantable, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';
import { allIndexes, keys, ttlAttribute } from '../../schema/table';
import type { IndexName, TableGrant } from './tableGrants';

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

  /** The ARN of one index, by name (no `index/*` wildcard). */
  indexArn(name: IndexName): string {
    return Stack.of(this).formatArn({ service: 'dynamodb', resource: 'table', resourceName: `${this.table.tableName}/index/${name}` });
  }

  /** Grants exactly `grant`: its actions on the table's items, and Query on each index it names. */
  grantTable(grantee: IGrantable, grant: TableGrant): void {
    if (grant.table.length > 0) {
      const actions = grant.table.map((action) => `dynamodb:${action}`);
      grantee.grantPrincipal.addToPrincipalPolicy(new PolicyStatement({ sid: 'TableItems', actions, resources: [this.table.tableArn] }));
    }
    if (grant.queries.length > 0) {
      const resources = grant.queries.map((name) => this.indexArn(name));
      grantee.grantPrincipal.addToPrincipalPolicy(new PolicyStatement({ sid: 'IndexQueries', actions: ['dynamodb:Query'], resources }));
    }
  }
}
