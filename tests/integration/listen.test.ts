/**
 * The private listen page end to end (issue 16): a server of its own → lambdas/http/listen.ts →
 * DynamoListenStore → DynamoDB Local, with a clock the test moves. The TOKEN, RCPT, campaign, track and
 * contact items are seeded as the sender, Compose and the tracks routes write them. The page's GET
 * records nothing; plays, milestones, seconds and downloads are counted once each as the page reports
 * them, even when beacons arrive twice at once; answers are one per recipient and changeable; links
 * expire; a deleted track says so; nothing of another user's is reachable.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../lambdas/adapters/clock';
import { DynamoListenStore } from '../../lambdas/adapters/dynamodb/listenStore';
import { DynamoTrackingStore } from '../../lambdas/adapters/dynamodb/trackingStore';
import { DynamoTrackStore } from '../../lambdas/adapters/dynamodb/trackStore';
import { DynamoCampaignStore } from '../../lambdas/adapters/dynamodb/campaignStore';
import { ulidGenerator } from '../../lambdas/adapters/ulid';
import { localAudioStore } from '../../lambdas/composition/audio';
import { withKeptLinkFacts } from '../../lambdas/composition/listen';
import { addressId } from '../../lambdas/core/contacts';
import { counterDay } from '../../lambdas/core/counters';
import { newEmailToken } from '../../lambdas/core/emailToken';
import { LISTEN_EVENTS_PER_MINUTE, LISTEN_PLAYS_PER_HOUR } from '../../lambdas/core/listen';
import { makeHandler } from '../../lambdas/http/listen';
import type { EmailToken } from '../../lambdas/ports';
import { makeDynamoClients } from '../../lib/local/dynamodb';
import type { LambdaHandler, LocalServer } from '../../lib/local/server';
import { listenMessages, type ListenPage } from '../../schema/api/listenValues';
import { key } from '../../schema/table';
import { call, callAt, createUser, dynamodb, stack, startServerServing, stackConfig, uniqueEmail, type TestUser } from './helpers';
import { seedSentEmail } from './sentEmails';
import { noClientLimit } from '../fakes/clientLimit';

const DAY_MS = 24 * 60 * 60 * 1000;
const TRACK_SECONDS = 8;
const PEAKS = [0.1, 0.5, 0.9, 0.25];

let server: LocalServer;
let own: ReturnType<typeof callAt>;
/** The listen handler's clock: a test moves it to see a link expire, or pins it inside one rate window. */
let clockOffsetMs = 0;
let pinnedNow: Date | undefined;
const table = () => stack().tableName;
const db = () => dynamodb().doc;
const ids = ulidGenerator();
const trackStore = () => new DynamoTrackStore(db(), table());

beforeAll(async () => {
  // The token and campaign reads kept as the composition keeps them, on the test's clock.
  const listen = makeHandler(
    withKeptLinkFacts({
      tokens: new DynamoTrackingStore(db(), table()),
      listen: new DynamoListenStore(db(), table()),
      tracks: trackStore(),
      audio: localAudioStore(stackConfig()),
      clock: { now: () => pinnedNow ?? new Date(systemClock.now().getTime() + clockOffsetMs) },
      // The client limit has its own tests (client-limits.test.ts): this file's many beacons are all 127.0.0.1's.
      clientLimit: noClientLimit,
    }),
  ) as LambdaHandler;
  server = await startServerServing('listen', listen);
  own = callAt(server.url);
});

afterAll(async () => {
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- undefined when beforeAll failed before setting it
  await server?.close();
});

interface Sent {
  user: TestUser;
  campaignId: string;
  trackId: string;
  token: EmailToken;
}

/** A ready track of the user, as the tracks routes leave it. */
async function seedTrack(user: TestUser, name = 'Night Drive (demo)'): Promise<string> {
  const id = ids.next(new Date());
  const store = trackStore();
  await store.createPending(
    user.sub,
    { id, name, status: 'pending', audio_key: `tracks/${user.sub}/${id}`, content_type: 'audio/wav', size_bytes: 1000, created_at: new Date().toISOString() },
    new Date(Date.now() + DAY_MS),
  );
  await store.markReady(user.sub, id, { format: 'wav', duration_seconds: TRACK_SECONDS, sample_rate: 8000, size_bytes: 1000, peaks: PEAKS });
  return id;
}

async function sentEmail(options: { user?: TestUser; campaign?: Record<string, unknown>; createdAt?: Date } = {}): Promise<Sent> {
  const user = options.user ?? (await createUser({ name: 'DJ Nova' }));
  const trackId = await seedTrack(user);
  const campaignId = ids.next(new Date());
  await db().send(
    new PutCommand({
      TableName: table(),
      Item: {
        PK: key.user(user.sub),
        SK: key.campaign(campaignId),
        entity: 'campaign',
        id: campaignId,
        user_id: user.sub,
        mode: 'html',
        track_name: 'Night Drive',
        track_url: null,
        description: 'A rolling late-night groove.',
        status: 'sending',
        emails_sent: 1,
        track_id: trackId,
        allow_download: false,
        listen_days: 90,
        emails_listened: 0,
        emails_answered: 0,
        emails_downloaded: 0,
        ...options.campaign,
      },
    }),
  );
  const contactEmail = uniqueEmail('label');
  const contactId = addressId(user.sub, contactEmail);
  await db().send(
    new PutCommand({
      TableName: table(),
      Item: { PK: key.user(user.sub), SK: key.contact(contactId), entity: 'contact', id: contactId, name: 'Mara Velvet', email: contactEmail },
    }),
  );
  const token = await seedSentEmail(user, campaignId, 0, {
    contact_email: contactEmail,
    ...(options.createdAt ? { created_at: options.createdAt.toISOString() } : {}),
  });
  return { user, campaignId, trackId, token };
}

