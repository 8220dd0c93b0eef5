/**
 * The per-client limits of the public POST routes (issue 26 §2): the windows and numbers, the stored
 * key (a hash, an IPv6 client by its /64), the message, who the client is (the request context's
 * sourceIp, or CloudFront's viewer address only with the origin secret), and the two handlers' 429.
 */
import { describe, expect, it } from 'vitest';
import {
  clientKey,
  clientLimitRefusal,
  clientLimitWindows,
  LISTEN_EVENTS_PER_CLIENT_PER_HOUR,
  LISTEN_EVENTS_PER_CLIENT_PER_MINUTE,
  limitedPart,
  WAITLIST_JOINS_PER_CLIENT_PER_HOUR,
  type AllowanceOutcome,
  type AllowanceWindow,
} from '../../lambdas/core/allowance';
import { LISTEN_EVENTS_PER_MINUTE } from '../../lambdas/core/listen';
import { clientAddress, clientLimit } from '../../lambdas/http/clientLimit';
import { ORIGIN_VERIFY_HEADER, VIEWER_ADDRESS_HEADER } from '../../schema/routes';
import { makeHandler as makeListenHandler } from '../../lambdas/http/listen';
import { makeHandler as makeWaitlistHandler } from '../../lambdas/http/waitlist';
import type { AllowanceStore, AllowanceSubject, ListenStore } from '../../lambdas/ports';
import { buildApiEvent, makeLambdaContext } from '../../lib/local/event';
import { CLIENT_LIMIT_CODE } from '../../schema/api/serverMessages';
import { memoryWaitlist } from '../fakes/waitlist';

const now = new Date('2026-11-28T10:45:30.000Z');
const SECRET = 'origin-secret-of-the-distribution';

function event(path: string, route: string, options: { sourceIp?: string; headers?: Record<string, string>; body?: unknown } = {}) {
  return buildApiEvent({
    method: 'POST',
    url: path,
    headers: { 'content-type': 'application/json', ...options.headers },
    body: Buffer.from(JSON.stringify(options.body ?? {})),
    sourceIp: options.sourceIp ?? '192.0.2.7',
    route: { method: 'POST', path: route },
    pathParameters: path === route ? {} : { token: path.split('/')[3] ?? '' },
    requestId: 'req-1',
    now,
  });
}
const context = () => makeLambdaContext({ functionName: 'test', awsRequestId: 'req-1', region: 'us-east-1', timeoutMs: 10_000 });

/** An allowance store that records what it is asked and answers `outcome`. */
function recordingStore(outcome: (windows: readonly AllowanceWindow[]) => AllowanceOutcome = () => ({ allowed: true })) {
  const takes: { subject: AllowanceSubject; windows: readonly AllowanceWindow[] }[] = [];
  const store: AllowanceStore = {
    take: (subject, windows) => {
      takes.push({ subject, windows });
      return Promise.resolve(outcome(windows));
    },
  };
  return { store, takes };
}
const fullFirst = (windows: readonly AllowanceWindow[]): AllowanceOutcome => ({ allowed: false, full: windows[0] as AllowanceWindow });

describe('clientLimitWindows', () => {
  it('a waitlist join takes a place in the UTC hour, at most WAITLIST_JOINS_PER_CLIENT_PER_HOUR', () => {
    expect(WAITLIST_JOINS_PER_CLIENT_PER_HOUR).toBe(5);
    expect(clientLimitWindows('waitlist_join', now)).toEqual([{ name: 'H2026-11-28T10', endsAt: new Date('2026-11-28T11:00:00.000Z'), most: 5 }]);
  });

  it("a listen beacon takes a place in the minute and the hour, both well above one link's own bound", () => {
    expect(clientLimitWindows('listen_event', now)).toEqual([
      { name: 'Min2026-11-28T10:45', endsAt: new Date('2026-11-28T10:46:00.000Z'), most: LISTEN_EVENTS_PER_CLIENT_PER_MINUTE },
      { name: 'H2026-11-28T10', endsAt: new Date('2026-11-28T11:00:00.000Z'), most: LISTEN_EVENTS_PER_CLIENT_PER_HOUR },
    ]);
    expect(LISTEN_EVENTS_PER_CLIENT_PER_MINUTE).toBeGreaterThan(LISTEN_EVENTS_PER_MINUTE);
    expect(LISTEN_EVENTS_PER_CLIENT_PER_HOUR).toBeGreaterThan(LISTEN_EVENTS_PER_CLIENT_PER_MINUTE);
  });
});

