/**
 * Campaign drafts end to end: local server → JWT authorizer → lambdas/http/campaigns.ts → DynamoDB Local,
 * with the local writer and the DOMPurify sanitizer (TRACKPITCH_RUNTIME=local). The AI preview creates
 * and rewrites one draft with [CONTACT_NAME] for the first recipient's name, Save clears
 * personalised_by_writer, HTML is sanitized before it is stored, each recipient's preview is their own,
 * another user's ids are 404 on every route, and a writer failure saves nothing.
 */
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoAllowanceStore } from '../../lambdas/adapters/dynamodb/allowanceStore';
import { DynamoCampaignStore } from '../../lambdas/adapters/dynamodb/campaignStore';
import { DynamoContactStore } from '../../lambdas/adapters/dynamodb/contactStore';
import { DynamoPitchStore } from '../../lambdas/adapters/dynamodb/pitchStore';
import { DynamoProfileStore } from '../../lambdas/adapters/dynamodb/profileStore';
import { queryAll } from '../../lambdas/adapters/dynamodb/query';
import { DynamoWrittenEmailStore } from '../../lambdas/adapters/dynamodb/writtenEmailStore';
import { DynamoTrackStore } from '../../lambdas/adapters/dynamodb/trackStore';
import { DomPurifySanitizer } from '../../lambdas/adapters/html/domPurifySanitizer';
import { systemClock } from '../../lambdas/adapters/clock';
import { ulidGenerator } from '../../lambdas/adapters/ulid';
import { WriterError, type WriterFailure } from '../../lambdas/core/errors';
import { makeHandler } from '../../lambdas/http/campaigns';
import type { EmailWriter, WrittenEmail } from '../../lambdas/ports';
import { importHandler, type LambdaHandler, type LocalServer } from '../../lib/local/server';
import {
  campaignSchema,
  campaignSummarySchema,
  composeMessages,
  htmlCampaignDefaults,
  recipientPreviewSchema,
  type AiTrackInput,
  type Campaign,
  type CampaignSummary,
  type RecipientPreview,
} from '../../schema/api/campaigns';
import type { Contact } from '../../schema/api/contacts';
import { followUpMessages } from '../../schema/api/followUpValues';
import { UNSUBSCRIBE_FOOTER_TEXT } from '../../schema/email/render';
import { planOf } from '../../schema/plans';
import { key } from '../../schema/table';
import { call, callAt, createUser, dynamodb, stack, startServer, uniqueEmail, type ApiOptions, type TestUser, stackConfig } from './helpers';
import { stringMatching } from '../support/matchers';

const api = (user: TestUser, path: string, options: Omit<ApiOptions, 'token'> = {}) => call(path, { ...options, token: user.idToken });

const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;
const CAMPAIGN_FIELDS = Object.keys(campaignSchema.shape).sort();
/** What the list answers: the campaign without its email body. */
const SUMMARY_FIELDS = Object.keys(campaignSummarySchema.shape).sort();
/** A ULID no campaign has. */
const UNKNOWN_CAMPAIGN = '01KAKZ3R0000000000000000ZZ';
/** An addressId no contact has. */
const UNKNOWN_CONTACT = 'AAAAAAAAAAAAAAAAAAAAAA';

const track: AiTrackInput = {
  track_name: 'Night Drive',
  track_url: 'https://soundcloud.com/nova/night-drive',
  genre: 'deep-house',
  mood: 'Moody',
  bpm: '122',
  description: 'A rolling late-night groove with warm pads and a long breakdown.',
  ai_tone: 'friendly',
  email_length: 150,
};

async function addContact(user: TestUser, fields: { name: string; label_name: string; contact_type?: string }): Promise<Contact> {
  const response = await api(user, '/api/contacts', {
    method: 'POST',
    body: { email: uniqueEmail('contact'), position: 'A&R Manager', genre: 'House', contact_type: 'Label', ...fields },
  });
  expect(response.status, JSON.stringify(response.json)).toBe(201);
  return response.json as unknown as Contact;
}

const generate = (user: TestUser, body: Record<string, unknown>) => api(user, '/api/campaigns/generate-preview', { method: 'POST', body });

async function generated(user: TestUser, contact: Contact, extra: Record<string, unknown> = {}): Promise<Campaign> {
  const response = await generate(user, { track, contact_id: contact.id, total_recipients: 2, ...extra });
  expect([200, 201], JSON.stringify(response.json)).toContain(response.status);
  return response.json as unknown as Campaign;
}

const htmlDocument = (greeting: string) =>
  `<!DOCTYPE html><html><head><title>EP</title></head><body><table role="presentation" style="width:100%"><tr><td style="color:#6366f1">${greeting}</td></tr></table><script>alert('x')</script><img src="https://img.example/cover.png" onerror="alert('y')" alt="cover"></body></html>`;

async function createDraft(user: TestUser, body: Record<string, unknown>): Promise<Campaign> {
  const response = await api(user, '/api/campaigns', { method: 'POST', body });
  expect(response.status, JSON.stringify(response.json)).toBe(201);
  return response.json as unknown as Campaign;
}

const listCampaigns = async (user: TestUser) => {
  const response = await api(user, '/api/campaigns');
  expect(response.status).toBe(200);
  return (response.json as { campaigns: CampaignSummary[] }).campaigns;
};

/** The campaign items stored under the user's partition. */
const storedCampaigns = (sub: string) =>
  queryAll(dynamodb().doc, {
    TableName: stack().tableName,
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :campaign)',
    ExpressionAttributeValues: { ':pk': key.user(sub), ':campaign': key.campaignPrefix() },
    ConsistentRead: true,
  });

/** What the sending issue will do: the campaign leaves draft. */
const startSending = (sub: string, id: string) =>
  dynamodb().doc.send(
    new UpdateCommand({
      TableName: stack().tableName,
      Key: { PK: key.user(sub), SK: key.campaign(id) },
      UpdateExpression: 'SET #status = :sending, sending_status = :sending',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':sending': 'sending' },
    }),
  );

const wholeWord = (word: string) => new RegExp(`\\b${word}\\b`);

