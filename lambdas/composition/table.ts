/** The single table every composition's stores share: one document client per composition (DynamoDB only). */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { makeDocumentClient } from '../adapters/dynamodb/client';
import type { ServerConfig } from './config';

export interface Table {
  db: DynamoDBDocumentClient;
  name: string;
}

export function tableOf(config: Pick<ServerConfig, 'tableName' | 'region' | 'dynamoEndpoint'>): Table {
  return { db: makeDocumentClient({ region: config.region, endpoint: config.dynamoEndpoint }), name: config.tableName };
}