describe('clientKey', () => {
  it('is a 128-bit hash of the address, never the address, one per address', () => {
    const key = clientKey('203.0.113.9');
    expect(key).toMatch(/^[0-9a-f]{32}$/);
    expect(key).not.toContain('203');
    expect(clientKey('203.0.113.9')).toBe(key);
    expect(clientKey('203.0.113.10')).not.toBe(key);
  });

  it('counts an IPv6 client by its /64 however the address is written, and an IPv4-mapped address as IPv4', () => {
    expect(limitedPart('2001:db8:0:1:aaaa::1')).toBe('2001:db8:0:1::/64');
    expect(limitedPart('2001:0DB8:0000:0001:0:0:0:2')).toBe('2001:db8:0:1::/64');
    expect(limitedPart('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(limitedPart('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(clientKey('2001:db8:0:1::5')).toBe(clientKey('2001:db8:0:1:ffff:ffff:ffff:ffff'));
    expect(clientKey('2001:db8:0:2::5')).not.toBe(clientKey('2001:db8:0:1::5'));
    expect(clientKey('::ffff:198.51.100.4')).toBe(clientKey('198.51.100.4'));
  });
});

describe('clientLimitRefusal', () => {
  it('says whose limit it is and when to try again', () => {
    const [hour] = clientLimitWindows('waitlist_join', now);
    expect(clientLimitRefusal('waitlist_join', hour as AllowanceWindow, now)).toBe(
      'Too many waitlist sign-ups from your network. Please try again in 15 minutes.',
    );
    const [minute] = clientLimitWindows('listen_event', now);
    expect(clientLimitRefusal('listen_event', minute as AllowanceWindow, now)).toBe(
      'Too many listening events from your network. Please try again in a minute.',
    );
  });
});

describe('clientAddress', () => {
  const join = (options: Parameters<typeof event>[2]) => event('/api/waitlist', '/api/waitlist', options);

  it("is the request context's sourceIp: X-Forwarded-For, which the client writes, is never read", () => {
    const spoofed = join({ sourceIp: '192.0.2.7', headers: { 'x-forwarded-for': '203.0.113.1' } });
    expect(spoofed.headers['x-forwarded-for']).toBe('203.0.113.1, 192.0.2.7');
    expect(clientAddress(spoofed, undefined)).toBe('192.0.2.7');
    expect(clientAddress(spoofed, SECRET)).toBe('192.0.2.7');
  });

  it("is CloudFront's viewer address (port dropped) when the request carries the origin secret", () => {
    const viaCloudFront = (viewer: string) => join({ sourceIp: '130.176.0.1', headers: { [ORIGIN_VERIFY_HEADER]: SECRET, [VIEWER_ADDRESS_HEADER]: viewer } });
    expect(clientAddress(viaCloudFront('198.51.100.10:46532'), SECRET)).toBe('198.51.100.10');
    expect(clientAddress(viaCloudFront('2001:db8:85a3::8a2e:370:7334:46532'), SECRET)).toBe('2001:db8:85a3::8a2e:370:7334');
  });

  it('ignores a viewer address without the right secret: a direct caller of the API cannot choose its address', () => {
    const direct = (headers: Record<string, string>) => join({ sourceIp: '192.0.2.7', headers: { [VIEWER_ADDRESS_HEADER]: '198.51.100.10:1', ...headers } });
    expect(clientAddress(direct({}), SECRET)).toBe('192.0.2.7');
    expect(clientAddress(direct({ [ORIGIN_VERIFY_HEADER]: 'a-guess' }), SECRET)).toBe('192.0.2.7');
    expect(clientAddress(direct({ [ORIGIN_VERIFY_HEADER]: `${SECRET}x` }), SECRET)).toBe('192.0.2.7');
    // No secret configured (locally): only sourceIp counts.
    expect(clientAddress(direct({ [ORIGIN_VERIFY_HEADER]: SECRET }), undefined)).toBe('192.0.2.7');
  });
});

describe('POST /api/waitlist and the client limit', () => {
  const body = { email: 'nova@example.com', artist_name: 'Nova', music_style: 'Techno' };

  it("takes a place for the sourceIp's hashed key, then adds the entry", async () => {
    const { store, takes } = recordingStore();
    const waitlist = memoryWaitlist();
    const handler = makeWaitlistHandler({ waitlist, clock: { now: () => now }, ids: { next: () => 'ID1' }, clientLimit: clientLimit({ allowances: store }) });
    const result = await handler(event('/api/waitlist', '/api/waitlist', { body, headers: { 'x-forwarded-for': '203.0.113.1' } }), context());
    expect(result.statusCode).toBe(201);
    expect(takes).toEqual([{ subject: { client: clientKey('192.0.2.7'), kind: 'waitlist_join' }, windows: clientLimitWindows('waitlist_join', now) }]);
  });

  it('answers 429 with Retry-After and the message past the limit, and adds nothing', async () => {
    const { store } = recordingStore(fullFirst);
    const waitlist = memoryWaitlist();
    const handler = makeWaitlistHandler({
      waitlist,
      clock: { now: () => now },
      ids: { next: () => 'ID1' },
      clientLimit: clientLimit({ allowances: store, originSecret: SECRET }),
    });
    const result = await handler(event('/api/waitlist', '/api/waitlist', { body }), context());
    expect(result.statusCode).toBe(429);
    expect(result.headers?.['retry-after']).toBe(String(14 * 60 + 30));
    expect(JSON.parse(result.body ?? '')).toEqual({
      message: 'Too many waitlist sign-ups from your network. Please try again in 15 minutes.',
      code: CLIENT_LIMIT_CODE,
    });
    expect(waitlist.entries.size).toBe(0);
  });
});

describe('POST /api/l/{token}/events and the client limit', () => {
  const token = 'a'.repeat(43);
  const unused = () => Promise.reject(new Error('not read'));
  const listen: ListenStore = { campaign: unused, currentAnswer: unused, recordPlay: unused, recordProgress: unused, recordDownload: unused, answer: unused };
  const beacon = (headers: Record<string, string> = {}) =>
    event(`/api/l/${token}/events`, '/api/l/{token}/events', { sourceIp: '130.176.0.1', headers, body: { type: 'play', session: 's'.repeat(16) } });

  it("counts the viewer's address when CloudFront proves the request, and refuses before the link is read", async () => {
    const { store, takes } = recordingStore(fullFirst);
    let tokenReads = 0;
    const handler = makeListenHandler({
      tokens: {
        getToken: () => {
          tokenReads += 1;
          return Promise.resolve(undefined);
        },
      },
      listen,
      tracks: { get: unused },
      audio: { signedGetUrl: unused },
      clock: { now: () => now },
      clientLimit: clientLimit({ allowances: store, originSecret: SECRET }),
    });
    const result = await handler(beacon({ [ORIGIN_VERIFY_HEADER]: SECRET, [VIEWER_ADDRESS_HEADER]: '198.51.100.10:46532' }), context());
    expect(result.statusCode).toBe(429);
    expect(result.headers?.['retry-after']).toBe('30');
    expect(JSON.parse(result.body ?? '')).toEqual({
      message: 'Too many listening events from your network. Please try again in a minute.',
      code: CLIENT_LIMIT_CODE,
    });
    expect(takes.map((take) => take.subject)).toEqual([{ client: clientKey('198.51.100.10'), kind: 'listen_event' }]);
    expect(tokenReads).toBe(0);
  });
});
