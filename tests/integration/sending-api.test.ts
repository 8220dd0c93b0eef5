/**
 * The sending API end to end: local server → JWT authorizer → lambdas/http/sending.ts → DynamoDB Local,
 * with real cognito-local users. The sending status; the send check's counts; queueing a selection batch
 * by batch (the draft becomes a sending or scheduled campaign with one RCPT item per recipient, a retried
 * batch queues nothing twice); immediate mode refused without capacity; unsubscribed and already-pitched
 * contacts skipped; pause and resume; a campaign's emails; the mailbox requirement; another user's
 * campaign is the same 404 as a missing one on every route; bad bodies are clear 400s.
 */
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { DynamoContactStore } from '../../lambdas/adapters/dynamodb/contactStore';
import { DynamoMailboxStore } from '../../lambdas/adapters/dynamodb/mailboxStore';
import { queryAll } from '../../lambdas/adapters/dynamodb/query';
import { DynamoUnsubscribeStore } from '../../lambdas/adapters/dynamodb/unsubscribeStore';
import { addressId } from '../../lambdas/core/contacts';
import { pitchKey } from '../../lambdas/core/sender';
import { nextPacificMidnight, nextPacificMonthStart, pacificDate, pacificMonth } from '../../lambdas/core/sendingWindow';
import { limitMessages, resetDayWords } from '../../schema/sendingLimits';
import { makeHandler, sendingApiMessages } from '../../lambdas/http/sending';
import { sendingDeps } from '../../lambdas/composition/sending';
import type { RecipientRecord } from '../../lambdas/ports';
import { campaignSummarySchema, type AiTrackInput, type Campaign, type CampaignSummary } from '../../schema/api/campaigns';
import type { Contact } from '../../schema/api/contacts';
import { followUpMessages, NO_FOLLOW_UPS } from '../../schema/api/followUpValues';
import {
  campaignEmailContentSchema,
  campaignEmailListSchema,
  campaignMessages,
  sendBatchSchema,
  sendCheckSchema,
  sendingMessages,
  sendingStatusSchema,
  type SendBatchRequest,
  type SendBatchResult,
} from '../../schema/api/sending';
import { key } from '../../schema/table';
import { call, callAt, createUser, dynamodb, stack, stackConfig, startServerServing, uniqueEmail, type ApiOptions, type TestUser } from './helpers';
import { buildAiTrack } from '../fakes/builders';

const api = (user: TestUser, path: string, options: Omit<ApiOptions, 'token'> = {}) => call(path, { ...options, token: user.idToken });

/** A ULID no campaign has. */
const UNKNOWN_CAMPAIGN = '01KAKZ3R0000000000000000ZZ';

const track = buildAiTrack();

/** The fields of an imported contact besides its name and email. */
const contactFields = { label_name: 'Bulk Records', contact_type: 'Label' as const, position: null, genre: null, website_url: null, notes: null };

async function addContact(user: TestUser, name: string): Promise<Contact> {
  const response = await api(user, '/api/contacts', { method: 'POST', body: { name, email: uniqueEmail('contact'), label_name: `${name} Records` } });
  expect(response.status, JSON.stringify(response.json)).toBe(201);
  return response.json as unknown as Contact;
}

const addContacts = (user: TestUser, names: string[]) => Promise.all(names.map((name) => addContact(user, name)));

async function createCampaign(user: TestUser, trackOverride: Partial<AiTrackInput> = {}): Promise<Campaign> {
  const response = await api(user, '/api/campaigns', {
    method: 'POST',
    body: {
      mode: 'ai',
      track: { ...track, ...trackOverride },
      email_subject: '[TRACK_NAME] for [LABEL_NAME]',
      email_body: 'Hi [CONTACT_NAME],\n\nListen: [TRACK_URL]',
      total_recipients: 1,
    },
  });
  expect(response.status, JSON.stringify(response.json)).toBe(201);
  return response.json as unknown as Campaign;
}

/** A connected mailbox, as the OAuth callback leaves it (MAILBOX item and the profile's gmail_* fields). */
async function connectMailbox(user: TestUser, accountType: 'free' | 'workspace' = 'free') {
  expect((await api(user, '/api/profile')).status).toBe(200);
  await new DynamoMailboxStore(dynamodb().doc, stack().tableName).connect(user.sub, {
    email: user.email,
    accountType,
    dailyLimit: accountType === 'workspace' ? 2000 : 500,
    sealedRefreshToken: 'sealed-test-token',
    connectedAt: new Date().toISOString(),
  });
}

async function connectedUser(): Promise<TestUser> {
  const user = await createUser({ name: 'Nova Reyes' });
  await connectMailbox(user);
  return user;
}

const setProfile = (user: TestUser, fields: Record<string, unknown>) =>
  dynamodb().doc.send(
    new UpdateCommand({
      TableName: stack().tableName,
      Key: { PK: key.user(user.sub), SK: key.profile() },
      UpdateExpression: `SET ${Object.keys(fields)
        .map((_, i) => `#f${i} = :v${i}`)
        .join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(Object.keys(fields).map((field, i) => [`#f${i}`, field])),
      ExpressionAttributeValues: Object.fromEntries(Object.values(fields).map((value, i) => [`:v${i}`, value])),
    }),
  );

const unsubscribe = (user: TestUser, contact: Contact) =>
  new DynamoUnsubscribeStore(dynamodb().doc, stack().tableName).record(user.sub, {
    contact_name: contact.name,
    contact_email: contact.email,
    unsubscribed_at: new Date().toISOString(),
    unsubscribe_reason: null,
    unsubscribe_reason_details: null,
    campaign_id: null,
    track_name: null,
  });

