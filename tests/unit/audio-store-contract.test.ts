/**
 * The AudioStore and AudioUrls ports' contract (issue 16), run against the S3 adapters (S3 mocked: it
 * cannot run here; the mock keeps objects and holds a presigned POST to its policy's conditions, as S3
 * documents; the GET URL signer is S3GetUrlSigner) and against the local adapter for real (a temporary
 * folder). Both must take an upload only within
 * its form's key, media type and size, read and delete what they took, and promote an upload to its
 * track's key so that the form, posted again, can no longer change the track's object.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  NotFound,
  NoSuchKey,
  S3Client,
  type GetObjectCommandOutput,
} from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { LocalAudioStore } from '../../lambdas/adapters/local-audio/localAudioStore';
import { S3AudioStore } from '../../lambdas/adapters/s3/s3AudioStore';
import { S3GetUrlSigner } from '../../lambdas/adapters/s3/s3GetUrlSigner';
import type { AudioStore, AudioUploadForm, AudioUrls } from '../../lambdas/ports';
import { wavBytes } from '../support/audio';

interface Harness {
  store: AudioStore;
  urls: AudioUrls;
  /** The browser's POST of `bytes` with the form's fields (some changed); 'refused' as the storage would answer. */
  post(form: AudioUploadForm, bytes: Uint8Array, change?: Record<string, string>, at?: Date): Promise<'stored' | 'refused'>;
  /** When a signed GET URL stops working. */
  urlExpiry(url: string): Date;
}

// ---- S3, mocked ------------------------------------------------------------------------------------
const s3Mock = mockClient(S3Client);

interface S3Object {
  bytes: Uint8Array;
  contentType: string;
}

type PolicyCondition = Record<string, string> | [string, string, string] | ['content-length-range', number, number];

function s3Harness(): Harness {
  s3Mock.reset();
  const bucket = new Map<string, S3Object>();
  const missing = () => new NotFound({ message: 'Not Found', $metadata: { httpStatusCode: 404 } });
  s3Mock.on(HeadObjectCommand).callsFake((input: HeadObjectCommand['input']) => {
    const object = bucket.get(input.Key ?? '');
    if (!object) throw missing();
    return { ContentLength: object.bytes.length, ContentType: object.contentType };
  });
  s3Mock.on(GetObjectCommand).callsFake((input: GetObjectCommand['input']) => {
    const object = bucket.get(input.Key ?? '');
    if (!object) throw new NoSuchKey({ message: 'The specified key does not exist.', $metadata: { httpStatusCode: 404 } });
    const body = { transformToWebStream: () => new Blob([object.bytes.slice()]).stream() };
    return { Body: body as unknown as GetObjectCommandOutput['Body'] };
  });
  // CopyObject within the bucket: `CopySource` is `<bucket>/<key>`; the metadata (media type) copied, or replaced by the request's (REPLACE).
  s3Mock.on(CopyObjectCommand).callsFake((input: CopyObjectCommand['input']) => {
    const [sourceBucket, ...sourceKey] = (input.CopySource ?? '').split('/');
    const object = sourceBucket === input.Bucket ? bucket.get(sourceKey.join('/')) : undefined;
    if (!object) throw new NoSuchKey({ message: 'The specified key does not exist.', $metadata: { httpStatusCode: 404 } });
    const contentType = input.MetadataDirective === 'REPLACE' ? input.ContentType : object.contentType;
    if (contentType === undefined) throw new Error('a REPLACE copy without a media type would lose it');
    bucket.set(input.Key ?? '', { bytes: object.bytes.slice(), contentType });
    return {};
  });
  s3Mock.on(DeleteObjectCommand).callsFake((input: DeleteObjectCommand['input']) => {
    bucket.delete(input.Key ?? '');
    return {};
  });
  const credentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' };
  const client = new S3Client({ region: 'eu-west-1', credentials });
  return {
    store: new S3AudioStore(client, 'tp-audio'),
    urls: new S3GetUrlSigner('eu-west-1', 'tp-audio', credentials),
    // S3's POST Object: every form field must meet the policy's conditions, the policy must not have expired.
    post: (form, bytes, change = {}, at = new Date()) => {
      const fields = { ...form.fields, ...change };
      const policy = JSON.parse(Buffer.from(fields.Policy ?? '', 'base64').toString('utf8')) as { expiration: string; conditions: PolicyCondition[] };
      if (at > new Date(policy.expiration)) return Promise.resolve('refused');
      const holds = policy.conditions.every((condition) => {
        if (Array.isArray(condition)) {
          const [operator, field, value] = condition;
          if (operator === 'content-length-range') return bytes.length >= Number(field) && bytes.length <= Number(value);
          return operator === 'eq' && fields[field.replace(/^\$/, '')] === value;
        }
        return Object.entries(condition).every(([name, value]) => fields[name] === value);
      });
      if (!holds) return Promise.resolve('refused');
      bucket.set(fields.key ?? '', { bytes, contentType: fields['Content-Type'] ?? '' });
      return Promise.resolve('stored');
    },
    urlExpiry: (url) => {
      const query = new URL(url).searchParams;
      const signed = /^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z$/.exec(query.get('X-Amz-Date') ?? '');
      if (!signed) throw new Error(`not a presigned URL: ${url}`);
      const start = Date.UTC(Number(signed[1]), Number(signed[2]) - 1, Number(signed[3]), Number(signed[4]), Number(signed[5]), Number(signed[6]));
      return new Date(start + Number(query.get('X-Amz-Expires')) * 1000);
    },
  };
}