async function item(k: { PK: string; SK: string }) {
  const { Item } = await db().send(new GetCommand({ TableName: table(), Key: k, ConsistentRead: true }));
  return Item as Record<string, unknown> | undefined;
}
const recipient = (sent: Sent) => item({ PK: key.campaignPartition(sent.campaignId), SK: key.recipient(0) });
const campaign = (sent: Sent) => item({ PK: key.user(sent.user.sub), SK: key.campaign(sent.campaignId) });
const totals = (sent: Sent) => item({ PK: key.user(sent.user.sub), SK: key.statsTotals() });
const today = (sent: Sent) => item({ PK: key.user(sent.user.sub), SK: key.statsDay(counterDay(new Date())) });
const contact = (sent: Sent) => item({ PK: key.user(sent.user.sub), SK: key.contact(sent.token.contact_id) });

const page = (token: string) => own(`/api/l/${token}`);
const beacon = (token: string, body: unknown) => own(`/api/l/${token}/events`, { method: 'POST', body });
const answer = (token: string, body: unknown) => own(`/api/l/${token}/answer`, { method: 'POST', body });
const SESSION = 'session-aaaa-0001';

describe('GET /api/l/{token}', () => {
  it("answers the page (artist, the track name the artist typed, not the file's, description, peaks, a signed audio URL, no download) and records nothing", async () => {
    const sent = await sentEmail();
    const response = await page(sent.token.token);
    expect(response.status, response.text).toBe(200);
    const body = response.json as unknown as Extract<ListenPage, { state: 'ready' }>;
    expect(body).toMatchObject({
      state: 'ready',
      artist_name: 'DJ Nova',
      // The campaign's track name; the uploaded file is 'Night Drive (demo)'.
      track_name: 'Night Drive',
      description: 'A rolling late-night groove.',
      duration_seconds: TRACK_SECONDS,
      peaks: PEAKS,
      download_url: null,
      answer: null,
    });
    expect(body.audio_url).toContain('/local/audio/file');
    expect(Date.parse(body.expires_at) - Date.parse(sent.token.created_at)).toBe(90 * DAY_MS);
    expect(response.headers.get('cache-control')).toContain('no-store');
    expect(response.headers.get('set-cookie')).toBeNull();
    // A scanner's fetch of the page or its API is no listen.
    await page(sent.token.token);
    expect(await recipient(sent)).not.toHaveProperty('play_count');
    expect(await recipient(sent)).not.toHaveProperty('listened_at');
    expect((await campaign(sent))?.emails_listened).toBe(0);
  });

  it('offers a download URL only when the campaign allows downloads', async () => {
    const sent = await sentEmail({ campaign: { allow_download: true } });
    const body = (await page(sent.token.token)).json as unknown as Extract<ListenPage, { state: 'ready' }>;
    expect(body.download_url).toContain('/local/audio/file');
    expect(body.download_url).not.toBe(body.audio_url);
  });

  it('is a 404 for a malformed token and for a campaign without an uploaded track', async () => {
    expect((await page('not-a-token')).status).toBe(404);
    const noTrack = await sentEmail({ campaign: { track_id: null } });
    const response = await page(noTrack.token.token);
    expect(response.status).toBe(404);
    expect(response.json?.message).toBe(listenMessages.notFound);
  });

  it('is a 410 for a well-formed token no longer stored (its artist deleted their account), and takes no events', async () => {
    const response = await page(newEmailToken());
    expect(response.status).toBe(410);
    expect(response.json).toMatchObject({ message: listenMessages.gone, code: 'gone' });
  });
});

