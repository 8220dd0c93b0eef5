/**
 * The record: what became of a claimed send, in one transaction on the condition that the recipient is
 * still this claim's (sending, with its token). A send that did not happen releases the capacity the
 * claim reserved; a final status counts on the campaign and moves the cursor on.
 */
import { key } from '../../../../schema/table';
import type { RecordInput } from '../../../ports';
import { counterUpdates } from '../counters';
import { campaignKey, dayKey, mailboxKey, monthKey, pitchedKey, profileKey, recipientKey, senderKey, tokenKey, type Item } from './items';
import { failedOnly, transaction, update, type NamedItems, type SendingStepTag, type SendingTable, type TransactItem } from './transaction';
import { campaignOutcome, counterAdd, cursorAdvance, cursorWait, dueSet } from './updates';

export async function recordSend({ db, tableName }: SendingTable, userId: string, input: RecordInput): Promise<void> {
  const { head, token, claimedAt, now } = input;
  const { campaignId, position } = head;
  const nowIso = now.toISOString();
  const recipient = (set: string[], values: Item, names: Record<string, string> = {}) =>
    update(tableName, recipientKey(campaignId, position), {
      set,
      condition: '#status = :claimed AND #token = :token',
      names: { '#status': 'status', '#token': 'token', ...names },
      values: { ...values, ':claimed': 'sending', ':token': token },
    });
  /** The claim's reservation of today's and this month's capacity given back. */
  const release = () => ({ day: counterAdd(tableName, dayKey(userId, claimedAt), -1), month: counterAdd(tableName, monthKey(userId, claimedAt), -1) });
  const dueAt = (at: Date) => update(tableName, senderKey(userId), { ...dueSet(userId, at), condition: 'attribute_exists(PK)' });

  /**
   * Runs the record; when only `optional` items failed (the cursor's move: paused meanwhile, the entry
   * is gone; the PITCHED delete: the item is no longer this recipient's), again without them.
   */
  const tag: SendingStepTag = { step: 'record', userId, campaignId, position, record: input.kind };
  const run = async <N extends string>(items: NamedItems<N>, optional: readonly NoInfer<N>[] = []) => {
    const result = await transaction(db, tag, items);
    // A required item failed: the recipient is no longer this claim's (recorded unknown meanwhile), nothing to record.
    if (result.ok || !failedOnly(result.failed, optional)) return;
    const retried: Record<N, TransactItem | undefined> = { ...items };
    for (const name of result.failed) retried[name] = undefined;
    // A failed retry means the same: the recipient is no longer this claim's.
    await transaction(db, tag, retried);
  };

  switch (input.kind) {
    case 'sent': {
      const sentTimeline = { GSI1PK: key.sentTimeline(userId), GSI1SK: key.sentTimeSort(nowIso, campaignId, position) };
      return run(
        {
          recipient: recipient(
            [
              '#status = :sent',
              'sent_at = :now',
              'message_id = :messageId',
              'subject = :subject',
              'html = :html',
              '#text = :text',
              'GSI1PK = :g1pk',
              'GSI1SK = :g1sk',
              'detail = :null',
              'retry_at = :null',
            ],
            {
              ':sent': 'sent',
              ':now': nowIso,
              ':messageId': input.messageId,
              ':subject': input.subject,
              ':html': input.html,
              ':text': input.text,
              ':g1pk': sentTimeline.GSI1PK,
              ':g1sk': sentTimeline.GSI1SK,
              ':null': null,
            },
            // `text` is a reserved word.
            { '#text': 'text' },
          ),
          campaign: campaignOutcome(
            tableName,
            userId,
            campaignId,
            'emails_sent',
            input.completes,
            now,
            input.completes ? [] : ['next_send_at = :nextDue'],
            input.completes ? {} : { ':nextDue': input.nextDueAt.toISOString() },
          ),
          // The user's counters move with the log, in this transaction (its condition is the claim's).
          ...counterUpdates(tableName, userId, now, { emails_sent: 1 }),
          // The PITCHED item was put by the claim and stays; the token gets the links as sent.
          token: update(tableName, tokenKey(token), { set: ['links = :links'], condition: 'attribute_exists(PK)', values: { ':links': input.links } }),
          cursor: cursorAdvance(tableName, userId, head, input.completes, { sent: true }),
        },
        ['cursor'],
      );
    }
    case 'retry':
      return run(
        {
          recipient: recipient(['#status = :pending', 'attempts = :attempts', 'retry_at = :retryAt', 'detail = :detail'], {
            ':pending': 'pending',
            ':attempts': input.attempts,
            ':retryAt': input.retryAt.toISOString(),
            ':detail': input.detail,
          }),
          ...release(),
          // The campaign moves on; this recipient waits alone (paused meanwhile: it stays pending with its time).
          cursor: cursorWait(tableName, userId, head, input.retryAt, input.hasWaiting),
        },
        ['cursor'],
      );
    case 'failed':
      return run(
        {
          recipient: recipient(['#status = :failed', 'attempts = :attempts', 'detail = :detail', 'retry_at = :null', 'retryable = :retryable'], {
            ':failed': 'failed',
            ':attempts': input.attempts,
            ':detail': input.detail,
            ':null': null,
            ':retryable': input.retryable,
          }),
          ...release(),
          campaign: campaignOutcome(tableName, userId, campaignId, 'emails_failed', input.completes, now),
          cursor: cursorAdvance(tableName, userId, head, input.completes),
          pitched: {
            // Never sent: the claim's hold on the address for this track goes, so a later campaign may pitch it.
            Delete: {
              TableName: tableName,
              Key: pitchedKey(userId, input.trackKey, input.addressId),
              ConditionExpression: 'campaign_id = :campaign AND #position = :position',
              ExpressionAttributeNames: { '#position': 'position' },
              ExpressionAttributeValues: { ':campaign': campaignId, ':position': position },
            },
          },
        },
        ['cursor', 'pitched'],
      );
    case 'daily_limit': {
      // Gmail's limit is a rolling 24 hours: the whole mailbox waits until `until` (an hour, backing off), not until Pacific midnight.
      const due = dueSet(userId, input.until);
      return run({
        recipient: recipient(['#status = :pending', 'retry_at = :null'], { ':pending': 'pending', ':null': null }),
        ...release(),
        cursor: update(tableName, senderKey(userId), {
          set: due.set,
          add: ['daily_limit_refusals :one'],
          condition: 'attribute_exists(PK)',
          names: due.names,
          values: { ...due.values, ':one': 1 },
        }),
        campaign: update(tableName, campaignKey(userId, campaignId), {
          set: ['next_send_at = :until'],
          condition: 'attribute_exists(PK)',
          values: { ':until': input.until.toISOString() },
        }),
      });
    }
    case 'auth':
      // The queue read at the tick's start may be out of date (a campaign resumed since), so the
      // cursor is left as it is and due at `now`: the next step reads it again, finds no mailbox and
      // pauses every campaign on it (pauseAll). Resume and a first batch check the mailbox, so none
      // joins the cursor after this.
      return run({
        recipient: recipient(['#status = :pending', 'retry_at = :null'], { ':pending': 'pending', ':null': null }),
        ...release(),
        cursor: dueAt(now),
        profile: update(tableName, profileKey(userId), { set: ['gmail_connected = :false'], condition: 'attribute_exists(PK)', values: { ':false': false } }),
        // The refresh token is dead: the mailbox is disconnected (connect again in Settings).
        mailbox: { Delete: { TableName: tableName, Key: mailboxKey(userId) } },
      });
  }
}