describe('POST /api/campaigns/generate-preview', () => {
  let user: TestUser;
  let mara: Contact;
  let juno: Contact;
  beforeAll(async () => {
    user = await createUser({ name: 'Nova Reyes' });
    mara = await addContact(user, { name: 'Mara Quellwood', label_name: 'Tidewater Records' });
    juno = await addContact(user, { name: 'Juno Halloway', label_name: 'Cobalt Relay Audio', contact_type: 'DJ' });
  });

  it('writes the first recipient’s email and creates the draft, their name shown as a placeholder ([FIRST_NAME] where greeted)', async () => {
    const response = await generate(user, { track, contact_id: mara.id, total_recipients: 3 });
    expect(response.status, JSON.stringify(response.json)).toBe(201);
    const campaign = response.json as unknown as Campaign;
    expect(Object.keys(campaign).sort()).toEqual(CAMPAIGN_FIELDS);
    expect(campaign).toMatchObject({
      id: stringMatching(ULID),
      mode: 'ai',
      status: 'draft',
      track_name: 'Night Drive',
      track_url: track.track_url,
      genre: 'deep-house',
      mood: 'Moody',
      bpm: 122,
      ai_tone: 'friendly',
      email_length: 150,
      total_recipients: 3,
      personalised_by_writer: true,
      preview_contact_id: mara.id,
      emails_sent: 0,
    });
    expect(campaign.email_body).toMatch(/^Hi \[FIRST_NAME\],\n/);
    expect(campaign.email_body).not.toMatch(wholeWord('Mara'));
    expect(campaign.email_body).not.toContain('Quellwood');
    expect(campaign.email_subject).not.toContain('Quellwood');
    // The writer's email is about this track and this contact's label, shown as [LABEL_NAME] so an edited
    // email names each recipient's own label.
    expect(campaign.email_body).toContain('Night Drive');
    expect(campaign.email_body).toContain('[LABEL_NAME]');
    expect(campaign.email_body).not.toContain('Tidewater Records');

    expect(await api(user, `/api/campaigns/${campaign.id}`)).toMatchObject({ status: 200, json: campaign });
    const item = (await storedCampaigns(user.sub)).find((stored) => stored.id === campaign.id);
    expect(item).toMatchObject({ PK: key.user(user.sub), SK: key.campaign(campaign.id), status: 'draft' });
  });

  it('with campaign_id rewrites the same draft (one campaign), now for the new first recipient', async () => {
    const other = await createUser();
    const contact = await addContact(other, { name: 'Selene Varga', label_name: 'Amber Signal' });
    const first = await generated(other, contact);
    const second = await addContact(other, { name: 'Bram Thornby', label_name: 'Ochre Tapes' });
    const response = await generate(other, {
      campaign_id: first.id,
      track: { ...track, track_name: 'Night Drive (Dub)' },
      contact_id: second.id,
      total_recipients: 5,
    });
    expect(response.status, JSON.stringify(response.json)).toBe(200);
    expect(response.json).toMatchObject({
      id: first.id,
      status: 'draft',
      track_name: 'Night Drive (Dub)',
      total_recipients: 5,
      preview_contact_id: second.id,
      personalised_by_writer: true,
      created_at: first.created_at,
    });
    const body = String(response.json!.email_body);
    expect(body).toContain('[LABEL_NAME]');
    expect(body).not.toContain('Ochre Tapes');
    expect(body).not.toContain('Bram');
    expect((await listCampaigns(other)).map((c) => c.id)).toEqual([first.id]);
    expect(String(response.json!.updated_at) >= first.updated_at).toBe(true);
  });

  it('refuses an incomplete form with the spec’s text and saves nothing', async () => {
    const lonely = await createUser();
    const contact = await addContact(lonely, { name: 'Wren Lindqvist', label_name: 'Glass Harbour' });
    const base = { track, contact_id: contact.id, total_recipients: 1 };
    const { track_name: _name, ...withoutName } = track;
    const cases: [Record<string, unknown>, string][] = [
      [{ ...base, track: withoutName }, composeMessages.previewNeeds],
      [{ ...base, track: { ...track, track_name: '   ' } }, composeMessages.previewNeeds],
      [{ ...base, track: { ...track, description: '' } }, composeMessages.previewNeeds],
      [{ ...base, total_recipients: 0 }, composeMessages.previewNeeds],
      [{ track, total_recipients: 1 }, composeMessages.previewNeeds],
      [{ ...base, track: { ...track, track_url: 'soundcloud dot com' } }, composeMessages.trackUrlInvalid],
      [{ ...base, track: { ...track, track_url: 'javascript:alert(1)' } }, composeMessages.trackUrlInvalid],
    ];
    for (const [body, message] of cases) {
      expect(await generate(lonely, body), JSON.stringify(body)).toMatchObject({ status: 400, json: { message } });
    }
    expect(await generate(lonely, { ...base, track: { ...track, genre: 'polka' } })).toMatchObject({
      status: 400,
      json: { message: 'track.genre: Choose a genre from the list' },
    });
    expect(await listCampaigns(lonely)).toEqual([]);
  });

  it('404s a contact that does not exist (or cannot exist) and a campaign_id that is not the caller’s draft', async () => {
    for (const contact_id of [UNKNOWN_CONTACT, 'not-a-contact-id', '../../etc']) {
      expect(await generate(user, { track, contact_id, total_recipients: 1 })).toMatchObject({
        status: 404,
        json: { message: composeMessages.contactNotFound },
      });
    }
    for (const campaign_id of [UNKNOWN_CAMPAIGN, 'not-a-ulid']) {
      expect(await generate(user, { campaign_id, track, contact_id: mara.id, total_recipients: 1 })).toMatchObject({
        status: 404,
        json: { message: composeMessages.campaignNotFound },
      });
    }
  });

  it('409s rewriting a campaign that is no longer a draft, and leaves it as it was', async () => {
    const campaign = await generated(user, juno);
    await startSending(user.sub, campaign.id);
    const response = await generate(user, { campaign_id: campaign.id, track, contact_id: mara.id, total_recipients: 1 });
    expect(response).toMatchObject({ status: 409, json: { message: composeMessages.notDraft } });
    expect((await api(user, `/api/campaigns/${campaign.id}`)).json).toMatchObject({
      status: 'sending',
      email_body: campaign.email_body,
      preview_contact_id: juno.id,
    });
  });
});

