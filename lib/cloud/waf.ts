/**
 * The optional WAF web ACL (the `waf` setting, off by default; issue 26 §2): per-IP rate-based rules on
 * the public POST routes, in front of the app's own per-client limits (lambdas/http/clientLimit.ts), so a
 * flood is refused at the edge before it costs a Lambda call and a DynamoDB write.
 *
 * Where: WAF cannot attach to an API Gateway HTTP API (only REST APIs, ALBs, AppSync, Cognito and
 * CloudFront), and every request reaches the API through the CloudFront distribution (lib/cloud/web.ts),
 * so the ACL is a CLOUDFRONT-scope one on the distribution. Such an ACL must be created in us-east-1:
 * the setting requires the stack to deploy there (lib/cloud/config.ts). At the edge the IP a rule counts
 * is the viewer's own.
 *
 * Cost (docs/deploy.md): $5/month for the ACL, $1/month per rule (3 rules), $0.60 per million requests.
 */
import { CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';

/** WAF's rate window in seconds (60, 120, 300 or 600): a rule counts each IP's requests over the last 5 minutes. */
export const WAF_WINDOW_SECONDS = 300;
/**
 * Requests per IP per 5 minutes (WAF's least is 10). Each stays above the app's own limit over the same
 * time, so the app answers a client first (with its message and Retry-After) and WAF only stops floods.
 */
export const WAF_LIMITS = {
  /** The app allows 5 joins an hour; 10 in 5 minutes is already a script. */
  waitlistJoins: 10,
  /** The app allows 120 beacons a minute (600 in 5 minutes). */
  listenBeacons: 600,
  /** Mail providers send one-click unsubscribes from their own servers, many users' from one IP: kept high. */
  oneClickUnsubscribes: 300,
} as const;

type Statement = CfnWebACL.StatementProperty;

const text = { textTransformations: [{ priority: 0, type: 'NONE' }] };
const isPost: Statement = { byteMatchStatement: { fieldToMatch: { method: {} }, positionalConstraint: 'EXACTLY', searchString: 'POST', ...text } };
const path = (positionalConstraint: 'EXACTLY' | 'STARTS_WITH' | 'ENDS_WITH', searchString: string): Statement => ({
  byteMatchStatement: { fieldToMatch: { uriPath: {} }, positionalConstraint, searchString, ...text },
});

/** The public POST routes the rules watch, each with its limit: schema/routes.ts paths. */
export const WAF_RULES: { name: string; limit: number; paths: Statement[] }[] = [
  { name: 'WaitlistJoins', limit: WAF_LIMITS.waitlistJoins, paths: [path('EXACTLY', '/api/waitlist')] },
  { name: 'ListenBeacons', limit: WAF_LIMITS.listenBeacons, paths: [path('STARTS_WITH', '/api/l/'), path('ENDS_WITH', '/events')] },
  { name: 'OneClickUnsubscribes', limit: WAF_LIMITS.oneClickUnsubscribes, paths: [path('EXACTLY', '/api/unsubscribe/one-click')] },
];

const visibility = (metricName: string): CfnWebACL.VisibilityConfigProperty => ({
  cloudWatchMetricsEnabled: true,
  metricName,
  sampledRequestsEnabled: true,
});

export class WebAcl extends Construct {
  readonly acl: CfnWebACL;

  constructor(scope: Construct, id: string, props: { stage: string }) {
    super(scope, id);
    this.acl = new CfnWebACL(this, 'Acl', {
      name: `trackpitch-${props.stage}-public-posts`,
      description: 'Per-IP rate limits on the public POST routes (waitlist, listen beacons, one-click unsubscribe)',
      scope: 'CLOUDFRONT',
      defaultAction: { allow: {} },
      visibilityConfig: visibility(`trackpitch-${props.stage}-waf`),
      // A blocked request gets a 429 like the app's own limits (the page says to try again later).
      customResponseBodies: {
        TooMany: {
          contentType: 'APPLICATION_JSON',
          content: JSON.stringify({ message: 'Too many requests from your network. Please try again in a few minutes.' }),
        },
      },
      rules: WAF_RULES.map((rule, priority) => ({
        name: rule.name,
        priority,
        // No Retry-After: WAF prefixes the headers it adds (x-amzn-waf-…); the body says when.
        action: { block: { customResponse: { responseCode: 429, customResponseBodyKey: 'TooMany' } } },
        statement: {
          rateBasedStatement: {
            limit: rule.limit,
            evaluationWindowSec: WAF_WINDOW_SECONDS,
            aggregateKeyType: 'IP',
            scopeDownStatement: { andStatement: { statements: [isPost, ...rule.paths] } },
          },
        },
        visibilityConfig: visibility(`trackpitch-${props.stage}-waf-${rule.name}`),
      })),
    });
  }
}
