/**
 * The pre-send check on the server (issue 28 §2): local server → lambdas/http/{sending,campaigns}.ts →
 * DynamoDB Local, with real cognito-local users. The send check names who passed on the track and who
 * already received it; the recipient preview says whether its recipient passed; the send route leaves
 * out a form-only label and a contact who passed unless the request lists them in send_anyway_ids;
 * another user's ids change nothing; a bad list is a clear 400.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { DynamoContactStore } from '../../lambdas/adapters/dynamodb/contactStore';
import { DynamoMailboxStore } from '../../lambdas/adapters/dynamodb/mailboxStore';
import { queryAll } from '../../lambdas/adapters/dynamodb/query';
import { pitchKey } from '../../lambdas/core/sender';
import type { Campaign } from '../../schema/api/campaigns';
import { recipientPreviewSchema } from '../../schema/api/campaigns';
import type { Contact } from '../../schema/api/contacts';
import type { DemoPolicy } from '../../schema/api/demoPolicyValues';
import { campaignMessages, sendBatchSchema, sendCheckSchema, type SendBatchRequest } from '../../schema/api/sending';
import { key } from '../../schema/table';
import { buildAiTrack, buildDemoPolicy } from '../fakes/builders';
import { call, createUser, dynamodb, stack, uniqueEmail, type TestUser } from './helpers';

const api = (user: TestUser, path: string, body?: unknown) => call(path, { token: user.idToken, ...(body === undefined ? {} : { method: 'POST', body }) });

async function connectedUser(): Promise<TestUser> {
  const user = await createUser({ name: 'Luna Vale' });
  expect((await api(user, '/api/profile')).status).toBe(200);
  await new DynamoMailboxStore(dynamodb().doc, stack().tableName).connect(user.sub, {
    email: user.email,
    accountType: 'free',
    dailyLimit: 500,
    sealedRefreshToken: 'sealed-test-token',
    connectedAt: new Date().toISOString(),
  });
  return user;
}

/** Contacts as LabelFinder adds them: with the directory entry's demo policy (or none). */
async function addContacts(user: TestUser, people: { name: string; policy?: DemoPolicy }[]): Promise<Contact[]> {
  const store = new DynamoContactStore(dynamodb().doc, stack().tableName);
  const { created } = await store.importMany(
    user.sub,
    people.map(({ name, policy }) => ({
      name,
      email: uniqueEmail(name.split(' ')[0]!.toLowerCase()),
      label_name: name,
      contact_type: 'Label' as const,
      position: null,
      genre: null,
      website_url: null,
      notes: null,
      ...(policy ? { demo_policy: policy } : {}),
    })),
    new Date(),
  );
  return people.map(({ name }) => created.find((contact) => contact.name === name)!);
}

async function createCampaign(user: TestUser): Promise<Campaign> {
  const response = await api(user, '/api/campaigns', {
    mode: 'ai',
    track: buildAiTrack({ track_name: 'Harbour Lights', track_url: 'https://soundcloud.com/luna/harbour-lights' }),
    email_subject: '[TRACK_NAME] for [LABEL_NAME]',
    email_body: 'Hi [CONTACT_NAME],\n\nListen: [TRACK_URL]',
    total_recipients: 1,
  });
  expect(response.status, JSON.stringify(response.json)).toBe(201);
  return response.json as unknown as Campaign;
}

/** A contact pitched this track before and answered 'Not for us' on `at`, as the listen page marks it. */
const markPassed = (user: TestUser, campaign: Campaign, contact: Contact, at: string) =>
  dynamodb().doc.send(
    new PutCommand({
      TableName: stack().tableName,
      Item: { PK: key.user(user.sub), SK: key.pitched(pitchKey(campaign), contact.id), entity: 'pitched', passed_at: at },
    }),
  );

/** A contact pitched this track before, who did not pass. */
const markPitched = (user: TestUser, campaign: Campaign, contact: Contact) =>
  dynamodb().doc.send(
    new PutCommand({ TableName: stack().tableName, Item: { PK: key.user(user.sub), SK: key.pitched(pitchKey(campaign), contact.id), entity: 'pitched' } }),
  );

/** The campaign's queue: each recipient's contact and whether the claim may send them the track again. */
const queuedRecipients = async (campaignId: string) =>
  (
    await queryAll(dynamodb().doc, {
      TableName: stack().tableName,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :rcpt)',
      ExpressionAttributeValues: { ':pk': key.campaignPartition(campaignId), ':rcpt': key.recipientPrefix() },
      ConsistentRead: true,
    })
  ).map((item) => ({ contactId: (item.contact as Contact).id, sendAgain: item.send_again === true }));

const queuedContactIds = async (campaignId: string) => (await queuedRecipients(campaignId)).map((recipient) => recipient.contactId);

const formOnly = buildDemoPolicy({ submit_by: 'web_form', submit_url: 'https://velvet.test/demos' });
const privateOnly = buildDemoPolicy({ private_streaming_only: true });
const PASSED_AT = '2026-11-03T18:00:00.000Z';

/** An artist with a form-only label, a private-links-only label, a contact who passed on the track and one without a policy. */
async function world() {
  const user = await connectedUser();
  const [velvet, harbour, kai, ada] = await addContacts(user, [
    { name: 'Velvet Form Records', policy: formOnly },
    { name: 'Harbour Private Audio', policy: privateOnly },
    { name: 'Kai Passed' },
    { name: 'Ada Plain' },
  ]);
  const campaign = await createCampaign(user);
  await markPassed(user, campaign, kai!, PASSED_AT);
  return { user, campaign, velvet: velvet!, harbour: harbour!, kai: kai!, ada: ada! };
}