describe('listen events', () => {
  it('counts a play session once, the furthest milestone, and listened (25 %+) once on the RCPT, campaign, totals and day', async () => {
    const sent = await sentEmail();
    const t = sent.token.token;
    expect((await beacon(t, { type: 'play', session: SESSION })).status).toBe(204);
    expect((await beacon(t, { type: 'play', session: SESSION })).status).toBe(204);
    expect((await beacon(t, { type: 'progress', session: SESSION, percent: 10, seconds: 1 })).status).toBe(204);
    expect(await recipient(sent)).toMatchObject({ play_count: 1, listen_seconds: 1 });
    expect(await recipient(sent)).not.toHaveProperty('listened_at');
    expect((await campaign(sent))?.emails_listened).toBe(0);

    await beacon(t, { type: 'progress', session: SESSION, percent: 30, seconds: 3 });
    await beacon(t, { type: 'progress', session: SESSION, percent: 60, seconds: 5 });
    await beacon(t, { type: 'progress', session: SESSION, percent: 40, seconds: 4 });
    const rcpt = await recipient(sent);
    expect(rcpt).toMatchObject({ play_count: 1, listen_max_percent: 50, listen_seconds: 5 });
    expect(typeof rcpt?.listened_at).toBe('string');
    expect(typeof rcpt?.first_listened_at).toBe('string');
    expect((await campaign(sent))?.emails_listened).toBe(1);
    expect(await totals(sent)).toMatchObject({ emails_listened: 1, play_count: 1 });
    expect((await today(sent))?.emails_listened).toBe(1);

    // Seconds past the track's length in one session count as its length.
    await beacon(t, { type: 'progress', session: SESSION, percent: 100, seconds: 500 });
    expect(await recipient(sent)).toMatchObject({ listen_max_percent: 100, listen_seconds: TRACK_SECONDS });

    // A second play session: a play of its own, its seconds bounded again; listened is still one.
    await beacon(t, { type: 'play', session: 'session-bbbb-0002' });
    await beacon(t, { type: 'progress', session: 'session-bbbb-0002', percent: 75, seconds: 6 });
    // A late beacon of the first session adds nothing.
    await beacon(t, { type: 'progress', session: SESSION, percent: 100, seconds: 8 });
    expect(await recipient(sent)).toMatchObject({ play_count: 2, listen_max_percent: 100, listen_seconds: TRACK_SECONDS + 6 });
    expect((await campaign(sent))?.emails_listened).toBe(1);
    expect(await totals(sent)).toMatchObject({ emails_listened: 1, play_count: 2 });
  });

  it('counts duplicate beacons sent at once exactly once', async () => {
    const sent = await sentEmail();
    const t = sent.token.token;
    const times = <T>(n: number, make: () => Promise<T>) => Promise.all(Array.from({ length: n }, make));
    await times(6, () => beacon(t, { type: 'play', session: SESSION }));
    await times(6, () => beacon(t, { type: 'progress', session: SESSION, percent: 26, seconds: 3 }));
    expect(await recipient(sent)).toMatchObject({ play_count: 1, listen_max_percent: 25, listen_seconds: 3 });
    expect((await campaign(sent))?.emails_listened).toBe(1);
    expect(await totals(sent)).toMatchObject({ emails_listened: 1, play_count: 1 });
  });

  it('counts one session’s beacons crossing each other at once: the furthest milestone, the most heard, listened once', async () => {
    const sent = await sentEmail();
    const quiet = await sentEmail({ user: sent.user });
    const t = sent.token.token;
    expect((await beacon(t, { type: 'play', session: SESSION })).status).toBe(204);
    // Every milestone three times, each with the seconds heard by then, all sent at once: each beacon that lost
    // a race reads again and still counts what it alone reported.
    const heard = [
      { percent: 25, seconds: 2 },
      { percent: 50, seconds: 4 },
      { percent: 75, seconds: 6 },
      { percent: 100, seconds: 8 },
    ];
    const crossing = await Promise.all([...heard, ...heard, ...heard].map((progress) => beacon(t, { type: 'progress', session: SESSION, ...progress })));
    expect(crossing.map((response) => response.status)).toEqual(Array<number>(12).fill(204));
    expect(await recipient(sent)).toMatchObject({ play_count: 1, listen_max_percent: 100, listen_seconds: TRACK_SECONDS });
    // Milestones without seconds (the page paused): their own conditions alone keep the furthest.
    const milestones = await Promise.all(
      [100, 75, 50, 25, 100, 75, 50, 25].map((percent) => beacon(quiet.token.token, { type: 'progress', session: SESSION, percent })),
    );
    expect(milestones.map((response) => response.status)).toEqual(Array<number>(8).fill(204));
    expect(await recipient(quiet)).toMatchObject({ listen_max_percent: 100 });
    expect(await recipient(quiet)).not.toHaveProperty('listen_seconds');
    for (const email of [sent, quiet]) {
      expect(typeof (await recipient(email))?.listened_at).toBe('string');
      expect((await campaign(email))?.emails_listened).toBe(1);
    }
    expect(await totals(sent)).toMatchObject({ emails_listened: 2, play_count: 1 });
    expect((await today(sent))?.emails_listened).toBe(2);
  });

  /**
   * A store whose progress transactions each first let `interfere` run (another beacon written between
   * this one's read and its write), and the requests it sent by command.
   */
  function storeRacedBy(interfere: (transaction: number) => Promise<void>) {
    const { client, documentClient } = makeDynamoClients(stack().dynamoEndpoint, stack().region);
    const sent = new Map<string, number>();
    documentClient.middlewareStack.add(
      (next, context) => async (args) => {
        const command = context.commandName ?? 'unnamed';
        sent.set(command, (sent.get(command) ?? 0) + 1);
        if (command === 'TransactWriteItemsCommand') await interfere(sent.get(command) ?? 0);
        return next(args);
      },
      { step: 'initialize', name: 'raceBetweenReadAndWrite' },
    );
    return { store: new DynamoListenStore(documentClient, table()), sent, close: () => client.destroy() };
  }
  const plainStore = () => new DynamoListenStore(db(), table());
  const progressOf = (milestone: number, seconds: number) => ({ session: SESSION, milestone, seconds, durationSeconds: TRACK_SECONDS });

  it('a beacon whose read went stale (another crossed 25 % in between) reads again: its own milestone and seconds count, listened once', async () => {
    const sent = await sentEmail();
    const at = new Date();
    await plainStore().recordPlay(sent.token, SESSION, at);
    const raced = storeRacedBy(async (transaction) => {
      if (transaction === 1) await plainStore().recordProgress(sent.token, progressOf(25, 2), at);
    });
    try {
      expect(await raced.store.recordProgress(sent.token, progressOf(50, 5), at)).toBe('recorded');
      // Two tries, each one read and one transaction: the first listen refused, then the higher milestone.
      expect(Object.fromEntries(raced.sent)).toEqual({ GetItemCommand: 2, TransactWriteItemsCommand: 2 });
    } finally {
      raced.close();
    }
    expect(await recipient(sent)).toMatchObject({ listen_max_percent: 50, listen_seconds: 5, listened_at: at.toISOString() });
    expect((await campaign(sent))?.emails_listened).toBe(1);

    // The same with milestones alone (the page paused): the first listen's own condition refuses the second.
    const paused = await sentEmail({ user: sent.user });
    const racedPaused = storeRacedBy(async (transaction) => {
      if (transaction === 1) await plainStore().recordProgress(paused.token, progressOf(25, 0), at);
    });
    try {
      expect(await racedPaused.store.recordProgress(paused.token, progressOf(50, 0), at)).toBe('recorded');
    } finally {
      racedPaused.close();
    }
    expect(await recipient(paused)).toMatchObject({ listen_max_percent: 50, listened_at: at.toISOString() });
    expect((await campaign(paused))?.emails_listened).toBe(1);
    // A later milestone overtaken in between (75 % read as new, 100 % written first): the furthest stays.
    const overtaken = storeRacedBy(async (transaction) => {
      if (transaction === 1) await plainStore().recordProgress(paused.token, progressOf(100, 0), at);
    });
    try {
      expect(await overtaken.store.recordProgress(paused.token, progressOf(75, 0), at)).toBe('recorded');
    } finally {
      overtaken.close();
    }
    expect(await recipient(paused)).toMatchObject({ listen_max_percent: 100 });
    expect(await totals(sent)).toMatchObject({ emails_listened: 2 });
  });

  it('a beacon that loses every race for its seconds still counts its milestone; the seconds stay each counted once', async () => {
    const sent = await sentEmail();
    const at = new Date();
    await plainStore().recordPlay(sent.token, SESSION, at);
    // Before each of its transactions another beacon of the session adds a second (never the 25 % mark).
    const raced = storeRacedBy(async (transaction) => {
      if (transaction <= TRACK_SECONDS - 1) await plainStore().recordProgress(sent.token, progressOf(0, transaction), at);
    });
    try {
      expect(await raced.store.recordProgress(sent.token, progressOf(25, TRACK_SECONDS), at)).toBe('recorded');
    } finally {
      raced.close();
    }
    const rcpt = await recipient(sent);
    expect(rcpt).toMatchObject({ listen_max_percent: 25, listened_at: at.toISOString() });
    // Its own seconds gave up after as many tries as the store allows them; the others' each counted once.
    expect(rcpt?.listen_seconds).toBeLessThan(TRACK_SECONDS);
    expect(rcpt?.listen_seconds).toBe(rcpt?.listen_session_seconds);
    expect((await campaign(sent))?.emails_listened).toBe(1);
  });

  it('counts downloads only where the campaign allows them: once per page session on the email, the recipient once on the campaign', async () => {
    const refused = await sentEmail();
    expect((await beacon(refused.token.token, { type: 'download', session: SESSION })).status).toBe(404);
    expect(await recipient(refused)).not.toHaveProperty('download_count');

    const sent = await sentEmail({ campaign: { allow_download: true } });
    await beacon(sent.token.token, { type: 'download', session: SESSION });
    // The same session again (a double click, a beacon sent twice): nothing more.
    await beacon(sent.token.token, { type: 'download', session: SESSION });
    expect(await recipient(sent)).toMatchObject({ download_count: 1 });
    await beacon(sent.token.token, { type: 'download', session: `${SESSION}-later` });
    expect(await recipient(sent)).toMatchObject({ download_count: 2 });
    // The first session's beacon arriving again after the other's: still counted once.
    await beacon(sent.token.token, { type: 'download', session: SESSION });
    expect(await recipient(sent)).toMatchObject({ download_count: 2 });
    expect((await campaign(sent))?.emails_downloaded).toBe(1);
    expect(await totals(sent)).toMatchObject({ download_count: 2 });
  });

  it('refuses a malformed beacon with a 400 and counts nothing', async () => {
    const sent = await sentEmail();
    for (const body of [{ type: 'play' }, { type: 'skip', session: SESSION }, { type: 'progress', session: SESSION, percent: 101 }, 'nonsense']) {
      expect((await beacon(sent.token.token, body)).status).toBe(400);
    }
    expect(await recipient(sent)).not.toHaveProperty('play_count');
  });
});

