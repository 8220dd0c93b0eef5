/**
 * Operations: an encrypted SNS topic for alarms (with an optional email subscription), alarms on the
 * application metrics of DESIGN §9 (names from schema/metrics.ts), the dead-letter queue, the
 * dispatcher's heartbeat, Lambda errors and API 5xx, and one dashboard that shows them all.
 */
import { Duration, Stack } from 'aws-cdk-lib';
import type { HttpStage } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  Alarm,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  type IMetric,
  Metric,
  SingleValueWidget,
  TextWidget,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { METRIC_DIMENSIONS, METRICS_NAMESPACE, MetricNames, MetricUnits, type MetricName } from '../../schema/metrics';

export interface MonitoringProps {
  stage: string;
  alarmEmail: string | undefined;
  /** Every Lambda to watch, by a short name used in alarm names. */
  functions: Record<string, IFunction>;
  dispatcher: IFunction;
  apiStage: HttpStage;
  queue: IQueue;
  deadLetterQueue: IQueue;
}

/** One application metric from the Trackpitch namespace, with the dimensions the Lambdas emit. */
export function appMetric(name: MetricName, statistic: string, period = Duration.minutes(5)): Metric {
  return new Metric({
    namespace: METRICS_NAMESPACE,
    metricName: name,
    dimensionsMap: { ...METRIC_DIMENSIONS },
    statistic,
    period,
  });
}

/** The same metric with a readable label, for dashboards (a label would turn an alarm into metric math). */
export function labelled(name: MetricName, statistic: string, period = Duration.minutes(5)): Metric {
  return appMetric(name, statistic, period).with({ label: `${name}${MetricUnits[name] === 'Count' ? '' : ` (${statistic})`}` });
}