// ---- the local folder, for real -------------------------------------------------------------------
const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function localHarness(): Harness {
  const folder = mkdtempSync(join(tmpdir(), 'trackpitch-audio-contract-'));
  folders.push(folder);
  const key = Buffer.alloc(32, 7);
  const store = new LocalAudioStore({ folder, signingKey: () => Promise.resolve(key), appUrl: 'http://127.0.0.1:3000' });
  return {
    store,
    urls: store,
    post: async (form, bytes, change = {}, at = new Date()) => {
      const check = await store.checkUploadForm({ ...form.fields, ...change }, at);
      if (!check.ok) return 'refused';
      return (await store.receive(check.policy, Readable.from([bytes]))) === 'stored' ? 'stored' : 'refused';
    },
    urlExpiry: (url) => new Date(Number(new URL(url).searchParams.get('expires'))),
  };
}

const readAll = async (stream: ReadableStream<Uint8Array>) => new Uint8Array(await new Response(stream).arrayBuffer());

describe.each([
  ['S3 (mocked)', s3Harness],
  ['local folder', localHarness],
])('AudioStore contract: %s', (_name, makeHarness) => {
  let harness: Harness;
  beforeEach(() => {
    harness = makeHarness();
  });
  const now = new Date();
  const key = 'uploads/user-1/01KAKZ3R0000000000000000AA';
  const finalKey = 'tracks/user-1/01KAKZ3R0000000000000000AA';
  const wav = wavBytes({ seconds: 0.25 });
  const presign = (maxBytes = wav.length) => harness.store.presignUpload({ key, contentType: 'audio/wav', maxBytes, expiresInSeconds: 900, now });

  it('takes an upload within the form, and heads, reads and deletes it', async () => {
    const form = await presign();
    expect(form.expiresAt).toEqual(new Date(now.getTime() + 900_000));
    expect(form.fields).toMatchObject({ key, 'Content-Type': 'audio/wav' });
    expect(await harness.store.head(key)).toBeUndefined();
    expect(await harness.post(form, wav)).toBe('stored');

    expect(await harness.store.head(key)).toEqual({ size: wav.length, contentType: 'audio/wav' });
    const stream = await harness.store.read(key);
    expect(stream && (await readAll(stream))).toEqual(wav);

    await harness.store.delete(key);
    expect(await harness.store.head(key)).toBeUndefined();
    expect(await harness.store.read(key)).toBeUndefined();
    await harness.store.delete(key); // nothing stored is not an error
  });

  it('refuses more bytes than the form allows, another media type, another key, or an expired form', async () => {
    const form = await presign(100);
    expect(await harness.post(form, wav)).toBe('refused');
    const fits = await presign();
    expect(await harness.post(fits, wav, { 'Content-Type': 'text/html' })).toBe('refused');
    expect(await harness.post(fits, wav, { key: 'tracks/user-2/01KAKZ3R0000000000000000AA' })).toBe('refused');
    expect(await harness.post(fits, wav, {}, new Date(now.getTime() + 901_000))).toBe('refused');
    expect(await harness.store.head(key)).toBeUndefined();
  });

  it("promotes an upload to the track's key, which the form, posted again, no longer reaches", async () => {
    const form = await presign();
    expect(await harness.post(form, wav)).toBe('stored');
    expect(await harness.store.promote(key, finalKey)).toBe(true);
    expect(await harness.store.head(key)).toBeUndefined();
    expect(await harness.store.head(finalKey)).toEqual({ size: wav.length, contentType: 'audio/wav' });
    const promoted = await harness.store.read(finalKey);
    expect(promoted && (await readAll(promoted))).toEqual(wav);
    expect(await harness.store.promote(key, finalKey)).toBe(false); // moved already: nothing to move

    // The same form, still valid, posted again with other bytes: it writes the upload key, not the track's.
    const other = wav.map((byte) => byte ^ 0xff);
    expect(await harness.post(form, other)).toBe('stored');
    const kept = await harness.store.read(finalKey);
    expect(kept && (await readAll(kept))).toEqual(wav);
    await harness.store.delete(key);
    await harness.store.delete(finalKey);
    expect(await harness.store.head(finalKey)).toBeUndefined();
  });

  it('promotes with the media type the server read the bytes to be, when given (cover art: a WebP declared a PNG)', async () => {
    const form = await presign();
    expect(await harness.post(form, wav)).toBe('stored');
    expect(await harness.store.promote(key, finalKey, { contentType: 'image/webp' })).toBe(true);
    expect(await harness.store.head(finalKey)).toEqual({ size: wav.length, contentType: 'image/webp' });
    await harness.store.delete(finalKey);
  });

  it('signs a GET URL of the object that expires when asked', async () => {
    const url = await harness.urls.signedGetUrl(key, { expiresInSeconds: 600, now });
    expect(url).toContain(encodeURIComponent('01KAKZ3R0000000000000000AA').replace(/%2F/g, '/'));
    expect(Math.abs(harness.urlExpiry(url).getTime() - (now.getTime() + 600_000))).toBeLessThan(1000);
    const download = await harness.urls.signedGetUrl(key, { expiresInSeconds: 600, now, downloadName: 'Night Drive.wav' });
    expect(download).not.toBe(url);
  });
});
