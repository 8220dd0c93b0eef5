/**
 * The artist's tracks end to end (issue 16): local server → JWT authorizer → lambdas/http/tracks.ts →
 * DynamoDB Local and the local AudioStore. The browser's upload is the same multipart POST it sends to
 * S3, to the local server's /local/audio/upload, which holds it to the signed policy. A server of this
 * file's own keeps the audio in a folder of its own, so the test can see what is stored and deleted.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoMailboxStore } from '../../lambdas/adapters/dynamodb/mailboxStore';
import { ulidGenerator } from '../../lambdas/adapters/ulid';
import { localAudioStore } from '../../lambdas/composition/audio';
import { tracksDeps } from '../../lambdas/composition/tracks';
import { makeHandler as makeTracksHandler } from '../../lambdas/http/tracks';
import type { AudioStore } from '../../lambdas/ports';
import type { HandlerGroup } from '../../schema/routes';
import { importHandler } from '../../lib/local/server';
import type { LocalServer } from '../../lib/local/server';
import type { Campaign } from '../../schema/api/campaigns';
import type { Contact } from '../../schema/api/contacts';
import type { SendModeName } from '../../schema/api/sending';
import type { ListenPage } from '../../schema/api/listenValues';
import {
  COVER_MAX_BYTES,
  coverUploadSchema,
  TRACK_MAX_BYTES,
  trackMessages,
  trackSchema,
  trackSummarySchema,
  type TrackSummary,
  type TrackUpload,
} from '../../schema/api/tracks';
import { key } from '../../schema/table';
import { adtsBytes, textBytes, wavBytes } from '../support/audio';
import { gifBytes, jpegBytes, notAnImageBytes, pngBytes, webpBytes } from '../support/images';
import { seedSentEmail } from './sentEmails';
import { callAt, createUser, dynamodb, freePort, stack, startServer, stackConfig, uniqueEmail, type ApiOptions, type TestUser } from './helpers';

let server: LocalServer;
let dataDir: string;
let call: ReturnType<typeof callAt>;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'trackpitch-tracks-test-'));
  const port = await freePort();
  const config = { ...stackConfig(), appUrl: `http://127.0.0.1:${String(port)}`, localDataDir: dataDir };
  const audio = localAudioStore(config);
  const loadHandler = async (group: HandlerGroup) =>
    group === 'tracks' ? makeTracksHandler({ ...tracksDeps(config), audio: racingAudio(audio) }) : importHandler(group, config);
  server = await startServer({ port, loadHandler, audioFiles: audio });
  call = callAt(server.url);
});

afterAll(async () => {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Set by a test: the next read of an upload is cut short by another complete moving the upload away, as a race can do. */
let moveUploadDuringNextRead = false;

/** The audio store, with the race above injected on request. */
function racingAudio(audio: AudioStore): AudioStore {
  return new Proxy(audio, {
    get(target, property) {
      const value = Reflect.get(target, property) as unknown;
      if (property !== 'read') return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      return async (key: string) => {
        const stream = await target.read(key);
        if (!moveUploadDuringNextRead || !stream || !key.startsWith('uploads/')) return stream;
        moveUploadDuringNextRead = false;
        const reader = stream.getReader();
        const { value: first } = await reader.read();
        await reader.cancel();
        await target.promote(key, key.replace(/^uploads\//, 'tracks/'));
        return new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue((first ?? new Uint8Array()).slice(0, 12));
            controller.close();
          },
        });
      };
    },
  });
}

const api = (user: TestUser, path: string, options: Omit<ApiOptions, 'token'> = {}) => call(path, { ...options, token: user.idToken });

/** A ready track's audio, and where the browser's upload lands until complete checks it. */
const audioFile = (userId: string, trackId: string) => join(dataDir, 'audio', 'tracks', userId, trackId);
const uploadFile = (userId: string, trackId: string) => join(dataDir, 'audio', 'uploads', userId, trackId);
const userIdOf = (user: TestUser) => (JSON.parse(Buffer.from(user.idToken.split('.')[1] ?? '', 'base64url').toString('utf8')) as { sub: string }).sub;