export class Monitoring extends Construct {
  readonly topic: Topic;
  readonly dashboard: Dashboard;
  readonly alarms: Alarm[] = [];

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);

    const key = new Key(this, 'TopicKey', {
      description: `Trackpitch ${props.stage}: encryption of the alarm topic`,
      enableKeyRotation: true,
    });
    // CloudWatch must be able to publish to the encrypted topic.
    key.grant(new ServicePrincipal('cloudwatch.amazonaws.com'), 'kms:Decrypt', 'kms:GenerateDataKey*');
    this.topic = new Topic(this, 'AlarmTopic', {
      displayName: `Trackpitch ${props.stage} alarms`,
      masterKey: key,
      enforceSSL: true,
    });
    // enforceSSL's topic policy replaces SNS's default one, which was all that let CloudWatch publish:
    // without this statement no alarm would reach the topic. Only this account's alarms may use it.
    this.topic.addToResourcePolicy(
      new PolicyStatement({
        sid: 'AllowCloudWatchAlarms',
        principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['sns:Publish'],
        resources: [this.topic.topicArn],
        conditions: { StringEquals: { 'aws:SourceAccount': Stack.of(this).account } },
      }),
    );
    if (props.alarmEmail) this.topic.addSubscription(new EmailSubscription(props.alarmEmail));
    const action = new SnsAction(this.topic);

    const alarm = (
      id: string,
      description: string,
      metric: IMetric,
      threshold: number,
      options: {
        evaluationPeriods?: number;
        comparison?: ComparisonOperator;
        missing?: TreatMissingData;
      } = {},
    ) => {
      const created = new Alarm(this, id, {
        alarmName: `trackpitch-${props.stage}-${id}`,
        alarmDescription: description,
        metric,
        threshold,
        evaluationPeriods: options.evaluationPeriods ?? 1,
        comparisonOperator: options.comparison ?? ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: options.missing ?? TreatMissingData.NOT_BREACHING,
      });
      created.addAlarmAction(action);
      created.addOkAction(action);
      this.alarms.push(created);
      return created;
    };

    // Application metrics (DESIGN §9).
    alarm('emails-failed', 'Five or more emails failed to send within 5 minutes.', appMetric(MetricNames.EmailsFailed, 'Sum'), 5);
    alarm(
      'emails-unknown-outcome',
      'A send ended with an unknown outcome (crash after the provider call); it will not be retried. Check the sender logs.',
      appMetric(MetricNames.EmailsUnknownOutcome, 'Sum'),
      1,
    );
    alarm(
      'provider-throttled',
      'The mailbox provider throttled 10 or more sends within 15 minutes.',
      appMetric(MetricNames.ProviderThrottled, 'Sum', Duration.minutes(15)),
      10,
    );
    alarm(
      'queue-lag',
      'Emails are going out more than 10 minutes after their scheduled time for 10 minutes.',
      appMetric(MetricNames.QueueLagSeconds, 'Maximum'),
      600,
      { evaluationPeriods: 2 },
    );
    alarm(
      'dispatcher-slow',
      'A dispatcher run took more than 30 s (the schedule period is 60 s) three times in a row.',
      appMetric(MetricNames.DispatcherTickMs, 'Maximum', Duration.minutes(1)),
      30_000,
      { evaluationPeriods: 3 },
    );
    alarm('webhook-failures', 'A webhook (Stripe) could not be applied.', appMetric(MetricNames.WebhookFailures, 'Sum'), 1);

    // Infrastructure.
    alarm(
      'dead-letter-queue',
      'Messages are waiting in the sending dead-letter queue.',
      props.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5), statistic: 'Maximum' }),
      1,
    );
    alarm(
      'dispatcher-not-running',
      'The dispatcher ran fewer than 3 times in 5 minutes: the schedule or its role is broken.',
      props.dispatcher.metricInvocations({ period: Duration.minutes(5), statistic: 'Sum' }),
      3,
      { comparison: ComparisonOperator.LESS_THAN_THRESHOLD, missing: TreatMissingData.BREACHING, evaluationPeriods: 2 },
    );
    for (const [name, fn] of Object.entries(props.functions)) {
      alarm(
        `${name}-errors`,
        `The ${name} Lambda failed (uncaught error, timeout or out of memory).`,
        fn.metricErrors({ period: Duration.minutes(5), statistic: 'Sum' }),
        1,
      );
    }
    const api5xx = props.apiStage.metricServerError({ period: Duration.minutes(5), statistic: 'Sum' });
    alarm('api-5xx', 'The API answered 5 or more server errors within 5 minutes.', api5xx, 5);

    // Dashboard.
    this.dashboard = new Dashboard(this, 'Dashboard', {
      dashboardName: `trackpitch-${props.stage}`,
      defaultInterval: Duration.hours(6),
    });
    const count = (name: MetricName) => labelled(name, 'Sum');
    this.dashboard.addWidgets(
      new TextWidget({
        markdown: `# Trackpitch ${props.stage}\nSending pipeline, API and Lambdas. Alarms go to the SNS topic \`${this.topic.node.id}\`.`,
        width: 24,
        height: 2,
      }),
    );
    this.dashboard.addWidgets(
      new GraphWidget({
        title: 'Emails',
        left: [count(MetricNames.EmailsSent), count(MetricNames.EmailsFailed), count(MetricNames.EmailsUnknownOutcome), count(MetricNames.ProviderThrottled)],
        width: 12,
      }),
      new GraphWidget({
        title: 'Queue lag and dispatcher',
        left: [labelled(MetricNames.QueueLagSeconds, 'Maximum'), labelled(MetricNames.QueueLagSeconds, 'Average')],
        right: [labelled(MetricNames.DispatcherTickMs, 'Maximum', Duration.minutes(1))],
        width: 12,
      }),
    );
    this.dashboard.addWidgets(
      new GraphWidget({
        title: 'Sending queue',
        left: [
          props.queue.metricApproximateNumberOfMessagesVisible(),
          props.queue.metricApproximateNumberOfMessagesNotVisible(),
          props.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ label: 'Dead-letter queue' }),
        ],
        right: [props.queue.metricApproximateAgeOfOldestMessage()],
        width: 12,
      }),
      new GraphWidget({
        title: 'API',
        left: [props.apiStage.metricCount({ statistic: 'Sum' }), props.apiStage.metricClientError({ statistic: 'Sum' }), api5xx],
        right: [props.apiStage.metricLatency({ statistic: 'p90' })],
        width: 12,
      }),
    );
    this.dashboard.addWidgets(
      new GraphWidget({
        title: 'Lambda errors',
        left: Object.entries(props.functions).map(([name, fn]) => fn.metricErrors({ label: name, statistic: 'Sum' })),
        width: 12,
      }),
      new GraphWidget({
        title: 'Lambda duration (p90)',
        left: Object.entries(props.functions).map(([name, fn]) => fn.metricDuration({ label: name, statistic: 'p90' })),
        width: 12,
      }),
    );
    this.dashboard.addWidgets(
      new SingleValueWidget({ title: 'Webhook failures', metrics: [count(MetricNames.WebhookFailures)], width: 12 }),
      new SingleValueWidget({
        title: 'Dispatcher runs (5 min)',
        metrics: [props.dispatcher.metricInvocations({ period: Duration.minutes(5), statistic: 'Sum' })],
        width: 12,
      }),
    );
  }
}
