import type { Clock } from '../ports';

/** The wall clock. */
export const systemClock: Clock = { now: () => new Date() };

/** A time as whole seconds since the epoch: DynamoDB's TTL attribute, and Stripe's times. */
export const epochSeconds = (date: Date) => Math.floor(date.getTime() / 1000);