/**
 * What the pipeline writes after a sent email: this artist pitched this track to this address, laid
 * out `PITCHED#<track key>#<addressId>` (one prefix query per track), as the sending store writes it.
 */
const markPitched = (user: TestUser, campaign: Campaign, contact: Contact) =>
  dynamodb().doc.send(
    new PutCommand({
      TableName: stack().tableName,
      Item: { PK: key.user(user.sub), SK: key.pitched(pitchKey(campaign), contact.id), entity: 'pitched' },
    }),
  );

/** A counter the pipeline keeps (`DAY#<Pacific date>` / `MONTH#<Pacific month>`: `{ sent }`). */
const setCounter = (user: TestUser, sk: string, sent: number) =>
  dynamodb().doc.send(new PutCommand({ TableName: stack().tableName, Item: { PK: key.user(user.sub), SK: sk, sent } }));

const send = (user: TestUser, campaignId: string, body: unknown) => api(user, `/api/campaigns/${campaignId}/send`, { method: 'POST', body });

async function sent(user: TestUser, campaignId: string, body: SendBatchRequest): Promise<SendBatchResult> {
  const response = await send(user, campaignId, body);
  expect(response.status, JSON.stringify(response.json)).toBe(200);
  return sendBatchSchema.strict().parse(response.json);
}

const ids = (contacts: Contact[]) => contacts.map((contact) => contact.id);
const batch = (contacts: Contact[], extra: Partial<SendBatchRequest> = {}): SendBatchRequest => ({
  contact_ids: ids(contacts),
  mode: 'immediate',
  batch_start: 0,
  total: contacts.length,
  ...extra,
});

/** The RCPT items of a campaign, in queue order. */
const storedRecipients = async (campaignId: string) =>
  (await queryAll(dynamodb().doc, {
    TableName: stack().tableName,
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :rcpt)',
    ExpressionAttributeValues: { ':pk': key.campaignPartition(campaignId), ':rcpt': key.recipientPrefix() },
    ConsistentRead: true,
  })) as unknown as (RecipientRecord & { SK: string })[];

const getCampaign = async (user: TestUser, id: string) => {
  const response = await api(user, `/api/campaigns/${id}`);
  expect(response.status).toBe(200);
  return response.json as unknown as Campaign;
};

const notFound = { status: 404, json: { message: campaignMessages.notFound } };

/**
 * The immediate-mode refusals that name the plan's month (issue 23 §5): its reset on the 1st of the next
 * Pacific month, never 'tomorrow'. (The mailbox's day keeps the spec's words, sendingMessages.insufficientCapacity.)
 */
const planReset = () => resetDayWords(nextPacificMonthStart(new Date()));
const monthlyRefusal = (left: number) => ({
  status: 400,
  json: { message: left === 0 ? limitMessages.cannotSendMonthlyExhausted(planReset()) : limitMessages.cannotSendMonthly(left, planReset()) },
});

describe('GET /api/sending/status', () => {
  it('a new user: no mailbox, nothing sent, the whole day and the free plan’s month left, nothing due', async () => {
    const user = await createUser();
    const before = new Date();
    const response = await api(user, '/api/sending/status');
    const after = new Date();
    expect(response.status).toBe(200);
    const status = sendingStatusSchema.strict().parse(response.json);
    expect(status).toMatchObject({
      mailbox: { connected: false, email: null, account_type: 'free', daily_limit: 500 },
      today: { sent: 0, remaining: 500 },
      month: { used: 0, limit: 50, remaining: 50 },
      available_now: 50,
      next_send_at: null,
    });
    expect([pacificDate(before), pacificDate(after)]).toContain(status.today.date);
    expect([pacificMonth(before), pacificMonth(after)]).toContain(status.month.month);
    expect([nextPacificMidnight(before).toISOString(), nextPacificMidnight(after).toISOString()]).toContain(status.today.resets_at);
    // The plan's month resets on the 1st of the next Pacific month; the pace is the stack's (60 s: 60 an hour).
    expect([nextPacificMonthStart(before).toISOString(), nextPacificMonthStart(after).toISOString()]).toContain(status.month.resets_at);
    expect(status.send_interval_seconds).toBe(60);
  });

  it('counts today’s and this month’s emails from the pipeline’s counters; the profile shows the month’s as emails_used', async () => {
    const user = await connectedUser();
    const now = new Date();
    await setCounter(user, key.dayCounter(pacificDate(now)), 7);
    await setCounter(user, key.monthCounter(pacificMonth(now)), 12);
    const status = sendingStatusSchema.parse((await api(user, '/api/sending/status')).json);
    expect(status).toMatchObject({
      mailbox: { connected: true, email: user.email, account_type: 'free', daily_limit: 500 },
      today: { sent: 7, remaining: 493 },
      month: { used: 12, limit: 50, remaining: 38 },
      available_now: 38,
    });
    expect((await api(user, '/api/profile')).json).toMatchObject({ emails_used: 12 });
  });

  it('the Label plan has no monthly limit', async () => {
    const user = await connectedUser();
    await setProfile(user, { tier: 'label' });
    const status = sendingStatusSchema.parse((await api(user, '/api/sending/status')).json);
    expect(status.month).toMatchObject({ limit: null, remaining: null });
    expect(status.available_now).toBe(500);
  });
});

/**
 * The plan's limits follow the tier at once (issue 14 §5): the tier is written onto the profile as the
 * billing webhook writes it (tier and email_limit together), and the status, the send check's figures
 * and the send itself read it on the next request.
 */
