/**
 * The ExportStore port's contract (issue 26 §3: the data export's zip, written as it is built), run
 * against the S3 adapter (S3 mocked with aws-sdk-client-mock: the mock keeps objects and multipart
 * uploads, and refuses a part under 5 MiB but the last, as S3 does) and against the local folder for
 * real. Both store the chunks in order under the key with its media type, small or many parts, and keep
 * nothing when the stream breaks. The S3 side also shows the parts leave while the archive is still
 * being built: never all of it held.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  HeadObjectCommand,
  NoSuchKey,
  NotFound,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
  type GetObjectCommandOutput,
} from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { LocalAudioStore } from '../../lambdas/adapters/local-audio/localAudioStore';
import { S3AudioStore } from '../../lambdas/adapters/s3/s3AudioStore';
import { PART_BYTES, S3ExportStore } from '../../lambdas/adapters/s3/s3ExportStore';
import { accountExportKey } from '../../lambdas/core/account';
import type { AudioStore, ExportStore } from '../../lambdas/ports';

interface Harness {
  exports: ExportStore;
  /** Reads what was stored (the audio store over the same storage). */
  objects: Pick<AudioStore, 'head' | 'read'>;
  /** Anything left of an upload that did not finish (open multipart uploads, partial files). */
  leftovers(): string[];
  /** How many chunks the archive had yielded when storage first received bytes of it (undefined: not known). */
  chunksYieldedAtFirstBytes(): number | undefined;
}

let yielded = 0;

// ---- S3, mocked ------------------------------------------------------------------------------------
const s3Mock = mockClient(S3Client);

function s3Harness(): Harness {
  s3Mock.reset();
  const bucket = new Map<string, { bytes: Buffer; contentType: string }>();
  const uploads = new Map<string, { key: string; contentType: string; parts: Map<number, Buffer> }>();
  let firstBytesAt: number | undefined;
  let nextUpload = 0;
  const body = (value: unknown) => {
    firstBytesAt ??= yielded;
    return Buffer.from(value as Uint8Array);
  };
  s3Mock.on(PutObjectCommand).callsFake((input: PutObjectCommand['input']) => {
    bucket.set(input.Key ?? '', { bytes: body(input.Body), contentType: input.ContentType ?? 'binary/octet-stream' });
    return {};
  });
  s3Mock.on(CreateMultipartUploadCommand).callsFake((input: CreateMultipartUploadCommand['input']) => {
    const UploadId = `upload-${String(++nextUpload)}`;
    uploads.set(UploadId, { key: input.Key ?? '', contentType: input.ContentType ?? 'binary/octet-stream', parts: new Map() });
    return { UploadId, Key: input.Key };
  });
  s3Mock.on(UploadPartCommand).callsFake((input: UploadPartCommand['input']) => {
    const upload = uploads.get(input.UploadId ?? '');
    if (!upload || upload.key !== input.Key) throw new NoSuchKey({ message: 'The specified upload does not exist.', $metadata: { httpStatusCode: 404 } });
    upload.parts.set(input.PartNumber ?? 0, body(input.Body));
    return { ETag: `"etag-${String(input.PartNumber)}"` };
  });
  // S3's completion: the parts named, in order, with their ETags; each but the last at least 5 MiB.
  s3Mock.on(CompleteMultipartUploadCommand).callsFake((input: CompleteMultipartUploadCommand['input']) => {
    const upload = uploads.get(input.UploadId ?? '');
    if (!upload) throw new NoSuchKey({ message: 'The specified upload does not exist.', $metadata: { httpStatusCode: 404 } });
    const named = input.MultipartUpload?.Parts ?? [];
    const parts = named.map((part, index) => {
      const bytes = upload.parts.get(part.PartNumber ?? 0);
      if (!bytes || part.PartNumber !== index + 1 || part.ETag !== `"etag-${String(part.PartNumber)}"`) throw new Error('InvalidPart');
      if (index < named.length - 1 && bytes.length < 5 * 1024 * 1024) throw new Error('EntityTooSmall');
      return bytes;
    });
    if (parts.length === 0) throw new Error('MalformedXML');
    bucket.set(upload.key, { bytes: Buffer.concat(parts), contentType: upload.contentType });
    uploads.delete(input.UploadId ?? '');
    return {};
  });
  s3Mock.on(AbortMultipartUploadCommand).callsFake((input: AbortMultipartUploadCommand['input']) => {
    uploads.delete(input.UploadId ?? '');
    return {};
  });
  s3Mock.on(HeadObjectCommand).callsFake((input: HeadObjectCommand['input']) => {
    const object = bucket.get(input.Key ?? '');
    if (!object) throw new NotFound({ message: 'Not Found', $metadata: { httpStatusCode: 404 } });
    return { ContentLength: object.bytes.length, ContentType: object.contentType };
  });
  s3Mock.on(GetObjectCommand).callsFake((input: GetObjectCommand['input']) => {
    const object = bucket.get(input.Key ?? '');
    if (!object) throw new NoSuchKey({ message: 'The specified key does not exist.', $metadata: { httpStatusCode: 404 } });
    return { Body: { transformToWebStream: () => new Blob([new Uint8Array(object.bytes)]).stream() } as unknown as GetObjectCommandOutput['Body'] };
  });
  const client = new S3Client({ region: 'eu-west-1', credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' } });
  return {
    exports: new S3ExportStore(client, 'tp-audio'),
    objects: new S3AudioStore(client, 'tp-audio'),
    leftovers: () => [...uploads.values()].map((upload) => upload.key),
    chunksYieldedAtFirstBytes: () => firstBytesAt,
  };
}

// ---- the local folder, for real -------------------------------------------------------------------
const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function localHarness(): Harness {
  const folder = mkdtempSync(join(tmpdir(), 'trackpitch-export-contract-'));
  folders.push(folder);
  const store = new LocalAudioStore({ folder, signingKey: () => Promise.resolve(Buffer.alloc(32, 7)), appUrl: 'http://127.0.0.1:3000' });
  return {
    exports: store,
    objects: store,
    leftovers: () => (readdirSync(folder, { recursive: true }) as string[]).filter((name) => name.includes('.part-')),
    chunksYieldedAtFirstBytes: () => undefined,
  };
}

const readAll = async (stream: ReadableStream<Uint8Array> | undefined) => (stream ? Buffer.from(await new Response(stream).arrayBuffer()) : undefined);

/** `count` chunks of `size` bytes, each a different byte pattern, counted as they are taken. */
async function* chunks(count: number, size: number, options: { failAfter?: number } = {}): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < count; i++) {
    if (options.failAfter === i) throw new Error('the table read failed');
    await Promise.resolve();
    yielded += 1;
    yield Buffer.alloc(size, i % 251);
  }
}
const expected = (count: number, size: number) => Buffer.concat(Array.from({ length: count }, (_, i) => Buffer.alloc(size, i % 251)));

