/**
 * The private listen page (issue 16), on a fresh in-memory local stack (the same as npm start):
 *  - time to first audio byte: the page's API call (GET /api/l/<token>) and then the first byte of the
 *    signed audio URL with a Range request, over HTTP to the local server, as the page does;
 *  - listen-event ingestion: the listen handler's POST /api/l/<token>/events (play, then progress with a
 *    new milestone and seconds) in-process, `concurrency` at a time across recipients, against the
 *    engine floor measured in the same run (one UpdateItem ADD per event at the same concurrency);
 *  - a listener's session, one beacon at a time as the page sends them (a play, the four milestones and
 *    a pause, on links not read before): each beacon's time, and the DynamoDB requests per beacon (the
 *    handler's adapters on a client whose requests the bench counts).
 * Prints figures; no assertions.
 *
 *   npx tsx bench/listen.ts [recipients] [concurrency]
 */
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { batchWriteAll, type WriteRequest } from '../lambdas/adapters/dynamodb/batch';
import { DynamoTrackStore } from '../lambdas/adapters/dynamodb/trackStore';
import { ulidGenerator } from '../lambdas/adapters/ulid';
import { localAudioStore } from '../lambdas/composition/audio';
import { newEmailToken } from '../lambdas/core/emailToken';
import { trackAudioKey, trackUploadKey } from '../lambdas/core/tracks';
import { DynamoListenStore } from '../lambdas/adapters/dynamodb/listenStore';
import { DynamoTrackingStore } from '../lambdas/adapters/dynamodb/trackingStore';
import { listenDeps, withKeptLinkFacts } from '../lambdas/composition/listen';
import { makeHandler } from '../lambdas/http/listen';
import { buildApiEvent, makeLambdaContext } from '../lib/local/event';
import { localServerConfig } from '../lib/local/stack';
import { key } from '../schema/table';
import { wavBytes } from '../tests/support/audio';
import { medianOf, p95Of, startBenchStack, valueAt } from './stack';

const recipients = Number(process.argv[2] ?? 500);
const concurrency = Number(process.argv[3] ?? 16);
const FIRST_BYTE_RUNS = 30;
/** Listeners whose sessions are timed beacon by beacon (their links not read before). */
const SESSION_LISTENERS = 100;

const ms = (value: number) => `${value.toFixed(1)} ms`;