describe('GET /api/campaigns', () => {
  it('lists the caller’s campaigns newest first, never another user’s', async () => {
    const [user, other] = await Promise.all([createUser(), createUser()]);
    const contact = await addContact(user, { name: 'Ines Carrick', label_name: 'Salt Loom' });
    const first = await generated(user, contact);
    const second = await createDraft(user, { mode: 'ai', track, email_subject: 'Hello', email_body: 'Hi [NAME]', total_recipients: 1 });
    const campaigns = await listCampaigns(user);
    expect(campaigns.map((c) => c.id)).toEqual([second.id, first.id]);
    const { email_body: _body, ...secondSummary } = second;
    expect(campaigns[0]).toEqual(secondSummary);
    for (const campaign of campaigns) expect(Object.keys(campaign).sort()).toEqual(SUMMARY_FIELDS);
    expect(await listCampaigns(other)).toEqual([]);
  });
});

describe('PATCH /api/campaigns/{id} (the preview card’s Save)', () => {
  let user: TestUser;
  let contact: Contact;
  beforeAll(async () => {
    user = await createUser();
    contact = await addContact(user, { name: 'Tove Northcote', label_name: 'Paper Prism' });
  });

  it('saves the subject and body and ends the writer’s personalisation', async () => {
    const campaign = await generated(user, contact);
    const edit = { email_subject: '  Night Drive for [LABEL_NAME] ', email_body: 'Hi [CONTACT_NAME],\n\nMy edited pitch.\n\nNova' };
    const response = await api(user, `/api/campaigns/${campaign.id}`, { method: 'PATCH', body: edit });
    expect(response.status, JSON.stringify(response.json)).toBe(200);
    const saved = response.json as unknown as Campaign;
    expect(saved).toMatchObject({
      id: campaign.id,
      email_subject: 'Night Drive for [LABEL_NAME]',
      email_body: edit.email_body,
      personalised_by_writer: false,
      preview_contact_id: contact.id,
      track_name: campaign.track_name,
      created_at: campaign.created_at,
    });
    expect(saved.updated_at >= campaign.updated_at).toBe(true);
    expect((await api(user, `/api/campaigns/${campaign.id}`)).json).toEqual(saved);
  });

  it('sanitizes an HTML body before it is stored', async () => {
    const campaign = await generated(user, contact);
    const response = await api(user, `/api/campaigns/${campaign.id}`, {
      method: 'PATCH',
      body: { email_subject: 'HTML', email_body: htmlDocument('Hi [NAME]') },
    });
    expect(response.status).toBe(200);
    const body = String(response.json!.email_body);
    expect(body).not.toMatch(/<script|onerror|alert/i);
    expect(body).toContain('Hi [NAME]');
    expect(body).toContain('https://img.example/cover.png');
  });

  it('needs a subject and a body (spec text), and refuses a campaign that is not a draft (409)', async () => {
    const campaign = await generated(user, contact);
    for (const body of [{ email_subject: ' ', email_body: 'x' }, { email_subject: 'x', email_body: '  \n ' }, { email_subject: 'x' }]) {
      expect(await api(user, `/api/campaigns/${campaign.id}`, { method: 'PATCH', body })).toMatchObject({
        status: 400,
        json: { message: composeMessages.subjectAndBodyRequired },
      });
    }
    expect((await api(user, `/api/campaigns/${campaign.id}`)).json).toEqual(campaign);
    await startSending(user.sub, campaign.id);
    expect(await api(user, `/api/campaigns/${campaign.id}`, { method: 'PATCH', body: { email_subject: 'a', email_body: 'b' } })).toMatchObject({
      status: 409,
      json: { message: composeMessages.notDraft },
    });
  });

  it('404s an id that is not a campaign of the caller', async () => {
    for (const id of [UNKNOWN_CAMPAIGN, 'nope', '01kakz3r0000000000000000aa']) {
      expect(await api(user, `/api/campaigns/${id}`, { method: 'PATCH', body: { email_subject: 'a', email_body: 'b' } })).toMatchObject({
        status: 404,
        json: { message: composeMessages.campaignNotFound },
      });
    }
  });
});

describe('POST /api/campaigns and PUT /api/campaigns/{id} (written and HTML drafts)', () => {
  let user: TestUser;
  beforeAll(async () => {
    user = await createUser();
  });

  it('an HTML preview: the §5 defaults, total_recipients as selected, and the HTML sanitized before it is stored', async () => {
    const campaign = await createDraft(user, {
      mode: 'html',
      track: { track_name: '', track_url: '', bpm: '' },
      email_subject: 'Demo Submission: Night Drive',
      email_body: htmlDocument('Hi [CONTACT_NAME]'),
      total_recipients: 4,
    });
    expect(campaign).toMatchObject({
      mode: 'html',
      status: 'draft',
      track_name: htmlCampaignDefaults.track_name,
      genre: htmlCampaignDefaults.genre,
      description: htmlCampaignDefaults.description,
      ai_tone: htmlCampaignDefaults.ai_tone,
      track_url: null,
      bpm: null,
      total_recipients: 4,
      personalised_by_writer: false,
      preview_contact_id: null,
    });
    expect(campaign.email_body).not.toMatch(/<script|onerror|alert/i);
    expect(campaign.email_body).toMatch(/^<!DOCTYPE html>/i);
    expect(campaign.email_body).toContain('style="color:#6366f1"');
    expect(campaign.email_body).toContain('Hi [CONTACT_NAME]');
    const [stored] = (await storedCampaigns(user.sub)).filter((item) => item.id === campaign.id);
    expect(stored!.email_body).toBe(campaign.email_body);
  });

  it('an AI-mode email written by hand keeps its text, and the form rules give the spec’s texts', async () => {
    const campaign = await createDraft(user, {
      mode: 'ai',
      track,
      email_subject: 'Night Drive',
      email_body: 'Hi [NAME],\n\n1 < 2 & so on',
      total_recipients: 2,
    });
    expect(campaign).toMatchObject({ mode: 'ai', email_body: 'Hi [NAME],\n\n1 < 2 & so on', personalised_by_writer: false, bpm: 122 });
    const before = await listCampaigns(user);
    const { description: _d, ...withoutDescription } = track;
    const cases: [Record<string, unknown>, string][] = [
      [{ mode: 'ai', track: withoutDescription, email_subject: 's', email_body: 'b', total_recipients: 1 }, composeMessages.previewNeeds],
      [{ mode: 'ai', track: { ...track, track_name: '' }, email_subject: 's', email_body: 'b', total_recipients: 1 }, composeMessages.previewNeeds],
      [{ mode: 'ai', track, email_subject: 's', email_body: 'b', total_recipients: 0 }, composeMessages.previewNeeds],
      [{ mode: 'ai', track: { ...track, track_url: 'not a link' }, email_subject: 's', email_body: 'b', total_recipients: 1 }, composeMessages.trackUrlInvalid],
      [{ mode: 'html', track: {}, email_subject: '', email_body: '<p>x</p>', total_recipients: 1 }, composeMessages.subjectAndBodyRequired],
      [{ mode: 'html', track: {}, email_subject: 's', email_body: ' ', total_recipients: 1 }, composeMessages.subjectAndBodyRequired],
      [{ mode: 'html', track: {}, email_subject: 's', email_body: '<p>x</p>', total_recipients: 0 }, composeMessages.previewNeeds],
      [{ mode: 'html', track: { track_url: 'ftp://x' }, email_subject: 's', email_body: '<p>x</p>', total_recipients: 1 }, composeMessages.trackUrlInvalid],
    ];
    for (const [body, message] of cases) {
      expect(await api(user, '/api/campaigns', { method: 'POST', body }), JSON.stringify(body)).toMatchObject({ status: 400, json: { message } });
    }
    expect(
      await api(user, '/api/campaigns', { method: 'POST', body: { mode: 'email', track, email_subject: 's', email_body: 'b', total_recipients: 1 } }),
    ).toMatchObject({ status: 400 });
    expect(await listCampaigns(user)).toEqual(before);
  });

  it('PUT replaces a draft’s content (here an AI draft becomes an HTML one, sanitized); 409 once it is not a draft', async () => {
    const draft = await createDraft(user, { mode: 'ai', track, email_subject: 'First', email_body: 'Hi [NAME]', total_recipients: 1 });
    const response = await api(user, `/api/campaigns/${draft.id}`, {
      method: 'PUT',
      body: {
        mode: 'html',
        track: { track_name: 'Night Drive EP', genre: '  ' },
        email_subject: 'Demo Submission: Night Drive EP',
        email_body: htmlDocument('Hello [NAME]'),
        total_recipients: 6,
      },
    });
    expect(response.status, JSON.stringify(response.json)).toBe(200);
    expect(response.json).toMatchObject({
      id: draft.id,
      mode: 'html',
      track_name: 'Night Drive EP',
      genre: htmlCampaignDefaults.genre,
      description: htmlCampaignDefaults.description,
      track_url: null,
      total_recipients: 6,
      email_subject: 'Demo Submission: Night Drive EP',
      created_at: draft.created_at,
    });
    expect(String(response.json!.email_body)).not.toMatch(/<script|onerror/i);
    await startSending(user.sub, draft.id);
    const again = await api(user, `/api/campaigns/${draft.id}`, {
      method: 'PUT',
      body: { mode: 'ai', track, email_subject: 's', email_body: 'b', total_recipients: 1 },
    });
    expect(again).toMatchObject({ status: 409, json: { message: composeMessages.notDraft } });
  });
});

