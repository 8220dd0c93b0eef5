/**
 * The local AudioStore (issue 16): tracks' audio in a folder (`.data/audio` under `npm start`; a
 * temporary folder per process without a data folder). The browser posts the same multipart form it
 * posts to S3, to the local server's POST /local/audio/upload (lib/local/audioFiles.ts), which checks
 * the policy signed here (HMAC, expiring: key, media type, most bytes) as S3 checks a presigned POST's.
 * Signed GET URLs (/local/audio/file) answer HTTP Range requests, as S3's do. The data export's zip
 * (ExportStore, issue 26 §3) is written here too, under `exports/`, and downloaded with such a URL.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createReadStream, mkdtempSync } from 'node:fs';
import { mkdir, open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import type { AudioObjectHead, AudioStore, AudioUploadForm, AudioUploadRequest, AudioUrls, ExportStore } from '../../ports';

export const LOCAL_AUDIO_UPLOAD_PATH = '/local/audio/upload';
export const LOCAL_AUDIO_FILE_PATH = '/local/audio/file';

/** The data folder's audio folder; without one, a temporary folder made once per process. */
let processFolder: string | undefined;
export function localAudioFolder(dataDir: string | undefined): string {
  if (dataDir !== undefined) return resolve(dataDir, 'audio');
  processFolder ??= mkdtempSync(join(tmpdir(), 'trackpitch-audio-'));
  return processFolder;
}

/** What a signed upload policy allows. */
export interface UploadPolicy {
  key: string;
  contentType: string;
  maxBytes: number;
  /** Epoch milliseconds. */
  expiresAt: number;
}

/** The answer to a form the local server received: the policy it may store under, or why not (S3's error codes). */
export type PolicyCheck = { ok: true; policy: UploadPolicy } | { ok: false; code: 'AccessDenied' | 'InvalidPolicyDocument'; message: string };

/** Keys are `uploads/<sub>/<id>`, `tracks/<sub>/<id>` and `exports/<sub>/<id>`: plain segments only, so a key can never leave the folder. */
const SAFE_KEY = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*$/;

/** What S3 keeps beside an object's bytes: its media type. */
interface Sidecar {
  contentType: string;
}

const base64url = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

export class LocalAudioStore implements AudioStore, AudioUrls, ExportStore {
  constructor(
    private readonly options: {
      folder: string;
      /** The key signing policies and GET URLs (localKeys(dataDir).audioSigningKey). */
      signingKey: () => Promise<Buffer>;
      /** The local server's origin: where the browser posts and plays. */
      appUrl: string;
    },
  ) {}

  /** The file of a key inside the folder; throws for a key that is not one this store makes. */
  private pathOf(key: string): string {
    if (!SAFE_KEY.test(key)) throw new Error(`Not an audio key: ${key}`);
    const path = resolve(this.options.folder, key);
    if (!path.startsWith(this.options.folder + sep)) throw new Error(`Not an audio key: ${key}`);
    return path;
  }

  private async sign(text: string): Promise<string> {
    return createHmac('sha256', await this.options.signingKey())
      .update(text)
      .digest('base64url');
  }

