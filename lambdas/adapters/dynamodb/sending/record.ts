/**
 * The record: what became of a claimed send, in one transaction on the condition that the recipient is
 * still this claim's (sending, with its token). A send that did not happen releases the capacity the
 * claim reserved; a final status counts on the campaign and moves the cursor on.
 */
import { key } from '../../../../schema/table';
import type { RecordInput } from '../../../ports';
import { counterUpdates } from '../counters';
import { campaignKey, dayKey, monthKey, pitchedKey, recipientKey, sentToKey, tokenKey, type Item } from './items';
import { failedOnly, transaction, update, type NamedItems, type SendingStepTag, type SendingTable, type TransactItem } from './transaction';
import { campaignOutcome, counterAdd, cursorAdvance, cursorAtDailyLimit, cursorWait, mailboxDisconnected } from './updates';
import { followUpPut } from './followUps';

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
      const followUps = input.followUps ?? [];
      const sentTimeline = { GSI1PK: key.sentTimeline(userId), GSI1SK: key.sentTimeSort(nowIso, campaignId, position) };
      return run<string>(
        {
          recipient: recipient(
            [
              '#status = :sent',
              'sent_at = :now',
              'message_id = :messageId',
              'provider_message_id = :providerId',
              'thread_id = :threadId',
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
              ':providerId': input.sent.providerMessageId,
              ':threadId': input.sent.threadId,
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
          // The contact's card lists the emails sent to it from these (a put: the same key again changes nothing).
          sentTo: {
            Put: {
              TableName: tableName,
              Item: {
                ...sentToKey(userId, input.contactId, nowIso, campaignId, position),
                entity: 'sent_to',
                campaign_id: campaignId,
                position,
                sent_at: nowIso,
              },
            },
          },
          // The PITCHED item was put by the claim and stays: now sent (the pipeline's Pitched), while still this claim's.
          pitched: update(tableName, pitchedKey(userId, input.trackKey, input.addressId), {
            set: ['sent_at = :now'],
            remove: ['awaiting_send'],
            condition: 'campaign_id = :campaign AND #position = :position',
            names: { '#position': 'position' },
            values: { ':now': nowIso, ':campaign': campaignId, ':position': position },
          }),
          // The token gets the links as sent.
          token: update(tableName, tokenKey(token), { set: ['links = :links'], condition: 'attribute_exists(PK)', values: { ':links': input.links } }),
          cursor: cursorAdvance(tableName, userId, head, input.completes, { sent: true }),
          // The email's follow-up steps, each waiting until its day (issue 27 §1).
          ...(Object.fromEntries(followUps.map((step) => [`followUp${step.step}`, followUpPut(tableName, userId, step)])) as Record<string, TransactItem>),
        },
        // A sent email is always recorded: a step already put (a record that ran before) is left as it is,
        // and a PITCHED item another campaign's claim took meanwhile (send again) is that claim's to move.
        ['cursor', 'pitched', ...followUps.map((step) => `followUp${step.step}`)],
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
            // A pitch sent before (send again) keeps its item: its pipeline facts and marks are the track's history.
            Delete: {
              TableName: tableName,
              Key: pitchedKey(userId, input.trackKey, input.addressId),
              ConditionExpression: 'campaign_id = :campaign AND #position = :position AND attribute_not_exists(sent_at)',
              ExpressionAttributeNames: { '#position': 'position' },
              ExpressionAttributeValues: { ':campaign': campaignId, ':position': position },
            },
          },
        },
        ['cursor', 'pitched'],
      );
    case 'daily_limit': {
      // Gmail's limit is a rolling 24 hours: the whole mailbox waits until `until` (an hour, backing off), not until Pacific midnight.
      return run({
        recipient: recipient(['#status = :pending', 'retry_at = :null'], { ':pending': 'pending', ':null': null }),
        ...release(),
        cursor: cursorAtDailyLimit(tableName, userId, input.until),
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
        ...mailboxDisconnected(tableName, userId, now),
      });
  }
}
