/** Which DUE index shard a user's sending cursor is written to; imports no schema (zod). */
import { createHash } from 'node:crypto';
import { DUE_SHARDS } from '../../schema/table';

/** The DUE shard of a user's cursor: a stable hash of the user id. */
export function dueShard(userId: string): number {
  return createHash('sha256').update(userId).digest().readUInt32BE(0) % DUE_SHARDS;
}
