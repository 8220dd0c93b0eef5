/**
 * The Trackpitch stack: one construct per concern, wired in dependency order. No account is set and
 * nothing is looked up, so the stack synthesizes offline and deploys to the CLI credentials' account, in
 * the configured region (lib/cloud/app.ts; region-agnostic when synthesized without the CLI).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { Api } from './api';
import { Auth } from './auth';
import { REPO_ROOT, type TrackpitchConfig } from './config';
import { AudioStorage } from './audio';
import { Data } from './data';
import { Monitoring } from './monitoring';
import { BillingSecrets, MailboxSecrets } from './secrets';
import { Sending } from './sending';
import { WebAcl } from './waf';
import { OAUTH_SIGN_IN_PATH, OAUTH_SIGN_OUT_PATH, Web } from './web';

export interface TrackpitchStackProps extends StackProps {
  config: TrackpitchConfig;
}

export const stackName = (stage: string) => `Trackpitch-${stage}`;

function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version?: string };
  return pkg.version ?? '0.0.0';
}

export class TrackpitchStack extends Stack {
  readonly data: Data;
  readonly auth: Auth;
  readonly secrets: MailboxSecrets;
  readonly billingSecrets: BillingSecrets;
  readonly api: Api;
  readonly sending: Sending;
  readonly web: Web;
  /** The optional WAF web ACL on the distribution (the `waf` setting); undefined when off. */
  readonly webAcl: WebAcl | undefined;
  readonly monitoring: Monitoring;
  readonly audio: AudioStorage;

  constructor(scope: Construct, id: string, props: TrackpitchStackProps) {
    super(scope, id, { description: `Trackpitch (${props.config.stage})`, ...props });
    const { config } = props;
    const version = packageVersion();

    this.data = new Data(this, 'Data', { stage: config.stage });
    this.auth = new Auth(this, 'Auth', { stage: config.stage, domainPrefix: config.cognitoDomainPrefix, google: config.google });
    this.secrets = new MailboxSecrets(this, 'MailboxSecrets', { stage: config.stage, tokenKey: this.data.tokenKey, google: config.google });
    this.billingSecrets = new BillingSecrets(this, 'BillingSecrets', { stage: config.stage, prices: config.stripePrices });
    this.api = new Api(this, 'Api', {
      stage: config.stage,
      version,
      data: this.data,
      auth: this.auth,
      secrets: this.secrets,
      billingSecrets: this.billingSecrets,
      bedrockModelId: config.bedrockModelId,
      throttle: config.apiThrottle,
    });
    this.sending = new Sending(this, 'Sending', {
      stage: config.stage,
      version,
      data: this.data,
      secrets: this.secrets,
      bedrockModelId: config.bedrockModelId,
    });
    // The optional WAF web ACL (CLOUDFRONT scope: the config keeps it to us-east-1 stacks).
    this.webAcl = config.waf ? new WebAcl(this, 'WebAcl', { stage: config.stage }) : undefined;
    this.web = new Web(this, 'Web', {
      stage: config.stage,
      web: config.web,
      api: this.api,
      auth: this.auth,
      contactEmails: config.contactEmails,
      webAclArn: this.webAcl?.acl.attrArn,
    });
    // After the web: emails' links, the OAuth redirect URI and redirects point at the site. No cycle:
    // the distribution depends on the HttpApi resource only, never on a Lambda.
    this.api.setAppUrl(this.web.url);
    this.audio = new AudioStorage(this, 'Audio', { stage: config.stage, appOrigin: this.web.url, logBucket: this.web.logBucket });
    this.api.useAudio(this.audio);
    this.sending.sender.fn.addEnvironment('APP_URL', this.web.url);
    // After the web: the confirmation email links to the site (see Auth.domainName for why this is no cycle).
    const customMessage = this.auth.addConfirmationEmail({ siteUrl: this.web.url, version });
    this.auth.setRedirectUrls(
      [`${this.web.url}${OAUTH_SIGN_IN_PATH}`, ...config.callbackUrls],
      [`${this.web.url}${OAUTH_SIGN_OUT_PATH}`, ...config.logoutUrls],
    );
    this.monitoring = new Monitoring(this, 'Monitoring', {
      stage: config.stage,
      alarmEmail: config.alarmEmail,
      functions: {
        ...Object.fromEntries(Object.entries(this.api.functions).map(([group, fn]) => [group, fn.fn])),
        dispatcher: this.sending.dispatcher.fn,
        sender: this.sending.sender.fn,
        customMessage: customMessage.fn,
      },
      dispatcher: this.sending.dispatcher.fn,
      apiStage: this.api.stage,
      queue: this.sending.queue,
      deadLetterQueue: this.sending.deadLetterQueue,
    });

    new CfnOutput(this, 'SiteUrl', { value: this.web.url, description: 'The web app' });
    new CfnOutput(this, 'ApiUrl', { value: this.api.httpApi.apiEndpoint, description: 'The HTTP API, also served under <SiteUrl>/api' });
    new CfnOutput(this, 'UserPoolId', { value: this.auth.userPool.userPoolId });
    new CfnOutput(this, 'UserPoolClientId', { value: this.auth.client.userPoolClientId });
    new CfnOutput(this, 'CognitoDomain', { value: this.auth.domainName, description: 'Hosted UI; Google redirect URI is https://<this>/oauth2/idpresponse' });
    new CfnOutput(this, 'TableName', { value: this.data.table.tableName });
    new CfnOutput(this, 'AudioBucketName', { value: this.audio.bucket.bucketName, description: "Tracks' audio (private)" });
    new CfnOutput(this, 'AlarmTopicArn', { value: this.monitoring.topic.topicArn });
    new CfnOutput(this, 'DashboardName', { value: this.monitoring.dashboard.dashboardName });
  }
}
