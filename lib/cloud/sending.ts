/**
 * The paced sending pipeline's AWS half (DESIGN §4): the SQS FIFO queue (per-user message groups,
 * KMS-encrypted, TLS only) with its dead-letter queue, the dispatcher Lambda, the EventBridge
 * Scheduler schedule that runs the dispatcher every minute with its scheduled time in the payload,
 * and the sender Lambda fed by the queue with partial batch failures.
 */
import { Duration, Stack } from 'aws-cdk-lib';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { ContextAttribute, type IScheduleTarget, Schedule, ScheduleExpression, ScheduleTargetInput, TimeWindow } from 'aws-cdk-lib/aws-scheduler';
import { DeduplicationScope, FifoThroughputLimit, Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { grantModelInvocation } from './bedrock';
import type { Data } from './data';
import { AppFunction, commonEnvironment } from './functions';
import type { MailboxSecrets } from './secrets';
import { tableGrants } from './tableGrants';

export const DISPATCHER_ENTRY = 'lambdas/workers/dispatcher.ts';
export const SENDER_ENTRY = 'lambdas/workers/sender.ts';

/** Ticks per sender invocation: SQS FIFO's maximum; at most one per user (message group) in flight. */
export const SENDER_BATCH_SIZE = 10;
/** A tick sends at most one email (one writer call, one Gmail call) plus a few bounded skips. */
export const SENDER_TIMEOUT = Duration.seconds(60);
/** The sender writes personal emails with the AI writer and sanitizes their HTML (jsdom reads its own files). */
export const SENDER_NODE_MODULES = ['jsdom'] as const;
/** At least six times the sender's timeout (AWS guidance for SQS event sources). */
export const SEND_QUEUE_VISIBILITY_TIMEOUT = Duration.minutes(6);
if (SEND_QUEUE_VISIBILITY_TIMEOUT.toSeconds() < 6 * SENDER_TIMEOUT.toSeconds()) {
  throw new Error('lib/cloud/sending.ts: the send queue visibility timeout must be at least six times the sender timeout');
}

/** The payload the scheduler sends; the dispatcher reads `scheduledTime` (lambdas/workers/dispatcher.ts). */
export const DISPATCHER_PAYLOAD = { scheduledTime: ContextAttribute.scheduledTime } as const;

/** Receives before a message moves to the dead-letter queue. */
export const MAX_RECEIVE_COUNT = 5;

export interface SendingProps {
  stage: string;
  version: string;
  data: Data;
  secrets: MailboxSecrets;
  bedrockModelId: string;
}

export class Sending extends Construct {
  readonly key: Key;
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;
  readonly dispatcher: AppFunction;
  readonly sender: AppFunction;
  readonly schedule: Schedule;
  readonly schedulerRole: Role;

  constructor(scope: Construct, id: string, props: SendingProps) {
    super(scope, id);

    this.key = new Key(this, 'QueueKey', {
      description: `Trackpitch ${props.stage}: encryption of the sending queues`,
      enableKeyRotation: true,
    });

    this.deadLetterQueue = new Queue(this, 'DeadLetterQueue', {
      fifo: true,
      encryption: QueueEncryption.KMS,
      encryptionMasterKey: this.key,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    this.queue = new Queue(this, 'SendQueue', {
      fifo: true,
      // Every message carries an explicit MessageDeduplicationId: the dispatcher's `<user id>#<due at>`
      // (lambdas/core/dispatch.ts), so a scheduler firing twice or two overlapping runs queue one tick.
      // No content-based deduplication: it would never apply, and without it a send that forgot the id
      // is refused by SQS instead of being deduplicated on its body.
      // High-throughput FIFO: ordering, the in-flight lock and deduplication are per user (message group).
      deduplicationScope: DeduplicationScope.MESSAGE_GROUP,
      fifoThroughputLimit: FifoThroughputLimit.PER_MESSAGE_GROUP_ID,
      encryption: QueueEncryption.KMS,
      encryptionMasterKey: this.key,
      enforceSSL: true,
      visibilityTimeout: SEND_QUEUE_VISIBILITY_TIMEOUT,
      retentionPeriod: Duration.days(4),
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: MAX_RECEIVE_COUNT },
    });

    this.dispatcher = new AppFunction(this, 'Dispatcher', {
      entry: DISPATCHER_ENTRY,
      description: `Trackpitch ${props.stage}: every minute, queue one tick per user with due sends`,
      environment: {
        ...commonEnvironment(props.stage, props.version),
        TABLE_NAME: props.data.table.tableName,
        QUEUE_URL: this.queue.queueUrl,
      },
      // Must finish well inside the one-minute period.
      timeout: Duration.seconds(50),
    });
    props.data.grantTable(this.dispatcher.fn, tableGrants.dispatcher);
    this.dispatcher.role.addToPrincipalPolicy(new PolicyStatement({ sid: 'SendToQueue', actions: ['sqs:SendMessage'], resources: [this.queue.queueArn] }));
    this.dispatcher.role.addToPrincipalPolicy(
      new PolicyStatement({ sid: 'EncryptQueueMessages', actions: ['kms:GenerateDataKey', 'kms:Decrypt'], resources: [this.key.keyArn] }),
    );

    this.sender = new AppFunction(this, 'Sender', {
      entry: SENDER_ENTRY,
      description: `Trackpitch ${props.stage}: send each due user's next email through their mailbox`,
      environment: {
        ...commonEnvironment(props.stage, props.version),
        TABLE_NAME: props.data.table.tableName,
        BEDROCK_MODEL_ID: props.bedrockModelId,
      },
      timeout: SENDER_TIMEOUT,
      memorySize: 1024,
      nodeModules: SENDER_NODE_MODULES,
    });
    props.data.grantTable(this.sender.fn, tableGrants.sender);
    grantModelInvocation(this.sender, props.bedrockModelId);
    const senderSecrets = { ...props.secrets.grantOpen(this.sender.role), ...props.secrets.grantGoogleClient(this.sender.role) };
    for (const [name, value] of Object.entries(senderSecrets)) this.sender.fn.addEnvironment(name, value);
    // Receive, delete and change visibility on the queue, and kms:Decrypt on its key.
    this.sender.fn.addEventSource(
      new SqsEventSource(this.queue, {
        batchSize: SENDER_BATCH_SIZE,
        // A failed tick is retried alone (then dead-lettered); the others of the batch are deleted.
        reportBatchItemFailures: true,
      }),
    );

    // The scheduler's own role: trusted by this account's scheduler only, allowed to invoke only the dispatcher.
    const stack = Stack.of(this);
    this.schedulerRole = new Role(this, 'SchedulerRole', {
      assumedBy: new ServicePrincipal('scheduler.amazonaws.com', {
        conditions: { StringEquals: { 'aws:SourceAccount': stack.account } },
      }),
      description: 'EventBridge Scheduler: invoke the Trackpitch dispatcher',
    });
    this.schedulerRole.addToPrincipalPolicy(
      new PolicyStatement({ sid: 'InvokeDispatcher', actions: ['lambda:InvokeFunction'], resources: [this.dispatcher.fn.functionArn] }),
    );

    const fn = this.dispatcher.fn;
    const role = this.schedulerRole;
    const target: IScheduleTarget = {
      bind: () => ({
        arn: fn.functionArn,
        role,
        input: ScheduleTargetInput.fromObject(DISPATCHER_PAYLOAD),
        // A missed tick is covered by the next one a minute later: never replay a stale tick.
        retryPolicy: { maximumRetryAttempts: 0, maximumEventAgeInSeconds: 60 },
      }),
    };
    this.schedule = new Schedule(this, 'Tick', {
      scheduleName: `trackpitch-${props.stage}-dispatcher`,
      description: 'Run the Trackpitch dispatcher every minute',
      schedule: ScheduleExpression.rate(Duration.minutes(1)),
      timeWindow: TimeWindow.off(),
      target,
    });
  }
}