  private async signatureHolds(text: string, signature: string): Promise<boolean> {
    const expected = Buffer.from(await this.sign(text));
    const given = Buffer.from(signature);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  async presignUpload(request: AudioUploadRequest): Promise<AudioUploadForm> {
    this.pathOf(request.key);
    const expiresAt = new Date(request.now.getTime() + request.expiresInSeconds * 1000);
    const policy: UploadPolicy = { key: request.key, contentType: request.contentType, maxBytes: request.maxBytes, expiresAt: expiresAt.getTime() };
    const encoded = base64url(JSON.stringify(policy));
    return {
      url: `${this.options.appUrl}${LOCAL_AUDIO_UPLOAD_PATH}`,
      // S3's field names where they mean the same; the browser posts them as given, then the file.
      fields: { key: request.key, 'Content-Type': request.contentType, Policy: encoded, 'X-Local-Signature': await this.sign(encoded) },
      expiresAt,
    };
  }

  /** Checks a posted form's fields against its signed policy, as S3 does a presigned POST's. */
  async checkUploadForm(fields: Readonly<Record<string, string>>, now: Date): Promise<PolicyCheck> {
    const encoded = fields.Policy ?? '';
    const signature = fields['X-Local-Signature'] ?? '';
    if (encoded === '' || !(await this.signatureHolds(encoded, signature))) {
      return { ok: false, code: 'AccessDenied', message: 'The upload policy is missing or its signature does not match.' };
    }
    const policy = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as UploadPolicy;
    if (now.getTime() > policy.expiresAt) return { ok: false, code: 'AccessDenied', message: 'The upload policy has expired.' };
    if (fields.key !== policy.key) return { ok: false, code: 'AccessDenied', message: 'Invalid according to Policy: Policy Condition failed: ["eq", "$key"]' };
    if (fields['Content-Type'] !== policy.contentType) {
      return { ok: false, code: 'AccessDenied', message: 'Invalid according to Policy: Policy Condition failed: ["eq", "$Content-Type"]' };
    }
    return { ok: true, policy };
  }

  /**
   * Stores an upload the policy allowed: streamed to a temporary file, counted as it comes, and moved
   * under its key only once whole and within the policy's size ('too_large' and nothing kept, otherwise).
   */
  async receive(policy: UploadPolicy, file: AsyncIterable<Uint8Array>): Promise<'stored' | 'too_large' | 'empty'> {
    const stored = await this.store(policy.key, file, { contentType: policy.contentType, maxBytes: policy.maxBytes });
    return stored === 'too_large' || stored === 'empty' ? stored : 'stored';
  }

  /** ExportStore: the data export's zip, a chunk at a time, as S3's multipart upload takes it. */
  async write(key: string, chunks: AsyncIterable<Uint8Array>, options: { contentType: string }): Promise<{ bytes: number }> {
    const stored = await this.store(key, chunks, { contentType: options.contentType, maxBytes: Number.POSITIVE_INFINITY, keepEmpty: true });
    if (typeof stored !== 'number') throw new Error(`Nothing stored under ${key}: ${stored}`);
    return { bytes: stored };
  }

  /**
   * Streams `chunks` to a temporary file, then moves it under `key` with its media type once whole:
   * its size then; past `maxBytes` (read on to the end: the client gets the answer, not a reset) or
   * empty, nothing is kept. A broken stream leaves nothing and throws.
   */
  private async store(
    key: string,
    chunks: AsyncIterable<Uint8Array>,
    options: { contentType: string; maxBytes: number; keepEmpty?: boolean },
  ): Promise<number | 'too_large' | 'empty'> {
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true });
    const partial = `${path}.part-${String(process.pid)}-${String(Date.now())}-${String(Math.random()).slice(2, 8)}`;
    const out = await open(partial, 'w');
    let size = 0;
    try {
      for await (const chunk of chunks) {
        size += chunk.byteLength;
        if (size <= options.maxBytes) await out.write(chunk);
      }
    } catch (error) {
      await out.close();
      await rm(partial, { force: true });
      throw error;
    }
    await out.close();
    if (size > options.maxBytes || (size === 0 && !options.keepEmpty)) {
      await rm(partial, { force: true });
      return size === 0 ? 'empty' : 'too_large';
    }
    await writeFile(`${path}.meta.json`, JSON.stringify({ contentType: options.contentType } satisfies Sidecar));
    await rename(partial, path);
    return size;
  }

  private async sidecar(key: string): Promise<Sidecar | undefined> {
    try {
      return JSON.parse(await readFile(`${this.pathOf(key)}.meta.json`, 'utf8')) as Sidecar;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async head(key: string): Promise<AudioObjectHead | undefined> {
    try {
      const { size } = await stat(this.pathOf(key));
      return { size, contentType: (await this.sidecar(key))?.contentType };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async read(key: string): Promise<ReadableStream<Uint8Array> | undefined> {
    if ((await this.head(key)) === undefined) return undefined;
    return Readable.toWeb(createReadStream(this.pathOf(key))) as ReadableStream<Uint8Array>;
  }

  /** Renames the upload and its media type (or `contentType`) to the final key (the bytes move, as S3's copy and delete leave them). */
  async promote(stagingKey: string, finalKey: string, options: { contentType?: string } = {}): Promise<boolean> {
    const [from, to] = [this.pathOf(stagingKey), this.pathOf(finalKey)];
    await mkdir(dirname(to), { recursive: true });
    // The media type first, then the bytes: their rename is the move.
    const sidecar = await this.sidecar(stagingKey);
    if (!sidecar) return false;
    await writeFile(`${to}.meta.json`, JSON.stringify({ contentType: options.contentType ?? sidecar.contentType } satisfies Sidecar));
    try {
      await rename(from, to);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
    await rm(`${from}.meta.json`, { force: true });
    return true;
  }

  async delete(key: string): Promise<void> {
    const path = this.pathOf(key);
    await Promise.all([rm(path, { force: true }), rm(`${path}.meta.json`, { force: true })]);
  }

  async signedGetUrl(key: string, options: { expiresInSeconds: number; now: Date; downloadName?: string }): Promise<string> {
    this.pathOf(key);
    const expires = String(options.now.getTime() + options.expiresInSeconds * 1000);
    const download = options.downloadName ?? '';
    const query = new URLSearchParams({ key, expires, ...(download ? { download } : {}) });
    query.set('signature', await this.sign(`${key}\n${expires}\n${download}`));
    return `${this.options.appUrl}${LOCAL_AUDIO_FILE_PATH}?${query.toString()}`;
  }

  /** The file a signed GET URL names, when its signature holds and it has not expired; undefined otherwise. */
  async checkGetUrl(query: URLSearchParams, now: Date): Promise<{ path: string; contentType: string | undefined; downloadName?: string } | undefined> {
    const key = query.get('key') ?? '';
    const expires = query.get('expires') ?? '';
    const download = query.get('download') ?? '';
    if (!SAFE_KEY.test(key) || !(await this.signatureHolds(`${key}\n${expires}\n${download}`, query.get('signature') ?? ''))) return undefined;
    if (!(Number(expires) >= now.getTime())) return undefined;
    return { path: this.pathOf(key), contentType: (await this.sidecar(key))?.contentType, ...(download ? { downloadName: download } : {}) };
  }
}