describe('POST /api/campaigns/{id}/recipient-preview', () => {
  let user: TestUser;
  let mara: Contact;
  let juno: Contact;
  beforeAll(async () => {
    user = await createUser({ name: 'Nova Reyes' });
    mara = await addContact(user, { name: 'Mara Quellwood', label_name: 'Tidewater Records' });
    juno = await addContact(user, { name: 'Juno Halloway', label_name: 'Cobalt Relay Audio' });
  });

  /** The email `contact` gets, or with `follow_up` that step of theirs. */
  const preview = async (campaign: Campaign, contact: Contact, follow_up?: { number: number; step: object }): Promise<RecipientPreview> => {
    const body = { contact_id: contact.id, ...(follow_up ? { follow_up } : {}) };
    const response = await api(user, `/api/campaigns/${campaign.id}/recipient-preview`, { method: 'POST', body });
    expect(response.status, JSON.stringify(response.json)).toBe(200);
    return recipientPreviewSchema.parse(response.json);
  };

  it('an edited email: each recipient gets it with their own name and label, and the §5 footer', async () => {
    const campaign = await createDraft(user, {
      mode: 'ai',
      track,
      email_subject: '[TRACK_NAME] for [LABEL_NAME]',
      email_body: 'Hi [CONTACT_NAME],\n\nA new [GENRE] track from [ARTIST_NAME]: [TRACK_URL]',
      total_recipients: 2,
    });
    const [forMara, forJuno] = [await preview(campaign, mara), await preview(campaign, juno)];
    expect(forMara).toMatchObject({ contact_id: mara.id, subject: 'Night Drive for Tidewater Records' });
    expect(forJuno).toMatchObject({ contact_id: juno.id, subject: 'Night Drive for Cobalt Relay Audio' });
    expect(forMara.text).toContain('Hi Mara Quellwood,');
    expect(forJuno.text).toContain('Hi Juno Halloway,');
    expect(forMara.html).not.toBe(forJuno.html);
    expect(forMara.html).toContain('Mara Quellwood');
    expect(forMara.html).not.toContain('Juno');
    expect(forMara.text).toContain('Deep House');
    expect(forMara.text).toContain(track.track_url);
    expect(forMara.text).toContain(UNSUBSCRIBE_FOOTER_TEXT);
  });

  it('an AI preview: the preview’s recipient gets the stored email with their name; another gets one written for them', async () => {
    const campaign = await generated(user, mara);
    const [forMara, forJuno] = [await preview(campaign, mara), await preview(campaign, juno)];
    // The writer greets a person by first name (issue 25), the preview's recipient as much as the others.
    expect(forMara.text).toMatch(/^Hi Mara,\n/);
    expect(forMara.text).not.toMatch(/\[(CONTACT|FIRST)_NAME\]/);
    expect(forMara.text).toContain('Tidewater Records');
    expect(forJuno.text).toMatch(/^Hi Juno,\n/);
    expect(forJuno.text).toContain('Cobalt Relay Audio');
    expect(forJuno.text).not.toContain('Mara');
    expect(forJuno.text).not.toContain('Tidewater');
  });

  it("stores the writer's text for a recipient once, so a second look and the send get the same text", async () => {
    const campaign = await generated(user, mara);
    const first = await preview(campaign, juno);
    const again = await preview(campaign, juno);
    expect(again).toEqual(first);
    const written = await queryAll(dynamodb().doc, {
      TableName: stack().tableName,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :written)',
      ExpressionAttributeValues: { ':pk': key.campaignPartition(campaign.id), ':written': 'WRITTEN#' },
    });
    // Juno's only: Mara's is the stored draft itself.
    expect(written).toHaveLength(1);
    expect(written[0]).toMatchObject({ entity: 'written_email' });
    expect(typeof written[0]!.expiresAt).toBe('number');
  });

  it('a follow-up step in the artist’s words: in the first email’s thread, placeholders filled for the recipient, with the footer', async () => {
    const campaign = await createDraft(user, {
      mode: 'ai',
      track,
      email_subject: '[TRACK_NAME] for [LABEL_NAME]',
      email_body: 'Hi [CONTACT_NAME]',
      total_recipients: 2,
    });
    const step = await preview(campaign, juno, { number: 2, step: { after_days: 9, writer: 'own', text: 'Hi [FIRST_NAME], one last nudge: [TRACK_URL]' } });
    expect(step.subject).toBe('Re: Night Drive for Cobalt Relay Audio');
    expect(step.text).toContain('Hi Juno, one last nudge: ' + track.track_url);
    expect(step.text).toContain(UNSUBSCRIBE_FOOTER_TEXT);
    expect(step.text).not.toContain('Hi Juno Halloway'); // not the first email again
  });

  it('a follow-up step by the AI: a short nudge written for this recipient from their first email, never a copy of it', async () => {
    const campaign = await generated(user, mara);
    const [first, step] = [await preview(campaign, juno), await preview(campaign, juno, { number: 1, step: { after_days: 4, writer: 'ai', text: null } })];
    expect(step.subject).toBe(`Re: ${first.subject}`);
    expect(step.text).toMatch(/^Hi Juno,\n/);
    expect(step.text).toContain(track.track_url);
    expect(step.text).not.toBe(first.text);
    expect(step.text.split(/\s+/).length).toBeLessThan(first.text.split(/\s+/).length);
  });

  it('refuses a step that is no step, and says why', async () => {
    const campaign = await createDraft(user, { mode: 'ai', track, email_subject: 's', email_body: 'b', total_recipients: 1 });
    const post = (follow_up: unknown) =>
      api(user, `/api/campaigns/${campaign.id}/recipient-preview`, { method: 'POST', body: { contact_id: mara.id, follow_up } });
    expect(await post({ number: 1, step: { after_days: 31, writer: 'ai', text: null } })).toMatchObject({
      status: 400,
      json: { message: `follow_up.step.after_days: ${followUpMessages.daysRange}` },
    });
    expect(await post({ number: 1, step: { after_days: 4, writer: 'own', text: '  ' } })).toMatchObject({
      status: 400,
      json: { message: `follow_up.step.text: ${followUpMessages.textRequired}` },
    });
    expect((await post({ number: 3, step: { after_days: 4, writer: 'ai', text: null } })).status).toBe(400);
  });

  it('404s a campaign or contact that is not there', async () => {
    const campaign = await createDraft(user, { mode: 'ai', track, email_subject: 's', email_body: 'b', total_recipients: 1 });
    const post = (id: string, contact_id: string) => api(user, `/api/campaigns/${id}/recipient-preview`, { method: 'POST', body: { contact_id } });
    expect(await post(UNKNOWN_CAMPAIGN, mara.id)).toMatchObject({ status: 404, json: { message: composeMessages.campaignNotFound } });
    expect(await post('x', mara.id)).toMatchObject({ status: 404, json: { message: composeMessages.campaignNotFound } });
    expect(await post(campaign.id, UNKNOWN_CONTACT)).toMatchObject({ status: 404, json: { message: composeMessages.contactNotFound } });
    expect(await post(campaign.id, 'nope')).toMatchObject({ status: 404, json: { message: composeMessages.contactNotFound } });
  });
});

