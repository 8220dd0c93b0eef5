import type { Clock } from '../ports';

/** The wall clock. */
export const systemClock: Clock = { now: () => new Date() };
