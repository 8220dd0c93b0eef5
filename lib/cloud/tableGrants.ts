/**
 * What each deployed Lambda may do to the one table (DESIGN §15: least privilege per function), in one
 * place for review: the DynamoDB actions its code sends to the table, and the indexes it queries.
 *
 * Read from the code each function bundles: its routes' handlers (lambdas/http/<group>.ts, or the worker)
 * → the stores its composition wires (lambdas/composition/<group>.ts) → the store methods those handlers
 * call → the DocumentClient commands each method sends. Only what runs in AWS counts: the local twins'
 * stores (the billing twin, the local outbox) are never built there. A transaction is authorised item by
 * item, so TransactWriteItems needs PutItem, UpdateItem, DeleteItem or ConditionCheckItem for the kinds of
 * item it holds; BatchGetItem and BatchWriteItem are actions of their own. Nothing scans.
 */
import { indexes } from '../../schema/table';
import type { DeployedLambdaName } from './lambdaEntries';

/** The DynamoDB actions a function may be granted on the table (`dynamodb:<action>`). */
export type TableAction = 'GetItem' | 'BatchGetItem' | 'Query' | 'PutItem' | 'UpdateItem' | 'DeleteItem' | 'ConditionCheckItem' | 'BatchWriteItem';

export type IndexName = (typeof indexes)[keyof typeof indexes]['name'];

export interface TableGrant {
  /** Actions on the table's items (the table's ARN). */
  table: readonly TableAction[];
  /** The indexes it queries: `dynamodb:Query` on each index's ARN, nothing else there. */
  queries: readonly IndexName[];
}

const NONE: TableGrant = { table: [], queries: [] };
const GSI1 = indexes.byLookup.name;
const DUE = indexes.due.name;

/**
 * Each function's grant. The public ones (a route with access 'public') never Scan, DeleteItem or
 * BatchWriteItem; mailbox deletes because its public OAuth callback consumes a single-use state (and a
 * disconnect deletes the mailbox).
 */
export const tableGrants: Record<DeployedLambdaName, TableGrant> = {
  health: NONE,
  // ensureProfile; PATCH; this month's usage (one BatchGetItem).
  profile: { table: ['GetItem', 'PutItem', 'UpdateItem', 'BatchGetItem'], queries: [] },
  // public: join (a transaction of two puts and the counter's update); the spots left (the counter).
  waitlist: { table: ['GetItem', 'PutItem', 'UpdateItem'], queries: [] },
  // The waitlist's list, decisions and notes; the directory import (the email lookup on GSI1, a count, BatchWriteItem).
  admin: { table: ['GetItem', 'Query', 'UpdateItem', 'BatchWriteItem'], queries: [GSI1] },
  // The list (GSI1); add, edit (a move is a delete and a put), delete; CSV import and bulk delete in batches; unsubscribes.
  contacts: { table: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem'], queries: [GSI1] },
  // The directory's partition; which entries are contacts already; the add (contact puts, the allowance and count updates).
  directory: { table: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem'], queries: [] },
  // Drafts (a put with the counters' updates, conditional updates), the list, previews written once (get, put).
  campaigns: { table: ['GetItem', 'Query', 'PutItem', 'UpdateItem'], queries: [] },
  // Templates and saved recipient lists: list, add, delete.
  compose: { table: ['Query', 'PutItem', 'DeleteItem'], queries: [] },
  // Send checks, batches (recipients by BatchWriteItem, the campaign and cursor moved in a transaction that checks the mailbox), pause, resume, retry failed, the sent emails.
  sending: { table: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'ConditionCheckItem', 'BatchWriteItem'], queries: [] },
  // Connect (the OAuth state put, then consumed by a conditional delete; the mailbox put and the profile's update), disconnect.
  mailbox: { table: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem', 'ConditionCheckItem'], queries: [] },
  // public: the token's read; opens and clicks (counter updates); unsubscribe (its record's put and counter updates).
  tracking: { table: ['GetItem', 'PutItem', 'UpdateItem'], queries: [] },
  // Sync, checkout, portal, and the public webhook: the customer link (puts), applied events (get, put), the profile's billing state and the sender's wake (updates).
  billing: { table: ['GetItem', 'PutItem', 'UpdateItem'], queries: [] },
  // Pending upload (put), complete and delete (updates), a refused upload forgotten (delete), My tracks and the campaigns using one (queries).
  tracks: { table: ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'], queries: [] },
  // public: the token, campaign, track and answer reads; plays, progress, downloads and answers are counter updates only.
  listen: { table: ['GetItem', 'UpdateItem'], queries: [] },
  // The user's PITCHED items (queries; the to-dos from their sparse GSI1 partition), a contact's existence (get), the artist's mark and a to-do done (conditional updates).
  pipeline: { table: ['GetItem', 'Query', 'UpdateItem'], queries: [GSI1] },
  // Reads only: the counters, the day items, the sent timeline (GSI1), the campaigns' track names.
  insights: { table: ['GetItem', 'BatchGetItem', 'Query'], queries: [GSI1] },
  // The user's own data: the export's reads (contacts by GSI1, campaigns, their emails); the deletion's reads of the billing
  // customer and each partition's keys, the sending cursor's delete, then every item's delete in batches.
  account: { table: ['GetItem', 'Query', 'DeleteItem', 'BatchWriteItem'], queries: [GSI1] },
  // The due cursors, from the DUE index only.
  dispatcher: { table: [], queries: [DUE] },
  // A tick: the user's items in one BatchGetItem (a pause-all that lost a race reads the cursor again), then transactions of updates, the claim's
  // puts and condition checks, a refused email's released hold and a disconnect's mailbox (deletes); AI emails written once.
  sender: { table: ['GetItem', 'BatchGetItem', 'PutItem', 'UpdateItem', 'DeleteItem', 'ConditionCheckItem'], queries: [] },
  cognitoCustomMessage: NONE,
};
