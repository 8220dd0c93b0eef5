/**
 * The one DynamoDB table: keys, indexes and TTL. CDK (lib/cloud/data.ts), the local runtime
 * (lib/local/dynamodb.ts) and the tests all build the table from this definition, so the shapes
 * cannot drift. Access patterns and example keys: schema/ACCESS_PATTERNS.md.
 */

export const TABLE_NAME_DEFAULT = 'trackpitch';

export const keys = {
  partition: 'PK',
  sort: 'SK',
} as const;

export interface IndexDefinition {
  name: string;
  partitionKey: string;
  sortKey: string;
  /** Why the index exists: one line, mirrored in ACCESS_PATTERNS.md. */
  purpose: string;
}

export const indexes = {
  /** Secondary lookups by a second key, e.g. an entity by its normalised email. */
  byLookup: {
    name: 'GSI1',
    partitionKey: 'GSI1PK',
    sortKey: 'GSI1SK',
    purpose: 'look items up by a second key (email, status, time) within a partition',
  },
  /** Sparse: only per-user sending cursors with pending work carry these attributes. */
  due: {
    name: 'DUE',
    partitionKey: 'DuePK',
    sortKey: 'DueSK',
    purpose: 'sending cursors due at or before now, sharded, read by the dispatcher every minute',
  },
} as const satisfies Record<string, IndexDefinition>;

/** Epoch seconds; DynamoDB deletes the item some time after it passes (OAuth state, Stripe events, written emails). */
export const ttlAttribute = 'expiresAt';

/** Number of DUE shards: spreads the dispatcher's hot partition. */
export const DUE_SHARDS = 4;

export const allIndexes: IndexDefinition[] = Object.values(indexes);

/** Every key attribute is a string; listed once for CreateTable and CDK. */
export const keyAttributes: string[] = [keys.partition, keys.sort, ...allIndexes.flatMap((index) => [index.partitionKey, index.sortKey])];