describe('limits follow the plan', () => {
  const onPlan = (user: TestUser, tier: 'free' | 'pro' | 'label') =>
    setProfile(user, { tier, email_limit: tier === 'free' ? 50 : tier === 'pro' ? 500 : null });
  const usedThisMonth = (user: TestUser, n: number) => setCounter(user, key.monthCounter(pacificMonth(new Date())), n);

  it('a Free user is stopped at 50: past it nothing is queued in immediate mode, and the status says 0 left', async () => {
    const user = await connectedUser();
    const contacts = await addContacts(user, ['Ada Vell', 'Bo Marsh']);
    await usedThisMonth(user, 49);
    const campaign = await createCampaign(user);
    // The plan's month binds, not the mailbox's day: named with its reset date, never 'tomorrow'.
    expect(await send(user, campaign.id, batch(contacts))).toMatchObject(monthlyRefusal(1));
    await usedThisMonth(user, 50);
    const status = sendingStatusSchema.parse((await api(user, '/api/sending/status')).json);
    expect(status).toMatchObject({ month: { used: 50, limit: 50, remaining: 0 }, available_now: 0 });
    const refused = await send(user, campaign.id, batch(contacts));
    expect(refused).toMatchObject(monthlyRefusal(0));
    expect(refused.json?.message).toMatch(/^Cannot Send: No sending capacity left this month\. Your plan's limit resets on [A-Z][a-z]+ 1\.$/);
    expect(refused.json?.message).not.toMatch(/today|tomorrow/i);
    expect((await api(user, '/api/profile')).json).toMatchObject({ tier: 'free', emails_used: 50, email_limit: 50 });
  });

  it('a Pro user queues past 50, up to 500: the status, the send check and the send read the Pro plan', async () => {
    const user = await connectedUser();
    const contacts = await addContacts(user, ['Ada Vell', 'Bo Marsh', 'Cy Lark']);
    await usedThisMonth(user, 120);
    await onPlan(user, 'pro');
    expect(sendingStatusSchema.parse((await api(user, '/api/sending/status')).json)).toMatchObject({
      month: { used: 120, limit: 500, remaining: 380 },
      available_now: 380,
    });
    const campaign = await createCampaign(user);
    const check = await api(user, `/api/campaigns/${campaign.id}/send-check`, { method: 'POST', body: { contact_ids: ids(contacts) } });
    expect(sendCheckSchema.parse(check.json).status.month).toMatchObject({ limit: 500, remaining: 380 });
    expect(await sent(user, campaign.id, batch(contacts))).toMatchObject({ queued: 3, campaign: { status: 'sending' } });

    // Three short of 500: three more go, a fourth is refused in immediate mode.
    await usedThisMonth(user, 497);
    const exactly = await createCampaign(user, { track_name: 'Exactly Three' });
    const more = await addContacts(user, ['Dee Moss', 'Eli Fenn', 'Fay Dune']);
    expect(await sent(user, exactly.id, batch(more))).toMatchObject({ queued: 3 });
    await usedThisMonth(user, 498);
    const over = await createCampaign(user, { track_name: 'One Too Many' });
    expect(await send(user, over.id, batch(more))).toMatchObject(monthlyRefusal(2));
    // At Pro's limit of 500: nothing left this month.
    await usedThisMonth(user, 500);
    expect(await send(user, over.id, batch(more))).toMatchObject(monthlyRefusal(0));
  });

  it('a Label user goes past 500 with no monthly cap, bounded by the mailbox’s daily limit', async () => {
    const user = await connectedUser();
    const contacts = await addContacts(user, ['Ada Vell', 'Bo Marsh']);
    await usedThisMonth(user, 5000);
    await onPlan(user, 'label');
    expect(sendingStatusSchema.parse((await api(user, '/api/sending/status')).json)).toMatchObject({
      month: { used: 5000, limit: null, remaining: null },
      available_now: 500,
    });
    expect((await api(user, '/api/profile')).json).toMatchObject({ tier: 'label', emails_used: 5000, email_limit: null });
    const campaign = await createCampaign(user);
    expect(await sent(user, campaign.id, batch(contacts))).toMatchObject({ queued: 2 });

    await setCounter(user, key.dayCounter(pacificDate(new Date())), 499);
    const capped = await createCampaign(user, { track_name: 'Daily Capped' });
    expect(await send(user, capped.id, batch(contacts))).toMatchObject({
      status: 400,
      json: { message: sendingMessages.insufficientCapacity },
    });
  });

  it('a downgrade applies at the next request: Pro → Free with 120 sent leaves nothing this month; the profile answers Free’s limit', async () => {
    const user = await connectedUser();
    const contacts = await addContacts(user, ['Ada Vell']);
    await usedThisMonth(user, 120);
    await onPlan(user, 'pro');
    expect(sendingStatusSchema.parse((await api(user, '/api/sending/status')).json).available_now).toBe(380);
    // The stored email_limit lags (500): the tier decides, and the profile answers the tier's limit.
    await setProfile(user, { tier: 'free' });
    expect(sendingStatusSchema.parse((await api(user, '/api/sending/status')).json)).toMatchObject({ month: { limit: 50, remaining: 0 }, available_now: 0 });
    expect((await api(user, '/api/profile')).json).toMatchObject({ tier: 'free', email_limit: 50 });
    const campaign = await createCampaign(user);
    expect(await send(user, campaign.id, batch(contacts))).toMatchObject(monthlyRefusal(0));
  });
});

describe('POST /api/campaigns/{id}/send-check', () => {
  it('counts who would be skipped: unsubscribed, already pitched this track, no longer a contact', async () => {
    const user = await connectedUser();
    const [ada, bo, cy, di] = await addContacts(user, ['Ada Vell', 'Bo Marsh', 'Cy Lark', 'Di Fenn']);
    const campaign = await createCampaign(user);
    await unsubscribe(user, bo!);
    await markPitched(user, campaign, cy!);
    const gone = addressId(user.sub, uniqueEmail('deleted'));
    const response = await api(user, `/api/campaigns/${campaign.id}/send-check`, {
      method: 'POST',
      body: { contact_ids: [ada!.id, bo!.id, cy!.id, di!.id, gone, 'not-an-id', ada!.id] },
    });
    expect(response.status, JSON.stringify(response.json)).toBe(200);
    const check = sendCheckSchema.strict().parse(response.json);
    expect(check).toMatchObject({ selected: 6, unsubscribed: 1, already_sent: 1, unknown: 2 });
    expect(check.status).toMatchObject({ mailbox: { connected: true }, available_now: 50 });
    // The same track (by its link) in another campaign was pitched too; another track was not.
    const again = await createCampaign(user, { track_name: 'Night Drive (Radio Edit)' });
    const other = await createCampaign(user, { track_name: 'Daybreak', track_url: 'https://soundcloud.com/nova/daybreak' });
    const check2 = (id: string) => api(user, `/api/campaigns/${id}/send-check`, { method: 'POST', body: { contact_ids: [cy!.id] } });
    expect((await check2(again.id)).json).toMatchObject({ already_sent: 1 });
    expect((await check2(other.id)).json).toMatchObject({ already_sent: 0 });
  });

  it("counts the emails of the user's campaigns sending now as queued ahead of this one (one pace per user); a scheduled one is not", async () => {
    const user = await connectedUser();
    const contacts = await addContacts(user, ['Ada Vell', 'Bo Marsh', 'Cy Lark']);
    const check = async (id: string) =>
      sendCheckSchema.parse((await api(user, `/api/campaigns/${id}/send-check`, { method: 'POST', body: { contact_ids: ids(contacts) } })).json);
    const first = await createCampaign(user, { track_name: 'First Out' });
    expect(await check(first.id)).toMatchObject({ queued_ahead: 0 });
    await sent(user, first.id, batch(contacts));
    const later = await createCampaign(user, { track_name: 'Tomorrow' });
    await sent(user, later.id, batch(contacts.slice(0, 2), { mode: 'scheduled' }));
    const next = await createCampaign(user, { track_name: 'Next In Line' });
    expect(await check(next.id)).toMatchObject({ queued_ahead: 3, status: { send_interval_seconds: 60 } });
  });

  it('tells the follow-up day the dialog counts steps with: a day, or FOLLOW_UP_DAY_SECONDS (a 20 s demo day)', async () => {
    const user = await connectedUser();
    const [contact] = await addContacts(user, ['Ada Vell']);
    const campaign = await createCampaign(user);
    const request = { method: 'POST', body: { contact_ids: [contact!.id] }, token: user.idToken };
    const path = `/api/campaigns/${campaign.id}/send-check`;
    expect(sendCheckSchema.parse((await call(path, request)).json).follow_up_day_seconds).toBe(86_400);
    const demo = await startServerServing('sending', makeHandler(sendingDeps({ ...stackConfig(), followUpDayMs: 20_000 })));
    try {
      expect(sendCheckSchema.parse((await callAt(demo.url)(path, request)).json).follow_up_day_seconds).toBe(20);
    } finally {
      await demo.close();
    }
  });

  it('needs at least one contact (the spec’s text)', async () => {
    const user = await connectedUser();
    const campaign = await createCampaign(user);
    for (const body of [{ contact_ids: [] }, {}]) {
      expect(await api(user, `/api/campaigns/${campaign.id}/send-check`, { method: 'POST', body })).toMatchObject({
        status: 400,
        json: { message: sendingMessages.selectContacts },
      });
    }
  });
});

describe('POST /api/campaigns/{id}/send', () => {
  it('the first batch turns the draft into a sending campaign with one pending RCPT item per recipient, in order', async () => {
    const user = await connectedUser();
    const contacts = await addContacts(user, ['Ada Vell', 'Bo Marsh', 'Cy Lark']);
    const campaign = await createCampaign(user);
    const before = new Date();
    const result = await sent(user, campaign.id, batch(contacts));
    expect(result).toMatchObject({ queued: 3, skipped_unsubscribed: 0, skipped_already_sent: 0, skipped_unknown: 0 });
    expect(result.campaign).toMatchObject({ id: campaign.id, status: 'sending', sending_status: 'sending', total_queued: 3, total_recipients: 3 });
    expect(result.campaign).not.toHaveProperty('email_body');
    expect(Date.parse(result.campaign.send_after!)).toBeGreaterThanOrEqual(before.getTime() - 1000);
    expect(result.campaign.started_sending_at).not.toBeNull();

    const items = await storedRecipients(campaign.id);
    expect(items.map((item) => item.SK)).toEqual([key.recipient(0), key.recipient(1), key.recipient(2)]);
    expect(items.map((item) => item.recipient_email)).toEqual(contacts.map((contact) => contact.email));
    items.forEach((item, position) => {
      expect(item).toMatchObject({ campaign_id: campaign.id, user_id: user.sub, position, attempts: 0, recipient_name: contacts[position]!.name });
      expect(item.contact).toMatchObject({ id: contacts[position]!.id, email: contacts[position]!.email, label_name: contacts[position]!.label_name });
    });
    expect(await getCampaign(user, campaign.id)).toMatchObject({ status: 'sending', email_body: campaign.email_body, follow_ups: NO_FOLLOW_UPS });
    // The list shows it as a summary.
    const listed = (await api(user, '/api/campaigns')).json as { campaigns: CampaignSummary[] };
    expect(listed.campaigns.find((c) => c.id === campaign.id)).toMatchObject({ status: 'sending', total_queued: 3 });
  });

  it('the first batch stores the follow-up steps; the same batch sent again cannot change them', async () => {
    const user = await connectedUser();
    const contacts = await addContacts(user, ['Ada Vell', 'Bo Marsh']);
    const campaign = await createCampaign(user);
    const followUps = {
      steps: [
        { after_days: 4, writer: 'ai' as const },
        { after_days: 9, writer: 'own' as const, text: 'Hi [CONTACT_NAME], did this reach you?' },
      ],
      condition: 'not_answered' as const,
    };
    const stored = { ...followUps, steps: [{ ...followUps.steps[0], text: null }, followUps.steps[1]] };
    const first = await sent(user, campaign.id, batch(contacts, { follow_ups: followUps }));
    expect(first.campaign.follow_ups).toEqual(stored);
    await sent(user, campaign.id, batch(contacts, { follow_ups: { steps: [] } }));
    expect((await getCampaign(user, campaign.id)).follow_ups).toEqual(stored);
  });

  it('the send window (issue 27 §2): "Any time" (null) by default; the working hours given with the first batch are stored and answered', async () => {
    const user = await connectedUser();
    const contacts = await addContacts(user, ['Ada Vell', 'Bo Marsh']);
    const anyTime = await createCampaign(user);
    expect(anyTime.send_window).toBeNull();
    expect((await sent(user, anyTime.id, batch(contacts.slice(0, 1)))).campaign.send_window).toBeNull();
    expect((await getCampaign(user, anyTime.id)).send_window).toBeNull();

    const hours = await createCampaign(user, { track_name: 'Office Hours' });
    // Days as given are kept once each, in order.
    const result = await sent(user, hours.id, batch(contacts, { send_window: { days: [5, 1, 3, 1], start_hour: 10, end_hour: 16 } }));
    const window = { days: [1, 3, 5], start_hour: 10, end_hour: 16 };
    expect(result.campaign.send_window).toEqual(window);
    expect(await getCampaign(user, hours.id)).toMatchObject({ status: 'sending', send_window: window });
    const listed = (await api(user, '/api/campaigns')).json as { campaigns: CampaignSummary[] };
    expect(listed.campaigns.find((c) => c.id === hours.id)?.send_window).toEqual(window);
  });

  it('a selection in batches of 100: each batch at the next positions; a retried batch queues nothing twice', async () => {
    const user = await connectedUser();
    const { created } = await new DynamoContactStore(dynamodb().doc, stack().tableName).importMany(
      user.sub,
      Array.from({ length: 105 }, (_, i) => ({ ...contactFields, name: `Contact ${i}`, email: uniqueEmail(`bulk${i}`) })),
      new Date(),
    );
    const contacts = [...created].sort((a, b) => a.name.localeCompare(b.name, 'en', { numeric: true }));
    await unsubscribe(user, contacts[1]!);
    const campaign = await createCampaign(user);
    const selection = ids(contacts);
    const first = { contact_ids: selection.slice(0, 100), mode: 'partial' as const, batch_start: 0, total: 105 };
    const second = { contact_ids: selection.slice(100), mode: 'partial' as const, batch_start: 100, total: 105 };
    expect(await sent(user, campaign.id, first)).toMatchObject({ queued: 99, skipped_unsubscribed: 1, campaign: { total_queued: 99, total_recipients: 105 } });
    // The first batch again (its answer was lost): nothing new.
    expect(await sent(user, campaign.id, first)).toMatchObject({ queued: 99, skipped_unsubscribed: 1, campaign: { total_queued: 99 } });
    expect(await sent(user, campaign.id, second)).toMatchObject({ queued: 5, campaign: { total_queued: 104, total_recipients: 105 } });
    expect(await sent(user, campaign.id, second)).toMatchObject({ queued: 5, campaign: { total_queued: 104 } });
    expect(await sent(user, campaign.id, first)).toMatchObject({ queued: 99, campaign: { total_queued: 104 } });
    const items = await storedRecipients(campaign.id);
    expect(items.map((item) => item.recipient_email)).toEqual(contacts.filter((_, i) => i !== 1).map((contact) => contact.email));
    expect(items.map((item) => item.position)).toEqual(Array.from({ length: 104 }, (_, i) => i));
    expect(await getCampaign(user, campaign.id)).toMatchObject({ total_queued: 104, total_recipients: 105 });
  });

  it('a batch that skips ahead of what was queued, or changes the selection’s size, is refused (409) and queues nothing', async () => {
    const user = await connectedUser();
    const [ada] = await addContacts(user, ['Ada Vell']);
    const campaign = await createCampaign(user);
    // Ids of contacts that do not exist are skipped as unknown: the positions are what counts here.
    const filler = (from: number, count: number) => Array.from({ length: count }, (_, i) => addressId(user.sub, `gone${from + i}@example.com`));
    expect(await sent(user, campaign.id, { contact_ids: [ada!.id, ...filler(1, 99)], mode: 'partial', batch_start: 0, total: 250 })).toMatchObject({
      queued: 1,
      skipped_unknown: 99,
    });
    for (const later of [
      { contact_ids: filler(200, 50), mode: 'partial', batch_start: 200, total: 250 },
      { contact_ids: filler(100, 100), mode: 'partial', batch_start: 100, total: 300 },
    ]) {
      expect(await send(user, campaign.id, later)).toMatchObject({ status: 409, json: { message: sendingApiMessages.batchOutOfOrder } });
    }
    expect(await storedRecipients(campaign.id)).toHaveLength(1);
    expect(await getCampaign(user, campaign.id)).toMatchObject({ total_queued: 1, total_recipients: 250 });
  });

  it('scheduled mode: nothing before the next Pacific midnight', async () => {
    const user = await connectedUser();
    const contacts = await addContacts(user, ['Ada Vell', 'Bo Marsh']);
    const campaign = await createCampaign(user);
    const before = new Date();
    const result = await sent(user, campaign.id, batch(contacts, { mode: 'scheduled' }));
    const after = new Date();
    expect(result).toMatchObject({ queued: 2, campaign: { status: 'scheduled' } });
    expect([nextPacificMidnight(before).toISOString(), nextPacificMidnight(after).toISOString()]).toContain(result.campaign.send_after);
  });

  it('immediate mode without capacity for every email is refused naming the limit that binds (the spec’s text for the mailbox’s day); partial and scheduled are not', async () => {
    const user = await connectedUser();
    const contacts = await addContacts(user, ['Ada Vell', 'Bo Marsh', 'Cy Lark']);
    // Two of the Free plan's 50 emails left this month.
    await setCounter(user, key.monthCounter(pacificMonth(new Date())), 48);
    const campaign = await createCampaign(user);
    expect(await send(user, campaign.id, batch(contacts))).toMatchObject(monthlyRefusal(2));
    expect(await getCampaign(user, campaign.id)).toMatchObject({ status: 'draft', total_queued: 0 });
    expect(await storedRecipients(campaign.id)).toEqual([]);
    // Exactly enough: one of the three has unsubscribed.
    await unsubscribe(user, contacts[2]!);
    expect(await sent(user, campaign.id, batch(contacts))).toMatchObject({ queued: 2, skipped_unsubscribed: 1 });

    const daily = await connectedUser();
    const dailyContacts = await addContacts(daily, ['Ada Vell', 'Bo Marsh']);
    await setCounter(daily, key.dayCounter(pacificDate(new Date())), 499);
    const blocked = await createCampaign(daily);
    // The mailbox's day binds: the spec's own words stay.
    expect(await send(daily, blocked.id, batch(dailyContacts))).toMatchObject({
      status: 400,
      json: { message: 'Cannot Send: Insufficient daily capacity. Please try again tomorrow.' },
    });
    expect(await sent(daily, blocked.id, batch(dailyContacts, { mode: 'partial' }))).toMatchObject({ queued: 2, campaign: { status: 'sending' } });
  });

  it('skips unsubscribed contacts; when every selected contact has unsubscribed: the spec’s text and nothing queued', async () => {
    const user = await connectedUser();
    const [ada, bo, cy] = await addContacts(user, ['Ada Vell', 'Bo Marsh', 'Cy Lark']);
    await unsubscribe(user, ada!);
    await unsubscribe(user, bo!);
    const campaign = await createCampaign(user);
    expect(await send(user, campaign.id, batch([ada!, bo!]))).toMatchObject({ status: 400, json: { message: sendingMessages.allUnsubscribed } });
    expect(await getCampaign(user, campaign.id)).toMatchObject({ status: 'draft' });
    const result = await sent(user, campaign.id, batch([ada!, cy!, bo!]));
    expect(result).toMatchObject({ queued: 1, skipped_unsubscribed: 2 });
    expect((await storedRecipients(campaign.id)).map((item) => item.recipient_email)).toEqual([cy!.email]);
  });

  it('skips contacts who already got this track unless “send again” is ticked; deleted contacts are skipped as unknown', async () => {
    const user = await connectedUser();
    const [ada, bo, cy] = await addContacts(user, ['Ada Vell', 'Bo Marsh', 'Cy Lark']);
    const first = await createCampaign(user);
    await markPitched(user, first, ada!);
    expect((await api(user, `/api/contacts/${cy!.id}`, { method: 'DELETE' })).status).toBe(204);
    expect(await sent(user, first.id, batch([ada!, bo!, cy!]))).toMatchObject({ queued: 1, skipped_already_sent: 1, skipped_unknown: 1 });
    expect((await storedRecipients(first.id)).map((item) => item.recipient_email)).toEqual([bo!.email]);

    const second = await createCampaign(user);
    await markPitched(user, second, ada!);
    expect(await sent(user, second.id, batch([ada!, bo!], { send_again: true }))).toMatchObject({ queued: 2, skipped_already_sent: 0 });
    expect((await storedRecipients(second.id)).map((item) => item.recipient_email)).toEqual([ada!.email, bo!.email]);
  });

  it('needs a connected mailbox; nothing is queued without one', async () => {
    const user = await createUser();
    const contacts = await addContacts(user, ['Ada Vell']);
    const campaign = await createCampaign(user);
    expect(await send(user, campaign.id, batch(contacts))).toMatchObject({ status: 400, json: { message: sendingMessages.mailboxRequired } });
    expect(await getCampaign(user, campaign.id)).toMatchObject({ status: 'draft' });
    expect(await storedRecipients(campaign.id)).toEqual([]);
  });

  it('needs the email preview first (a blank subject or body)', async () => {
    const user = await connectedUser();
    const contacts = await addContacts(user, ['Ada Vell']);
    const campaign = await createCampaign(user);
    await dynamodb().doc.send(
      new UpdateCommand({
        TableName: stack().tableName,
        Key: { PK: key.user(user.sub), SK: key.campaign(campaign.id) },
        UpdateExpression: 'SET email_subject = :blank',
        ExpressionAttributeValues: { ':blank': '  ' },
      }),
    );
    expect(await send(user, campaign.id, batch(contacts))).toMatchObject({ status: 400, json: { message: sendingMessages.previewFirst } });
    expect(await getCampaign(user, campaign.id)).toMatchObject({ status: 'draft' });
  });

  it('a campaign already sent cannot be sent again to another selection (409); the same first batch again is a retry', async () => {
    const user = await connectedUser();
    const contacts = await addContacts(user, ['Ada Vell', 'Bo Marsh']);
    const campaign = await createCampaign(user);
    await sent(user, campaign.id, batch([contacts[0]!]));
    expect(await send(user, campaign.id, batch([contacts[1]!]))).toMatchObject({ status: 409, json: { message: sendingMessages.notADraft } });
    expect(await send(user, campaign.id, batch(contacts))).toMatchObject({ status: 409, json: { message: sendingMessages.notADraft } });
    expect(await sent(user, campaign.id, batch([contacts[0]!]))).toMatchObject({ queued: 1, campaign: { total_queued: 1 } });
    expect((await storedRecipients(campaign.id)).map((item) => item.recipient_email)).toEqual([contacts[0]!.email]);
  });

  it('bad bodies are clear 400s and change nothing', async () => {
    const user = await connectedUser();
    const contacts = await addContacts(user, ['Ada Vell']);
    const campaign = await createCampaign(user);
    const good = batch(contacts);
    const cases: [unknown, string | RegExp][] = [
      [undefined, 'The request needs a JSON body.'],
      ['{not json', 'The request body is not valid JSON.'],
      [[], 'The request body must be a JSON object.'],
      [{ ...good, contact_ids: [] }, sendingMessages.selectContacts],
      [{ mode: 'immediate', batch_start: 0, total: 1 }, sendingMessages.selectContacts],
      [{ ...good, mode: 'tomorrow' }, /^mode: /],
      [{ ...good, batch_start: -1 }, /^batch_start: /],
      [{ ...good, batch_start: 0.5 }, 'batch_start must be a whole number'],
      [{ ...good, total: 0 }, /^total: /],
      [{ ...good, send_again: 'yes' }, 'send_again must be a boolean'],
      [{ ...good, extra: 1 }, 'Unknown field: extra'],
      [{ ...good, follow_ups: { steps: [{ after_days: 31, writer: 'ai' }] } }, `follow_ups.steps.0.after_days: ${followUpMessages.daysRange}`],
      [{ ...good, follow_ups: { steps: [{ after_days: 4, writer: 'own', text: '' }] } }, `follow_ups.steps.0.text: ${followUpMessages.textRequired}`],
      [{ ...good, contact_ids: Array.from({ length: 101 }, (_, i) => `id${i}`), total: 101 }, /^contact_ids: /],
      [{ ...good, batch_start: 1, total: 2 }, sendingApiMessages.batchShape],
      [{ ...good, batch_start: 1, total: 1 }, sendingApiMessages.batchShape],
      [{ ...good, total: 2 }, sendingApiMessages.batchShape],
      [{ ...good, batch_start: 100, total: 100 }, sendingApiMessages.batchShape],
      [{ ...good, send_window: { days: [], start_hour: 9, end_hour: 17 } }, 'send_window: Choose at least one day.'],
      [{ ...good, send_window: { days: [1], start_hour: 17, end_hour: 9 } }, 'send_window: The window must end after it starts.'],
      [{ ...good, send_window: { days: [8], start_hour: 9, end_hour: 17 } }, 'send_window: Days are 1 (Monday) to 7 (Sunday).'],
      [{ ...good, send_window: { days: [1], start_hour: 9, end_hour: 25 } }, 'send_window: Hours are whole hours from 0 to 24.'],
      [{ ...good, send_window: 'office hours' }, 'send_window must be an object'],
    ];
    for (const [body, message] of cases) {
      const response = await send(user, campaign.id, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(String(response.json?.message), JSON.stringify(body)).toMatch(
        typeof message === 'string' ? new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) : message,
      );
    }
    expect(await getCampaign(user, campaign.id)).toMatchObject({ status: 'draft', total_queued: 0 });
  });
});

describe('pause and resume', () => {
  let user: TestUser;
  let campaign: Campaign;
  beforeAll(async () => {
    user = await connectedUser();
    const contacts = await addContacts(user, ['Ada Vell', 'Bo Marsh']);
    campaign = await createCampaign(user);
    // Scheduled: the queue stays as it is while the test looks at it.
    await sent(user, campaign.id, batch(contacts, { mode: 'scheduled' }));
  });

  const post = (action: 'pause' | 'resume' | 'retry-failed') => api(user, `/api/campaigns/${campaign.id}/${action}`, { method: 'POST' });

  it('Retry failed is a 409 on a campaign that has not finished, and changes nothing', async () => {
    expect(await post('retry-failed')).toMatchObject({ status: 409, json: { message: sendingApiMessages.notCompleted } });
    expect(await getCampaign(user, campaign.id)).toMatchObject({ status: 'scheduled', emails_failed: 0 });
  });

  it('pause answers the paused campaign’s summary; pausing again is a 409', async () => {
    const response = await post('pause');
    expect(response.status, JSON.stringify(response.json)).toBe(200);
    const summary = campaignSummarySchema.strict().parse(response.json);
    expect(summary).toMatchObject({ id: campaign.id, sending_status: 'paused', pause_reason: 'user' });
    expect(await post('pause')).toMatchObject({ status: 409, json: { message: sendingApiMessages.notSending } });
    expect(await getCampaign(user, campaign.id)).toMatchObject({ sending_status: 'paused' });
  });

  it('resume needs the mailbox, then continues; resuming again is a 409', async () => {
    await setProfile(user, { gmail_connected: false });
    expect(await post('resume')).toMatchObject({ status: 400, json: { message: sendingMessages.mailboxRequired } });
    expect(await getCampaign(user, campaign.id)).toMatchObject({ sending_status: 'paused' });
    await setProfile(user, { gmail_connected: true });
    const response = await post('resume');
    expect(response.status, JSON.stringify(response.json)).toBe(200);
    expect(campaignSummarySchema.strict().parse(response.json)).toMatchObject({ id: campaign.id, sending_status: 'sending', pause_reason: null });
    expect(await post('resume')).toMatchObject({ status: 409, json: { message: sendingApiMessages.notPaused } });
    expect((await storedRecipients(campaign.id)).map((item) => item.position)).toEqual([0, 1]);
  });

  it('a draft cannot be paused', async () => {
    const draft = await createCampaign(user);
    expect(await api(user, `/api/campaigns/${draft.id}/pause`, { method: 'POST' })).toMatchObject({ status: 409 });
  });
});

describe('a campaign’s emails', () => {
  let user: TestUser;
  let contacts: Contact[];
  let campaign: Campaign;
  beforeAll(async () => {
    user = await connectedUser();
    contacts = await addContacts(user, ['Ada Vell', 'Bo Marsh']);
    campaign = await createCampaign(user);
    await sent(user, campaign.id, batch(contacts, { mode: 'scheduled' }));
  });

  it('lists the recipients in queue order with their outcome, no content', async () => {
    const response = await api(user, `/api/campaigns/${campaign.id}/emails`);
    expect(response.status).toBe(200);
    const { emails } = campaignEmailListSchema.parse(response.json);
    expect(emails).toEqual(
      contacts.map((contact, position) => ({
        position,
        recipient_name: contact.name,
        recipient_email: contact.email,
        time_zone: contact.time_zone,
        status: 'pending',
        subject: null,
        sent_at: null,
        opened_at: null,
        open_count: 0,
        machine_open_count: 0,
        clicked_at: null,
        click_count: 0,
        listen_max_percent: 0,
        play_count: 0,
        download_count: 0,
        listen_seconds: 0,
        first_listened_at: null,
        last_listened_at: null,
        answer: null,
        answer_note: null,
        answered_at: null,
        replied_at: null,
        detail: null,
        attempts: 0,
        retry_at: null,
        // No follow-up steps: none per email, none counted.
        follow_ups: [],
      })),
    );
    expect(campaignEmailListSchema.parse(response.json).follow_ups).toEqual([]);
  });

  it('one email with its content by position; other positions are 404', async () => {
    const response = await api(user, `/api/campaigns/${campaign.id}/emails/1`);
    expect(response.status).toBe(200);
    expect(campaignEmailContentSchema.strict().parse(response.json)).toMatchObject({
      position: 1,
      recipient_email: contacts[1]!.email,
      html: null,
      text: null,
    });
    for (const position of ['2', '-1', '01', '1.0', 'abc', '1e3', '999999999']) {
      expect(await api(user, `/api/campaigns/${campaign.id}/emails/${position}`), position).toMatchObject({
        status: 404,
        json: { message: sendingApiMessages.emailNotFound },
      });
    }
  });

  it('a draft has no emails yet', async () => {
    const draft = await createCampaign(user);
    expect((await api(user, `/api/campaigns/${draft.id}/emails`)).json).toEqual({ emails: [], follow_ups: [] });
  });
});

describe('another user’s campaign', () => {
  let owner: TestUser;
  let intruder: TestUser;
  let campaign: Campaign;
  let intrudersContact: Contact;
  beforeAll(async () => {
    [owner, intruder] = await Promise.all([connectedUser(), connectedUser()]);
    const [ownersContact] = await addContacts(owner, ['Ada Vell']);
    intrudersContact = await addContact(intruder, 'Oskar Fairhall');
    campaign = await createCampaign(owner);
    await sent(owner, campaign.id, batch([ownersContact!], { mode: 'scheduled' }));
  });

  it('is the same 404 as a missing or malformed id on every route, and changes nothing', async () => {
    const routes = (id: string): [string, Omit<ApiOptions, 'token'>][] => [
      [`/api/campaigns/${id}/send-check`, { method: 'POST', body: { contact_ids: [intrudersContact.id] } }],
      [`/api/campaigns/${id}/send`, { method: 'POST', body: batch([intrudersContact]) }],
      [`/api/campaigns/${id}/send`, { method: 'POST', body: batch([intrudersContact], { batch_start: 100, total: 101 }) }],
      [`/api/campaigns/${id}/pause`, { method: 'POST' }],
      [`/api/campaigns/${id}/resume`, { method: 'POST' }],
      [`/api/campaigns/${id}/retry-failed`, { method: 'POST' }],
      [`/api/campaigns/${id}/emails`, {}],
      [`/api/campaigns/${id}/emails/0`, {}],
    ];
    for (const id of [campaign.id, UNKNOWN_CAMPAIGN, 'not-a-ulid']) {
      for (const [path, options] of routes(id)) {
        const response = await api(intruder, path, options);
        expect({ status: response.status, json: response.json }, `${options.method ?? 'GET'} ${path}`).toEqual(notFound);
      }
    }
    expect(await getCampaign(owner, campaign.id)).toMatchObject({ status: 'scheduled', total_queued: 1 });
    expect((await storedRecipients(campaign.id)).map((item) => item.user_id)).toEqual([owner.sub]);
  });
});
