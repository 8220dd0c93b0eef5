/**
 * The claim: one transaction that makes a recipient this tick's send, or changes nothing. It takes the
 * recipient (pending, its retry due), moves the cursor's due time to the next slot (still the tick's,
 * the head where it was read, the last claim's slot at least one interval before this one),
 * reserves today's and this month's capacity, checks the address is not unsubscribed, marks the campaign
 * sending, puts the email's tracking token and holds the address for the track (PITCHED). The limits are
 * the plan's as read before the email was written: the claim holds only while the profile's tier is
 * still that one, so a downgrade in between never lets an email past the new plan's limit.
 */
import type { ClaimInput, ClaimOutcome } from '../../../ports';
import { campaignKey, dayKey, monthKey, pitchedKey, profileKey, recipientKey, senderKey, tokenKey, unsubscribeKey } from './items';
import { failedOnly, stringAttribute, transaction, update, type SendingTable } from './transaction';
import { dueSet, headStill } from './updates';

export async function claimRecipient({ db, tableName, options }: SendingTable, userId: string, input: ClaimInput): Promise<ClaimOutcome> {
  const { tickDueAt, now, head, token, addressId, trackKey, sendAgain, dailyLimit, monthlyLimit, tier, slot, nextDueAt } = input;
  const { campaignId, position } = head;
  const nowIso = now.toISOString();
  const due = dueSet(userId, nextDueAt);
  const still = headStill(head);
  const result = await transaction(
    db,
    { step: 'claim', userId, campaignId, position },
    {
      recipient: update(tableName, recipientKey(campaignId, position), {
        set: ['#status = :sending', 'claimed_at = :now', '#token = :token'],
        condition: '#status = :pending AND (attribute_not_exists(retry_at) OR attribute_type(retry_at, :nullType) OR retry_at <= :now)',
        names: { '#status': 'status', '#token': 'token' },
        values: { ':sending': 'sending', ':now': nowIso, ':token': token.token, ':pending': 'pending', ':nullType': 'NULL' },
      }),
      cursor: update(tableName, senderKey(userId), {
        set: [...due.set, 'last_slot = :slot'],
        condition: `due_at = :tick AND ${still.condition} AND (attribute_not_exists(last_slot) OR last_slot <= :paceFloor)`,
        names: { ...due.names, ...still.names },
        values: {
          ...due.values,
          ...still.values,
          ':slot': slot.toISOString(),
          ':tick': tickDueAt,
          ':paceFloor': new Date(slot.getTime() - options.intervalMs).toISOString(),
        },
      }),
      day: update(tableName, dayKey(userId, now), {
        set: ['entity = if_not_exists(entity, :counter)'],
        add: ['sent :one'],
        condition: 'attribute_not_exists(sent) OR sent < :limit',
        values: { ':one': 1, ':limit': dailyLimit, ':counter': 'counter' },
      }),
      month: update(tableName, monthKey(userId, now), {
        set: ['entity = if_not_exists(entity, :counter)'],
        add: ['sent :one'],
        ...(monthlyLimit === null ? {} : { condition: 'attribute_not_exists(sent) OR sent < :limit' }),
        values: { ':one': 1, ':counter': 'counter', ...(monthlyLimit === null ? {} : { ':limit': monthlyLimit }) },
      }),
      // Every profile is stored with its tier (a new one's is Free): a missing profile fails this too.
      profile: {
        ConditionCheck: {
          TableName: tableName,
          Key: profileKey(userId),
          ConditionExpression: 'tier = :tier',
          ExpressionAttributeValues: { ':tier': tier },
        },
      },
      unsubscribed: { ConditionCheck: { TableName: tableName, Key: unsubscribeKey(userId, addressId), ConditionExpression: 'attribute_not_exists(PK)' } },
      campaign: update(tableName, campaignKey(userId, campaignId), {
        // A scheduled campaign is sending from its first claim on.
        set: ['#status = :sending', 'next_send_at = :next'],
        condition: 'sending_status = :sending',
        names: { '#status': 'status' },
        values: { ':sending': 'sending', ':next': nextDueAt.toISOString() },
      }),
      token: {
        Put: {
          TableName: tableName,
          Item: { ...tokenKey(token.token), entity: 'token', ...token },
          // A retry puts the same token again (its links as sent this time); never another email's token.
          ConditionExpression: 'attribute_not_exists(PK) OR (campaign_id = :campaign AND #position = :position)',
          ExpressionAttributeNames: { '#position': 'position' },
          ExpressionAttributeValues: { ':campaign': campaignId, ':position': position },
        },
      },
      pitched: {
        // At most one email of a track per address (DESIGN §4, §6): this position's claim holds the
        // address for the track (a retry of it puts the same item again). Another position of this
        // campaign never gets it; another campaign's pitch is fine only when the artist insisted.
        Put: {
          TableName: tableName,
          Item: { ...pitchedKey(userId, trackKey, addressId), entity: 'pitched', campaign_id: campaignId, position, pitched_at: nowIso },
          ConditionExpression: sendAgain
            ? 'attribute_not_exists(PK) OR campaign_id <> :campaign OR #position = :position'
            : 'attribute_not_exists(PK) OR (campaign_id = :campaign AND #position = :position)',
          ExpressionAttributeNames: { '#position': 'position' },
          ExpressionAttributeValues: { ':campaign': campaignId, ':position': position },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      },
    },
  );
  if (result.ok) return 'claimed';
  // Only the recipient's own checks failed: it is skipped. Anything else (the plan too) changed since the read.
  if (!failedOnly(result.failed, ['unsubscribed', 'pitched'])) return 'conflict';
  if (result.failed.has('unsubscribed')) return 'unsubscribed';
  // The address is held for the track: by another position of this campaign, or by another campaign.
  return stringAttribute(result.oldItems.pitched?.campaign_id) === campaignId ? 'duplicate' : 'already_pitched';
}