async function startUpload(user: TestUser, body: Record<string, unknown>): Promise<TrackUpload> {
  const response = await api(user, '/api/tracks/uploads', { method: 'POST', body });
  expect(response.status, response.text).toBe(201);
  return response.json as unknown as TrackUpload;
}

/** What the browser does: the form's fields in order, then the file. */
async function postFile(upload: TrackUpload['upload'], bytes: Uint8Array<ArrayBuffer>, type: string, fields: Record<string, string> = upload.fields) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('file', new Blob([bytes], { type }), 'track');
  const response = await fetch(upload.url, { method: 'POST', body: form });
  return { status: response.status, text: await response.text() };
}

const complete = (user: TestUser, id: string, body: unknown = {}) => api(user, `/api/tracks/${id}/complete`, { method: 'POST', body });

async function uploadWav(user: TestUser, name = 'Night Drive (demo)') {
  const wav = wavBytes({ seconds: 1.5, sampleRate: 8000 });
  const { track_id, upload } = await startUpload(user, { name, content_type: 'audio/wav', size: wav.length });
  expect((await postFile(upload, wav, 'audio/wav')).status).toBe(204);
  return { id: track_id, wav, upload };
}

const listOf = async (user: TestUser): Promise<TrackSummary[]> => {
  const response = await api(user, '/api/tracks');
  expect(response.status).toBe(200);
  return (response.json as { tracks: TrackSummary[] }).tracks;
};