describe('the recipient’s bound (forged sessions)', () => {
  const HOUR_MS = 60 * 60 * 1000;
  /** Runs `body` with the handler's clock pinned to the middle of the current hour and minute, then moved by `step`. */
  async function inOneWindow(body: (moveBy: (ms: number) => void) => Promise<void>) {
    const start = Math.floor(Date.now() / HOUR_MS) * HOUR_MS;
    pinnedNow = new Date(start + 30 * 60_000 + 30_000);
    try {
      await body((ms) => {
        pinnedNow = new Date((pinnedNow ?? new Date()).getTime() + ms);
      });
    } finally {
      pinnedNow = undefined;
    }
  }
  const session = (n: number) => `forged-session-${String(n).padStart(4, '0')}`;

  it('counts a human’s listening in full: replays, seeking, pauses', async () => {
    const sent = await sentEmail();
    const t = sent.token.token;
    await inOneWindow(async () => {
      const statuses: number[] = [];
      const send = async (body: unknown) => statuses.push((await beacon(t, body)).status);
      // Three plays of the 8 s track: the first heard to the end with a pause, the second skipped ahead
      // (seeking: the percent jumps, the seconds heard do not), the third stopped early.
      await send({ type: 'play', session: 'human-session-1' });
      await send({ type: 'progress', session: 'human-session-1', percent: 25, seconds: 2 });
      await send({ type: 'progress', session: 'human-session-1', percent: 40, seconds: 3 });
      await send({ type: 'progress', session: 'human-session-1', percent: 50, seconds: 4 });
      await send({ type: 'progress', session: 'human-session-1', percent: 75, seconds: 6 });
      await send({ type: 'progress', session: 'human-session-1', percent: 100, seconds: 8 });
      await send({ type: 'play', session: 'human-session-2' });
      await send({ type: 'progress', session: 'human-session-2', percent: 10, seconds: 1 });
      await send({ type: 'progress', session: 'human-session-2', percent: 80, seconds: 2 });
      await send({ type: 'progress', session: 'human-session-2', percent: 100, seconds: 3 });
      await send({ type: 'play', session: 'human-session-3' });
      await send({ type: 'progress', session: 'human-session-3', percent: 20, seconds: 1.6 });
      expect(
        statuses.every((status) => status === 204),
        String(statuses),
      ).toBe(true);
    });
    expect(await recipient(sent)).toMatchObject({ play_count: 3, listen_max_percent: 100, listen_seconds: 8 + 3 + 1 });
    expect(await totals(sent)).toMatchObject({ play_count: 3, emails_listened: 1 });
  });

  it('caps a forged burst of play sessions at LISTEN_PLAYS_PER_HOUR exactly, with a 429 that counts nothing; the next hour takes plays again', async () => {
    const sent = await sentEmail();
    const t = sent.token.token;
    await inOneWindow(async (moveBy) => {
      const statuses: number[] = [];
      // Within the minute's bound too: one play and one progress per forged session.
      for (let n = 0; n < LISTEN_PLAYS_PER_HOUR + 3; n++) {
        moveBy(1_000);
        statuses.push((await beacon(t, { type: 'play', session: session(n) })).status);
        await beacon(t, { type: 'progress', session: session(n), percent: 100, seconds: TRACK_SECONDS });
      }
      expect(statuses.filter((status) => status === 204)).toHaveLength(LISTEN_PLAYS_PER_HOUR);
      expect(statuses.slice(LISTEN_PLAYS_PER_HOUR)).toEqual([429, 429, 429]);
      const refused = await beacon(t, { type: 'play', session: 'one-more-session' });
      expect(refused.status).toBe(429);
      expect(refused.json?.message).toBe(listenMessages.tooManyEvents);
      expect(await recipient(sent)).toMatchObject({ play_count: LISTEN_PLAYS_PER_HOUR, listen_seconds: LISTEN_PLAYS_PER_HOUR * TRACK_SECONDS });
      expect(await totals(sent)).toMatchObject({ play_count: LISTEN_PLAYS_PER_HOUR });

      // The next hour's window is empty again.
      moveBy(HOUR_MS);
      expect((await beacon(t, { type: 'play', session: 'next-hour-session' })).status).toBe(204);
    });
    expect(await recipient(sent)).toMatchObject({ play_count: LISTEN_PLAYS_PER_HOUR + 1 });
  });

  it('caps forged play sessions sent at once at the bound too: what was counted is what was answered 204', async () => {
    const sent = await sentEmail();
    const t = sent.token.token;
    await inOneWindow(async () => {
      const statuses: number[] = [];
      const batch = 6;
      for (let n = 0; n < LISTEN_PLAYS_PER_HOUR + batch; n += batch) {
        const answers = await Promise.all(Array.from({ length: batch }, (_, i) => beacon(t, { type: 'play', session: session(n + i) })));
        statuses.push(...answers.map((response) => response.status));
      }
      expect([...new Set(statuses)].sort()).toEqual([204, 429]);
      expect(statuses.filter((status) => status === 204)).toHaveLength(LISTEN_PLAYS_PER_HOUR);
    });
    expect(await recipient(sent)).toMatchObject({ play_count: LISTEN_PLAYS_PER_HOUR });
    expect(await totals(sent)).toMatchObject({ play_count: LISTEN_PLAYS_PER_HOUR });
  });

  it('caps a burst of counted events at LISTEN_EVENTS_PER_MINUTE exactly; the next minute takes events again', async () => {
    const sent = await sentEmail({ campaign: { allow_download: true } });
    const t = sent.token.token;
    await inOneWindow(async (moveBy) => {
      const statuses: number[] = [];
      for (let n = 0; n < LISTEN_EVENTS_PER_MINUTE + 2; n++) statuses.push((await beacon(t, { type: 'download', session: session(n) })).status);
      expect(statuses.filter((status) => status === 204)).toHaveLength(LISTEN_EVENTS_PER_MINUTE);
      expect(statuses.slice(LISTEN_EVENTS_PER_MINUTE)).toEqual([429, 429]);
      expect(await recipient(sent)).toMatchObject({ download_count: LISTEN_EVENTS_PER_MINUTE });
      expect(await totals(sent)).toMatchObject({ download_count: LISTEN_EVENTS_PER_MINUTE });
      moveBy(60_000);
      expect((await beacon(t, { type: 'download', session: 'next-minute-session' })).status).toBe(204);
    });
    expect(await recipient(sent)).toMatchObject({ download_count: LISTEN_EVENTS_PER_MINUTE + 1 });
  });

  it('a repeated beacon takes no place in the window; another recipient’s link is unaffected by a full one', async () => {
    const sent = await sentEmail();
    const other = await sentEmail({ user: sent.user });
    await inOneWindow(async () => {
      // The same session's play sent many times counts once and fills nothing.
      for (let n = 0; n < LISTEN_PLAYS_PER_HOUR + 5; n++) expect((await beacon(sent.token.token, { type: 'play', session: SESSION })).status).toBe(204);
      for (let n = 1; n < LISTEN_PLAYS_PER_HOUR; n++) await beacon(sent.token.token, { type: 'play', session: session(n) });
      expect((await beacon(sent.token.token, { type: 'play', session: 'over-the-bound' })).status).toBe(429);
      expect(await recipient(sent)).toMatchObject({ play_count: LISTEN_PLAYS_PER_HOUR });

      expect((await beacon(other.token.token, { type: 'play', session: SESSION })).status).toBe(204);
      expect((await beacon(other.token.token, { type: 'progress', session: SESSION, percent: 50, seconds: 4 })).status).toBe(204);
    });
    expect(await recipient(other)).toMatchObject({ play_count: 1, listen_seconds: 4, listen_max_percent: 50 });
  });
});

