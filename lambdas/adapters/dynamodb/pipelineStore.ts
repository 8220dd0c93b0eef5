/**
 * The pitch pipeline's reads and the artist's writes (issue 28 §1, DESIGN §16; schema/ACCESS_PATTERNS.md
 * "pipeline"). Everything is the user's PITCHED items (`USER#<sub>` / `PITCHED#<track key>#<addressId>`),
 * written by the claim and moved by each event in its own transaction (pitchedEvents.ts):
 *  - a track's board is one Query of `begins_with(SK, PITCHED#<track key>#)` (500 contacts fit one page);
 *  - the Tracks page and a contact's tracks read every PITCHED item of the user, projected (one Query,
 *    paged; a contact's tracks filtered on the server);
 *  - the to-dos are one Query of the sparse GSI1 partition `USER#<sub>#TODOS`, which only the items whose
 *    answer is a to-do answer are in (the answer puts them there: pitchedEvents.ts todoIndexKeys), filtered
 *    on not done: the Dashboard reads the few to-dos, never every pitch sent;
 *  - the artist's mark and a to-do done are each one conditional UpdateItem on an item that exists.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { PipelineMark } from '../../../schema/api/pipeline';
import { indexes, key } from '../../../schema/table';
import { PIPELINE_ITEM_FIELDS, pipelineItemOf, type PipelineItem } from '../../core/pipeline';
import type { PipelineStore } from '../../ports';
import { projectionOf, queryAll } from './query';

/** What the reads take of a PITCHED item: its fields, and the keys (older items carry their track and address only there). */
const itemProjection = projectionOf(['PK', 'SK', ...PIPELINE_ITEM_FIELDS]);

export class DynamoPipelineStore implements PipelineStore {
  constructor(
    readonly db: DynamoDBDocumentClient,
    readonly tableName: string,
  ) {}

  track(userId: string, trackKey: string): Promise<PipelineItem[]> {
    return this.pitched(userId, key.pitchedPrefix(trackKey));
  }

  all(userId: string): Promise<PipelineItem[]> {
    return this.pitched(userId, key.pitchedAllPrefix());
  }

  async openTodos(userId: string): Promise<PipelineItem[]> {
    // GSI1 projects every attribute (schema/table.ts, lib/cloud/data.ts): the index read is the item.
    const items = await queryAll(this.db, {
      TableName: this.tableName,
      IndexName: indexes.byLookup.name,
      KeyConditionExpression: 'GSI1PK = :pk',
      FilterExpression: 'attribute_not_exists(todo_done_at)',
      ProjectionExpression: itemProjection.ProjectionExpression,
      ExpressionAttributeNames: itemProjection.ExpressionAttributeNames,
      ExpressionAttributeValues: { ':pk': key.todoAnswers(userId) },
    });
    return items.map(pipelineItemOf);
  }

  async ofAddress(userId: string, addressId: string): Promise<PipelineItem[] | undefined> {
    const [contact, items] = await Promise.all([
      this.db.send(new GetCommand({ TableName: this.tableName, Key: { PK: key.user(userId), SK: key.contact(addressId) }, ProjectionExpression: 'PK' })),
      this.pitched(userId, key.pitchedAllPrefix(), {
        expression: '#address = :address',
        names: { '#address': 'address_id' },
        values: { ':address': addressId },
      }),
    ]);
    return contact.Item ? items : undefined;
  }

  /**
   * The artist's mark, one conditional write on an item that exists. Passed also passes the track
   * (`passed_at`: its follow-ups stop, a later pitch is refused) and is kept apart (`mark_passed_at`);
   * Signed or taking the mark back leaves the track passed only when the contact answered 'Not for us'
   * (`not_for_us_at`), else the pass is stored NULL (read as none everywhere).
   */
  async mark(
    userId: string,
    trackKey: string,
    addressId: string,
    mark: { stage: PipelineMark | 'derived'; note: string | null; on: string },
    now: Date,
  ): Promise<PipelineItem | undefined> {
    const at = now.toISOString();
    const marked = mark.stage !== 'derived';
    const set = marked ? ['mark_stage = :stage', 'mark_note = :note', 'mark_on = :on', 'mark_set_at = :at'] : [];
    const remove = marked ? [] : ['mark_stage', 'mark_note', 'mark_on', 'mark_set_at'];
    if (mark.stage === 'passed') set.push('mark_passed_at = :at', 'passed_at = if_not_exists(not_for_us_at, :at)');
    else {
      set.push('passed_at = if_not_exists(not_for_us_at, :null)');
      remove.push('mark_passed_at');
    }
    const values: Record<string, unknown> = marked ? { ':at': at, ':stage': mark.stage, ':note': mark.note, ':on': mark.on } : {};
    if (mark.stage !== 'passed') values[':null'] = null;
    const expression = [`SET ${set.join(', ')}`, remove.length > 0 ? `REMOVE ${remove.join(', ')}` : ''].filter(Boolean).join(' ');
    return this.updateExisting(userId, trackKey, addressId, expression, values);
  }

  todo(userId: string, trackKey: string, addressId: string, done: boolean, now: Date): Promise<PipelineItem | undefined> {
    return done
      ? this.updateExisting(userId, trackKey, addressId, 'SET todo_done_at = :at', { ':at': now.toISOString() })
      : this.updateExisting(userId, trackKey, addressId, 'REMOVE todo_done_at');
  }

  /** One conditional UpdateItem of a PITCHED item; undefined when there is none (never pitched, or another user's). */
  private async updateExisting(
    userId: string,
    trackKey: string,
    addressId: string,
    expression: string,
    values?: Record<string, unknown>,
  ): Promise<PipelineItem | undefined> {
    try {
      const { Attributes } = await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { PK: key.user(userId), SK: key.pitched(trackKey, addressId) },
          UpdateExpression: expression,
          ConditionExpression: 'attribute_exists(PK)',
          ...(values ? { ExpressionAttributeValues: values } : {}),
          ReturnValues: 'ALL_NEW',
        }),
      );
      return Attributes ? pipelineItemOf(Attributes) : undefined;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return undefined;
      throw error;
    }
  }

  /** The user's PITCHED items under `prefix`, all pages, projected. */
  private async pitched(
    userId: string,
    prefix: string,
    filter?: { expression: string; names: Record<string, string>; values: Record<string, unknown> },
  ): Promise<PipelineItem[]> {
    const items = await queryAll(this.db, {
      TableName: this.tableName,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ProjectionExpression: itemProjection.ProjectionExpression,
      ExpressionAttributeNames: { ...itemProjection.ExpressionAttributeNames, ...filter?.names },
      ExpressionAttributeValues: { ':pk': key.user(userId), ':prefix': prefix, ...filter?.values },
      ...(filter ? { FilterExpression: filter.expression } : {}),
    });
    return items.map(pipelineItemOf);
  }
}
