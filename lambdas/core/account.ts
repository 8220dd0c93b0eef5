/**
 * The user's own data (issue 26 §3; the Privacy page and the Terms promise both): the data export's files
 * and the account's deletion. Pure over the ports: the handler (lambdas/http/account.ts) wires them.
 */
import { accountMessages } from '../../schema/api/accountValues';
import type { Contact } from '../../schema/api/contacts';
import { csvDocument, csvLines, type CsvColumn } from '../../schema/csv/write';
import type { AccountDataStore, AudioStore, BillingProvider, BillingStore, ExportedCampaign, RecipientRecord, UserDirectory } from '../ports';
import { DomainError } from './errors';
import { RECIPIENT_LISTEN_FIELDS } from './listen';
import { coverUploadKey, trackAudioKey, trackCoverKey, trackUploadKey } from './tracks';

/** The export's contacts file: the contact form's fields, under its labels (the CSV import maps them back). */
export const CONTACT_EXPORT_COLUMNS: readonly CsvColumn<Contact>[] = [
  { header: 'Name', value: (c) => c.name },
  { header: 'Email', value: (c) => c.email },
  { header: 'Label/Company', value: (c) => c.label_name },
  { header: 'Contact Type', value: (c) => c.contact_type },
  { header: 'Position', value: (c) => c.position },
  { header: 'Genre', value: (c) => c.genre },
  { header: 'Website', value: (c) => c.website_url },
  { header: 'Notes', value: (c) => c.notes },
  { header: 'Genre Focus', value: (c) => c.genre_focus },
  { header: 'Time zone', value: (c) => c.time_zone },
  { header: 'Added', value: (c) => c.created_at },
  { header: 'Last Answer', value: (c) => c.last_answer?.answer },
];

export const contactsCsv = (contacts: readonly Contact[]) => csvDocument(csvLines(CONTACT_EXPORT_COLUMNS, contacts));

/** An email as the export gives it: to whom, what was sent, what became of it, and the recipient's answer; no internal bookkeeping. */
const EXPORTED_EMAIL_FIELDS = [
  'position',
  'recipient_name',
  'recipient_email',
  'status',
  'subject',
  'text',
  'html',
  'sent_at',
  'detail',
  'opened_at',
  'last_opened_at',
  'open_count',
  'clicked_at',
  'last_clicked_at',
  'click_count',
  ...RECIPIENT_LISTEN_FIELDS,
] as const satisfies readonly (keyof RecipientRecord)[];

export const exportedEmail = (email: RecipientRecord) => Object.fromEntries(EXPORTED_EMAIL_FIELDS.map((field) => [field, email[field]]));

/** The export's campaigns file, a campaign at a time: a JSON array of each campaign with its `emails`. */
export async function* campaignsJson(campaigns: AsyncIterable<ExportedCampaign>): AsyncGenerator<string> {
  let first = true;
  yield '[';
  for await (const { campaign, emails } of campaigns) {
    yield `${first ? '\n' : ',\n'}${JSON.stringify({ ...campaign, emails: emails.map(exportedEmail) }, null, 2)}`;
    first = false;
  }
  yield first ? ']\n' : '\n]\n';
}

/** The export's files, in archive order (the route zips them). */
export async function accountExportFiles(userId: string, data: Pick<AccountDataStore, 'contacts' | 'campaigns'>) {
  const contacts = contactsCsv(await data.contacts(userId));
  return [
    { name: 'contacts.csv', content: [contacts] },
    { name: 'campaigns.json', content: campaignsJson(data.campaigns(userId)) },
  ];
}

/** Where the data export's zips are stored (the audio bucket's prefix its lifecycle expires a day on). */
export const EXPORTS_PREFIX = 'exports/';
/** One export's zip: under the user's own folder of the prefix, a new id each time. */
export const accountExportKey = (userId: string, exportId: string) => `${EXPORTS_PREFIX}${userId}/${exportId}`;
/** How long the download URL works: the browser follows it at once. */
export const EXPORT_URL_SECONDS = 10 * 60;

/** The confirmation is the account's own address, typed: case and surrounding spaces aside. */
export const confirmsAccount = (typed: string, accountEmail: string) => accountEmail !== '' && typed.trim().toLowerCase() === accountEmail.trim().toLowerCase();

export interface AccountDeletionDeps {
  data: AccountDataStore;
  billing: Pick<BillingStore, 'customerOf'>;
  provider: Pick<BillingProvider, 'liveSubscriptions' | 'cancelSubscription'>;
  audio: Pick<AudioStore, 'delete'>;
  users: UserDirectory;
}

export interface AccountDeletion {
  canceledSubscriptions: number;
  deletedTracks: number;
  linkedItems: number;
  userItems: number;
}

/**
 * Deletes the account, each step idempotent, in an order a retry can resume: the provider's subscription
 * (nothing billed again), the audio (found from the track items), the table's items, and the sign-in last
 * of all, so a crash before it leaves an account that can sign in and ask again. A last sweep of the
 * user's partition takes anything a request in flight wrote meanwhile.
 */
export async function deleteAccount(deps: AccountDeletionDeps, identity: { userId: string; email: string }, confirmEmail: string): Promise<AccountDeletion> {
  if (!confirmsAccount(confirmEmail, identity.email)) throw new DomainError('invalid', accountMessages.confirmEmailMismatch, 'confirm_email_mismatch');
  const { userId } = identity;
  const customerId = await deps.billing.customerOf(userId);
  let canceledSubscriptions = 0;
  if (customerId !== undefined) {
    for (const subscription of await deps.provider.liveSubscriptions(customerId)) {
      if ((await deps.provider.cancelSubscription({ customerId, subscriptionId: subscription.id })) === 'canceled') canceledSubscriptions += 1;
    }
  }
  const trackIds = await deps.data.trackIds(userId);
  await Promise.all(
    trackIds.flatMap((id) =>
      [trackAudioKey(userId, id), trackUploadKey(userId, id), trackCoverKey(userId, id), coverUploadKey(userId, id)].map((key) => deps.audio.delete(key)),
    ),
  );
  const erased = await deps.data.erase(userId);
  await deps.users.deleteUser(userId);
  const swept = await deps.data.erase(userId);
  return {
    canceledSubscriptions,
    deletedTracks: trackIds.length,
    linkedItems: erased.linkedItems + swept.linkedItems,
    userItems: erased.userItems + swept.userItems,
  };
}