describe("a listen or an answer through a follow-up step's link (issue 27 §1)", () => {
  /** A follow-up step's own token for the same email, as the sender makes one per step it sends. */
  async function stepToken(sent: Sent, step: number): Promise<EmailToken> {
    const token: EmailToken = { ...sent.token, token: newEmailToken(), step };
    await db().send(new PutCommand({ TableName: table(), Item: { PK: key.tokenPartition(token.token), SK: key.tokenSort(), entity: 'token', ...token } }));
    return token;
  }

  it('counts on that step too, on the campaign item in the same write, and the RCPT keeps the step; the user counters count it once, as before', async () => {
    const sent = await sentEmail();
    const [step1, step2] = [await stepToken(sent, 1), await stepToken(sent, 2)];
    await beacon(step1.token, { type: 'play', session: SESSION });
    expect((await beacon(step1.token, { type: 'progress', session: SESSION, percent: 30, seconds: 3 })).status).toBe(204);
    expect(await campaign(sent)).toMatchObject({ emails_listened: 1, emails_listened_step1: 1 });
    expect(await campaign(sent)).not.toHaveProperty('emails_listened_step2');
    expect(await recipient(sent)).toMatchObject({ listened_step: 1 });

    expect((await answer(step2.token, { answer: 'interested' })).status).toBe(200);
    expect(await campaign(sent)).toMatchObject({ emails_answered: 1, emails_answered_step2: 1 });
    expect(await recipient(sent)).toMatchObject({ first_answered_step: 2 });

    // A later listen or a changed answer, through any link, is the same recipient: nothing counts again.
    await beacon(step2.token, { type: 'progress', session: SESSION, percent: 60, seconds: 5 });
    await answer(sent.token.token, { answer: 'send_wavs' });
    await answer(step1.token, { answer: 'not_for_us' });
    const stored = await campaign(sent);
    expect(stored).toMatchObject({ emails_listened: 1, emails_listened_step1: 1, emails_answered: 1, emails_answered_step2: 1 });
    expect(stored).not.toHaveProperty('emails_answered_step1');
    expect(stored).not.toHaveProperty('emails_listened_step2');
    expect(await recipient(sent)).toMatchObject({ answer: 'not_for_us', listened_step: 1, first_answered_step: 2 });
    expect(await totals(sent)).toMatchObject({ emails_listened: 1, emails_answered: 1 });
  });

  it("'Not for us' through a step's link marks the track's pitch, which stops its steps everywhere (the route keeps the token's track key)", async () => {
    const sent = await sentEmail();
    const pitched = { PK: key.user(sent.user.sub), SK: key.pitched('track-key-1', sent.token.contact_id) };
    await db().send(new PutCommand({ TableName: table(), Item: { ...pitched, entity: 'pitched' } }));
    const step1: EmailToken = { ...sent.token, token: newEmailToken(), step: 1, track_key: 'track-key-1' };
    await db().send(new PutCommand({ TableName: table(), Item: { PK: key.tokenPartition(step1.token), SK: key.tokenSort(), entity: 'token', ...step1 } }));
    expect((await answer(step1.token, { answer: 'not_for_us' })).status).toBe(200);
    expect(typeof (await item(pitched))?.passed_at).toBe('string');
    expect(await campaign(sent)).toMatchObject({ emails_answered: 1, emails_answered_step1: 1 });
  });

  it("through the first email's link counts on no step", async () => {
    const sent = await sentEmail();
    await beacon(sent.token.token, { type: 'progress', session: SESSION, percent: 25, seconds: 0 });
    await answer(sent.token.token, { answer: 'interested' });
    const stored = await campaign(sent);
    expect(stored).toMatchObject({ emails_listened: 1, emails_answered: 1 });
    expect(Object.keys(stored ?? {}).filter((name) => name.includes('_step'))).toEqual([]);
    expect(await recipient(sent)).not.toHaveProperty('listened_step');
    expect(await recipient(sent)).not.toHaveProperty('first_answered_step');
  });
});

