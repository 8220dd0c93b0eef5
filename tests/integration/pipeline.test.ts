/**
 * The pitch pipeline (issue 28 §1, DESIGN §16) on DynamoDB Local: a track pitched to four contacts by the
 * real sender worker, then the recipients' events (an open, a listen, answers) and the artist's Replied
 * mark move each contact's PITCHED item in the event's own transaction; the routes (through the local
 * server → JWT authorizer → lambdas/http/pipeline.ts) read the board, the Tracks page, the to-dos and a
 * contact's tracks, and set the artist's marks (one conditional write that no later event overwrites).
 * Another user's track keys and address ids are the same 404 as missing ones, and change nothing. A
 * board of 500 contacts is read in at most 3 queries; the to-dos among 300 pitches in one Query of their
 * sparse index that reads the to-dos only. The backfill gives older items what the logs say, their place
 * in the to-dos too. A contact added from LabelFinder and sent through the send route is on the board with
 * the entry's label size.
 */
import { BatchWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeDocumentClient } from '../../lambdas/adapters/dynamodb/client';
import { rebuildPipeline } from '../../lambdas/adapters/dynamodb/countersBackfill';
import { DynamoListenStore } from '../../lambdas/adapters/dynamodb/listenStore';
import { DynamoPipelineStore } from '../../lambdas/adapters/dynamodb/pipelineStore';
import { todoIndexKeys } from '../../lambdas/adapters/dynamodb/pitchedEvents';
import { DynamoTrackingStore } from '../../lambdas/adapters/dynamodb/trackingStore';
import { addressId } from '../../lambdas/core/addressId';
import { pitchKey } from '../../lambdas/core/sender';
import { pipelineApiMessages } from '../../lambdas/http/pipeline';
import type { EmailToken } from '../../lambdas/ports';
import { directoryEntries } from '../../lib/local/seed';
import type { Campaign } from '../../schema/api/campaigns';
import type { Contact } from '../../schema/api/contacts';
import { directoryDefaults } from '../../schema/api/directory';
import type { ContactTrackList, PipelineBoard, PipelineEntry, PipelineTodoList, PipelineTrackList } from '../../schema/api/pipeline';
import type { ListenAnswer } from '../../schema/api/listenValues';
import { indexes, key } from '../../schema/table';
import { call, createUser, stack, uniqueEmail, type ApiOptions, type TestUser } from './helpers';
import { contactFor, countingClient, sendingWorld, type SendingWorld } from './sendingFixtures';

const api = (user: TestUser, path: string, options: Omit<ApiOptions, 'token'> = {}) => call(path, { ...options, token: user.idToken });

/** A document client that keeps what each Query read: which index (none: the table), how many items it scanned and returned. */
function queryRecordingClient() {
  const db = makeDocumentClient({ tableName: stack().tableName, region: stack().region, endpoint: stack().dynamoEndpoint });
  const queries: { index: string | undefined; scanned: number | undefined; returned: number | undefined }[] = [];
  db.middlewareStack.add(
    (next, context) => async (args) => {
      const result = await next(args);
      if (context.commandName === 'QueryCommand') {
        const output = result.output as { ScannedCount?: number; Count?: number };
        queries.push({ index: (args.input as { IndexName?: string }).IndexName, scanned: output.ScannedCount, returned: output.Count });
      }
      return result;
    },
    { step: 'initialize', name: 'recordQueries' },
  );
  return { db, queries };
}

/** A document client that keeps every transaction it sends (its items' keys), to see what moved together. */
function capturingClient() {
  const db = makeDocumentClient({ tableName: stack().tableName, region: stack().region, endpoint: stack().dynamoEndpoint });
  const transactions: string[][] = [];
  db.middlewareStack.add(
    (next) => async (args) => {
      const input = args.input as { TransactItems?: Record<string, { Key?: { PK: string; SK: string }; Item?: { PK: string; SK: string } }>[] };
      if (input.TransactItems) {
        transactions.push(
          input.TransactItems.map((item) => {
            const [write] = Object.values(item);
            const itemKey = write?.Key ?? write?.Item;
            return `${itemKey?.PK}|${itemKey?.SK}`;
          }),
        );
      }
      return next(args);
    },
    { step: 'initialize', name: 'captureTransactions' },
  );
  return { db, transactions };
}

