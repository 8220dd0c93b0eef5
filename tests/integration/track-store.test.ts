/**
 * The tracks' DynamoDB store against DynamoDB Local (issue 16): the status changes a complete and a
 * delete rely on hold only from the status they start from.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DynamoTrackStore } from '../../lambdas/adapters/dynamodb/trackStore';
import type { StoredTrack } from '../../lambdas/core/tracks';
import { key, ttlAttribute } from '../../schema/table';
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

async function rawItem(userId: string, id: string) {
  const { Item } = await dynamodb().doc.send(new GetCommand({ TableName: stackConfig().tableName, Key: { PK: key.user(userId), SK: key.track(id) } }));
  return Item;
}

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

  it('a deleted pending track keeps its expiry (it never was a track); a deleted ready one has none to keep', async () => {
    const userId = randomUUID();
    const tracks = store();
    await tracks.createPending(userId, pendingTrack('01KAKZ3R0000000000000000BA'), expiresAt);
    expect(await tracks.markDeleted(userId, '01KAKZ3R0000000000000000BA', new Date())).toMatchObject({ status: 'deleted' });
    expect((await rawItem(userId, '01KAKZ3R0000000000000000BA'))?.[ttlAttribute]).toBe(Math.floor(expiresAt.getTime() / 1000));

    await tracks.createPending(userId, pendingTrack('01KAKZ3R0000000000000000BB'), expiresAt);
    await tracks.markReady(userId, '01KAKZ3R0000000000000000BB', { ...facts, peaks: [] });
    expect(await tracks.markDeleted(userId, '01KAKZ3R0000000000000000BB', new Date())).toMatchObject({ status: 'deleted' });
    expect(await rawItem(userId, '01KAKZ3R0000000000000000BB')).not.toHaveProperty(ttlAttribute);
  });

  it('records cover art on a ready track only: never on a pending, deleted or missing one', async () => {
    const userId = randomUUID();
    const tracks = store();
    const cover = (id: string) => ({ key: `tracks/${userId}/${id}-cover`, type: 'image/png' as const });
    await tracks.createPending(userId, pendingTrack('01KAKZ3R0000000000000000CA'), expiresAt);
    expect(await tracks.setCover(userId, '01KAKZ3R0000000000000000CA', cover('01KAKZ3R0000000000000000CA'))).toBeUndefined();
    await tracks.markReady(userId, '01KAKZ3R0000000000000000CA', { ...facts, peaks: [] });
    expect(await tracks.setCover(userId, '01KAKZ3R0000000000000000CA', cover('01KAKZ3R0000000000000000CA'))).toMatchObject({
      status: 'ready',
      cover_key: `tracks/${userId}/01KAKZ3R0000000000000000CA-cover`,
      cover_type: 'image/png',
    });
    expect(await tracks.get(userId, '01KAKZ3R0000000000000000CA')).toMatchObject({ cover_type: 'image/png' });
    expect((await tracks.listReady(userId))[0]).toMatchObject({ id: '01KAKZ3R0000000000000000CA', cover_type: 'image/png' });
    await tracks.markDeleted(userId, '01KAKZ3R0000000000000000CA', new Date());
    expect(await tracks.setCover(userId, '01KAKZ3R0000000000000000CA', cover('01KAKZ3R0000000000000000CA'))).toBeUndefined();
    expect(await tracks.setCover(userId, '01KAKZ3R0000000000000000CB', cover('01KAKZ3R0000000000000000CB'))).toBeUndefined();
    expect(await rawItem(userId, '01KAKZ3R0000000000000000CB')).toBeUndefined(); // no item made
  });
});