describe('another user’s campaign and contacts', () => {
  let owner: TestUser;
  let intruder: TestUser;
  let ownersContact: Contact;
  let intrudersContact: Contact;
  let campaign: Campaign;
  let intrudersCampaign: Campaign;
  beforeAll(async () => {
    [owner, intruder] = await Promise.all([createUser(), createUser()]);
    [ownersContact, intrudersContact] = await Promise.all([
      addContact(owner, { name: 'Liora Penrith', label_name: 'Umber Kiln' }),
      addContact(intruder, { name: 'Oskar Fairhall', label_name: 'Rust Atlas' }),
    ]);
    campaign = await generated(owner, ownersContact);
    intrudersCampaign = await createDraft(intruder, { mode: 'ai', track, email_subject: 's', email_body: 'b', total_recipients: 1 });
  });

  const notFound = (message: string) => ({ status: 404, json: { message } });

  it('is 404 on every route that takes an id, exactly as a missing id', async () => {
    const path = `/api/campaigns/${campaign.id}`;
    expect(await api(intruder, path)).toMatchObject(notFound(composeMessages.campaignNotFound));
    expect(
      await api(intruder, path, { method: 'PUT', body: { mode: 'ai', track, email_subject: 'mine', email_body: 'mine', total_recipients: 1 } }),
    ).toMatchObject(notFound(composeMessages.campaignNotFound));
    expect(await api(intruder, path, { method: 'PATCH', body: { email_subject: 'mine', email_body: 'mine' } })).toMatchObject(
      notFound(composeMessages.campaignNotFound),
    );
    expect(await api(intruder, `${path}/recipient-preview`, { method: 'POST', body: { contact_id: intrudersContact.id } })).toMatchObject(
      notFound(composeMessages.campaignNotFound),
    );
    expect(
      await api(intruder, `/api/campaigns/${intrudersCampaign.id}/recipient-preview`, { method: 'POST', body: { contact_id: ownersContact.id } }),
    ).toMatchObject(notFound(composeMessages.contactNotFound));
    expect(await generate(intruder, { track, contact_id: ownersContact.id, total_recipients: 1 })).toMatchObject(notFound(composeMessages.contactNotFound));
    expect(await generate(intruder, { campaign_id: campaign.id, track, contact_id: intrudersContact.id, total_recipients: 1 })).toMatchObject(
      notFound(composeMessages.campaignNotFound),
    );
  });

  it('leaves the owner’s campaign untouched and out of the intruder’s list', async () => {
    expect((await api(owner, `/api/campaigns/${campaign.id}`)).json).toEqual(campaign);
    expect((await listCampaigns(intruder)).map((c) => c.id)).toEqual([intrudersCampaign.id]);
    expect((await listCampaigns(owner)).map((c) => c.id)).toEqual([campaign.id]);
  });
});