describe('answers', () => {
  it('keeps one current answer per recipient (changeable), counts the first once, shows it on the page and the contact', async () => {
    const sent = await sentEmail();
    const t = sent.token.token;
    const first = await answer(t, { answer: 'interested', note: '  Love the drop  ' });
    expect(first.status, first.text).toBe(200);
    expect(await recipient(sent)).toMatchObject({ answer: 'interested', answer_note: 'Love the drop' });
    expect((await campaign(sent))?.emails_answered).toBe(1);
    expect(await totals(sent)).toMatchObject({ emails_answered: 1 });
    expect((await today(sent))?.emails_answered).toBe(1);
    expect((await contact(sent))?.last_answer).toMatchObject({
      answer: 'interested',
      note: 'Love the drop',
      campaign_id: sent.campaignId,
      track_name: 'Night Drive',
    });

    await answer(t, { answer: 'not_for_us' });
    expect(await recipient(sent)).toMatchObject({ answer: 'not_for_us', answer_note: null });
    expect((await campaign(sent))?.emails_answered).toBe(1);
    expect(await totals(sent)).toMatchObject({ emails_answered: 1 });
    expect((await contact(sent))?.last_answer).toMatchObject({ answer: 'not_for_us', note: null });
    expect((await page(t)).json).toMatchObject({ answer: 'not_for_us', answer_note: null });
  });

  it('refuses an unknown answer or a note over 500 characters with a 400, nothing stored', async () => {
    const sent = await sentEmail();
    expect((await answer(sent.token.token, { answer: 'maybe' })).status).toBe(400);
    const long = await answer(sent.token.token, { answer: 'interested', note: 'x'.repeat(501) });
    expect(long.status).toBe(400);
    expect(long.json?.message).toContain('500');
    expect(await recipient(sent)).not.toHaveProperty('answer');
  });
});