describe('the pitch pipeline of a track', () => {
  let owner: TestUser;
  let other: TestUser;
  let world: SendingWorld;
  let campaign: Campaign;
  let contacts: Contact[];
  let tokens: EmailToken[];
  let trackKey: string;
  let neverPitched: Contact;
  let captured: ReturnType<typeof capturingClient>;
  let tracking: DynamoTrackingStore;
  let listen: DynamoListenStore;

  const pitchedItem = (contact: Contact, userId = owner.sub) => world.item(key.user(userId), key.pitched(trackKey, addressId(userId, contact.email)));
  const board = async (user = owner) => {
    const response = await api(user, `/api/pipeline/tracks/${trackKey}`);
    expect(response.status, JSON.stringify(response.json)).toBe(200);
    return response.json as unknown as PipelineBoard;
  };
  const entryOf = async (contact: Contact) => (await board()).entries.find((entry) => entry.address_id === contact.id)!;
  const markPath = (contact: Contact, kind: 'mark' | 'todo' = 'mark', track = trackKey) => `/api/pipeline/tracks/${track}/entries/${contact.id}/${kind}`;
  /** The transaction that wrote `sk` of the owner's partition together with an item of the email's campaign. */
  const sameTransaction = (pitchedSk: string, campaignId: string) =>
    captured.transactions.some(
      (items) => items.includes(`${key.user(owner.sub)}|${pitchedSk}`) && items.some((item) => item.startsWith(`${key.campaignPartition(campaignId)}|RCPT#`)),
    );

  beforeAll(async () => {
    captured = capturingClient();
    [owner, other] = await Promise.all([createUser(), createUser()]);
    expect((await api(owner, '/api/profile')).status).toBe(200);
    expect((await api(other, '/api/profile')).status).toBe(200);
    world = await sendingWorld({ userId: owner.sub, start: new Date(Date.now() - 3_600_000) });
    const names = ['Mara Velvet', 'Theo Lark', 'Ines Moor', 'Kai Brook', 'Never Pitched'];
    const added: Contact[] = [];
    for (const name of names) {
      const response = await api(owner, '/api/contacts', { method: 'POST', body: { name, email: uniqueEmail('pipeline'), label_name: `${name} Records` } });
      expect(response.status, JSON.stringify(response.json)).toBe(201);
      added.push(response.json as unknown as Contact);
    }
    contacts = added.slice(0, 4);
    neverPitched = added[4]!;
    campaign = await world.draft(4, { track_name: 'Harbour Lights' });
    trackKey = pitchKey(campaign);
    await world.queue(campaign, contacts);
    await world.runUntilIdle();
    tracking = new DynamoTrackingStore(captured.db, world.tableName);
    listen = new DynamoListenStore(captured.db, world.tableName);
    tokens = [];
    for (const recipient of await world.recipients(campaign.id)) tokens.push((await tracking.getToken(recipient.token!))!);
  });

  it('the claim keeps the track and the contact on the PITCHED item, and the send makes it Pitched', async () => {
    expect(await pitchedItem(contacts[0]!)).toMatchObject({
      track_key: trackKey,
      address_id: contacts[0]!.id,
      track_name: 'Harbour Lights',
      track_url: campaign.track_url,
      contact_id: contacts[0]!.id,
      name: 'Mara Velvet',
      email: contacts[0]!.email,
      company: 'Mara Velvet Records',
      campaign_id: campaign.id,
      sent_at: expect.any(String) as string,
    });
    expect((await pitchedItem(contacts[0]!))!.awaiting_send).toBeUndefined();
    const read = await board();
    expect(read.entries.map((entry) => [entry.email, entry.stage])).toEqual(expect.arrayContaining(contacts.map((contact) => [contact.email, 'pitched'])));
    expect(read.entries).toHaveLength(4);
    expect(read.track).toMatchObject({ track_key: trackKey, name: 'Harbour Lights', counts: { pitched: 4, opened: 0, signed: 0, passed: 0 } });
  });

  it('a human open makes the contact Opened in the open’s own transaction; a machine open does not', async () => {
    await tracking.recordOpen(tokens[1]!, 'machine', world.now);
    expect((await entryOf(contacts[1]!)).stage).toBe('pitched');
    await tracking.recordOpen(tokens[0]!, 'human', world.now);
    expect(sameTransaction(key.pitched(trackKey, contacts[0]!.id), campaign.id)).toBe(true);
    const entry = await entryOf(contacts[0]!);
    expect(entry).toMatchObject({ stage: 'opened', derived_stage: 'opened', opened_at: world.now.toISOString() });
    // A second open keeps the first time.
    await tracking.recordOpen(tokens[0]!, 'human', new Date(world.now.getTime() + 60_000));
    expect((await entryOf(contacts[0]!)).opened_at).toBe(world.now.toISOString());
  });

  it('a listen to 25 % makes the contact Listened, in the listen’s own transaction', async () => {
    const session = 'session-pipeline-0001';
    await listen.recordPlay(tokens[0]!, session, world.now);
    await listen.recordProgress(tokens[0]!, { session, milestone: 25, seconds: 20, durationSeconds: 200 }, world.now);
    expect(sameTransaction(key.pitched(trackKey, contacts[0]!.id), campaign.id)).toBe(true);
    expect(await entryOf(contacts[0]!)).toMatchObject({ stage: 'listened', listened_at: world.now.toISOString() });
  });

  it('answers make contacts Answered; Interested is a to-do until marked done or answered otherwise; Not for us passes the track', async () => {
    const todoAddresses = async () => ((await api(owner, '/api/pipeline/todos')).json as unknown as PipelineTodoList).todos.map((todo) => todo.address_id);
    captured.transactions.length = 0;
    await listen.answer(tokens[1]!, { answer: 'interested', note: null }, new Date(world.now.getTime() - 60_000));
    await listen.answer(tokens[0]!, { answer: 'interested', note: 'Send the stems' }, world.now);
    expect(sameTransaction(key.pitched(trackKey, contacts[0]!.id), campaign.id)).toBe(true);
    // Newest answer first.
    expect(await todoAddresses()).toEqual([contacts[0]!.id, contacts[1]!.id]);
    // Theo then answers Not for us: no longer a to-do, and out of the to-dos' index (which the Dashboard reads whole).
    await listen.answer(tokens[1]!, { answer: 'not_for_us', note: null }, world.now);
    expect(await todoAddresses()).toEqual([contacts[0]!.id]);
    const indexed = await new DynamoPipelineStore(world.db, world.tableName).openTodos(owner.sub);
    expect(indexed.map((item) => item.address_id)).toEqual([contacts[0]!.id]);
    expect(await entryOf(contacts[0]!)).toMatchObject({ stage: 'answered', answer: 'interested', answer_note: 'Send the stems' });
    expect(await entryOf(contacts[1]!)).toMatchObject({ stage: 'answered', answer: 'not_for_us' });
    expect((await pitchedItem(contacts[1]!))!.passed_at).toBe(world.now.toISOString());

    const todos = (await api(owner, '/api/pipeline/todos')).json as unknown as PipelineTodoList;
    expect(todos.todos).toEqual([
      {
        track_key: trackKey,
        track_name: 'Harbour Lights',
        address_id: contacts[0]!.id,
        name: 'Mara Velvet',
        email: contacts[0]!.email,
        answer: 'interested',
        answer_note: 'Send the stems',
        answered_at: world.now.toISOString(),
      },
    ]);
    const done = await api(owner, markPath(contacts[0]!, 'todo'), { method: 'PUT', body: { done: true } });
    expect(done.status, JSON.stringify(done.json)).toBe(200);
    expect((done.json as unknown as PipelineEntry).todo_done_at).toEqual(expect.any(String));
    expect(((await api(owner, '/api/pipeline/todos')).json as unknown as PipelineTodoList).todos).toEqual([]);
    expect((await api(owner, markPath(contacts[0]!, 'todo'), { method: 'PUT', body: { done: false } })).status).toBe(200);
    expect(((await api(owner, '/api/pipeline/todos')).json as unknown as PipelineTodoList).todos).toHaveLength(1);
  });

  it('the artist’s Replied mark moves the contact to Replied with the mark; clearing it clears it', async () => {
    const replied = `/api/campaigns/${campaign.id}/emails/2/replied`;
    expect((await api(owner, replied, { method: 'PUT' })).status).toBe(200);
    expect(await entryOf(contacts[2]!)).toMatchObject({ stage: 'replied', replied_at: expect.any(String) as string });
    expect((await api(owner, replied, { method: 'DELETE' })).status).toBe(200);
    expect(await entryOf(contacts[2]!)).toMatchObject({ stage: 'pitched', replied_at: null });
  });

  it('Signed is one conditional write, and no later event overwrites it', async () => {
    const counting = countingClient();
    const store = new DynamoPipelineStore(counting.db, world.tableName);
    const marked = await store.mark(owner.sub, trackKey, contacts[2]!.id, { stage: 'signed', note: 'Contract out', on: '2026-11-03' }, world.now);
    expect(Object.fromEntries(counting.counts)).toEqual({ UpdateItemCommand: 1 });
    expect(marked).toMatchObject({ mark_stage: 'signed', mark_note: 'Contract out', mark_on: '2026-11-03' });

    await tracking.recordOpen(tokens[2]!, 'human', world.now);
    await listen.answer(tokens[2]!, { answer: 'interested', note: null }, world.now);
    const entry = await entryOf(contacts[2]!);
    expect(entry).toMatchObject({ stage: 'signed', derived_stage: 'answered' });
    expect(entry.mark).toEqual({ stage: 'signed', note: 'Contract out', on: '2026-11-03', set_at: world.now.toISOString() });
  });

  it('the route sets Passed (which passes the track) and takes it back; a Not for us answer stays passed', async () => {
    const passed = await api(owner, markPath(contacts[3]!), { method: 'PUT', body: { stage: 'passed', note: 'Not their sound' } });
    expect(passed.status, JSON.stringify(passed.json)).toBe(200);
    const entry = passed.json as unknown as PipelineEntry;
    expect(entry).toMatchObject({ stage: 'passed', derived_stage: 'pitched', mark: { stage: 'passed', note: 'Not their sound' } });
    // No date given: today's.
    expect(entry.mark!.on).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect((await pitchedItem(contacts[3]!))!.passed_at).toEqual(expect.any(String));
    // The board says when, as the send check reads it (Compose's picker shows it before a draft exists).
    expect(entry.passed_at).toBe((await pitchedItem(contacts[3]!))!.passed_at);

    const back = await api(owner, markPath(contacts[3]!), { method: 'PUT', body: { stage: 'derived' } });
    expect(back.status).toBe(200);
    expect(back.json).toMatchObject({ stage: 'pitched', mark: null, passed_at: null });
    expect((await pitchedItem(contacts[3]!))!.passed_at ?? null).toBeNull();

    // Theo answered Not for us: a Passed mark taken back leaves the track passed (the answer's time).
    const answeredPass = (await pitchedItem(contacts[1]!))!.passed_at as string;
    expect((await api(owner, markPath(contacts[1]!), { method: 'PUT', body: { stage: 'passed' } })).status).toBe(200);
    expect((await api(owner, markPath(contacts[1]!), { method: 'PUT', body: { stage: 'derived' } })).status).toBe(200);
    expect((await pitchedItem(contacts[1]!))!.passed_at).toBe(answeredPass);
    expect((await entryOf(contacts[1]!)).passed_at).toBe(answeredPass);
    // An answer after the artist's Passed does not take the pass back.
    expect((await api(owner, markPath(contacts[3]!), { method: 'PUT', body: { stage: 'passed', on: '2026-11-03' } })).status).toBe(200);
    await listen.answer(tokens[3]!, { answer: 'interested', note: null }, world.now);
    expect((await pitchedItem(contacts[3]!))!.passed_at).toEqual(expect.any(String));
    expect((await entryOf(contacts[3]!)).stage).toBe('passed');
  });

  it('a later campaign with the track does not pitch a contact who passed', async () => {
    const again = await world.draft(1, { track_name: 'Harbour Lights' });
    await world.queue(again, [contacts[3]!]);
    await world.runUntilIdle();
    expect((await world.recipients(again.id)).map((recipient) => [recipient.status, recipient.detail])).toEqual([['skipped', 'Already received this track']]);
    expect((await pitchedItem(contacts[3]!))!.campaign_id).toBe(campaign.id);
  });

  it('the Tracks page counts the track; a contact’s card lists its tracks with their stage', async () => {
    const list = (await api(owner, '/api/pipeline/tracks')).json as unknown as PipelineTrackList;
    expect(list.tracks).toEqual([
      {
        track_key: trackKey,
        name: 'Harbour Lights',
        track_id: null,
        track_url: campaign.track_url,
        last_pitched_at: expect.any(String) as string,
        counts: { pitched: 4, opened: 2, listened: 1, answered: { interested: 3, send_wavs: 0, not_for_us: 1 }, signed: 1, passed: 1 },
      },
    ]);
    const card = await api(owner, `/api/contacts/${contacts[1]!.id}/tracks`);
    expect(card.status).toBe(200);
    expect((card.json as unknown as ContactTrackList).tracks).toEqual([
      {
        track_key: trackKey,
        track_name: 'Harbour Lights',
        stage: 'answered',
        pitched_at: expect.any(String) as string,
        passed_at: expect.any(String) as string,
      },
    ]);
    expect(((await api(owner, `/api/contacts/${neverPitched.id}/tracks`)).json as unknown as ContactTrackList).tracks).toEqual([]);
  });

  it('an address never pitched the track is a 404 on the writes, and no item is made', async () => {
    for (const kind of ['mark', 'todo'] as const) {
      const response = await api(owner, markPath(neverPitched, kind), { method: 'PUT', body: kind === 'mark' ? { stage: 'signed' } : { done: true } });
      expect(response.status).toBe(404);
      expect(response.json).toEqual({ message: pipelineApiMessages.entryNotFound });
    }
    expect(await pitchedItem(neverPitched)).toBeUndefined();
    const unknownTrack = await api(owner, `/api/pipeline/tracks/${'A'.repeat(22)}`);
    expect(unknownTrack.status).toBe(404);
    expect(unknownTrack.json).toEqual({ message: pipelineApiMessages.trackNotFound });
    expect((await api(owner, '/api/pipeline/tracks/not-a-key')).status).toBe(404);
    expect((await api(owner, `/api/pipeline/tracks/${trackKey}/entries/not-an-id/mark`, { method: 'PUT', body: { stage: 'signed' } })).status).toBe(404);
    expect((await api(owner, '/api/contacts/not-an-id/tracks')).status).toBe(404);
  });

  it('bad bodies are a 400 with the schema’s message, and change nothing', async () => {
    const before = await pitchedItem(contacts[0]!);
    const cases: [unknown, RegExp][] = [
      [{ stage: 'maybe' }, /stage/i],
      [{ stage: 'signed', on: 'Nov 3' }, /Enter a date as YYYY-MM-DD\./],
      [{ stage: 'signed', note: 'x'.repeat(501) }, /A note can be up to 500 characters\./],
      [{ stage: 'signed', extra: true }, /extra/i],
      ['not json', /not valid JSON/],
    ];
    for (const [body, message] of cases) {
      const response = await api(owner, markPath(contacts[0]!), { method: 'PUT', body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(String(response.json?.message)).toMatch(message);
    }
    const noBody = await api(owner, markPath(contacts[0]!), { method: 'PUT' });
    expect(noBody.status).toBe(400);
    const badTodo = await api(owner, markPath(contacts[0]!, 'todo'), { method: 'PUT', body: { done: 'yes' } });
    expect(badTodo.status).toBe(400);
    expect(String(badTodo.json?.message)).toMatch(/done/i);
    expect(await pitchedItem(contacts[0]!)).toEqual(before);
  });

  it('another user’s track key and address ids are the same 404 as missing ones, on every route, and change nothing', async () => {
    const before = await Promise.all(contacts.map((contact) => pitchedItem(contact)));
    const theirBoard = await api(other, `/api/pipeline/tracks/${trackKey}`);
    expect(theirBoard.status).toBe(404);
    expect(theirBoard.json).toEqual({ message: pipelineApiMessages.trackNotFound });
    for (const contact of contacts) {
      const mark = await api(other, markPath(contact), { method: 'PUT', body: { stage: 'passed' } });
      expect(mark.status).toBe(404);
      expect(mark.json).toEqual({ message: pipelineApiMessages.entryNotFound });
      const todo = await api(other, markPath(contact, 'todo'), { method: 'PUT', body: { done: true } });
      expect(todo.status).toBe(404);
      const card = await api(other, `/api/contacts/${contact.id}/tracks`);
      expect(card.status).toBe(404);
      expect(card.json).toEqual({ message: pipelineApiMessages.contactNotFound });
    }
    expect((await api(other, '/api/pipeline/tracks')).json).toEqual({ tracks: [] });
    expect((await api(other, '/api/pipeline/todos')).json).toEqual({ todos: [] });
    expect(await Promise.all(contacts.map((contact) => pitchedItem(contact)))).toEqual(before);
    // Nothing was made under the other user either.
    expect(await Promise.all(contacts.map((contact) => world.item(key.user(other.sub), key.pitched(trackKey, contact.id))))).toEqual(
      contacts.map(() => undefined),
    );
    for (const path of ['/api/pipeline/tracks', '/api/pipeline/todos', `/api/pipeline/tracks/${trackKey}`, `/api/contacts/${contacts[0]!.id}/tracks`]) {
      expect((await call(path)).status).toBe(401);
    }
  });

  it('the backfill gives an item from before the pipeline what the emails’ records say, and a second run changes nothing', async () => {
    // As the item was before the pipeline: only the claim's hold and a 'Not for us' pass.
    const stripped = [
      'track_key',
      'address_id',
      'track_name',
      'track_url',
      'track_id',
      'contact_id',
      '#name',
      'email',
      'company',
      'label_size',
      'sent_at',
      'opened_at',
      'listened_at',
      'answer',
      'answer_note',
      'answered_at',
      'not_for_us_at',
      'GSI1PK',
      'GSI1SK',
    ];
    for (const contact of [contacts[0]!, contacts[1]!]) {
      await world.db.send(
        new UpdateCommand({
          TableName: world.tableName,
          Key: { PK: key.user(owner.sub), SK: key.pitched(trackKey, contact.id) },
          UpdateExpression: `REMOVE ${stripped.join(', ')}`,
          ExpressionAttributeNames: { '#name': 'name' },
        }),
      );
    }
    // Ines answered Interested before the to-dos had their index: the answer without its place there.
    await world.db.send(
      new UpdateCommand({
        TableName: world.tableName,
        Key: { PK: key.user(owner.sub), SK: key.pitched(trackKey, contacts[3]!.id) },
        UpdateExpression: 'REMOVE GSI1PK, GSI1SK',
      }),
    );
    const todoAddresses = async () =>
      ((await api(owner, '/api/pipeline/todos')).json as unknown as PipelineTodoList).todos.map((todo) => todo.address_id).sort();
    expect(await todoAddresses()).toEqual([contacts[2]!.id]);
    expect((await entryOf(contacts[0]!)).stage).toBe('pitched');
    const updated = await rebuildPipeline(world.db, world.tableName, owner.sub);
    expect(updated).toBe(4);
    // Mara's Interested (from the logs) and Ines's (kept) are to-dos again; Theo's Not for us is not.
    expect(await todoAddresses()).toEqual([contacts[0]!.id, contacts[2]!.id, contacts[3]!.id].sort());
    expect(await entryOf(contacts[0]!)).toMatchObject({
      stage: 'answered',
      name: 'Mara Velvet',
      company: 'Mara Velvet Records',
      opened_at: expect.any(String) as string,
      listened_at: expect.any(String) as string,
      answer: 'interested',
      answer_note: 'Send the stems',
    });
    expect(await pitchedItem(contacts[1]!)).toMatchObject({ answer: 'not_for_us', not_for_us_at: expect.any(String) as string, track_name: 'Harbour Lights' });
    const once = await Promise.all(contacts.map((contact) => pitchedItem(contact)));
    await rebuildPipeline(world.db, world.tableName, owner.sub);
    expect(await Promise.all(contacts.map((contact) => pitchedItem(contact)))).toEqual(once);
  });
});

describe('a contact added from LabelFinder on the board (issue 28 §1)', () => {
  it("is filed under the directory entry's label size: the claim keeps it on the PITCHED item and the board answers it", async () => {
    const owner = await createUser();
    expect((await api(owner, '/api/profile')).status).toBe(200);
    const world = await sendingWorld({ userId: owner.sub, start: new Date(Date.now() - 3_600_000) });
    // A seeded label with an address, no demo policy (nothing for the pre-send check) and a size that is not the default.
    const entry = directoryEntries.find(
      (candidate) =>
        candidate.contact_type === 'Label' && candidate.email.includes('@') && !candidate.demo_policy && candidate.label_size !== directoryDefaults.label_size,
    )!;
    const added = await api(owner, '/api/directory/contacts', { method: 'POST', body: { entry_ids: [entry.id] } });
    expect(added.status, JSON.stringify(added.json)).toBe(200);
    const [contact] = (added.json as { added: Contact[] }).added;
    const campaign = await world.draft(1, { track_name: 'Quarry Lights' });
    // Queued by the send route, which reads the contact from the store as every send does.
    const sent = await api(owner, `/api/campaigns/${campaign.id}/send`, {
      method: 'POST',
      body: { contact_ids: [contact!.id], mode: 'immediate', batch_start: 0, total: 1 },
    });
    expect(sent.status, JSON.stringify(sent.json)).toBe(200);
    expect(sent.json).toMatchObject({ queued: 1 });
    await world.runUntilIdle();

    const trackKey = pitchKey(campaign);
    expect(await world.item(key.user(owner.sub), key.pitched(trackKey, contact!.id))).toMatchObject({
      company: entry.name,
      label_size: entry.label_size,
      sent_at: expect.any(String) as string,
    });
    const board = await api(owner, `/api/pipeline/tracks/${trackKey}`);
    expect(board.status).toBe(200);
    expect((board.json as unknown as PipelineBoard).entries).toEqual([
      expect.objectContaining({ address_id: contact!.id, stage: 'pitched', company: entry.name, label_size: entry.label_size }),
    ]);
  });
});

describe('a board of 500 contacts', () => {
  it('is read in at most 3 queries', async () => {
    const userId = `pipeline-${Date.now()}`;
    const track = 'Bb9aaaaaaaaaaaaaaaaaaa';
    const tableName = stack().tableName;
    const doc = makeDocumentClient({ tableName, region: stack().region, endpoint: stack().dynamoEndpoint });
    const items = Array.from({ length: 500 }, (_, i) => {
      const email = `contact${i}@label${i}.test`;
      const id = addressId(userId, email);
      return {
        PK: key.user(userId),
        SK: key.pitched(track, id),
        entity: 'pitched',
        track_key: track,
        address_id: id,
        track_name: 'Harbour Lights',
        track_url: 'https://music.test/harbour-lights',
        track_id: null,
        contact_id: id,
        name: `Contact Number ${i}`,
        email,
        company: `Label Number ${i} Records`,
        label_size: 'Independent',
        campaign_id: '01KAKZ3R0000000000000000AA',
        position: i,
        pitched_at: '2026-11-01T10:00:00.000Z',
        sent_at: '2026-11-01T10:00:01.000Z',
        opened_at: '2026-11-02T10:00:00.000Z',
        listened_at: '2026-11-02T10:01:00.000Z',
        answer: 'interested',
        answer_note: 'n'.repeat(500),
        answered_at: '2026-11-02T10:02:00.000Z',
        mark_stage: 'signed',
        mark_note: 'm'.repeat(500),
        mark_on: '2026-11-03',
        mark_set_at: '2026-11-03T10:00:00.000Z',
      };
    });
    for (let i = 0; i < items.length; i += 25) {
      await doc.send(new BatchWriteCommand({ RequestItems: { [tableName]: items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })) } }));
    }
    const counting = countingClient();
    const read = await new DynamoPipelineStore(counting.db, tableName).track(userId, track);
    expect(read).toHaveLength(500);
    expect([...counting.counts.keys()]).toEqual(['QueryCommand']);
    expect(counting.total()).toBeLessThanOrEqual(3);
  });
});

