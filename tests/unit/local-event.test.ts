/** The pure HTTP ⇄ Lambda mapping of lib/local/event.ts and the token bucket (no engines needed). */
import { describe, expect, it } from 'vitest';
import { buildApiEvent, isTextContentType, makeLambdaContext, stringifyClaims, toHttpResponse, apiGatewayTime, type RequestInput } from '../../lib/local/event';
import { TokenBucket } from '../../lib/local/throttle';
import { identityFromEvent } from '../../lambdas/http/api';

const base: RequestInput = {
  method: 'get',
  url: '/api/campaigns/01H%20X?limit=10&tag=a&tag=b%20c',
  headers: {
    Host: '127.0.0.1:3000',
    'User-Agent': 'vitest',
    Accept: ['application/json', 'text/plain'],
    Cookie: 'a=1; b=2',
    Connection: 'keep-alive',
  },
  sourceIp: '127.0.0.1',
  route: { method: 'GET', path: '/api/campaigns/{id}' },
  pathParameters: { id: '01H X' },
  requestId: 'AbCdEfGhIjKlMn=',
  now: new Date('2026-03-12T19:03:58.123Z'),
  port: 3000,
};

describe('buildApiEvent', () => {
  it('maps path, query, route key and path parameters as API Gateway does', () => {
    const event = buildApiEvent(base);
    expect(event.version).toBe('2.0');
    expect(event.routeKey).toBe('GET /api/campaigns/{id}');
    expect(event.rawPath).toBe('/api/campaigns/01H%20X');
    expect(event.rawQueryString).toBe('limit=10&tag=a&tag=b%20c');
    expect(event.queryStringParameters).toEqual({ limit: '10', tag: 'a,b c' });
    expect(event.pathParameters).toEqual({ id: '01H X' });
    expect(event.requestContext).toMatchObject({
      routeKey: 'GET /api/campaigns/{id}',
      stage: '$default',
      requestId: 'AbCdEfGhIjKlMn=',
      domainName: '127.0.0.1',
      time: '12/Mar/2026:19:03:58 +0000',
      timeEpoch: Date.parse('2026-03-12T19:03:58.123Z'),
      http: { method: 'GET', path: '/api/campaigns/01H%20X', protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'vitest' },
    });
  });

  it('lowercases headers, joins repeated ones with commas, moves cookies out and adds forwarding headers', () => {
    const event = buildApiEvent(base);
    expect(event.headers.accept).toBe('application/json,text/plain');
    expect(event.headers['user-agent']).toBe('vitest');
    expect(event.headers.Host).toBeUndefined();
    expect(event.headers.cookie).toBeUndefined();
    expect(event.headers.connection).toBeUndefined();
    expect(event.cookies).toEqual(['a=1', 'b=2']);
    expect(event.headers['x-forwarded-for']).toBe('127.0.0.1');
    expect(event.headers['x-forwarded-proto']).toBe('http');
    expect(event.headers['x-forwarded-port']).toBe('3000');
    expect(event.headers['x-amzn-trace-id']).toMatch(/^Root=1-[0-9a-f]{8}-[0-9a-z]{24}$/);
  });

  it('leaves out what the request does not have', () => {
    const event = buildApiEvent({ ...base, url: '/api/health', headers: {}, pathParameters: {}, route: { method: 'GET', path: '/api/health' } });
    expect(event.rawQueryString).toBe('');
    expect(event).not.toHaveProperty('queryStringParameters');
    expect(event).not.toHaveProperty('pathParameters');
    expect(event).not.toHaveProperty('cookies');
    expect(event).not.toHaveProperty('body');
    expect(event.isBase64Encoded).toBe(false);
    expect(event.requestContext).not.toHaveProperty('authorizer');
  });

  it('passes text bodies as text and other bodies base64-encoded', () => {
    const json = buildApiEvent({ ...base, headers: { 'content-type': 'application/json; charset=utf-8' }, body: Buffer.from('{"a":"é"}') });
    expect(json.body).toBe('{"a":"é"}');
    expect(json.isBase64Encoded).toBe(false);

    const binary = buildApiEvent({ ...base, headers: { 'content-type': 'application/octet-stream' }, body: Buffer.from([0, 1, 2, 255]) });
    expect(binary.isBase64Encoded).toBe(true);
    expect(Buffer.from(binary.body!, 'base64')).toEqual(Buffer.from([0, 1, 2, 255]));

    const untyped = buildApiEvent({ ...base, headers: {}, body: Buffer.from('abc') });
    expect(untyped.isBase64Encoded).toBe(true);
  });

  it('puts the claims as API Gateway stringifies them, which the handlers read back', () => {
    const event = buildApiEvent({
      ...base,
      claims: {
        sub: 'user-1',
        email: 'a@example.com',
        name: 'Ada',
        'cognito:groups': ['admins', 'editors'],
        email_verified: true,
        exp: 1700000000,
        scope: 'aws.cognito.signin.user.admin openid',
      },
    });
    const { claims, scopes } = event.requestContext.authorizer.jwt;
    expect(claims).toMatchObject({ sub: 'user-1', 'cognito:groups': '[admins editors]', email_verified: 'true', exp: '1700000000' });
    expect(scopes).toEqual(['aws.cognito.signin.user.admin', 'openid']);
    expect(identityFromEvent(event)).toEqual({ userId: 'user-1', email: 'a@example.com', name: 'Ada', groups: ['admins', 'editors'] });
  });
});