describe('a writer failure', () => {
  let server: LocalServer | undefined;
  let own: ReturnType<typeof callAt>;
  let failure: WriterFailure = 'busy';
  let writes = 0;
  /** When set, the writer answers with this email instead of failing. */
  let reply: WrittenEmail | undefined;
  const failingWriter: EmailWriter = {
    write: () => {
      writes++;
      if (reply) return Promise.resolve(reply);
      return Promise.reject(new WriterError(failure, `the model said no (${failure})`, { cause: new Error('ThrottlingException') }));
    },
  };

  beforeAll(async () => {
    const db = dynamodb().doc;
    const tableName = stack().tableName;
    const ids = ulidGenerator();
    const campaigns = makeHandler({
      campaigns: new DynamoCampaignStore(db, tableName, { ids }),
      contacts: new DynamoContactStore(db, tableName),
      profiles: new DynamoProfileStore(db, tableName),
      pitches: new DynamoPitchStore(db, tableName),
      writer: failingWriter,
      allowances: new DynamoAllowanceStore(db, tableName),
      tracks: new DynamoTrackStore(db, tableName),
      sanitizer: new DomPurifySanitizer(),
      written: new DynamoWrittenEmailStore(db, tableName),
      clock: systemClock,
    }) as LambdaHandler;
    server = await startServer({ loadHandler: async (group) => (group === 'campaigns' ? campaigns : importHandler(group, stackConfig())) });
    own = callAt(server.url);
  });

  afterAll(async () => {
    await server?.close();
  });

  it('answers with a clear message for each reason and saves nothing', async () => {
    const user = await createUser();
    const contact = await addContact(user, { name: 'Calla Morrow', label_name: 'Zinc Orchard' });
    const expected: [WriterFailure, number, string][] = [
      ['busy', 503, composeMessages.writerBusy],
      ['timeout', 504, composeMessages.writerTimeout],
      ['invalid_reply', 502, composeMessages.invalidPreviewFormat],
      ['no_listen_link', 502, composeMessages.writerLeftOutListenLink],
      ['failed', 502, composeMessages.writerFailed],
    ];
    for (const [reason, status, message] of expected) {
      failure = reason;
      const response = await own('/api/campaigns/generate-preview', {
        method: 'POST',
        token: user.idToken,
        body: { track, contact_id: contact.id, total_recipients: 1 },
      });
      expect(response, reason).toMatchObject({ status, json: { message } });
    }
    expect(writes).toBe(expected.length);
    expect(await storedCampaigns(user.sub)).toEqual([]);
    expect(await listCampaigns(user)).toEqual([]);
  });

  it('an uploaded track’s email that left out the listen link is refused, saying so, and nothing is saved', async () => {
    const user = await createUser();
    const contact = await addContact(user, { name: 'Ines Halloran', label_name: 'Quiet Pylon' });
    const tracks = new DynamoTrackStore(dynamodb().doc, stack().tableName);
    const trackId = ulidGenerator().next(new Date());
    const audio = { name: 'Night Drive', audio_key: `tracks/${user.sub}/${trackId}`, content_type: 'audio/wav', size_bytes: 1000 };
    await tracks.createPending(user.sub, { id: trackId, status: 'pending', created_at: new Date().toISOString(), ...audio }, new Date(Date.now() + 86_400_000));
    await tracks.markReady(user.sub, trackId, { format: 'wav', duration_seconds: 8, sample_rate: 8000, size_bytes: 1000, peaks: [0.5] });
    reply = { subject: 'Night Drive', body: 'Hi Ines, it is on my SoundCloud.\n\nNOVA' };
    try {
      const response = await own('/api/campaigns/generate-preview', {
        method: 'POST',
        token: user.idToken,
        body: { track: { ...track, track_url: '', track_id: trackId }, contact_id: contact.id, total_recipients: 1 },
      });
      expect(response).toMatchObject({ status: 502, json: { message: composeMessages.writerLeftOutListenLink } });
    } finally {
      reply = undefined;
    }
    expect(await storedCampaigns(user.sub)).toEqual([]);
  });

  it('leaves the draft being regenerated as it was', async () => {
    const user = await createUser();
    const contact = await addContact(user, { name: 'Dov Grisewood', label_name: 'Sable Quarry' });
    const draft = await generated(user, contact);
    failure = 'busy';
    const response = await own('/api/campaigns/generate-preview', {
      method: 'POST',
      token: user.idToken,
      body: { campaign_id: draft.id, track: { ...track, track_name: 'Another' }, contact_id: contact.id, total_recipients: 9 },
    });
    expect(response).toMatchObject({ status: 503, json: { message: composeMessages.writerBusy } });
    expect((await api(user, `/api/campaigns/${draft.id}`)).json).toEqual(draft);
  });
});

