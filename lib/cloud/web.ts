/**
 * The web app: a private S3 bucket behind CloudFront (origin access control), security headers on
 * every response, SPA routing by a CloudFront Function (extension-less paths → /index.html; error
 * responses are left alone so API 404s stay 404s), `/api/*` forwarded to the HTTP API uncached,
 * and the web app (built from web/ during synth by default, lib/cloud/web-build.ts) deployed with a
 * generated `config.json` (schema/api/runtimeConfig.ts).
 */
import { Duration, RemovalPolicy, Stack, Token } from 'aws-cdk-lib';
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  Function as CloudFrontFunction,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  HttpVersion,
  OriginProtocolPolicy,
  OriginRequestPolicy,
  OriginSslPolicy,
  PriceClass,
  ResponseHeadersPolicy,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { BlockPublicAccess, Bucket, BucketEncryption, type CfnBucket, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, CacheControl, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import { runtimeConfigSchema, type RuntimeConfig } from '../../schema/api/runtimeConfig';
import { contentSecurityPolicy as siteContentSecurityPolicy, CROSS_ORIGIN_OPENER_POLICY, HSTS_MAX_AGE_SECONDS, PERMISSIONS_POLICY } from '../securityHeaders';
import type { Api } from './api';
import type { Auth } from './auth';
import type { WebSource } from './config';
import { audioBucketHost } from './audio';
import { acknowledge } from './nag';
import { ORIGIN_VERIFY_HEADER } from '../../schema/routes';
import { webBuildAsset } from './web-build';

/** Where the OAuth hosted UI returns after sign-in and sign-out (paths of the web app). */
export const OAUTH_SIGN_IN_PATH = '/auth';
export const OAUTH_SIGN_OUT_PATH = '/';

/**
 * Viewer-request function of the default (S3) behaviour: a path whose last segment has no dot is a
 * client-side route and gets the app shell. /api/* has its own behaviour and never runs this.
 */
export const SPA_REWRITE_CODE = `function handler(event) {
  var request = event.request;
  var uri = request.uri;
  var last = uri.substring(uri.lastIndexOf('/') + 1);
  if (last.indexOf('.') === -1) {
    request.uri = '/index.html';
  }
  return request;
}`;

export interface WebProps {
  stage: string;
  /** The web app: built from web/ by Vite during synth, a prebuilt folder, or the placeholder. */
  web: WebSource;
  api: Api;
  auth: Auth;
  contactEmails: { support: string; privacy: string };
  /** The WAF web ACL on the distribution (the `waf` setting, lib/cloud/waf.ts); undefined: none. */
  webAclArn?: string | undefined;
}

/** The site's Content-Security-Policy (lib/securityHeaders.ts) with AWS's hosts: Cognito, its hosted UI, the audio bucket. */
export function contentSecurityPolicy(region: string, cognitoDomain: string, audioHost: string): string {
  return siteContentSecurityPolicy({
    connect: [`https://cognito-idp.${region}.amazonaws.com`, `https://${cognitoDomain}`, `https://${audioHost}`],
    media: [`https://${audioHost}`],
    https: true,
  });
}

export class Web extends Construct {
  readonly bucket: Bucket;
  readonly logBucket: Bucket;
  readonly distribution: Distribution;
  readonly headers: ResponseHeadersPolicy;
  readonly spaRewrite: CloudFrontFunction;
  readonly runtimeConfig: RuntimeConfig;
  /** The web app asset's folder and options (kept so tests can see how it is built; tests skip bundling). */
  readonly webAsset: ReturnType<typeof webBuildAsset>;

  constructor(scope: Construct, id: string, props: WebProps) {
    super(scope, id);
    const stack = Stack.of(this);

    this.logBucket = new Bucket(this, 'LogBucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      // CloudFront standard logs are written with ACLs.
      objectOwnership: ObjectOwnership.BUCKET_OWNER_PREFERRED,
      lifecycleRules: [{ expiration: Duration.days(90) }],
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.bucket = new Bucket(this, 'SiteBucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      serverAccessLogsBucket: this.logBucket,
      serverAccessLogsPrefix: 's3-site/',
      removalPolicy: RemovalPolicy.RETAIN,
    });

    this.headers = new ResponseHeadersPolicy(this, 'SecurityHeaders', {
      comment: 'Trackpitch security headers',
      securityHeadersBehavior: {
        strictTransportSecurity: { accessControlMaxAge: Duration.seconds(HSTS_MAX_AGE_SECONDS), includeSubdomains: true, override: true },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
        referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN, override: true },
        contentSecurityPolicy: {
          contentSecurityPolicy: contentSecurityPolicy(stack.region, props.auth.domainName, audioBucketHost(props.stage)),
          override: true,
        },
      },
      customHeadersBehavior: {
        customHeaders: [
          { header: 'Permissions-Policy', value: PERMISSIONS_POLICY, override: true },
          { header: 'Cross-Origin-Opener-Policy', value: CROSS_ORIGIN_OPENER_POLICY, override: true },
        ],
      },
    });

    this.spaRewrite = new CloudFrontFunction(this, 'SpaRewrite', {
      comment: 'SPA routing: extension-less paths get /index.html',
      runtime: FunctionRuntime.JS_2_0,
      code: FunctionCode.fromInline(SPA_REWRITE_CODE),
    });

    const apiOrigin = new HttpOrigin(props.api.domainName, {
      protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
      originSslProtocols: [OriginSslPolicy.TLS_V1_2],
      // Proves to the API that the request came through this distribution, so its CloudFront-Viewer-Address
      // (forwarded by the origin request policy below) is the viewer's: lambdas/http/clientLimit.ts.
      customHeaders: { [ORIGIN_VERIFY_HEADER]: props.api.originSecret.secretValue.unsafeUnwrap() },
    });

    this.distribution = new Distribution(this, 'Distribution', {
      comment: `Trackpitch ${props.stage}`,
      defaultRootObject: 'index.html',
      httpVersion: HttpVersion.HTTP2_AND_3,
      priceClass: PriceClass.PRICE_CLASS_100,
      enableLogging: true,
      logBucket: this.logBucket,
      logFilePrefix: 'cloudfront/',
      ...(props.webAclArn ? { webAclId: props.webAclArn } : {}),
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        cachePolicy: CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: this.headers,
        compress: true,
        functionAssociations: [{ function: this.spaRewrite, eventType: FunctionEventType.VIEWER_REQUEST }],
      },
      additionalBehaviors: {
        '/api/*': {
          origin: apiOrigin,
          viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
          allowedMethods: AllowedMethods.ALLOW_ALL,
          cachePolicy: CachePolicy.CACHING_DISABLED,
          // Everything but Host (API Gateway routes on its own host name); with caching disabled
          // this policy also forwards Authorization. It includes CloudFront's own headers, among them
          // CloudFront-Viewer-Address, the client address the per-client limits count.
          originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
          responseHeadersPolicy: this.headers,
          compress: true,
        },
      },
    });
    if (!props.webAclArn) {
      acknowledge(this.distribution, {
        id: 'AwsSolutions-CFR2',
        reason:
          'The WAF web ACL is optional (the waf setting, off by default: about $8/month + $0.60 per million requests, docs/deploy.md): the app limits each client on the public POST routes itself, the API has stage and per-route throttles and JWT auth, and static files are public by nature.',
      });
    }
    acknowledge(
      this.distribution,
      {
        id: 'AwsSolutions-CFR1',
        reason: 'Producers and labels are worldwide; the product has no country restriction to enforce.',
      },
      {
        id: 'AwsSolutions-CFR4',
        reason:
          'The distribution uses the default *.cloudfront.net certificate, for which CloudFront fixes the viewer TLS policy; a custom domain with an ACM certificate will set TLSv1.2_2021.',
      },
    );

    const siteUrl = `https://${this.distribution.distributionDomainName}`;
    this.runtimeConfig = runtimeConfigSchema.parse({
      mode: 'aws',
      region: stack.region,
      userPoolId: props.auth.userPool.userPoolId,
      userPoolClientId: props.auth.client.userPoolClientId,
      ...(props.auth.google
        ? {
            oauth: {
              domain: props.auth.domainName,
              redirectSignIn: `${siteUrl}${OAUTH_SIGN_IN_PATH}`,
              redirectSignOut: `${siteUrl}${OAUTH_SIGN_OUT_PATH}`,
            },
          }
        : {}),
      contactEmails: props.contactEmails,
    } satisfies RuntimeConfig);

    // The deployment handler's own role and log group, instead of the AWSLambdaBasicExecutionRole managed policy.
    const deployLogs = new LogGroup(this, 'DeployLogs', { retention: RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY });
    const deployRole = new Role(this, 'DeployRole', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: 'Copies the built web app into the site bucket (CDK BucketDeployment)',
    });
    deployLogs.grantWrite(deployRole);
    const deployment = { destinationBucket: this.bucket, role: deployRole, logGroup: deployLogs, prune: false, memoryLimit: 512 };

    // One asset for both deployments (built once per synth); each picks its files with include/exclude.
    this.webAsset = webBuildAsset(props.web);
    const webBuild = Source.asset(this.webAsset.path, this.webAsset.options);

    // Hashed build output: cached for a year. Prune off: a page loaded before a deploy may still ask for old chunks.
    const assets = new BucketDeployment(this, 'DeployAssets', {
      ...deployment,
      sources: [webBuild],
      exclude: ['*'],
      include: ['assets/*'],
      cacheControl: [CacheControl.fromString('public, max-age=31536000, immutable')],
    });
    // Entry files and the runtime config: revalidated on every load, invalidated on deploy.
    const entry = new BucketDeployment(this, 'DeployEntry', {
      ...deployment,
      sources: [webBuild, Source.jsonData('config.json', this.runtimeConfig)],
      exclude: ['assets/*', '.vite/*'],
      cacheControl: [CacheControl.fromString('no-cache')],
      distribution: this.distribution,
      distributionPaths: ['/*'],
    });
    // The app shell must never point at chunks that are not uploaded yet.
    entry.node.addDependency(assets);

    acknowledge(
      deployRole,
      ...['Action::s3:GetBucket*', 'Action::s3:GetObject*', 'Action::s3:List*', 'Action::s3:Abort*', 'Action::s3:DeleteObject*'].map((finding) => ({
        id: `AwsSolutions-IAM5[${finding}]`,
        reason:
          'Generated by CDK BucketDeployment: read access to the CDK asset bucket and write access to this site bucket only, which a sync of the web build needs (object names are not known in advance).',
      })),
      {
        // The region is written out when the stack has one (the `region` setting).
        id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:s3:::cdk-hnb659fds-assets-<AWS::AccountId>-${Token.isUnresolved(stack.region) ? '<AWS::Region>' : stack.region}/*]`,
        reason: 'Generated by CDK BucketDeployment: it reads the zipped web build from the CDK bootstrap asset bucket, whose object keys are content hashes.',
      },
      {
        id: `AwsSolutions-IAM5[Resource::<${stack.getLogicalId(this.bucket.node.defaultChild as CfnBucket)}.Arn>/*]`,
        reason: 'The deployment writes the web build into this site bucket; object keys are the build file names, not known in advance.',
      },
    );
    acknowledge(entry, {
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'CDK BucketDeployment grants cloudfront:CreateInvalidation/GetInvalidation on * (it does not scope them); the role is used only by the deployment handler to invalidate this distribution after an upload.',
    });
    // The deployment handler is a CDK singleton Lambda; its runtime is chosen by aws-cdk-lib.
    const deployHandler = stack.node.children.find((child) => child.node.id.startsWith('Custom::CDKBucketDeployment'));
    if (!deployHandler) throw new Error('BucketDeployment handler not found: aws-cdk-lib changed its construct id');
    acknowledge(deployHandler, {
      id: 'AwsSolutions-L1',
      reason:
        'The BucketDeployment handler is a CDK-managed singleton whose runtime is pinned by aws-cdk-lib and moves with CDK upgrades; it runs only during deployments.',
    });
  }

  /** The site's URL (https://<id>.cloudfront.net). */
  get url(): string {
    return `https://${this.distribution.distributionDomainName}`;
  }
}