describe('uploading a track', () => {
  let user: TestUser;
  beforeAll(async () => {
    user = await createUser();
  });

  it('a generated WAV goes up through the presigned POST, is read by the server, listed in My tracks and deleted', async () => {
    const { id, wav } = await uploadWav(user);
    expect(existsSync(uploadFile(userIdOf(user), id))).toBe(true);
    expect(existsSync(audioFile(userIdOf(user), id))).toBe(false); // not a track's audio until it is checked
    // Not listed until complete: the upload may not have arrived.
    expect((await listOf(user)).map((track) => track.id)).not.toContain(id);

    const peaks = Array.from({ length: 800 }, (_, i) => (i % 10) / 10 + 0.01234);
    const completed = await complete(user, id, { peaks });
    expect(completed.status, completed.text).toBe(201);
    const track = trackSchema.parse(completed.json);
    expect(track).toMatchObject({
      id,
      name: 'Night Drive (demo)',
      format: 'wav',
      content_type: 'audio/wav',
      duration_seconds: 1.5,
      sample_rate: 8000,
      size_bytes: wav.length,
    });
    expect(track.peaks).toHaveLength(800);
    expect(track.peaks[1]).toBe(0.112); // stored to 3 decimals
    expect(readFileSync(audioFile(userIdOf(user), id))).toEqual(Buffer.from(wav));
    expect(existsSync(uploadFile(userIdOf(user), id))).toBe(false);

    // Completing again answers the same track (a retried request).
    const again = await complete(user, id, {});
    expect(again.status).toBe(200);
    expect(trackSchema.parse(again.json).peaks).toEqual(track.peaks);

    const [listed] = await listOf(user);
    expect(listed).toEqual(trackSummarySchema.parse(listed));
    expect(listed).not.toHaveProperty('peaks');
    expect(listed?.id).toBe(id);

    expect((await api(user, `/api/tracks/${id}`, { method: 'DELETE' })).status).toBe(204);
    expect(existsSync(audioFile(userIdOf(user), id))).toBe(false);
    expect((await listOf(user)).map((t) => t.id)).not.toContain(id);
    expect((await api(user, `/api/tracks/${id}`, { method: 'DELETE' })).status).toBe(404);
    expect((await complete(user, id)).json).toEqual({ message: trackMessages.alreadyDeleted });
  });

  it('an AAC (ADTS) file is a track, its length counted from its frames', async () => {
    const aac = adtsBytes({ seconds: 2, sampleRate: 44100 });
    const { track_id, upload } = await startUpload(user, { name: 'Night Drive (AAC)', content_type: 'audio/aac', size: aac.length });
    expect((await postFile(upload, aac, 'audio/aac')).status).toBe(204);
    const completed = await complete(user, track_id);
    expect(completed.status, completed.text).toBe(201);
    const track = trackSchema.parse(completed.json);
    expect(track).toMatchObject({ format: 'aac', sample_rate: 44100, size_bytes: aac.length });
    expect(track.duration_seconds).toBeCloseTo(2, 1);
  });

  it('lists the ready tracks newest first', async () => {
    const listUser = await createUser();
    const first = await uploadWav(listUser, 'First');
    const second = await uploadWav(listUser, 'Second');
    await complete(listUser, first.id);
    await complete(listUser, second.id);
    const pending = await startUpload(listUser, { name: 'Never sent', content_type: 'audio/mpeg', size: 1000 });
    expect((await listOf(listUser)).map((track) => track.name)).toEqual(['Second', 'First']);
    expect((await listOf(listUser)).map((track) => track.id)).not.toContain(pending.track_id);
  });

  it('a text file renamed .mp3 is refused with the message, and its stored object deleted', async () => {
    const text = textBytes();
    const { track_id, upload } = await startUpload(user, { name: 'lyrics.mp3', content_type: 'audio/mpeg', size: text.length });
    expect((await postFile(upload, text, 'audio/mpeg')).status).toBe(204); // storage takes any bytes of the declared type
    expect(existsSync(uploadFile(userIdOf(user), track_id))).toBe(true);

    const refused = await complete(user, track_id);
    expect(refused.status).toBe(400);
    expect(refused.json).toEqual({ message: trackMessages.notAudio, code: 'not_audio' });
    expect(existsSync(uploadFile(userIdOf(user), track_id))).toBe(false);
    expect(existsSync(audioFile(userIdOf(user), track_id))).toBe(false);
    expect((await complete(user, track_id)).status).toBe(404); // it never became a track
  });

  it('the upload form posted again after complete changes nothing of the ready track', async () => {
    const { id, wav, upload } = await uploadWav(user, 'Checked');
    const completed = await complete(user, id);
    expect(completed.status).toBe(201);

    // The form is still within its 15 minutes: storage takes the post, but under the upload key only.
    const text = textBytes();
    expect((await postFile(upload, text.slice(0, wav.length), 'audio/wav')).status).toBe(204);
    expect(readFileSync(audioFile(userIdOf(user), id))).toEqual(Buffer.from(wav));
    const again = await complete(user, id);
    expect(again.status).toBe(200);
    expect(again.json).toEqual(completed.json);
    expect(readFileSync(audioFile(userIdOf(user), id))).toEqual(Buffer.from(wav));

    // Deleting the track deletes that upload too.
    expect((await api(user, `/api/tracks/${id}`, { method: 'DELETE' })).status).toBe(204);
    expect(existsSync(audioFile(userIdOf(user), id))).toBe(false);
    expect(existsSync(uploadFile(userIdOf(user), id))).toBe(false);
  });

  it('two completes at once both answer the ready track: one made it (201), the other found it made (200)', async () => {
    const pairs = await Promise.all(
      Array.from({ length: 4 }, async (_, i) => {
        const { id } = await uploadWav(user, `Twice ${String(i)}`);
        return { id, answers: await Promise.all([complete(user, id), complete(user, id)]) };
      }),
    );
    for (const { id, answers } of pairs) {
      expect(answers.map((answer) => answer.status).sort(), answers.map((answer) => answer.text).join('\n')).toEqual([200, 201]);
      expect(answers.map((answer) => trackSchema.parse(answer.json).id)).toEqual([id, id]);
      expect(existsSync(audioFile(userIdOf(user), id))).toBe(true);
    }
  });

  it('a complete whose read is cut short by another complete moving the upload judges the moved file: made ready, never refused', async () => {
    const { id } = await uploadWav(user, 'Cut short');
    moveUploadDuringNextRead = true;
    const answer = await complete(user, id);
    expect(moveUploadDuringNextRead).toBe(false); // the race was injected
    expect(answer.status, answer.text).toBe(201);
    expect(existsSync(audioFile(userIdOf(user), id))).toBe(true);
    expect((await listOf(user)).map((track) => track.id)).toContain(id);
  });

  it('complete before the file has arrived is a 409 saying so', async () => {
    const { track_id } = await startUpload(user, { name: 'Late', content_type: 'audio/flac', size: 5000 });
    const early = await complete(user, track_id);
    expect(early.status).toBe(409);
    expect(early.json).toMatchObject({ message: trackMessages.notUploaded });
  });
});

