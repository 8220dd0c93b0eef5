/**
 * The tracks' DynamoDB store against DynamoDB Local (issue 16): the status changes a complete and a
 * delete rely on hold only from the status they start from.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DynamoTrackStore } from '../../lambdas/adapters/dynamodb/trackStore';
import type { StoredTrack } from '../../lambdas/core/tracks';
import { dynamodb, stackConfig } from './helpers';

const store = () => new DynamoTrackStore(dynamodb().doc, stackConfig().tableName);

const pendingTrack = (id: string): StoredTrack => ({
  id,
  name: 'Night Drive',
  status: 'pending',
  audio_key: `tracks/u/${id}`,
  content_type: 'audio/wav',
  size_bytes: 1000,
  created_at: new Date().toISOString(),
});
const facts = { format: 'wav', duration_seconds: 1.5, sample_rate: 8000, size_bytes: 1000, peaks: [] } as const;
const expiresAt = new Date(Date.now() + 86_400_000);

describe('the track store', () => {
  it('forgets a pending track, and never a ready one (a refused complete racing a successful one)', async () => {
    const userId = randomUUID();
    const tracks = store();
    await tracks.createPending(userId, pendingTrack('01KAKZ3R0000000000000000AA'), expiresAt);
    await tracks.forgetPending(userId, '01KAKZ3R0000000000000000AA');
    expect(await tracks.get(userId, '01KAKZ3R0000000000000000AA')).toBeUndefined();

    await tracks.createPending(userId, pendingTrack('01KAKZ3R0000000000000000AB'), expiresAt);
    expect(await tracks.markReady(userId, '01KAKZ3R0000000000000000AB', { ...facts, peaks: [] })).toMatchObject({ status: 'ready' });
    await tracks.forgetPending(userId, '01KAKZ3R0000000000000000AB');
    expect(await tracks.get(userId, '01KAKZ3R0000000000000000AB')).toMatchObject({ status: 'ready', format: 'wav' });
    await tracks.forgetPending(userId, '01KAKZ3R0000000000000000AC'); // none: not an error
  });
});