describe('deleting drafts (issue 25 §3): DELETE /api/campaigns/{id} and POST /api/campaigns/bulk-delete', () => {
  const draftBody = { mode: 'ai', track, email_subject: 'Night Drive', email_body: 'Hi [CONTACT_NAME]', total_recipients: 1 };
  /** The dashboard's "Total Campaigns" and "Campaigns This Month": sent campaigns only, so no draft ever moves them. */
  const campaignFigures = async (user: TestUser) => {
    const response = await api(user, '/api/dashboard');
    expect(response.status, JSON.stringify(response.json)).toBe(200);
    const { total_campaigns, campaigns_this_month } = response.json as { total_campaigns: number; campaigns_this_month: number };
    return { total_campaigns, campaigns_this_month };
  };
  const noCampaigns = { total_campaigns: 0, campaigns_this_month: 0 };

  /** Every item of the campaign's own partition (the writer's emails, recipients), consistent. */
  const partitionItems = (campaignId: string) =>
    queryAll(dynamodb().doc, {
      TableName: stack().tableName,
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': key.campaignPartition(campaignId) },
      ConsistentRead: true,
    });

  /**
   * An AI draft with what a draft leaves in its partition: the writer's email for a second recipient
   * (their per-recipient preview) and a recipient of a first batch the sending store refused (the
   * mailbox was disconnected between its RCPT writes and its transaction).
   */
  async function draftWithItems(user: TestUser, first: Contact, second: Contact): Promise<Campaign> {
    const draft = await generated(user, first);
    const preview = await api(user, `/api/campaigns/${draft.id}/recipient-preview`, { method: 'POST', body: { contact_id: second.id } });
    expect(preview.status, JSON.stringify(preview.json)).toBe(200);
    await dynamodb().doc.send(
      new PutCommand({
        TableName: stack().tableName,
        Item: { PK: key.campaignPartition(draft.id), SK: key.recipient(0), entity: 'recipient', campaign_id: draft.id, user_id: user.sub, status: 'pending' },
      }),
    );
    expect((await partitionItems(draft.id)).map((item) => String(item.SK).split('#')[0]).sort()).toEqual(['RCPT', 'WRITTEN']);
    return draft;
  }

  it('deletes one draft of the caller (204) and a second delete is 404; drafts never count as campaigns', async () => {
    const user = await createUser();
    const [kept, doomed] = [await createDraft(user, draftBody), await createDraft(user, draftBody)];
    expect(await campaignFigures(user)).toEqual(noCampaigns);
    expect(await api(user, `/api/campaigns/${doomed.id}`, { method: 'DELETE' })).toMatchObject({ status: 204 });
    expect((await listCampaigns(user)).map((c) => c.id)).toEqual([kept.id]);
    expect(await storedCampaigns(user.sub)).toHaveLength(1);
    expect(await campaignFigures(user)).toEqual(noCampaigns);
    expect(await api(user, `/api/campaigns/${doomed.id}`, { method: 'DELETE' })).toMatchObject({
      status: 404,
      json: { message: composeMessages.campaignNotFound },
    });
    expect(await campaignFigures(user)).toEqual(noCampaigns);
  });

  it('a deleted draft leaves nothing behind: its written emails and recipients go with it, one or in bulk', async () => {
    const user = await createUser({ name: 'Nova Reyes' });
    const [mara, juno] = [
      await addContact(user, { name: 'Mara Quellwood', label_name: 'Tidewater Records' }),
      await addContact(user, { name: 'Juno Halloway', label_name: 'Cobalt Relay Audio' }),
    ];
    const one = await draftWithItems(user, mara, juno);
    const bulk = [await draftWithItems(user, mara, juno), await draftWithItems(user, juno, mara)];
    const kept = await draftWithItems(user, mara, juno);
    const keptItems = await partitionItems(kept.id);

    expect(await api(user, `/api/campaigns/${one.id}`, { method: 'DELETE' })).toMatchObject({ status: 204 });
    expect(await partitionItems(one.id)).toEqual([]);
    const response = await api(user, '/api/campaigns/bulk-delete', { method: 'POST', body: { ids: bulk.map((d) => d.id) } });
    expect(response).toMatchObject({ status: 200, json: { deleted: bulk.map((d) => d.id) } });
    for (const draft of bulk) expect(await partitionItems(draft.id)).toEqual([]);
    // The user's partition holds only the draft that was kept, whose items are all there.
    expect((await storedCampaigns(user.sub)).map((c) => c.id)).toEqual([kept.id]);
    expect(await partitionItems(kept.id)).toEqual(keptItems);
    expect(await campaignFigures(user)).toEqual(noCampaigns);
  });

  it('keeps a campaign that left draft (409, with why) and another user’s draft and its items (404, as a missing id)', async () => {
    const [owner, intruder] = await Promise.all([createUser({ name: 'Nova Reyes' }), createUser()]);
    const [mara, juno] = [
      await addContact(owner, { name: 'Mara Quellwood', label_name: 'Tidewater Records' }),
      await addContact(owner, { name: 'Juno Halloway', label_name: 'Cobalt Relay Audio' }),
    ];
    const sent = await draftWithItems(owner, mara, juno);
    await startSending(owner.sub, sent.id);
    const draft = await draftWithItems(owner, mara, juno);
    const [sentItems, draftItems] = [await partitionItems(sent.id), await partitionItems(draft.id)];
    expect(await api(owner, `/api/campaigns/${sent.id}`, { method: 'DELETE' })).toMatchObject({
      status: 409,
      json: { message: composeMessages.notDraftDelete },
    });
    expect(await api(intruder, `/api/campaigns/${draft.id}`, { method: 'DELETE' })).toMatchObject({
      status: 404,
      json: { message: composeMessages.campaignNotFound },
    });
    expect(await api(intruder, '/api/campaigns/bulk-delete', { method: 'POST', body: { ids: [draft.id, sent.id] } })).toMatchObject({
      status: 404,
      json: { message: composeMessages.campaignNotFound },
    });
    expect((await listCampaigns(owner)).map((c) => c.id).sort()).toEqual([sent.id, draft.id].sort());
    expect(await partitionItems(sent.id)).toEqual(sentItems);
    expect(await partitionItems(draft.id)).toEqual(draftItems);
  });

  it('bulk delete removes the caller’s drafts among the ids and answers which; sent, unknown and malformed ids are left alone', async () => {
    const user = await createUser();
    const drafts = [await createDraft(user, draftBody), await createDraft(user, draftBody), await createDraft(user, draftBody)];
    const sent = await createDraft(user, draftBody);
    await startSending(user.sub, sent.id);
    const ids = [drafts[0]!.id, drafts[1]!.id, drafts[1]!.id, sent.id, UNKNOWN_CAMPAIGN, 'not-a-ulid'];
    const response = await api(user, '/api/campaigns/bulk-delete', { method: 'POST', body: { ids } });
    expect(response).toMatchObject({ status: 200, json: { deleted: [drafts[0]!.id, drafts[1]!.id] } });
    expect((await listCampaigns(user)).map((c) => c.id).sort()).toEqual([drafts[2]!.id, sent.id].sort());
    expect(await campaignFigures(user)).toEqual(noCampaigns);
    expect(await api(user, '/api/campaigns/bulk-delete', { method: 'POST', body: { ids: [] } })).toMatchObject({
      status: 400,
      json: { message: 'ids: Select at least one draft.' },
    });
  });
});

