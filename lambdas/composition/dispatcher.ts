/** The dispatcher's adapters in AWS: the DUE index and the SQS FIFO queue. */
import { SQSClient } from '@aws-sdk/client-sqs';
import { systemClock } from '../adapters/clock';
import { DynamoSendingCursorStore } from '../adapters/dynamodb/sending/cursor';
import { SqsQueue } from '../adapters/sqs/sqsQueue';
import type { DispatcherDeps } from '../workers/dispatcher';
import type { ServerConfig } from './config';
import { tableOf } from './table';

export function dispatcherDeps(config: Pick<ServerConfig, 'tableName' | 'region' | 'dynamoEndpoint' | 'intervalMs'> & { queueUrl: string }): DispatcherDeps {
  const { db, name } = tableOf(config);
  return {
    cursors: new DynamoSendingCursorStore(db, name),
    queue: new SqsQueue(new SQSClient({ region: config.region }), config.queueUrl),
    clock: systemClock,
    intervalMs: config.intervalMs,
  };
}