/** Key builders: the only place key strings are spelled. */
export const key = {
  user: (userId: string) => `USER#${userId}`,
  /** A network client's allowances on public routes (issue 26 §2): `CLIENT#<core clientKey, a hash>`. */
  client: (clientKey: string) => `CLIENT#${clientKey}`,
  profile: () => 'PROFILE',
  /** The user's sending cursor (in the DUE index while work is pending). */
  sender: () => 'SENDER',
  waitlistPartition: () => 'WAITLIST',
  /**
   * A waitlist entry: `ENTRY#<ulid>`. The ULID starts with the submission time, so entries sort
   * oldest first (read descending for newest first), and the key is derived from the id alone.
   */
  waitlistEntry: (id: string) => `ENTRY#${id}`,
  /** Prefix of every waitlist entry's sort key (the guard and counter items do not match it). */
  waitlistEntryPrefix: () => 'ENTRY#',
  /** The guard item that makes one entry per email: `EMAIL#<lower-cased email>`. */
  waitlistEmail: (normalisedEmail: string) => `EMAIL#${normalisedEmail}`,
  /** The counter item of the waitlist (attribute `entries`), kept in the join transaction. */
  waitlistCounter: () => 'COUNTER',
  /** The sparse DUE index: one partition per shard, sorted by due time then user. */
  duePartition: (shard: number) => `DUE#${shard}`,
  dueSort: (dueAt: string, userId: string) => `${dueAt}#${userId}`,
  /** A user's contact: `CONTACT#<addressId>` (lambdas/core/contacts.ts), so one item per email per user. */
  contact: (id: string) => `CONTACT#${id}`,
  contactPrefix: () => 'CONTACT#',
  /** GSI1 partition of a user's contacts, sorted by `contactTimeSort`: the newest-first list. */
  contactTimeline: (userId: string) => `USER#${userId}#CONTACTS`,
  contactTimeSort: (createdAt: string, id: string) => `${createdAt}#${id}`,
  /** An address that unsubscribed from the user's emails: `UNSUB#<addressId>`, an O(1) check at send time. */
  unsubscribe: (id: string) => `UNSUB#${id}`,
  unsubscribePrefix: () => 'UNSUB#',
  /** A resubscribe's record (issue 26): who confirmed the recipient asked to be added back, and when. */
  resubscribed: (id: string, at: string) => `RESUB#${id}#${at}`,
  directoryPartition: () => 'DIRECTORY',
  directoryEntry: (id: string) => `ENTRY#${id}`,
  /** GSI1 partition for finding a directory entry by its lower-cased email (upsert on import). */
  directoryEmailLookup: () => 'DIRECTORY#EMAIL',
  templatePartition: () => 'TEMPLATE',
  /** A user's campaign: `CAMPAIGN#<ulid>`, so `begins_with(SK, CAMPAIGN#)` read descending is newest first. */
  campaign: (id: string) => `CAMPAIGN#${id}`,
  campaignPrefix: () => 'CAMPAIGN#',
  /** A user's own campaign template: `TEMPLATE#<ulid>` (system templates live under `PK = TEMPLATE`). */
  userTemplate: (id: string) => `TEMPLATE#${id}`,
  userTemplatePrefix: () => 'TEMPLATE#',
  /** A campaign's own partition: per-recipient items (the writer's emails now, the send queue later). */
  campaignPartition: (id: string) => `CAMPAIGN#${id}`,
  /** An email the writer wrote for one recipient: keyed by a hash of the writer's request. */
  writtenEmail: (requestKey: string) => `WRITTEN#${requestKey}`,
  /** A saved recipient list of the Compose picker: `LIST#<ulid>`, newest first read descending. */
  contactList: (id: string) => `LIST#${id}`,
  contactListPrefix: () => 'LIST#',
  /** An artist's uploaded track (issue 16): `TRACK#<ulid>`, newest first read descending; kept when deleted (status). */
  track: (id: string) => `TRACK#${id}`,
  trackPrefix: () => 'TRACK#',

  // ---- The local billing twin (issue 14; local runtime only) ------------------------------------
  /**
   * One object of the local billing twin (lambdas/adapters/local-billing): a customer `cus_…`, a
   * checkout session `cs_…` or a portal session `bps_…`, each `LOCALBILLING#<id>` / `OBJECT`; a
   * customer's subscriptions live in its partition as `SUB#<id>`.
   */
  localBillingPartition: (id: string) => `LOCALBILLING#${id}`,
  localBillingObject: () => 'OBJECT',
  localBillingSubscription: (id: string) => `SUB#${id}`,
  localBillingSubscriptionPrefix: () => 'SUB#',
  /** A customer's Checkout Session, listed in its partition (`CHECKOUT#<cs id>`, TTL as the session's) so its open ones can be expired. */
  localBillingCheckout: (id: string) => `CHECKOUT#${id}`,
  localBillingCheckoutPrefix: () => 'CHECKOUT#',
  /** The twin's customer made for a user (`LOCALBILLING#USER#<sub>` / `CUSTOMER`): createCustomer is idempotent per user, as Stripe's idempotency key makes it. */
  localBillingUser: (userId: string) => `LOCALBILLING#USER#${userId}`,
  localBillingUserCustomer: () => 'CUSTOMER',

  // ---- Sending (issue 6) -------------------------------------------------------------------------
  /** The user's connected mailbox: address, account type, the encrypted refresh token (server only). */
  mailbox: () => 'MAILBOX',
  /** A pending OAuth consent: `OAUTHSTATE#<nonce>` / `OAUTHSTATE`, deleted on use (single use), TTL. */
  oauthStatePartition: (nonce: string) => `OAUTHSTATE#${nonce}`,
  oauthStateSort: () => 'OAUTHSTATE',
  /**
   * One recipient of a sending campaign = its queue item and, once sent, its email log:
   * `CAMPAIGN#<id>` / `RCPT#<position>`. Positions are 0-based and zero-padded (sortable), in the order
   * the send request queued them, so the sender's next item is a key it can compute (no query).
   */
  recipient: (position: number) => `RCPT#${String(position).padStart(6, '0')}`,
  recipientPrefix: () => 'RCPT#',
  /**
   * A recipient's listen window (issue 16): `CAMPAIGN#<id>` / `LISTENRATE#<position>#<window>` counts the
   * play sessions of an hour (`H…`) or the counted events of a minute (`M…`); TTL after the window.
   */
  listenRate: (position: number, window: string) => `LISTENRATE#${String(position).padStart(6, '0')}#${window}`,
  /**
   * An allowance count in one fixed window (issue 26): `USER#<sub>` / `ALLOW#<kind>#<window>`, e.g.
   * the AI previews of an hour (`H…`) or a Pacific month (`M…`), or `CLIENT#<hash>` / `ALLOW#<kind>#<window>`,
   * a client's waitlist joins of an hour or listen beacons of a minute (`Min…`) and hour; TTL after the window.
   */
  allowance: (kind: string, window: string) => `ALLOW#${kind}#${window}`,
  /** GSI1 partition of a user's sent emails, sorted by `<sent at>#<campaign id>#<position>`: recent sends. */
  sentTimeline: (userId: string) => `USER#${userId}#SENT`,
  sentTimeSort: (sentAt: string, campaignId: string, position: number) => `${sentAt}#${campaignId}#${String(position).padStart(6, '0')}`,
  /**
   * An email sent to one of the user's addresses (issue 27): `USER#<sub>` / `SENTTO#<addressId>#<sent at>#<campaign id>#<position>`,
   * written with the send's record, so the contact's card lists the emails sent to it with one query.
   */
  sentTo: (addressId: string, sentAt: string, campaignId: string, position: number) =>
    `SENTTO#${addressId}#${sentAt}#${campaignId}#${String(position).padStart(6, '0')}`,
  sentToPrefix: (addressId: string) => `SENTTO#${addressId}#`,
  /** Emails counted against the mailbox's daily limit on one Pacific date (YYYY-MM-DD). */
  dayCounter: (pacificDate: string) => `DAY#${pacificDate}`,
  /** Emails counted against the plan's monthly limit in one Pacific month (YYYY-MM). */
  monthCounter: (pacificMonth: string) => `MONTH#${pacificMonth}`,
  /** A sent email's public token (unsubscribe, open pixel, click links): `TOKEN#<token>` / `TOKEN`. */
  tokenPartition: (token: string) => `TOKEN#${token}`,
  tokenSort: () => 'TOKEN',
  /** This artist already pitched this track to this address: `PITCHED#<track key>#<addressId>` (one query per track). */
  pitched: (trackKey: string, addressId: string) => `PITCHED#${trackKey}#${addressId}`,
  /** Every address this artist sent one track to: `begins_with(SK, PITCHED#<track key>#)`. */
  pitchedPrefix: (trackKey: string) => `PITCHED#${trackKey}#`,
  /** Every track's: the pipeline's Tracks page and a contact's tracks (issue 28 §1). */
  pitchedAllPrefix: () => 'PITCHED#',
  /**
   * GSI1 partition of a user's to-dos (issue 28 §1): only a PITCHED item whose answer is a to-do answer
   * carries it (sparse), sorted by `todoAnswerSort`, so the Dashboard reads the to-dos, not every pitch.
   */
  todoAnswers: (userId: string) => `USER#${userId}#TODOS`,
  todoAnswerSort: (answeredAt: string, trackKey: string, addressId: string) => `${answeredAt}#${trackKey}#${addressId}`,
  /**
   * A follow-up step waiting to go (issue 27 §1): `FOLLOWUP#<due at>#<campaign id>#<position>#<step>` in
   * the user's partition, so the user's earliest step is the first of `begins_with(SK, FOLLOWUP#)`.
   */
  followUp: (dueAt: string, campaignId: string, position: number, step: number) =>
    `FOLLOWUP#${dueAt}#${campaignId}#${String(position).padStart(6, '0')}#${step}`,
  followUpPrefix: () => 'FOLLOWUP#',
  /** A message the local mailbox "sent" (local runtime only): `OUTBOX#<ulid>`, newest first read descending. */
  outboxMessage: (id: string) => `OUTBOX#${id}`,
  outboxPrefix: () => 'OUTBOX#',

  // ---- Counters (issue 15, DESIGN §11; lambdas/core/counters.ts names the attributes) -------------
  /** The user's totals (`USER#<sub>` / `STATS`): emails_* counted once per email, *_count every open or click. */
  statsTotals: () => 'STATS',
  /** The user's email counters of one Pacific day (`STATS#YYYY-MM-DD`): a year is one Query `BETWEEN STATS#<from> AND STATS#<to>`. */
  statsDay: (pacificDate: string) => `STATS#${pacificDate}`,
  statsDayPrefix: () => 'STATS#',
  /** Clicks on one link of a campaign (`CAMPAIGN#<id>` / `LINK#<index>`, zero-padded): `begins_with(SK, LINK#)`. */
  linkClicks: (index: number) => `LINK#${String(index).padStart(6, '0')}`,
  linkClicksPrefix: () => 'LINK#',

  // ---- Billing (issue 14) ------------------------------------------------------------------------
  /** The user's billing provider customer id (`USER#<id>` / `BILLING#CUSTOMER`), created once before the first Checkout. */
  billingCustomer: () => 'BILLING#CUSTOMER',
  /** The other way: the user a provider customer belongs to (`BILLINGCUSTOMER#<customer id>` / `BILLINGCUSTOMER`). */
  customerPartition: (customerId: string) => `BILLINGCUSTOMER#${customerId}`,
  customerSort: () => 'BILLINGCUSTOMER',
  /** A webhook event already applied (`BILLINGEVENT#<event id>` / `BILLINGEVENT`, TTL): each event is applied once. */
  billingEventPartition: (eventId: string) => `BILLINGEVENT#${eventId}`,
  billingEventSort: () => 'BILLINGEVENT',
} as const;

/** The CreateTable input used by the local runtime and the integration tests. */
export function createTableInput(tableName: string) {
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST' as const,
    AttributeDefinitions: keyAttributes.map((name) => ({ AttributeName: name, AttributeType: 'S' as const })),
    KeySchema: [
      { AttributeName: keys.partition, KeyType: 'HASH' as const },
      { AttributeName: keys.sort, KeyType: 'RANGE' as const },
    ],
    GlobalSecondaryIndexes: allIndexes.map((index) => ({
      IndexName: index.name,
      KeySchema: [
        { AttributeName: index.partitionKey, KeyType: 'HASH' as const },
        { AttributeName: index.sortKey, KeyType: 'RANGE' as const },
      ],
      Projection: { ProjectionType: 'ALL' as const },
    })),
  };
}