describe('the storage policy of an upload', () => {
  let user: TestUser;
  beforeAll(async () => {
    user = await createUser();
  });

  it('refuses a file larger than the size declared (nothing stored)', async () => {
    const wav = wavBytes({ seconds: 1 });
    const { track_id, upload } = await startUpload(user, { name: 'Small', content_type: 'audio/wav', size: 100 });
    const posted = await postFile(upload, wav, 'audio/wav');
    expect(posted.status).toBe(400);
    expect(posted.text).toContain('<Code>EntityTooLarge</Code>');
    expect(existsSync(uploadFile(userIdOf(user), track_id))).toBe(false);
  });

  it('refuses another media type, another key, or a policy changed by the browser', async () => {
    const wav = wavBytes({ seconds: 0.5 });
    const { upload } = await startUpload(user, { name: 'Strict', content_type: 'audio/wav', size: wav.length });
    const changed = async (fields: Record<string, string>) => postFile(upload, wav, 'audio/wav', { ...upload.fields, ...fields });
    expect((await changed({ 'Content-Type': 'text/html' })).status).toBe(403);
    expect((await changed({ key: `tracks/${userIdOf(user)}/01KAKZ3R0000000000000000ZZ` })).status).toBe(403);
    expect((await changed({ key: upload.fields.key?.replace(/^uploads\//, 'tracks/') ?? '' })).status).toBe(403); // never the track's own key
    const policy = JSON.parse(Buffer.from(upload.fields.Policy ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
    const bigger = Buffer.from(JSON.stringify({ ...policy, maxBytes: TRACK_MAX_BYTES })).toString('base64url');
    const forged = await changed({ Policy: bigger });
    expect(forged.status).toBe(403);
    expect(forged.text).toContain('<Code>AccessDenied</Code>');
  });

  it('refuses a form of more fields than an upload has (nothing stored)', async () => {
    const wav = wavBytes({ seconds: 0.5 });
    const { track_id, upload } = await startUpload(user, { name: 'Padded', content_type: 'audio/wav', size: wav.length });
    const padding = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`x-pad-${String(i)}`, 'x']));
    const posted = await postFile(upload, wav, 'audio/wav', { ...upload.fields, ...padding });
    expect(posted.status).toBe(400);
    expect(posted.text).toContain('<Code>MaxPostPreDataLengthExceeded</Code>');
    expect(existsSync(uploadFile(userIdOf(user), track_id))).toBe(false);
  });

  it('a signed GET URL of a kept track answers Range requests; an unsigned one is refused', async () => {
    const { id, wav } = await uploadWav(user, 'Playable');
    expect((await complete(user, id)).status).toBe(201);
    const store = localAudioStore({ localDataDir: dataDir, appUrl: server.url });
    const url = await store.signedGetUrl(`tracks/${userIdOf(user)}/${id}`, { expiresInSeconds: 60, now: new Date() });
    const part = await fetch(url, { headers: { range: 'bytes=0-11' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 0-11/${String(wav.length)}`);
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(wav.slice(0, 12));
    const unsigned = new URL(url);
    unsigned.searchParams.set('signature', 'x');
    expect((await fetch(unsigned)).status).toBe(403);
  });
});

describe('bad requests', () => {
  let user: TestUser;
  beforeAll(async () => {
    user = await createUser();
  });

  const ask = (body: unknown) => api(user, '/api/tracks/uploads', { method: 'POST', body });

  it('answers each with a 400 that says what is wrong', async () => {
    expect((await ask({ name: ' ', content_type: 'audio/wav', size: 10 })).json).toEqual({ message: trackMessages.nameRequired });
    expect((await ask({ name: 'Doc', content_type: 'application/pdf', size: 10 })).json).toEqual({ message: `content_type: ${trackMessages.unsupportedType}` });
    expect((await ask({ name: 'Huge', content_type: 'audio/wav', size: TRACK_MAX_BYTES + 1 })).json).toEqual({ message: `size: ${trackMessages.tooLarge}` });
    const cases = [{ name: 'x', content_type: 'audio/wav', size: 1.5 }, { name: 'x', content_type: 'audio/wav', size: 10, owner: 'someone' }, 'not json', []];
    for (const body of cases) expect((await ask(body)).status, JSON.stringify(body)).toBe(400);
  });

  it('refuses peaks out of range or too many, and keeps the upload pending', async () => {
    const { id } = await uploadWav(user, 'Peaky');
    for (const peaks of [[2], [-0.1], Array.from({ length: 2001 }, () => 0.5), ['loud']]) {
      const response = await complete(user, id, { peaks });
      expect(response.status).toBe(400);
    }
    expect((await complete(user, id, { peaks: [0, 0.5, 1] })).status).toBe(201);
  });
});

describe("another user's track", () => {
  it('is a 404 on complete and delete, and stays the owner’s', async () => {
    const owner = await createUser();
    const other = await createUser();
    const { id } = await uploadWav(owner, 'Mine');
    expect((await complete(other, id)).status).toBe(404);
    expect((await api(other, `/api/tracks/${id}`, { method: 'DELETE' })).status).toBe(404);
    expect(await listOf(other)).toEqual([]);
    expect((await complete(owner, id)).status).toBe(201);
    expect((await api(other, `/api/tracks/${id}`, { method: 'DELETE' })).status).toBe(404);
    expect(existsSync(audioFile(userIdOf(owner), id))).toBe(true);
    expect((await listOf(owner)).map((track) => track.id)).toEqual([id]);
  });

  it('an id of another shape is a 404 without a read', async () => {
    const user = await createUser();
    expect((await complete(user, 'not-a-track')).status).toBe(404);
    expect((await api(user, '/api/tracks/..%2F..%2Fetc', { method: 'DELETE' })).status).toBe(404);
  });
});

/**
 * A track that campaigns still send with (issue 23 §5): deleting it would leave their unsent emails with
 * dead listen links, so the delete is refused (409) naming them, until they finish. A draft that links
 * to a deleted track cannot start.
 */
describe('a track campaigns still send with', () => {
  /** A connected mailbox, as the OAuth callback leaves it. */
  async function connectMailbox(user: TestUser) {
    expect((await api(user, '/api/profile')).status).toBe(200);
    await new DynamoMailboxStore(dynamodb().doc, stack().tableName).connect(user.sub, {
      email: user.email,
      accountType: 'free',
      dailyLimit: 500,
      sealedRefreshToken: 'sealed-test-token',
      connectedAt: new Date().toISOString(),
    });
  }

  /** An HTML-mode draft whose emails link to the uploaded track, for one new contact. */
  async function draftWith(user: TestUser, trackId: string, name: string): Promise<{ campaign: Campaign; contact: Contact }> {
    const added = await api(user, '/api/contacts', {
      method: 'POST',
      body: { name: `${name} Contact`, email: uniqueEmail('label'), label_name: 'Deep Records' },
    });
    expect(added.status, added.text).toBe(201);
    const created = await api(user, '/api/campaigns', {
      method: 'POST',
      body: {
        mode: 'html',
        track: { track_name: name, track_id: trackId },
        email_subject: 'New track',
        email_body: '<p>Listen: <a href="[TRACK_URL]">here</a></p>',
        total_recipients: 1,
      },
    });
    expect(created.status, created.text).toBe(201);
    return { campaign: created.json as unknown as Campaign, contact: added.json as unknown as Contact };
  }

  const send = (user: TestUser, campaign: Campaign, contact: Contact, mode: SendModeName) =>
    api(user, `/api/campaigns/${campaign.id}/send`, { method: 'POST', body: { contact_ids: [contact.id], mode, batch_start: 0, total: 1 } });

  async function sendingWith(user: TestUser, trackId: string, name: string, mode: SendModeName): Promise<Campaign> {
    const { campaign, contact } = await draftWith(user, trackId, name);
    const sent = await send(user, campaign, contact, mode);
    expect(sent.status, sent.text).toBe(200);
    return campaign;
  }

  /** What the pipeline leaves once a campaign's one email went: sent, completed, nothing pending. */
  const finish = (user: TestUser, campaign: Campaign) =>
    dynamodb().doc.send(
      new UpdateCommand({
        TableName: stack().tableName,
        Key: { PK: key.user(user.sub), SK: key.campaign(campaign.id) },
        UpdateExpression: 'SET #status = :completed, sending_status = :null, emails_sent = total_queued',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':completed': 'completed', ':null': null },
      }),
    );

  it('is not deleted while campaigns sending, scheduled or paused with recipients left link to it: a 409 naming them', async () => {
    const owner = await createUser();
    await connectMailbox(owner);
    const { id } = await uploadWav(owner, 'Night Drive');
    expect((await complete(owner, id)).status).toBe(201);
    const sending = await sendingWith(owner, id, 'Night Drive to Labels', 'immediate');
    const scheduled = await sendingWith(owner, id, 'Night Drive to DJs', 'scheduled');

    const refused = await api(owner, `/api/tracks/${id}`, { method: 'DELETE' });
    expect(refused.status).toBe(409);
    // The user's campaigns newest first.
    expect(refused.json).toMatchObject({ message: trackMessages.inUse(['Night Drive to DJs', 'Night Drive to Labels']), code: 'track_in_use' });
    expect(refused.json?.message).toBe(
      'This track is used by campaigns still sending: "Night Drive to DJs", "Night Drive to Labels". Their emails link to it: delete it once they finish.',
    );
    // Nothing was deleted: the audio and My tracks keep it.
    expect(existsSync(audioFile(userIdOf(owner), id))).toBe(true);
    expect((await listOf(owner)).map((track) => track.id)).toContain(id);

    // Paused with its recipient left, a campaign still holds the track (resuming sends the rest).
    expect((await api(owner, `/api/campaigns/${sending.id}/pause`, { method: 'POST' })).status).toBe(200);
    await finish(owner, scheduled);
    expect((await api(owner, `/api/tracks/${id}`, { method: 'DELETE' })).json).toMatchObject({ message: trackMessages.inUse(['Night Drive to Labels']) });

    // Another user's delete of it is the same 404 as a missing track, never the 409 that would say it exists.
    const other = await createUser();
    expect(await api(other, `/api/tracks/${id}`, { method: 'DELETE' })).toMatchObject({ status: 404, json: { message: trackMessages.notFound } });

    // Once every campaign using it has finished, it is deleted.
    await finish(owner, sending);
    expect((await api(owner, `/api/tracks/${id}`, { method: 'DELETE' })).status).toBe(204);
    expect(existsSync(audioFile(userIdOf(owner), id))).toBe(false);
  });

  it('a draft is no hold on it, but once the track is deleted the draft cannot start: no dead listen links', async () => {
    const owner = await createUser();
    await connectMailbox(owner);
    const { id } = await uploadWav(owner, 'Sunrise Edit');
    expect((await complete(owner, id)).status).toBe(201);
    const { campaign, contact } = await draftWith(owner, id, 'Sunrise Edit Promo');
    expect((await api(owner, `/api/tracks/${id}`, { method: 'DELETE' })).status).toBe(204);
    expect(await send(owner, campaign, contact, 'immediate')).toMatchObject({ status: 400, json: { message: trackMessages.campaignTrackDeleted } });
    expect((await api(owner, `/api/campaigns/${campaign.id}`)).json).toMatchObject({ status: 'draft', total_queued: 0 });
  });
});

/**
 * Cover art (issue 25 §5): the same presigned upload and complete as the track's audio, for a ready
 * track; the image is judged by its bytes, kept beside the audio, signed for the listen page as the audio
 * is, and deleted with the track. The listen group runs on this file's server (importHandler), over the
 * same folder and signing key.
 */
describe('cover art', () => {
  const coverFile = (userId: string, trackId: string) => `${audioFile(userId, trackId)}-cover`;
  const coverUploadFile = (userId: string, trackId: string) => `${uploadFile(userId, trackId)}-cover`;
  const startCover = (user: TestUser, id: string, body: unknown) => api(user, `/api/tracks/${id}/cover/uploads`, { method: 'POST', body });
  const completeCover = (user: TestUser, id: string) => api(user, `/api/tracks/${id}/cover/complete`, { method: 'POST', body: {} });

  async function readyTrack(user: TestUser, name = 'Concrete Dawn') {
    const { id } = await uploadWav(user, name);
    expect((await complete(user, id)).status).toBe(201);
    return id;
  }

  /** The browser's two steps for `bytes` declared as `type`: the form (201), then the post (204). Answers complete's response. */
  async function addCover(user: TestUser, id: string, bytes: Uint8Array<ArrayBuffer>, type: string) {
    const started = await startCover(user, id, { content_type: type, size: bytes.length });
    expect(started.status, started.text).toBe(201);
    const { upload } = coverUploadSchema.parse(started.json);
    expect(upload.fields.key).toBe(`uploads/${userIdOf(user)}/${id}-cover`);
    expect((await postFile(upload, bytes, type)).status).toBe(204);
    return completeCover(user, id);
  }

  /** A sent email of a campaign that links to the track, as the sender leaves it: its listen link's token. */
  async function listenTokenFor(user: TestUser, trackId: string): Promise<string> {
    const campaignId = ulidGenerator().next(new Date());
    await dynamodb().doc.send(
      new PutCommand({
        TableName: stack().tableName,
        Item: {
          PK: key.user(user.sub),
          SK: key.campaign(campaignId),
          entity: 'campaign',
          id: campaignId,
          user_id: user.sub,
          mode: 'html',
          track_name: 'Concrete Dawn',
          track_url: null,
          description: '',
          status: 'completed',
          emails_sent: 1,
          track_id: trackId,
          allow_download: false,
          listen_days: 90,
        },
      }),
    );
    return (await seedSentEmail(user, campaignId, 0)).token;
  }

  it('a PNG goes up and is checked as the audio is, listed, on the listen page with a signed URL, and deleted with the track', async () => {
    const user = await createUser();
    const id = await readyTrack(user);
    const png = pngBytes();
    const added = await addCover(user, id, png, 'image/png');
    expect(added.status, added.text).toBe(200);
    expect(trackSchema.parse(added.json)).toMatchObject({ id, cover_type: 'image/png' });
    expect(readFileSync(coverFile(userIdOf(user), id))).toEqual(Buffer.from(png));
    expect(existsSync(coverUploadFile(userIdOf(user), id))).toBe(false);
    expect((await listOf(user)).find((track) => track.id === id)?.cover_type).toBe('image/png');

    const token = await listenTokenFor(user, id);
    const listen = await call(`/api/l/${token}`);
    expect(listen.status, listen.text).toBe(200);
    const page = listen.json as unknown as Extract<ListenPage, { state: 'ready' }>;
    expect(page.cover_url).toContain('/local/audio/file');
    expect(page.cover_url).not.toBe(page.audio_url);
    const image = await fetch(page.cover_url ?? '');
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(new Uint8Array(await image.arrayBuffer())).toEqual(png);
    // Signed: the same URL with another signature is refused.
    const forged = new URL(page.cover_url ?? '');
    forged.searchParams.set('signature', 'x');
    expect((await fetch(forged)).status).toBe(403);

    expect((await api(user, `/api/tracks/${id}`, { method: 'DELETE' })).status).toBe(204);
    expect(existsSync(coverFile(userIdOf(user), id))).toBe(false);
    expect(existsSync(audioFile(userIdOf(user), id))).toBe(false);
    expect((await fetch(page.cover_url ?? '')).status).toBe(404);
    expect((await call(`/api/l/${token}`)).json).toMatchObject({ state: 'track_deleted' });
    // A deleted track takes no cover.
    expect((await startCover(user, id, { content_type: 'image/png', size: png.length })).status).toBe(404);
    expect((await completeCover(user, id)).status).toBe(404);
  });

  it('a listen page of a track without cover art says so (null)', async () => {
    const user = await createUser();
    const id = await readyTrack(user, 'No Artwork');
    const page = (await call(`/api/l/${await listenTokenFor(user, id)}`)).json as unknown as Extract<ListenPage, { state: 'ready' }>;
    expect(page.cover_url).toBeNull();
  });

  it('a JPEG or WebP is taken whatever was declared (the bytes say the type), and replaces the earlier cover', async () => {
    const user = await createUser();
    const id = await readyTrack(user);
    expect(trackSchema.parse((await addCover(user, id, jpegBytes(), 'image/jpeg')).json).cover_type).toBe('image/jpeg');
    // A WebP the browser declared a PNG (named .png): its bytes say WebP.
    const replaced = await addCover(user, id, webpBytes(), 'image/png');
    expect(replaced.status, replaced.text).toBe(200);
    expect(trackSchema.parse(replaced.json).cover_type).toBe('image/webp');
    expect(readFileSync(coverFile(userIdOf(user), id))).toEqual(Buffer.from(webpBytes()));
    // Kept (and so served) as what its bytes are, not as declared.
    const store = localAudioStore({ localDataDir: dataDir, appUrl: server.url });
    expect(await store.head(`tracks/${userIdOf(user)}/${id}-cover`)).toEqual({ size: webpBytes().length, contentType: 'image/webp' });
  });

  it('refuses text named .jpg and a GIF by their bytes, with the rule, deleting the upload and keeping the earlier cover', async () => {
    const user = await createUser();
    const id = await readyTrack(user);
    expect((await addCover(user, id, pngBytes(), 'image/png')).status).toBe(200);
    for (const [bytes, type] of [
      [notAnImageBytes(), 'image/jpeg'],
      [gifBytes(), 'image/png'],
    ] as const) {
      const refused = await addCover(user, id, bytes, type);
      expect(refused.status).toBe(400);
      expect(refused.json).toEqual({ message: trackMessages.coverInvalid, code: 'cover_not_image' });
      expect(existsSync(coverUploadFile(userIdOf(user), id))).toBe(false);
    }
    expect(readFileSync(coverFile(userIdOf(user), id))).toEqual(Buffer.from(pngBytes()));
    expect((await listOf(user)).find((track) => track.id === id)?.cover_type).toBe('image/png');
  });

  it('refuses another type, an empty file or more than 5 MB before any upload; the storage holds the post to the size declared', async () => {
    const user = await createUser();
    const id = await readyTrack(user);
    const rule = trackMessages.coverInvalid;
    expect((await startCover(user, id, { content_type: 'image/gif', size: 100 })).json).toEqual({ message: `content_type: ${rule}` });
    expect((await startCover(user, id, { content_type: 'image/svg+xml', size: 100 })).json).toEqual({ message: `content_type: ${rule}` });
    expect((await startCover(user, id, { content_type: 'image/png', size: COVER_MAX_BYTES + 1 })).json).toEqual({ message: `size: ${rule}` });
    expect((await startCover(user, id, { content_type: 'image/png', size: 0 })).json).toEqual({ message: `size: ${rule}` });

    const started = await startCover(user, id, { content_type: 'image/png', size: 10 });
    const posted = await postFile(coverUploadSchema.parse(started.json).upload, pngBytes(), 'image/png');
    expect(posted.status).toBe(400);
    expect(posted.text).toContain('<Code>EntityTooLarge</Code>');
    expect((await completeCover(user, id)).json).toMatchObject({ message: trackMessages.notUploaded });
  });

  it("another user's track is a 404 for both steps, and keeps no cover; a pending track takes none yet", async () => {
    const owner = await createUser();
    const other = await createUser();
    const id = await readyTrack(owner, 'Mine');
    expect((await startCover(other, id, { content_type: 'image/png', size: 70 })).status).toBe(404);
    expect((await completeCover(other, id)).status).toBe(404);
    // Even with the owner's upload waiting, the other user's complete finds no track.
    const started = await startCover(owner, id, { content_type: 'image/png', size: pngBytes().length });
    expect((await postFile(coverUploadSchema.parse(started.json).upload, pngBytes(), 'image/png')).status).toBe(204);
    expect(await completeCover(other, id)).toMatchObject({ status: 404, json: { message: trackMessages.notFound } });
    expect(existsSync(coverFile(userIdOf(owner), id))).toBe(false);
    expect((await completeCover(owner, id)).status).toBe(200);
    expect(await api(other, `/api/tracks/${id}`, { method: 'DELETE' })).toMatchObject({ status: 404 });
    expect(existsSync(coverFile(userIdOf(owner), id))).toBe(true);

    const { track_id: pending } = await startUpload(owner, { name: 'Not yet', content_type: 'audio/wav', size: 100 });
    expect(await startCover(owner, pending, { content_type: 'image/png', size: 70 })).toMatchObject({
      status: 409,
      json: { message: trackMessages.coverTrackNotReady },
    });
    expect((await startCover(owner, 'not-a-track', { content_type: 'image/png', size: 70 })).status).toBe(404);
  });
});
