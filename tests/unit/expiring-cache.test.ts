/** The listen handler's kept link facts (lambdas/core/expiringCache.ts): gone when their time ends, the oldest first when full. */
import { describe, expect, it } from 'vitest';
import { ExpiringCache } from '../../lambdas/core/expiringCache';

const at = (ms: number) => new Date(Date.UTC(2026, 10, 26, 12) + ms);

describe('ExpiringCache', () => {
  it('answers a kept value until its time ends, then nothing', () => {
    const cache = new ExpiringCache<string>(60_000, 10);
    expect(cache.get('a', at(0))).toBeUndefined();
    cache.set('a', 'facts', at(0));
    expect(cache.get('a', at(59_999))).toBe('facts');
    expect(cache.get('a', at(60_000))).toBeUndefined();
    expect(cache.get('a', at(0))).toBeUndefined(); // gone, not only hidden
  });

  it('keeps at most its size, dropping the oldest kept first; keeping a value again makes it the newest', () => {
    const cache = new ExpiringCache<number>(60_000, 2);
    cache.set('a', 1, at(0));
    cache.set('b', 2, at(1));
    cache.set('a', 3, at(2));
    cache.set('c', 4, at(3));
    expect(cache.get('b', at(4))).toBeUndefined();
    expect(cache.get('a', at(4))).toBe(3);
    expect(cache.get('c', at(4))).toBe(4);
  });
});