describe('the to-dos among 300 pitches', () => {
  it('are one Query of the to-dos index, reading the to-dos only: never the other pitches, nor another user’s to-dos', async () => {
    const userId = `todos-${Date.now()}`;
    const otherId = `${userId}-other`;
    const track = 'Cc9aaaaaaaaaaaaaaaaaaa';
    const tableName = stack().tableName;
    const doc = makeDocumentClient({ tableName, region: stack().region, endpoint: stack().dynamoEndpoint });
    const pitch = (user: string, i: number, answer: ListenAnswer | null, done = false) => {
      const email = `contact${i}@label${i}.test`;
      const id = addressId(user, email);
      const answeredAt = `2026-11-02T10:${String(i % 60).padStart(2, '0')}:00.000Z`;
      return {
        PK: key.user(user),
        SK: key.pitched(track, id),
        entity: 'pitched',
        track_key: track,
        address_id: id,
        track_name: 'Harbour Lights',
        name: `Contact Number ${i}`,
        email,
        campaign_id: '01KAKZ3R0000000000000000AA',
        pitched_at: '2026-11-01T10:00:00.000Z',
        sent_at: '2026-11-01T10:00:01.000Z',
        ...(answer ? { answer, answer_note: null, answered_at: answeredAt } : {}),
        ...(answer ? todoIndexKeys({ userId: user, trackKey: track, addressId: id }, answer, answeredAt) : {}),
        ...(done ? { todo_done_at: '2026-11-03T10:00:00.000Z' } : {}),
      };
    };
    // 300 pitches: two open to-dos, one done, 60 answered Not for us, the rest not answered; another user's open to-do.
    const items = Array.from({ length: 300 }, (_, i) =>
      i === 0
        ? pitch(userId, i, 'interested')
        : i === 1
          ? pitch(userId, i, 'send_wavs')
          : i === 2
            ? pitch(userId, i, 'interested', true)
            : pitch(userId, i, i < 63 ? 'not_for_us' : null),
    );
    items.push(pitch(otherId, 0, 'interested'));
    for (let i = 0; i < items.length; i += 25) {
      await doc.send(new BatchWriteCommand({ RequestItems: { [tableName]: items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })) } }));
    }

    const reads = queryRecordingClient();
    const todos = await new DynamoPipelineStore(reads.db, tableName).openTodos(userId);
    expect(todos.map((todo) => [todo.email, todo.answer]).sort()).toEqual([
      ['contact0@label0.test', 'interested'],
      ['contact1@label1.test', 'send_wavs'],
    ]);
    // One Query, on the index, that read the user's three to-dos (the done one filtered out) and nothing else.
    expect(reads.queries).toEqual([{ index: indexes.byLookup.name, scanned: 3, returned: 2 }]);
  });
});