describe.each([
  ['S3 (mocked)', s3Harness],
  ['local folder', localHarness],
])('ExportStore contract: %s', (name, makeHarness) => {
  let harness: Harness;
  beforeEach(() => {
    harness = makeHarness();
    yielded = 0;
  });
  const key = accountExportKey('user-1', '01KAKZ3R0000000000000000AA');

  it('stores a small archive whole, with its media type, and tells its size', async () => {
    expect(await harness.exports.write(key, chunks(3, 1000), { contentType: 'application/zip' })).toEqual({ bytes: 3000 });
    expect(await harness.objects.head(key)).toEqual({ size: 3000, contentType: 'application/zip' });
    expect(await readAll(await harness.objects.read(key))).toEqual(expected(3, 1000));
    expect(harness.leftovers()).toEqual([]);
  });

  it('stores an archive of many parts in order, sending them as it is built', async () => {
    // 13 MiB in 256 KiB chunks: three parts of S3's, the last one short.
    const [count, size] = [52, 256 * 1024];
    expect(await harness.exports.write(key, chunks(count, size), { contentType: 'application/zip' })).toEqual({ bytes: count * size });
    const stored = await readAll(await harness.objects.read(key));
    expect(stored?.length).toBe(count * size);
    expect(stored?.equals(expected(count, size))).toBe(true);
    expect(harness.leftovers()).toEqual([]);
    const firstBytes = harness.chunksYieldedAtFirstBytes();
    // The first part left when it was full: a part's worth of chunks, not the archive's.
    if (firstBytes !== undefined) expect(firstBytes).toBe(PART_BYTES / size);
    else expect(name).toBe('local folder');
  });

  it('keeps nothing when the archive breaks off, small or past a part', async () => {
    await expect(harness.exports.write(key, chunks(3, 1000, { failAfter: 2 }), { contentType: 'application/zip' })).rejects.toThrow('the table read failed');
    expect(await harness.objects.head(key)).toBeUndefined();
    await expect(harness.exports.write(key, chunks(40, 256 * 1024, { failAfter: 30 }), { contentType: 'application/zip' })).rejects.toThrow(
      'the table read failed',
    );
    expect(await harness.objects.head(key)).toBeUndefined();
    expect(harness.leftovers()).toEqual([]);
  });
});
