/**
 * A small in-memory cache of facts that do not change, kept for a while in one container (a Lambda's
 * or the local server's): entries end `ttlMs` after they were kept, and past `maxEntries` the oldest
 * goes first. Pure: the caller says what time it is.
 */
export class ExpiringCache<V> {
  private readonly entries = new Map<string, { value: V; until: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
  ) {}

  /** The value kept under `key`, unless it ended by `now`. */
  get(key: string, now: Date): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (now.getTime() < entry.until) return entry.value;
    this.entries.delete(key);
    return undefined;
  }

  /** Keeps `value` under `key` from `now` on (a Map keeps insertion order: its first key is the oldest). */
  set(key: string, value: V, now: Date): void {
    this.entries.delete(key);
    while (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done === true) break;
      this.entries.delete(oldest.value);
    }
    this.entries.set(key, { value, until: now.getTime() + this.ttlMs });
  }
}
