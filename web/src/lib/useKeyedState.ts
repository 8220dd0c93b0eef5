import { useCallback, useState } from 'react';

/**
 * State that belongs to a key (what a request was made for: a string such as `${id}#${attempt}`, or a
 * memoized object): it reads as `fallback` (typically "loading") until a value is set for the current
 * key, so a fetch effect never resets it synchronously. `setFor` stores what was loaded for a key;
 * `update` changes the value held (after an action or a poll) and keeps its key.
 */
export function useKeyedState<K, T>(key: K, fallback: T) {
  const [stored, setStored] = useState<{ key: K; value: T } | null>(null);
  const value = stored !== null && Object.is(stored.key, key) ? stored.value : fallback;
  const setFor = useCallback((forKey: K, next: T) => setStored({ key: forKey, value: next }), []);
  const update = useCallback((change: (current: T) => T) => setStored((current) => current && { key: current.key, value: change(current.value) }), []);
  return [value, setFor, update] as const;
}
