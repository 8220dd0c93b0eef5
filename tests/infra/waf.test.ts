/**
 * The optional WAF web ACL (the `waf` setting, lib/cloud/waf.ts) and the origin secret that lets the
 * API believe CloudFront's viewer address (lambdas/http/clientLimit.ts).
 */
import { describe, expect, it } from 'vitest';
import { WAF_LIMITS, WAF_WINDOW_SECONDS } from '../../lib/cloud/waf';
import { ORIGIN_VERIFY_HEADER, routes } from '../../schema/routes';
import { onlyResource, resourcesOfType, synth } from './synth';

const distributionConfig = (template: ReturnType<typeof synth>['template']) =>
  onlyResource(template, 'AWS::CloudFront::Distribution').Properties.DistributionConfig as Record<string, unknown>;

describe('the waf setting', () => {
  it('off (the default): no web ACL, the distribution has none', () => {
    const { template } = synth();
    template.resourceCountIs('AWS::WAFv2::WebACL', 0);
    expect(distributionConfig(template).WebACLId).toBeUndefined();
  });

  it('on: a CLOUDFRONT-scope web ACL on the distribution, with a per-IP rate rule for each public POST route it names', () => {
    const { template } = synth({ waf: 'true' });
    const acl = onlyResource(template, 'AWS::WAFv2::WebACL');
    const aclId = resourcesOfType(template, 'AWS::WAFv2::WebACL')[0]?.[0];
    expect(acl.Properties).toMatchObject({ Scope: 'CLOUDFRONT', DefaultAction: { Allow: {} } });
    expect(distributionConfig(template).WebACLId).toEqual({ 'Fn::GetAtt': [aclId, 'Arn'] });

    const rules = acl.Properties.Rules as Array<{ Name: string; Action: unknown; Statement: { RateBasedStatement: Record<string, unknown> } }>;
    expect(rules.map((rule) => [rule.Name, rule.Statement.RateBasedStatement.Limit])).toEqual([
      ['WaitlistJoins', WAF_LIMITS.waitlistJoins],
      ['ListenBeacons', WAF_LIMITS.listenBeacons],
      ['OneClickUnsubscribes', WAF_LIMITS.oneClickUnsubscribes],
    ]);
    for (const rule of rules) {
      expect(rule.Action).toEqual({ Block: { CustomResponse: { ResponseCode: 429, CustomResponseBodyKey: 'TooMany' } } });
      expect(rule.Statement.RateBasedStatement).toMatchObject({ AggregateKeyType: 'IP', EvaluationWindowSec: WAF_WINDOW_SECONDS });
    }
    // Each rule counts POSTs to its route's path only: the paths are public POST routes of schema/routes.ts.
    const matches = (rule: (typeof rules)[number]) =>
      (
        rule.Statement.RateBasedStatement.ScopeDownStatement as { AndStatement: { Statements: Array<{ ByteMatchStatement: Record<string, unknown> }> } }
      ).AndStatement.Statements.map((statement) => statement.ByteMatchStatement);
    for (const rule of rules) expect(matches(rule)[0]).toMatchObject({ FieldToMatch: { Method: {} }, PositionalConstraint: 'EXACTLY', SearchString: 'POST' });
    const publicPosts = routes.filter((route) => route.method === 'POST' && route.access === 'public').map((route) => route.path);
    expect(publicPosts).toEqual(expect.arrayContaining(['/api/waitlist', '/api/l/{token}/events', '/api/unsubscribe/one-click']));
    expect(matches(rules[0]!).slice(1)).toEqual([expect.objectContaining({ PositionalConstraint: 'EXACTLY', SearchString: '/api/waitlist' })]);
    expect(matches(rules[1]!).slice(1)).toEqual([
      expect.objectContaining({ PositionalConstraint: 'STARTS_WITH', SearchString: '/api/l/' }),
      expect.objectContaining({ PositionalConstraint: 'ENDS_WITH', SearchString: '/events' }),
    ]);
    expect(matches(rules[2]!).slice(1)).toEqual([expect.objectContaining({ PositionalConstraint: 'EXACTLY', SearchString: '/api/unsubscribe/one-click' })]);
  });
});

describe('the origin secret', () => {
  const { template } = synth();
  const secretId = resourcesOfType(template, 'AWS::SecretsManager::Secret').find(([id]) => id.includes('OriginVerifySecret'))?.[0];
  const reference = { 'Fn::Join': ['', ['{{resolve:secretsmanager:', { Ref: secretId }, ':SecretString:::}}']] };

  it("is generated, and CloudFront sends it to the API in every /api request's origin header", () => {
    expect(secretId).toBeDefined();
    const origins = distributionConfig(template).Origins as Array<{ CustomOriginConfig?: unknown; OriginCustomHeaders?: unknown }>;
    const apiOrigin = origins.find((origin) => origin.CustomOriginConfig);
    expect(apiOrigin?.OriginCustomHeaders).toEqual([{ HeaderName: ORIGIN_VERIFY_HEADER, HeaderValue: reference }]);
  });

  it('reaches only the functions that limit clients (waitlist, listen), as a deploy-time reference', () => {
    const withSecret = resourcesOfType(template, 'AWS::Lambda::Function')
      .filter(([, fn]) => JSON.stringify(fn.Properties).includes('ORIGIN_VERIFY_SECRET'))
      .map(([, fn]) => {
        expect((fn.Properties?.Environment as { Variables: Record<string, unknown> }).Variables.ORIGIN_VERIFY_SECRET).toEqual(reference);
        return String(fn.Properties?.Description);
      });
    expect(withSecret).toHaveLength(2);
    expect(withSecret.some((description) => description.includes('waitlist'))).toBe(true);
    expect(withSecret.some((description) => description.includes('listen page'))).toBe(true);
  });
});
