import { monotonicFactory } from 'ulid';
import type { IdGenerator } from '../ports';

/** ULIDs whose time part is the given time; ids made in the same millisecond still sort in order. */
export function ulidGenerator(): IdGenerator {
  const next = monotonicFactory();
  return { next: (time) => next(time.getTime()) };
}
