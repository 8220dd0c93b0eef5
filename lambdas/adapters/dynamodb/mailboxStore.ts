/**
 * The connected mailbox (`USER#<sub>` / `MAILBOX`): address, account type, daily limit and the sealed
 * refresh token (never returned by any route). Connect and disconnect write the MAILBOX item and the
 * profile's `gmail_*` fields in one transaction, so the profile never says "connected" without a
 * mailbox to send with, or the reverse.
 */
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { key } from '../../../schema/table';
import { mailboxAccount } from '../../core/plans';
import type { MailboxStore, StoredMailbox } from '../../ports';

/** The MAILBOX item's attributes: exactly StoredMailbox's fields (the sender reads them by these names). */
const MAILBOX_FIELDS = ['email', 'accountType', 'dailyLimit', 'sealedRefreshToken', 'connectedAt'] as const satisfies readonly (keyof StoredMailbox)[];

/** A disconnect racing a reconnect: read again and retry this many times before giving up. */
const DISCONNECT_ATTEMPTS = 3;

export class DynamoMailboxStore implements MailboxStore {
  constructor(
    readonly db: DynamoDBDocumentClient,
    readonly tableName: string,
  ) {}

  private mailboxKey(userId: string) {
    return { PK: key.user(userId), SK: key.mailbox() };
  }

  private profileKey(userId: string) {
    return { PK: key.user(userId), SK: key.profile() };
  }

  async get(userId: string): Promise<StoredMailbox | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: this.mailboxKey(userId), ConsistentRead: true }));
    if (!Item) return undefined;
    return Object.fromEntries(MAILBOX_FIELDS.map((field) => [field, Item[field]])) as unknown as StoredMailbox;
  }

  async connect(userId: string, mailbox: StoredMailbox): Promise<void> {
    const item = Object.fromEntries(MAILBOX_FIELDS.map((field) => [field, mailbox[field]]));
    await this.db.send(
      new TransactWriteCommand({
        TransactItems: [
          // A reconnect replaces the previous mailbox (and its token) outright.
          { Put: { TableName: this.tableName, Item: { ...this.mailboxKey(userId), entity: 'mailbox', ...item } } },
          {
            Update: {
              TableName: this.tableName,
              Key: this.profileKey(userId),
              UpdateExpression: 'SET gmail_connected = :connected, gmail_email = :email, gmail_daily_limit = :limit, gmail_account_type = :type',
              // No profile, no connection: the transaction fails and nothing is stored.
              ConditionExpression: 'attribute_exists(PK)',
              ExpressionAttributeValues: { ':connected': true, ':email': mailbox.email, ':limit': mailbox.dailyLimit, ':type': mailbox.accountType },
            },
          },
        ],
      }),
    );
  }

  async disconnect(userId: string): Promise<StoredMailbox | undefined> {
    // Without a mailbox the profile reads as a free account with the default limit again.
    const none = mailboxAccount(null);
    const profileUpdate = {
      TableName: this.tableName,
      Key: this.profileKey(userId),
      UpdateExpression: 'SET gmail_connected = :connected, gmail_email = :email, gmail_daily_limit = :limit, gmail_account_type = :type',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeValues: { ':connected': false, ':email': null, ':limit': none.dailyLimit, ':type': none.accountType },
    };
    for (let attempt = 1; ; attempt++) {
      const stored = await this.get(userId);
      try {
        await this.db.send(
          new TransactWriteCommand({
            TransactItems: [
              stored
                ? {
                    // Only the mailbox just read: a reconnect in between is not deleted unseen.
                    Delete: {
                      TableName: this.tableName,
                      Key: this.mailboxKey(userId),
                      ConditionExpression: 'sealedRefreshToken = :token',
                      ExpressionAttributeValues: { ':token': stored.sealedRefreshToken },
                    },
                  }
                : {
                    ConditionCheck: { TableName: this.tableName, Key: this.mailboxKey(userId), ConditionExpression: 'attribute_not_exists(PK)' },
                  },
              { Update: profileUpdate },
            ],
          }),
        );
        return stored;
      } catch (error) {
        // The mailbox changed since it was read (a reconnect): read it again.
        if (!(error instanceof TransactionCanceledException)) throw error;
        if (attempt >= DISCONNECT_ATTEMPTS) throw error;
      }
    }
  }
}