describe("the artist's Passed mark and the track's follow-ups", () => {
  it('a Passed mark stops the waiting step at its claim; a mark taken back lets it go', async () => {
    const world = await sendingWorld();
    const campaign = await world.draft(2, { track_name: 'Tide Line', track_url: 'https://music.test/tide-line' });
    const [passed, taken] = [contactFor(world.userId, 1), contactFor(world.userId, 2)];
    await world.queue(campaign, [passed, taken], world.now, {
      followUps: { steps: [{ after_days: 1, writer: 'own', text: 'Hi [CONTACT_NAME], here it is again: [TRACK_URL]' }], condition: 'not_answered' },
    });
    while (world.mailer.sent.length < 2) if (!(await world.tick())) throw new Error('idle before the first emails went');
    const store = new DynamoPipelineStore(world.db, world.tableName);
    const trackKey = pitchKey(campaign);
    const mark = (id: string, stage: 'passed' | 'derived') => store.mark(world.userId, trackKey, id, { stage, note: null, on: '2026-11-21' }, world.now);
    expect(await mark(passed.id, 'passed')).toMatchObject({ passed_at: world.now.toISOString() });
    await mark(taken.id, 'passed');
    expect(await mark(taken.id, 'derived')).toMatchObject({ passed_at: null, mark_stage: null });

    await world.runUntilIdle();
    expect(world.mailer.sent.slice(2).map((sent) => sent.email.to.email)).toEqual([taken.email]);
    const [first, second] = await world.recipients(campaign.id);
    // The track's pass stops it, as a 'Not for us' does (the step's stop reason for a passed track).
    expect(first!.follow_up_1).toMatchObject({ state: 'stopped', reason: 'not_for_us' });
    expect(second!.follow_up_1).toMatchObject({ state: 'sent' });
  });
});