describe('stringifyClaims, isTextContentType, apiGatewayTime', () => {
  it('stringify every claim kind', () => {
    expect(stringifyClaims({ a: [], b: ['x'], c: { d: 1 }, e: null, f: 0 })).toEqual({ a: '[]', b: '[x]', c: '{"d":1}', f: '0' });
  });

  it('recognise text content types', () => {
    for (const type of ['text/plain', 'application/json', 'application/problem+json', 'application/x-www-form-urlencoded', 'image/svg+xml']) {
      expect(isTextContentType(type), type).toBe(true);
    }
    for (const type of [undefined, 'application/octet-stream', 'image/png', 'multipart/form-data; boundary=x']) {
      expect(isTextContentType(type), String(type)).toBe(false);
    }
  });

  it('format the request time', () => {
    expect(apiGatewayTime(new Date('2026-01-05T03:04:05Z'))).toBe('05/Jan/2026:03:04:05 +0000');
  });
});

describe('toHttpResponse', () => {
  it('uses a structured result as given', () => {
    const response = toHttpResponse({
      statusCode: 302,
      headers: { Location: '/x', 'X-Count': 3 },
      cookies: ['a=1'],
      body: 'moved',
    });
    expect(response).toEqual({ statusCode: 302, headers: { location: '/x', 'x-count': '3' }, cookies: ['a=1'], body: Buffer.from('moved') });
  });

  it('decodes a base64 body', () => {
    expect(toHttpResponse({ statusCode: 200, body: Buffer.from([1, 2, 3]).toString('base64'), isBase64Encoded: true }).body).toEqual(Buffer.from([1, 2, 3]));
  });

  it('sends any other value as a 200 JSON body', () => {
    const response = toHttpResponse({ hello: 'world' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json');
    expect(JSON.parse(response.body.toString())).toEqual({ hello: 'world' });
    expect(toHttpResponse('text').body.toString()).toBe('"text"');
  });

  it('turns an unusable status into 500 Internal Server Error', () => {
    const response = toHttpResponse({ statusCode: 'oops' });
    expect(response.statusCode).toBe(500);
    expect(JSON.parse(response.body.toString())).toEqual({ message: 'Internal Server Error' });
  });
});

describe('makeLambdaContext', () => {
  it('counts the remaining time down from the timeout', () => {
    let now = 1000;
    const context = makeLambdaContext({ functionName: 'trackpitch-profile', awsRequestId: 'req-1', region: 'us-east-1', timeoutMs: 3000, now: () => now });
    expect(context.awsRequestId).toBe('req-1');
    expect(context.invokedFunctionArn).toBe('arn:aws:lambda:us-east-1:000000000000:function:trackpitch-profile');
    expect(context.getRemainingTimeInMillis()).toBe(3000);
    now += 2500;
    expect(context.getRemainingTimeInMillis()).toBe(500);
    now += 1000;
    expect(context.getRemainingTimeInMillis()).toBe(0);
  });
});

describe('TokenBucket', () => {
  it('allows the burst, then the rate per second', () => {
    let now = 0;
    const bucket = new TokenBucket(2, 3, () => now);
    expect([bucket.take(), bucket.take(), bucket.take(), bucket.take()]).toEqual([true, true, true, false]);
    now += 500; // one token back at 2 per second
    expect([bucket.take(), bucket.take()]).toEqual([true, false]);
    now += 60_000; // never more than the burst
    expect([bucket.take(), bucket.take(), bucket.take(), bucket.take()]).toEqual([true, true, true, false]);
  });
});