describe('lifecycle', () => {
  it('a link expires after the campaign’s days to a clear page, and then takes no events or answers', async () => {
    const sent = await sentEmail({ campaign: { listen_days: 2 } });
    const t = sent.token.token;
    expect((await page(t)).status).toBe(200);
    clockOffsetMs = 2 * DAY_MS;
    try {
      const expired = await page(t);
      expect(expired.status).toBe(410);
      expect(expired.json).toEqual({ state: 'expired', artist_name: 'DJ Nova', message: listenMessages.expired });
      expect((await beacon(t, { type: 'play', session: SESSION })).status).toBe(410);
      expect((await answer(t, { answer: 'interested' })).status).toBe(410);
    } finally {
      clockOffsetMs = 0;
    }
    expect(await recipient(sent)).not.toHaveProperty('play_count');
    expect(await recipient(sent)).not.toHaveProperty('answer');
  });

  it('an old campaign item without listen_days keeps links for 90 days', async () => {
    const sent = await sentEmail({ campaign: { listen_days: undefined }, createdAt: new Date(Date.now() - 89 * DAY_MS) });
    expect((await page(sent.token.token)).status).toBe(200);
    const old = await sentEmail({ campaign: { listen_days: undefined }, createdAt: new Date(Date.now() - 91 * DAY_MS) });
    expect((await page(old.token.token)).json?.state).toBe('expired');
  });

  it('a link this container already read (its facts kept a minute) still refuses events at once when its track is deleted', async () => {
    const sent = await sentEmail();
    const t = sent.token.token;
    expect((await page(t)).status).toBe(200);
    expect((await beacon(t, { type: 'play', session: SESSION })).status).toBe(204);
    await trackStore().markDeleted(sent.user.sub, sent.trackId, new Date());
    const refused = await beacon(t, { type: 'play', session: `${SESSION}-again` });
    expect(refused.status).toBe(410);
    expect(refused.json).toMatchObject({ code: 'track_deleted', message: listenMessages.trackDeleted });
    expect((await answer(t, { answer: 'interested' })).status).toBe(410);
    expect(await recipient(sent)).toMatchObject({ play_count: 1 });
  });

  it('a link this container already read still expires on time, within the minute its facts are kept', async () => {
    const now = Date.now();
    // Sent a day ago less 30 s with 1-day links: it expires 30 s from now.
    const sent = await sentEmail({ campaign: { listen_days: 1 }, createdAt: new Date(now - DAY_MS + 30_000) });
    const t = sent.token.token;
    pinnedNow = new Date(now);
    try {
      expect((await beacon(t, { type: 'play', session: SESSION })).status).toBe(204);
      pinnedNow = new Date(now + 31_000);
      const refused = await beacon(t, { type: 'play', session: `${SESSION}-again` });
      expect(refused.status).toBe(410);
      expect(refused.json).toMatchObject({ code: 'expired', message: listenMessages.expired });
      expect((await page(t)).json?.state).toBe('expired');
    } finally {
      pinnedNow = undefined;
    }
    expect(await recipient(sent)).toMatchObject({ play_count: 1 });
  });

  it('a deleted track makes its pages say so', async () => {
    const sent = await sentEmail();
    await trackStore().markDeleted(sent.user.sub, sent.trackId, new Date());
    const response = await page(sent.token.token);
    expect(response.status).toBe(410);
    expect(response.json).toMatchObject({ state: 'track_deleted', message: listenMessages.trackDeleted });
  });

  it('unsubscribing stops the emails, not the page: the recipient can still listen and answer', async () => {
    const sent = await sentEmail();
    const tracking = new DynamoTrackingStore(db(), table());
    expect(await tracking.unsubscribe(sent.token, { reason: null, details: null }, new Date())).toBe('unsubscribed');
    expect(await tracking.isUnsubscribed(sent.token)).toBe(true);

    expect((await page(sent.token.token)).status).toBe(200);
    expect((await beacon(sent.token.token, { type: 'play', session: SESSION })).status).toBe(204);
    expect((await beacon(sent.token.token, { type: 'progress', session: SESSION, percent: 50, seconds: 4 })).status).toBe(204);
    expect((await answer(sent.token.token, { answer: 'not_for_us' })).status).toBe(200);
    expect(await recipient(sent)).toMatchObject({ play_count: 1, listen_max_percent: 50, answer: 'not_for_us' });
    expect((await campaign(sent))?.emails_answered).toBe(1);
  });
});