const bench = await startBenchStack();
const { stack, db } = bench;
try {
  const config = localServerConfig(stack);
  const ids = ulidGenerator();
  const userId = `bench-listen-${Date.now()}`;

  // --- Setup: a ready 30-second track with its audio stored, a campaign linking to it, its recipients --
  const trackId = ids.next(new Date());
  const wav = wavBytes({ seconds: 30, sampleRate: 22050 });
  const audio = localAudioStore(config);
  const form = await audio.presignUpload({
    key: trackUploadKey(userId, trackId),
    contentType: 'audio/wav',
    maxBytes: wav.length,
    expiresInSeconds: 600,
    now: new Date(),
  });
  const body = new FormData();
  for (const [name, value] of Object.entries(form.fields)) body.append(name, value);
  body.append('file', new Blob([wav], { type: 'audio/wav' }), 'track');
  const uploaded = await fetch(form.url, { method: 'POST', body });
  if (!uploaded.ok) throw new Error(`upload: ${uploaded.status} ${await uploaded.text()}`);
  await audio.promote(trackUploadKey(userId, trackId), trackAudioKey(userId, trackId));
  const tracks = new DynamoTrackStore(db, stack.tableName);
  const now = new Date();
  await tracks.createPending(
    userId,
    {
      id: trackId,
      name: 'Bench Track',
      status: 'pending',
      audio_key: trackAudioKey(userId, trackId),
      content_type: 'audio/wav',
      size_bytes: wav.length,
      created_at: now.toISOString(),
    },
    new Date(now.getTime() + 86_400_000),
  );
  await tracks.markReady(userId, trackId, {
    format: 'wav',
    duration_seconds: 30,
    sample_rate: 22050,
    size_bytes: wav.length,
    peaks: Array.from({ length: 800 }, (_, i) => (i % 10) / 10),
  });
  const campaignId = ids.next(now);
  await db.send(
    new PutCommand({
      TableName: stack.tableName,
      Item: {
        PK: key.user(userId),
        SK: key.campaign(campaignId),
        entity: 'campaign',
        id: campaignId,
        track_id: trackId,
        allow_download: true,
        listen_days: 90,
        description: 'Bench.',
      },
    }),
  );
  const allTokens = Array.from({ length: recipients + SESSION_LISTENERS }, () => newEmailToken());
  const tokens = allTokens.slice(0, recipients);
  const sessionTokens = allTokens.slice(recipients);
  const writes: WriteRequest[] = allTokens.flatMap((token, position) => [
    {
      PutRequest: {
        Item: {
          PK: key.campaignPartition(campaignId),
          SK: key.recipient(position),
          entity: 'recipient',
          campaign_id: campaignId,
          user_id: userId,
          position,
          status: 'sent',
        },
      },
    },
    {
      PutRequest: {
        Item: {
          PK: key.tokenPartition(token),
          SK: key.tokenSort(),
          entity: 'token',
          token,
          user_id: userId,
          campaign_id: campaignId,
          position,
          contact_id: `contact-${position}`,
          contact_email: `r${position}@bench.test`,
          contact_name: null,
          artist_name: 'Bench Artist',
          track_name: 'Bench Track',
          links: [],
          created_at: now.toISOString(),
        },
      },
    },
  ]);
  await batchWriteAll(db, stack.tableName, writes);
  console.log(`setup: a 30 s WAV (${(wav.length / 1024).toFixed(0)} KiB) stored, ${recipients} recipients with their tokens`);

  // --- Time to first audio byte, over HTTP to the local server ------------------------------------------
  const pageMs: number[] = [];
  const firstByteMs: number[] = [];
  for (let run = 0; run < FIRST_BYTE_RUNS + 3; run++) {
    const token = valueAt(tokens, run % tokens.length);
    const t0 = performance.now();
    const pageResponse = await fetch(`${stack.appUrl}/api/l/${token}`);
    const page = (await pageResponse.json()) as { audio_url: string };
    const t1 = performance.now();
    const audioResponse = await fetch(page.audio_url, { headers: { range: 'bytes=0-' } });
    if (audioResponse.status !== 206 || !audioResponse.body) throw new Error(`audio: ${audioResponse.status}`);
    const reader = audioResponse.body.getReader();
    await reader.read();
    const t2 = performance.now();
    await reader.cancel();
    if (run >= 3) {
      pageMs.push(t1 - t0);
      firstByteMs.push(t2 - t0);
    }
  }
  console.log(
    `time to first audio byte (page data + signed URL + Range request; ${FIRST_BYTE_RUNS} runs): median ${ms(medianOf(firstByteMs))}, p95 ${ms(p95Of(firstByteMs))}; of it GET /api/l/<token>: median ${ms(medianOf(pageMs))}`,
  );

  // --- Listen-event ingestion, in-process ----------------------------------------------------------
  // The group's own adapters, on a client whose requests are counted by command (GetItem, TransactWriteItems, …).
  const requests = new Map<string, number>();
  db.middlewareStack.add(
    (next, context) => (args) => {
      const command = context.commandName ?? 'unnamed';
      requests.set(command, (requests.get(command) ?? 0) + 1);
      return next(args);
    },
    { step: 'initialize', name: 'benchRequestCount' },
  );
  const requestsPer = (events: number) =>
    [...requests.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([command, count]) => `${command.replace(/Command$/, '')} ${(count / events).toFixed(2)}`)
      .join(', ');
  // The stores over the counted client, kept as the composition keeps them (a container's link facts).
  const handler = makeHandler(
    withKeptLinkFacts({
      ...listenDeps(config),
      tokens: new DynamoTrackingStore(db, stack.tableName),
      listen: new DynamoListenStore(db, stack.tableName),
      tracks: new DynamoTrackStore(db, stack.tableName),
    }),
  );
  const context = () => makeLambdaContext({ functionName: 'listen', awsRequestId: 'bench', region: stack.region, timeoutMs: 10_000 });
  const post = async (token: string, beacon: Record<string, unknown>) => {
    const path = `/api/l/${token}/events`;
    const event = buildApiEvent({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/json' },
      body: Buffer.from(JSON.stringify(beacon)),
      sourceIp: '127.0.0.1',
      route: { method: 'POST', path: '/api/l/{token}/events' },
      pathParameters: { token },
      requestId: 'bench',
      now: new Date(),
    });
    const result = (await handler(event, context())) as { statusCode: number; body?: string };
    if (result.statusCode !== 204) throw new Error(`events: ${result.statusCode} ${result.body}`);
  };
  const inParallel = async (count: number, work: (i: number) => Promise<unknown>) => {
    let next = 0;
    const t = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < count) await work(next++);
      }),
    );
    return performance.now() - t;
  };
  // Each recipient: a play, then progress to 50 % with 15 s heard (a milestone, the first listen, seconds).
  requests.clear();
  const eventsMs = await inParallel(recipients * 2, async (i) => {
    const token = valueAt(tokens, Math.floor(i / 2));
    await post(
      token,
      i % 2 === 0
        ? { type: 'play', session: `bench-session-${Math.floor(i / 2)}` }
        : { type: 'progress', session: `bench-session-${Math.floor(i / 2)}`, percent: 50, seconds: 15 },
    );
  });
  const ingestionRequests = requestsPer(recipients * 2);
  const floorMs = await inParallel(recipients * 2, (i) =>
    db.send(
      new UpdateCommand({
        TableName: stack.tableName,
        Key: { PK: key.campaignPartition(campaignId), SK: key.recipient(i % recipients) },
        UpdateExpression: 'ADD bench_count :one',
        ExpressionAttributeValues: { ':one': 1 },
      }),
    ),
  );
  const rate = (count: number, elapsed: number) => (count / (elapsed / 1000)).toFixed(0);
  console.log(
    `listen-event ingestion (${recipients * 2} events: a play and a 50 % progress per recipient, ${concurrency} at a time, in-process handler, DynamoDB Local): ${rate(recipients * 2, eventsMs)} events/s; engine floor (one UpdateItem per event, same concurrency): ${rate(recipients * 2, floorMs)} writes/s; ratio ${(eventsMs / floorMs).toFixed(1)}× the floor's time`,
  );
  console.log(`  DynamoDB requests per event: ${ingestionRequests}`);

  // --- A listener's session, beacon by beacon ---------------------------------------------------------
  const session: Array<Record<string, unknown>> = [
    { type: 'play' },
    { type: 'progress', percent: 25, seconds: 8 },
    { type: 'progress', percent: 50, seconds: 15 },
    { type: 'progress', percent: 52, seconds: 16 }, // a pause
    { type: 'progress', percent: 75, seconds: 23 },
    { type: 'progress', percent: 100, seconds: 30 },
  ];
  const beaconMs: number[] = [];
  requests.clear();
  for (const [listener, token] of sessionTokens.entries()) {
    for (const beacon of session) {
      const t = performance.now();
      await post(token, { ...beacon, session: `bench-listener-${String(listener)}` });
      beaconMs.push(performance.now() - t);
    }
  }
  console.log(
    `a listener's session (${String(SESSION_LISTENERS)} listeners × ${String(session.length)} beacons, one at a time, links not read before): a beacon median ${ms(medianOf(beaconMs))}, p95 ${ms(p95Of(beaconMs))}; DynamoDB requests per beacon: ${requestsPer(beaconMs.length)}`,
  );
} finally {
  await bench.stop();
}
