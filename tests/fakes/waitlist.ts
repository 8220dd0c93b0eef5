/**
 * An in-memory WaitlistStore with the DynamoDB adapter's contract (one entry per email, a counter,
 * conditional status change), for handler unit tests. The integration tests use the real adapter.
 */
import type { WaitlistEntry } from '../../schema/api/waitlist';
import type { WaitlistStore } from '../../lambdas/ports';

export type MemoryWaitlist = WaitlistStore & { entries: Map<string, WaitlistEntry>; counter: number };

export function memoryWaitlist(initial: WaitlistEntry[] = []): MemoryWaitlist {
  const entries = new Map<string, WaitlistEntry>(initial.map((entry) => [entry.id, entry]));
  const store: MemoryWaitlist = {
    entries,
    counter: initial.length,
    // Paged like the adapter: newest first, the cursor (here simply the last id) set while more follow.
    list: ({ limit, cursor }: { limit: number; cursor?: string }) => {
      if (cursor !== undefined && !entries.has(cursor)) return Promise.resolve({ outcome: 'invalid_cursor' as const });
      const all = [...entries.values()].sort((a, b) => (a.id < b.id ? 1 : -1));
      const start = cursor === undefined ? 0 : all.findIndex((e) => e.id === cursor) + 1;
      const page = all.slice(start, start + limit);
      const more = start + limit < all.length;
      return Promise.resolve(more ? { outcome: 'listed' as const, entries: page, nextCursor: page.at(-1)!.id } : { outcome: 'listed' as const, entries: page });
    },
    add: (entry: WaitlistEntry) => {
      if ([...entries.values()].some((e) => e.email === entry.email)) return Promise.resolve({ outcome: 'duplicate' as const });
      entries.set(entry.id, entry);
      store.counter++;
      return Promise.resolve({ outcome: 'added' as const, entry });
    },
    count: () => Promise.resolve(store.counter),
    get: (id: string) => Promise.resolve(entries.get(id)),
    changeStatus: (id: string, from: WaitlistEntry['status'], change: Pick<WaitlistEntry, 'status' | 'approved_at'>) => {
      const current = entries.get(id);
      if (!current) return Promise.resolve({ outcome: 'not_found' as const });
      if (current.status !== from) return Promise.resolve({ outcome: 'conflict' as const, entry: current });
      const next = { ...current, ...change };
      entries.set(id, next);
      return Promise.resolve({ outcome: 'changed' as const, entry: next });
    },
    setNotes: (id: string, notes: string | null) => {
      const current = entries.get(id);
      if (!current) return Promise.resolve(undefined);
      const next = { ...current, notes };
      entries.set(id, next);
      return Promise.resolve(next);
    },
  };
  return store;
}
