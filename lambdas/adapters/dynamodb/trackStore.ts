import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { TrackSummary } from '../../../schema/api/tracks';
import { TRACK_SUMMARY_FIELDS, type CoverMediaType } from '../../../schema/api/trackValues';
import { key, ttlAttribute } from '../../../schema/table';
import type { ReadyTrackFacts, StoredTrack } from '../../core/tracks';
import type { TrackStore } from '../../ports';
import { withoutKeys } from './client';
import { projectionOf, putNew, queryAll } from './query';

/**
 * The artist's tracks (schema/ACCESS_PATTERNS.md): `USER#<sub>` / `TRACK#<ulid>`. The ULID starts with
 * the creation time, so the partition read descending is newest first. A pending track carries a TTL
 * (an upload never completed is forgotten, deleted or not); ready ones, and deleted ready ones, do not.
 */
const TRACK = 'track';

const storedFields: readonly (keyof StoredTrack)[] = [
  'id',
  'name',
  'status',
  'audio_key',
  'content_type',
  'size_bytes',
  'created_at',
  'format',
  'duration_seconds',
  'sample_rate',
  'peaks',
  'deleted_at',
  'cover_key',
  'cover_type',
];
const storedProjection = projectionOf(storedFields);
/** The list's fields (no peaks), and the status its filter reads. */
const summaryProjection = projectionOf([...TRACK_SUMMARY_FIELDS, 'status']);

const trackKey = (userId: string, id: string) => ({ PK: key.user(userId), SK: key.track(id) });

const epochSeconds = (time: Date) => Math.floor(time.getTime() / 1000);

/** A write whose condition failed answers undefined (the track was not in the status the change needs). */
async function conditional<T>(write: Promise<T>): Promise<T | undefined> {
  try {
    return await write;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return undefined;
    throw error;
  }
}

export class DynamoTrackStore implements TrackStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async createPending(userId: string, track: StoredTrack, expiresAt: Date): Promise<void> {
    await putNew(this.db, this.tableName, trackKey(userId, track.id), TRACK, { ...track, [ttlAttribute]: epochSeconds(expiresAt) });
  }

  async get(userId: string, id: string): Promise<StoredTrack | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: trackKey(userId, id), ...storedProjection }));
    return Item ? withoutKeys<StoredTrack>(Item) : undefined;
  }

  async markReady(userId: string, id: string, facts: ReadyTrackFacts): Promise<StoredTrack | undefined> {
    const { Attributes } = (await conditional(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: trackKey(userId, id),
          UpdateExpression:
            'SET #status = :ready, #format = :format, duration_seconds = :duration, sample_rate = :rate, size_bytes = :size, peaks = :peaks REMOVE #ttl',
          ConditionExpression: 'attribute_exists(PK) AND #status = :pending',
          ExpressionAttributeNames: { '#status': 'status', '#format': 'format', '#ttl': ttlAttribute },
          ExpressionAttributeValues: {
            ':ready': 'ready',
            ':pending': 'pending',
            ':format': facts.format,
            ':duration': facts.duration_seconds,
            ':rate': facts.sample_rate,
            ':size': facts.size_bytes,
            ':peaks': facts.peaks,
          },
          ReturnValues: 'ALL_NEW',
        }),
      ),
    )) ?? { Attributes: undefined };
    return Attributes ? withoutKeys<StoredTrack>(Attributes) : undefined;
  }

  async markDeleted(userId: string, id: string, deletedAt: Date): Promise<StoredTrack | undefined> {
    const { Attributes } = (await conditional(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: trackKey(userId, id),
          // The expiry stays as it is: a ready track has none; a pending one (never a track) is still forgotten.
          UpdateExpression: 'SET #status = :deleted, deleted_at = :at',
          ConditionExpression: 'attribute_exists(PK) AND #status <> :deleted',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':deleted': 'deleted', ':at': deletedAt.toISOString() },
          ReturnValues: 'ALL_NEW',
        }),
      ),
    )) ?? { Attributes: undefined };
    return Attributes ? withoutKeys<StoredTrack>(Attributes) : undefined;
  }

  async setCover(userId: string, id: string, cover: { key: string; type: CoverMediaType }): Promise<StoredTrack | undefined> {
    const { Attributes } = (await conditional(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: trackKey(userId, id),
          UpdateExpression: 'SET cover_key = :key, cover_type = :type',
          ConditionExpression: 'attribute_exists(PK) AND #status = :ready',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':key': cover.key, ':type': cover.type, ':ready': 'ready' },
          ReturnValues: 'ALL_NEW',
        }),
      ),
    )) ?? { Attributes: undefined };
    return Attributes ? withoutKeys<StoredTrack>(Attributes) : undefined;
  }

  /** Only while pending: a complete beside the refusing one may have made it ready (nothing is deleted then). */
  async forgetPending(userId: string, id: string): Promise<void> {
    await conditional(
      this.db.send(
        new DeleteCommand({
          TableName: this.tableName,
          Key: trackKey(userId, id),
          ConditionExpression: '#status = :pending',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':pending': 'pending' },
        }),
      ),
    );
  }

  async listReady(userId: string): Promise<TrackSummary[]> {
    const items = await queryAll(this.db, {
      TableName: this.tableName,
      KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
      FilterExpression: '#status = :ready',
      ProjectionExpression: summaryProjection.ProjectionExpression,
      ExpressionAttributeNames: { '#pk': 'PK', '#sk': 'SK', '#status': 'status', ...summaryProjection.ExpressionAttributeNames },
      ExpressionAttributeValues: { ':pk': key.user(userId), ':prefix': key.trackPrefix(), ':ready': 'ready' },
      ScanIndexForward: false,
    });
    return items.map((item) => withoutKeys<TrackSummary>(item, ['status']));
  }
}