describe('the AI preview allowance (issue 26)', () => {
  let server: LocalServer | undefined;
  let own: ReturnType<typeof callAt>;
  let writes = 0;
  /** The clock the handler reads: a fixed instant the test moves. */
  let now = new Date('2026-11-28T10:10:00.000Z');
  const countingWriter: EmailWriter = {
    write: () => {
      writes++;
      return Promise.resolve({ subject: 'Night Drive', body: 'Hi [FIRST_NAME], here is Night Drive: https://soundcloud.com/nova/night-drive\n\nNOVA' });
    },
  };
  const free = planOf('free').aiPreviews;

  beforeAll(async () => {
    const db = dynamodb().doc;
    const tableName = stack().tableName;
    const campaigns = makeHandler({
      campaigns: new DynamoCampaignStore(db, tableName, { ids: ulidGenerator() }),
      contacts: new DynamoContactStore(db, tableName),
      profiles: new DynamoProfileStore(db, tableName),
      pitches: new DynamoPitchStore(db, tableName),
      writer: countingWriter,
      allowances: new DynamoAllowanceStore(db, tableName),
      tracks: new DynamoTrackStore(db, tableName),
      sanitizer: new DomPurifySanitizer(),
      written: new DynamoWrittenEmailStore(db, tableName),
      clock: { now: () => now },
    }) as LambdaHandler;
    server = await startServer({ loadHandler: async (group) => (group === 'campaigns' ? campaigns : importHandler(group, stackConfig())) });
    own = callAt(server.url);
  });

  afterAll(async () => {
    await server?.close();
  });

  const preview = (user: TestUser, contact: Contact) =>
    own('/api/campaigns/generate-preview', { method: 'POST', token: user.idToken, body: { track, contact_id: contact.id, total_recipients: 1 } });

  it("lets a Free user's previews call the writer the plan's hourly number of times, then answers 429 saying when, without calling it", async () => {
    now = new Date('2026-11-28T10:10:00.000Z');
    const user = await createUser();
    const contact = await addContact(user, { name: 'Calla Morrow', label_name: 'Zinc Orchard' });
    const before = writes;
    for (let i = 0; i < free.perHour; i++) expect((await preview(user, contact)).status, `preview ${String(i + 1)}`).toBeOneOf([200, 201]);
    expect(writes - before).toBe(free.perHour);

    const refused = await preview(user, contact);
    expect(refused.status).toBe(429);
    expect(refused.json).toEqual({
      message: `You have used the ${String(free.perHour)} AI previews your plan allows per hour. More are available in 50 minutes.`,
      code: 'ai_preview_allowance',
    });
    expect(refused.headers.get('retry-after')).toBe('3000');
    expect(writes - before).toBe(free.perHour);

    // Another user's allowance is their own.
    const other = await createUser();
    expect((await preview(other, await addContact(other, { name: 'Ines Halloran', label_name: 'Quiet Pylon' }))).status).toBe(201);

    // The next hour has its own places.
    now = new Date('2026-11-28T11:00:00.000Z');
    expect((await preview(user, contact)).status).toBeOneOf([200, 201]);
    expect(writes - before).toBe(free.perHour + 2);
  });

  it('counts the month too: a month used up is refused until the next Pacific month, whatever the hour', async () => {
    const user = await createUser();
    const contact = await addContact(user, { name: 'Dov Grisewood', label_name: 'Sable Quarry' });
    // The month's count as if earlier hours of it had used it all.
    await dynamodb().doc.send(
      new UpdateCommand({
        TableName: stack().tableName,
        Key: { PK: key.user(user.sub), SK: key.allowance('ai_preview', 'M2026-11') },
        UpdateExpression: 'SET used = :used',
        ExpressionAttributeValues: { ':used': free.perMonth - 1 },
      }),
    );
    now = new Date('2026-11-28T12:30:00.000Z');
    expect((await preview(user, contact)).status).toBe(201);
    const refused = await preview(user, contact);
    expect(refused).toMatchObject({
      status: 429,
      json: { message: `You have used the ${String(free.perMonth)} AI previews your plan allows per month. More are available on December 1.` },
    });
    // The refused take counted in no window: the hour still has all but one of its places.
    const hour = await dynamodb().doc.send(
      new GetCommand({ TableName: stack().tableName, Key: { PK: key.user(user.sub), SK: key.allowance('ai_preview', 'H2026-11-28T12') } }),
    );
    expect(hour.Item?.used).toBe(1);
    // December 1 00:00 in Los Angeles is 08:00 UTC.
    now = new Date('2026-12-01T08:00:00.000Z');
    expect((await preview(user, contact)).status).toBeOneOf([200, 201]);
  });

  it("a per-recipient preview already written takes no place; a new one does; a paid plan's allowance is its own", async () => {
    now = new Date('2026-11-28T13:05:00.000Z');
    const user = await createUser();
    const contact = await addContact(user, { name: 'Mara Velvet', label_name: 'Velvet Works' });
    const second = await addContact(user, { name: 'Theo Kern', label_name: 'Kern Audio' });
    const draft = (await preview(user, contact)).json as unknown as Campaign;
    const recipientPreview = (c: Contact) =>
      own(`/api/campaigns/${draft.id}/recipient-preview`, { method: 'POST', token: user.idToken, body: { contact_id: c.id } });
    expect((await recipientPreview(second)).status).toBe(200);
    const before = writes;
    for (let i = 0; i < 3; i++) expect((await recipientPreview(second)).status).toBe(200);
    expect(writes).toBe(before);
    const used = async (): Promise<unknown> =>
      (
        await dynamodb().doc.send(
          new GetCommand({ TableName: stack().tableName, Key: { PK: key.user(user.sub), SK: key.allowance('ai_preview', 'H2026-11-28T13') } }),
        )
      ).Item?.used;
    expect(await used()).toBe(2);

    await dynamodb().doc.send(
      new UpdateCommand({
        TableName: stack().tableName,
        Key: { PK: key.user(user.sub), SK: key.allowance('ai_preview', 'H2026-11-28T13') },
        UpdateExpression: 'SET used = :used',
        ExpressionAttributeValues: { ':used': free.perHour },
      }),
    );
    expect((await preview(user, contact)).status).toBe(429);
    await dynamodb().doc.send(
      new UpdateCommand({
        TableName: stack().tableName,
        Key: { PK: key.user(user.sub), SK: key.profile() },
        UpdateExpression: 'SET tier = :pro',
        ExpressionAttributeValues: { ':pro': 'pro' },
      }),
    );
    expect((await preview(user, contact)).status).toBeOneOf([200, 201]);
    expect(await used()).toBe(free.perHour + 1);
  });

  it('concurrent previews take exactly the places left', async () => {
    now = new Date('2026-11-28T14:20:00.000Z');
    const user = await createUser();
    const contact = await addContact(user, { name: 'Rio Static', label_name: 'Static Kiln' });
    await dynamodb().doc.send(
      new UpdateCommand({
        TableName: stack().tableName,
        Key: { PK: key.user(user.sub), SK: key.allowance('ai_preview', 'H2026-11-28T14') },
        UpdateExpression: 'SET used = :used',
        ExpressionAttributeValues: { ':used': free.perHour - 3 },
      }),
    );
    const answers = await Promise.all(Array.from({ length: 8 }, () => preview(user, contact)));
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(5);
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(3);
  });
});
