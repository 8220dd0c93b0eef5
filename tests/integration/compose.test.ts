/**
 * The Compose pickers end to end: local server → JWT authorizer → lambdas/http/compose.ts → DynamoDB
 * Local. Campaign templates (the three seeded system templates first, then the user's own by name;
 * save and delete), saved contact lists (newest first; save, delete), and another user's ids → 404.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { systemTemplates } from '../../lib/local/seed';
import { composeMessages, savedContactListSchema, type SavedContactList } from '../../schema/api/campaigns';
import { campaignTemplateSchema, type CampaignTemplate } from '../../schema/api/templates';
import { key } from '../../schema/table';
import { call, createUser, dynamodb, stack, type ApiOptions, type TestUser } from './helpers';
import { stringMatching } from '../support/matchers';

const api = (user: TestUser, path: string, options: Omit<ApiOptions, 'token'> = {}) => call(path, { ...options, token: user.idToken });

const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;
const UNKNOWN_ID = '01KAKZ3R0000000000000000ZZ';
const TEMPLATE_FIELDS = Object.keys(campaignTemplateSchema.shape).sort();
const LIST_FIELDS = Object.keys(savedContactListSchema.shape).sort();

const templatesOf = async (user: TestUser): Promise<CampaignTemplate[]> => {
  const response = await api(user, '/api/templates');
  expect(response.status).toBe(200);
  return (response.json as { templates: CampaignTemplate[] }).templates;
};

const listsOf = async (user: TestUser): Promise<SavedContactList[]> => {
  const response = await api(user, '/api/contact-lists');
  expect(response.status).toBe(200);
  return (response.json as { lists: SavedContactList[] }).lists;
};

async function saveTemplate(user: TestUser, fields: Record<string, unknown>): Promise<CampaignTemplate> {
  const response = await api(user, '/api/templates', {
    method: 'POST',
    body: { subject: 'New music: {{track_name}}', body: 'Hi {{contact_name}},\n\nA new track.', ...fields },
  });
  expect(response.status, JSON.stringify(response.json)).toBe(201);
  return response.json as unknown as CampaignTemplate;
}

async function saveList(user: TestUser, fields: Record<string, unknown>): Promise<SavedContactList> {
  const response = await api(user, '/api/contact-lists', {
    method: 'POST',
    body: { contact_types: ['Label'], selected_genres: [], contact_ids: [], ...fields },
  });
  expect(response.status, JSON.stringify(response.json)).toBe(201);
  return response.json as unknown as SavedContactList;
}

const SYSTEM_NAMES = ['Demo to Label', 'DJ Promo', 'Fan Preview'];

describe('campaign templates', () => {
  let user: TestUser;
  beforeAll(async () => {
    user = await createUser();
  });

  it('a new user sees the three system templates, by name', async () => {
    const templates = await templatesOf(user);
    expect(templates.map((t) => t.name)).toEqual(SYSTEM_NAMES);
    expect(templates).toEqual(SYSTEM_NAMES.map((name) => systemTemplates.find((t) => t.name === name)));
    for (const template of templates) {
      expect(Object.keys(template).sort()).toEqual(TEMPLATE_FIELDS);
      expect(template.is_system_template).toBe(true);
    }
  });

  it('saves a user template (201) and lists the user’s after the system ones, by name ignoring case', async () => {
    const zebra = await saveTemplate(user, { name: '  zebra promo ', ai_tone: 'casual' });
    expect(zebra).toEqual({
      id: stringMatching(ULID),
      name: 'zebra promo',
      description: 'A new track.',
      subject_template: 'New music: {{track_name}}',
      body_template: 'Hi {{contact_name}},\n\nA new track.',
      ai_tone: 'casual',
      is_system_template: false,
    });
    const alpha = await saveTemplate(user, { name: 'Alpha pitch', body: 'Short and sweet' });
    const beta = await saveTemplate(user, { name: 'beta', body: '{{SOCIAL_LINKS}}\n\n{{UNSUBSCRIBE_FOOTER}}' });
    expect(alpha).toMatchObject({ ai_tone: 'professional', description: 'Short and sweet' });
    expect(beta.description).toBe('Your saved template');
    const templates = await templatesOf(user);
    expect(templates.map((t) => t.name)).toEqual([...SYSTEM_NAMES, 'Alpha pitch', 'beta', 'zebra promo']);
    expect(templates.slice(3)).toEqual([alpha, beta, zebra]);
    const { Item } = await dynamodb().doc.send(
      new GetCommand({ TableName: stack().tableName, Key: { PK: key.user(user.sub), SK: key.userTemplate(alpha.id) } }),
    );
    expect(Item).toMatchObject({ name: 'Alpha pitch', is_system_template: false });
  });

  it('needs a name (spec text), a subject and a body', async () => {
    for (const name of [undefined, '', '   ', null]) {
      const body = { subject: 's', body: 'b', ...(name === undefined ? {} : { name }) };
      expect(await api(user, '/api/templates', { method: 'POST', body }), String(name)).toMatchObject({
        status: 400,
        json: { message: composeMessages.templateNameRequired },
      });
    }
    expect(await api(user, '/api/templates', { method: 'POST', body: { name: 'n', subject: ' ', body: 'b' } })).toMatchObject({
      status: 400,
      json: { message: composeMessages.subjectAndBodyRequired },
    });
    // A template body is held to the template contract's 20,000 characters, so the list stays readable.
    const before = await templatesOf(user);
    expect(await api(user, '/api/templates', { method: 'POST', body: { name: 'Huge', subject: 's', body: 'x'.repeat(20_001) } })).toMatchObject({
      status: 400,
      json: { message: 'body: Must be at most 20000 characters' },
    });
    expect(await templatesOf(user)).toEqual(before);
    expect((await saveTemplate(user, { name: 'Largest', body: 'x'.repeat(20_000) })).body_template).toHaveLength(20_000);
    expect(await api(user, '/api/templates', { method: 'POST', body: { name: 'n', subject: 's', body: 'b', is_system_template: true } })).toMatchObject({
      status: 400,
      json: { message: 'Unknown field: is_system_template' },
    });
  });

  it('deletes a user template (204, then 404); a system template’s id is 404 and the system templates stay', async () => {
    const other = await createUser();
    const template = await saveTemplate(other, { name: 'Temporary' });
    expect((await api(other, `/api/templates/${template.id}`, { method: 'DELETE' })).status).toBe(204);
    expect(await templatesOf(other)).toHaveLength(3);
    expect(await api(other, `/api/templates/${template.id}`, { method: 'DELETE' })).toMatchObject({
      status: 404,
      json: { message: composeMessages.templateNotFound },
    });
    for (const id of [...systemTemplates.map((t) => t.id), UNKNOWN_ID, 'Demo to Label']) {
      expect(await api(other, `/api/templates/${encodeURIComponent(id)}`, { method: 'DELETE' }), id).toMatchObject({
        status: 404,
        json: { message: composeMessages.templateNotFound },
      });
    }
    expect((await templatesOf(other)).map((t) => t.name)).toEqual(SYSTEM_NAMES);
  });
});

describe('saved contact lists', () => {
  let user: TestUser;
  beforeAll(async () => {
    user = await createUser();
  });

  it('a new user has none', async () => {
    expect(await listsOf(user)).toEqual([]);
  });

  it('saves a list (201, repeated ids kept once in their order) and loads the lists newest first', async () => {
    const first = await saveList(user, {
      name: '  Deep house labels ',
      contact_types: ['Label', 'DJ', 'Label'],
      selected_genres: [' Deep House ', 'techno', 'deep house'],
      contact_ids: ['bbbbbbbbbbbbbbbbbbbbbb', 'aaaaaaaaaaaaaaaaaaaaaa', 'bbbbbbbbbbbbbbbbbbbbbb', 'cccccccccccccccccccccc'],
    });
    expect(first).toEqual({
      id: stringMatching(ULID),
      name: 'Deep house labels',
      contact_types: ['Label', 'DJ'],
      selected_genres: ['deep house', 'techno'],
      contact_ids: ['bbbbbbbbbbbbbbbbbbbbbb', 'aaaaaaaaaaaaaaaaaaaaaa', 'cccccccccccccccccccccc'],
      created_at: stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
    const second = await saveList(user, { name: 'Fans', contact_types: ['Fan'] });
    const lists = await listsOf(user);
    expect(lists).toEqual([second, first]);
    for (const list of lists) expect(Object.keys(list).sort()).toEqual(LIST_FIELDS);
  });

  it('needs a name (spec text)', async () => {
    const before = await listsOf(user);
    for (const name of [undefined, '', '  ']) {
      const body = { contact_types: [], selected_genres: [], contact_ids: [], ...(name === undefined ? {} : { name }) };
      expect(await api(user, '/api/contact-lists', { method: 'POST', body })).toMatchObject({
        status: 400,
        json: { message: composeMessages.listNameRequired },
      });
    }
    expect(
      await api(user, '/api/contact-lists', { method: 'POST', body: { name: 'x', contact_types: ['Promoter'], selected_genres: [], contact_ids: [] } }),
    ).toMatchObject({ status: 400 });
    expect(await listsOf(user)).toEqual(before);
  });

  it('deletes a list (204, then 404)', async () => {
    const list = await saveList(user, { name: 'Short-lived' });
    expect((await api(user, `/api/contact-lists/${list.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await listsOf(user)).map((l) => l.id)).not.toContain(list.id);
    for (const id of [list.id, UNKNOWN_ID, 'not-a-list']) {
      expect(await api(user, `/api/contact-lists/${id}`, { method: 'DELETE' })).toMatchObject({ status: 404, json: { message: composeMessages.listNotFound } });
    }
  });
});

describe('another user’s templates and lists', () => {
  let owner: TestUser;
  let intruder: TestUser;
  let template: CampaignTemplate;
  let list: SavedContactList;
  beforeAll(async () => {
    [owner, intruder] = await Promise.all([createUser(), createUser()]);
    [template, list] = await Promise.all([saveTemplate(owner, { name: 'Owner only' }), saveList(owner, { name: 'Owner list' })]);
  });

  it('cannot be deleted (404, as a missing id) and stay the owner’s', async () => {
    expect(await api(intruder, `/api/templates/${template.id}`, { method: 'DELETE' })).toMatchObject({
      status: 404,
      json: { message: composeMessages.templateNotFound },
    });
    expect(await api(intruder, `/api/contact-lists/${list.id}`, { method: 'DELETE' })).toMatchObject({
      status: 404,
      json: { message: composeMessages.listNotFound },
    });
    expect((await templatesOf(owner)).map((t) => t.id)).toContain(template.id);
    expect(await listsOf(owner)).toEqual([list]);
  });

  it('are never listed for another user', async () => {
    expect((await templatesOf(intruder)).map((t) => t.name)).toEqual(SYSTEM_NAMES);
    expect(await listsOf(intruder)).toEqual([]);
  });
});