describe('the artist’s side', () => {
  it('the campaign’s emails carry each recipient’s listening and answer; the campaign its counters', async () => {
    const sent = await sentEmail();
    const t = sent.token.token;
    await beacon(t, { type: 'play', session: SESSION });
    await beacon(t, { type: 'progress', session: SESSION, percent: 80, seconds: 6 });
    await answer(t, { answer: 'send_wavs', note: 'Send the stems too' });
    const emails = await call(`/api/campaigns/${sent.campaignId}/emails`, { token: sent.user.idToken });
    expect(emails.status, emails.text).toBe(200);
    expect((emails.json as { emails: unknown[] }).emails[0]).toMatchObject({
      listen_max_percent: 75,
      play_count: 1,
      download_count: 0,
      listen_seconds: 6,
      answer: 'send_wavs',
      answer_note: 'Send the stems too',
    });
    const detail = await call(`/api/campaigns/${sent.campaignId}`, { token: sent.user.idToken });
    expect(detail.json).toMatchObject({ track_id: sent.trackId, emails_listened: 1, emails_answered: 1, allow_download: false, listen_days: 90 });
  });

  it("names the uploaded file's track on the page when the campaign item has no track name", async () => {
    const sent = await sentEmail({ campaign: { track_name: '  ' } });
    const response = await page(sent.token.token);
    expect(response.json).toMatchObject({ state: 'ready', track_name: 'Night Drive (demo)' });
  });

  it('an old campaign item without the listen fields reads with their defaults', async () => {
    const user = await createUser();
    const id = ids.next(new Date());
    await db().send(
      new PutCommand({
        TableName: table(),
        Item: { PK: key.user(user.sub), SK: key.campaign(id), entity: 'campaign', id, track_name: 'Old', status: 'completed' },
      }),
    );
    const stored = await new DynamoCampaignStore(db(), table(), { ids }).get(user.sub, id);
    expect(stored).toMatchObject({ track_id: null, allow_download: false, listen_days: 90, emails_listened: 0, emails_answered: 0, emails_downloaded: 0 });
  });

  it('Compose takes only the caller’s own ready track: another user’s track id is refused', async () => {
    const owner = await createUser();
    const other = await createUser();
    const trackId = await seedTrack(owner);
    const draft = (track_id: string) => ({
      mode: 'html',
      track: { track_name: 'Night Drive', track_id, allow_download: true, listen_days: 30 },
      email_subject: 'New track',
      email_body: '<p>Listen: <a href="[TRACK_URL]">here</a></p>',
      total_recipients: 1,
    });
    const refused = await call('/api/campaigns', { method: 'POST', token: other.idToken, body: draft(trackId) });
    expect(refused.status).toBe(400);
    expect(refused.json?.message).toBe(listenMessages.trackNotFound);
    const created = await call('/api/campaigns', { method: 'POST', token: owner.idToken, body: draft(trackId) });
    expect(created.status, created.text).toBe(201);
    expect(created.json).toMatchObject({ track_id: trackId, allow_download: true, listen_days: 30 });
    const badDays = await call('/api/campaigns', {
      method: 'POST',
      token: owner.idToken,
      body: { ...draft(trackId), track: { ...draft(trackId).track, listen_days: 400 } },
    });
    expect(badDays.status).toBe(400);
    expect(badDays.json?.message).toContain(listenMessages.listenDaysRange);
  });

  it('another user cannot read the emails of a campaign with listens', async () => {
    const sent = await sentEmail();
    const other = await createUser();
    expect((await call(`/api/campaigns/${sent.campaignId}/emails`, { token: other.idToken })).status).toBe(404);
  });
});
