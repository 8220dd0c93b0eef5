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
import { campaignKey, pitchedKey, recipientKey, tokenKey, unsubscribeKey } from './items';
import { failedOnly, stringAttribute, transaction, update, type SendingTable } from './transaction';
import { claimedSlot, headStill, reservedCapacity } from './updates';

export async function claimRecipient({ db, tableName, options }: SendingTable, userId: string, input: ClaimInput): Promise<ClaimOutcome> {
  const { tickDueAt, now, head, token, addressId, trackKey, sendAgain, pitch, dailyLimit, monthlyLimit, tier, slot, nextDueAt } = input;
  const { campaignId, position } = head;
  const nowIso = now.toISOString();
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
      cursor: claimedSlot({ tableName, userId, tickDueAt, slot, nextDueAt, intervalMs: options.intervalMs, still }),
      ...reservedCapacity({ tableName, userId, now, dailyLimit, monthlyLimit, tier }),
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
        // campaign never gets it; another campaign's pitch is fine only when the artist insisted. An
        // update, not a put: a pitch sent again keeps the address's 'Not for us' to the track
        // (`passed_at`), which stops the track's follow-ups in every campaign (issue 27 §1).
        // It is also the track's pipeline item (issue 28 §1): the claim keeps what the board shows of the
        // track and the contact, and it waits to be sent (Queued) until the record says it went.
        Update: {
          TableName: tableName,
          Key: pitchedKey(userId, trackKey, addressId),
          UpdateExpression: [
            'SET entity = :entity, campaign_id = :campaign, #position = :position, pitched_at = :now, awaiting_send = :true',
            'track_key = :trackKey, address_id = :addressId, track_name = :trackName, track_url = :trackUrl, track_id = :trackId',
            'contact_id = :contactId, #name = :name, #email = :email, #company = :company, label_size = :labelSize',
          ].join(', '),
          ConditionExpression: sendAgain
            ? 'attribute_not_exists(PK) OR campaign_id <> :campaign OR #position = :position'
            : 'attribute_not_exists(PK) OR (campaign_id = :campaign AND #position = :position)',
          ExpressionAttributeNames: { '#position': 'position', '#name': 'name', '#email': 'email', '#company': 'company' },
          ExpressionAttributeValues: {
            ':campaign': campaignId,
            ':position': position,
            ':entity': 'pitched',
            ':now': nowIso,
            ':true': true,
            ':trackKey': trackKey,
            ':addressId': addressId,
            ':trackName': pitch.track_name,
            ':trackUrl': pitch.track_url,
            ':trackId': pitch.track_id,
            ':contactId': pitch.contact_id,
            ':name': pitch.name,
            ':email': pitch.email,
            ':company': pitch.company,
            ':labelSize': pitch.label_size,
          },
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