const batchOf = (contacts: Contact[], extra: Partial<SendBatchRequest> = {}): SendBatchRequest => ({
  contact_ids: contacts.map((contact) => contact.id),
  mode: 'immediate',
  batch_start: 0,
  total: contacts.length,
  ...extra,
});

describe('the pre-send check on the server (issue 28 §2)', () => {
  it('the send check names who passed on the track and who already received it', async () => {
    const { user, campaign, velvet, harbour, kai, ada } = await world();
    const response = await api(user, `/api/campaigns/${campaign.id}/send-check`, { contact_ids: [velvet.id, harbour.id, kai.id, ada.id] });
    expect(response.status).toBe(200);
    const check = sendCheckSchema.strict().parse(response.json);
    expect(check.passed).toEqual([{ contact_id: kai.id, passed_at: PASSED_AT }]);
    expect(check.already_sent_ids).toEqual([kai.id]);
    expect(check.already_sent).toBe(1);
  });

  it('the recipient preview says whether its recipient passed on the track', async () => {
    const { user, campaign, kai, ada } = await world();
    const preview = (contactId: string) => api(user, `/api/campaigns/${campaign.id}/recipient-preview`, { contact_id: contactId });
    expect(recipientPreviewSchema.strict().parse((await preview(kai.id)).json).passed_at).toBe(PASSED_AT);
    expect(recipientPreviewSchema.strict().parse((await preview(ada.id)).json).passed_at).toBeNull();
  });

  it('leaves out a form-only label and a contact who passed unless the request insists; the others are queued, warnings or not', async () => {
    const { user, campaign, velvet, harbour, kai, ada } = await world();
    const response = await api(user, `/api/campaigns/${campaign.id}/send`, batchOf([velvet, harbour, kai, ada], { send_again: true }));
    expect(response.status, JSON.stringify(response.json)).toBe(200);
    expect(sendBatchSchema.parse(response.json).queued).toBe(2);
    expect(await queuedContactIds(campaign.id)).toEqual([harbour.id, ada.id]);
  });

  it('sends to a form-only label and a contact who passed when the artist ticked "Send anyway" for them', async () => {
    const { user, campaign, velvet, harbour, kai, ada } = await world();
    const body = batchOf([velvet, harbour, kai, ada], { send_again: true, send_anyway_ids: [velvet.id, kai.id] });
    const response = await api(user, `/api/campaigns/${campaign.id}/send`, body);
    expect(response.status, JSON.stringify(response.json)).toBe(200);
    expect(sendBatchSchema.parse(response.json).queued).toBe(4);
    expect(await queuedContactIds(campaign.id)).toEqual([velvet.id, harbour.id, kai.id, ada.id]);
  });

  it('"Send anyway" on a contact who passed sends them the track again, them alone: other contacts already pitched stay skipped', async () => {
    const { user, campaign, kai, ada } = await world();
    // Ada was pitched the track too, and did not pass: insisting names only those who passed.
    await markPitched(user, campaign, ada);
    const body = batchOf([kai, ada], { send_anyway_ids: [kai.id, ada.id] });
    const response = await api(user, `/api/campaigns/${campaign.id}/send`, body);
    expect(response.status, JSON.stringify(response.json)).toBe(200);
    expect(sendBatchSchema.parse(response.json)).toMatchObject({ queued: 1, skipped_already_sent: 1 });
    expect(await queuedRecipients(campaign.id)).toEqual([{ contactId: kai.id, sendAgain: true }]);
  });

  it("another user's ids change nothing: their campaign is a 404, their contacts are not the caller's to insist on or to report", async () => {
    const owner = await world();
    const intruder = await world();
    // The intruder's check of the owner's campaign, and their send to it: the same 404 as a missing campaign.
    const ownersCampaign = `/api/campaigns/${owner.campaign.id}`;
    expect(await api(intruder.user, `${ownersCampaign}/send-check`, { contact_ids: [intruder.kai.id] })).toMatchObject({
      status: 404,
      json: { message: campaignMessages.notFound },
    });
    expect(await api(intruder.user, `${ownersCampaign}/send`, batchOf([intruder.velvet]))).toMatchObject({ status: 404 });
    // The owner's passed contact, checked under the intruder's campaign: not theirs, so no pass is reported.
    const check = sendCheckSchema.parse((await api(intruder.user, `/api/campaigns/${intruder.campaign.id}/send-check`, { contact_ids: [owner.kai.id] })).json);
    expect(check).toMatchObject({ passed: [], already_sent_ids: [], unknown: 1 });
    // Insisting on the owner's form-only label does not send the intruder's own form-only label.
    const body = batchOf([intruder.velvet, intruder.ada], { send_anyway_ids: [owner.velvet.id] });
    expect(sendBatchSchema.parse((await api(intruder.user, `/api/campaigns/${intruder.campaign.id}/send`, body)).json).queued).toBe(1);
    expect(await queuedContactIds(intruder.campaign.id)).toEqual([intruder.ada.id]);
    expect(await queuedContactIds(owner.campaign.id)).toEqual([]);
  });

  it('a bad send_anyway_ids is a clear 400 and queues nothing', async () => {
    const { user, campaign, velvet } = await world();
    const send = (body: unknown) => api(user, `/api/campaigns/${campaign.id}/send`, body);
    const notAList = await send({ ...batchOf([velvet]), send_anyway_ids: velvet.id });
    expect(notAList.status).toBe(400);
    expect(notAList.json?.message).toEqual(expect.any(String));
    expect((await send({ ...batchOf([velvet]), send_anyway_ids: [''] })).status).toBe(400);
    expect((await send({ ...batchOf([velvet]), insist: [velvet.id] })).status).toBe(400);
    expect(await queuedContactIds(campaign.id)).toEqual([]);
  });
});
