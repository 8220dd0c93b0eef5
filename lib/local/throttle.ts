/**
 * API Gateway's route throttling: a token bucket per route that holds `burst` tokens and refills at
 * `rate` tokens per second; a request that finds the bucket empty gets 429.
 */
import { routeKey, type RouteDefinition } from '../../schema/routes';

export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    readonly rate: number,
    readonly burst: number,
    private readonly now: () => number = Date.now,
  ) {
    this.tokens = burst;
    this.last = now();
  }

  /** Takes one token; false when none is left. */
  take(): boolean {
    const now = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.rate);
    this.last = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

/** One bucket per throttled route; routes without `throttle` are never refused. */
export function makeRouteThrottle(now: () => number = Date.now) {
  const buckets = new Map<string, TokenBucket>();
  return (route: RouteDefinition): boolean => {
    if (!route.throttle) return true;
    const key = routeKey(route);
    let bucket = buckets.get(key);
    if (!bucket) {
      bucket = new TokenBucket(route.throttle.rate, route.throttle.burst, now);
      buckets.set(key, bucket);
    }
    return bucket.take();
  };
}
