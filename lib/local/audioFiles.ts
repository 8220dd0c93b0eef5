/**
 * The local AudioStore's two endpoints (issue 16), as S3 answers them in AWS, so the web app's upload
 * and a player are the same code in both:
 * - POST /local/audio/upload: the browser's multipart form (fields, then `file`), checked against the
 *   policy the store signed (key, media type, most bytes, expiry); 204 when stored, an S3-style XML
 *   error (403 AccessDenied, 400 EntityTooLarge …) otherwise.
 * - GET /local/audio/file?…&signature=…: the object of a signed, unexpired URL, with HTTP Range.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import busboy from 'busboy';
import type { LocalAudioStore } from '../../lambdas/adapters/local-audio/localAudioStore';

export { LOCAL_AUDIO_FILE_PATH, LOCAL_AUDIO_UPLOAD_PATH } from '../../lambdas/adapters/local-audio/localAudioStore';

const xmlEscape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function writeS3Error(res: ServerResponse, status: number, code: string, message: string) {
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${xmlEscape(message)}</Message></Error>`;
  res.writeHead(status, { 'content-type': 'application/xml', 'content-length': String(Buffer.byteLength(body)), 'cache-control': 'no-store' });
  res.end(body);
}

/** Fields before the file (as S3 requires): the most bytes of one, and how many (the form has four; S3 caps them at 20 KB). */
const FIELDS_LIMIT_BYTES = 20 * 1024;
const FIELDS_LIMIT_COUNT = 16;

export async function handleAudioUpload(req: IncomingMessage, res: ServerResponse, store: LocalAudioStore, now: () => Date): Promise<void> {
  if (req.method !== 'POST') {
    req.resume();
    writeS3Error(res, 405, 'MethodNotAllowed', 'Upload with a multipart POST.');
    return;
  }
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: req.headers, limits: { files: 1, fields: FIELDS_LIMIT_COUNT, fieldSize: FIELDS_LIMIT_BYTES } });
  } catch {
    req.resume();
    writeS3Error(res, 400, 'InvalidRequest', 'Send the upload as multipart/form-data.');
    return;
  }
  const fields: Record<string, string> = {};
  const answered = new Promise<{ status: number; code?: string; message?: string }>((resolve) => {
    let filePart: Promise<{ status: number; code?: string; message?: string }> | undefined;
    let tooManyFields = false;
    const tooMany = { status: 400, code: 'MaxPostPreDataLengthExceeded', message: 'Your POST request fields preceding the upload file were too large.' };
    parser.on('field', (name, value) => {
      fields[name] = value;
    });
    parser.on('fieldsLimit', () => {
      tooManyFields = true;
    });
    parser.on('file', (name, file: Readable) => {
      if (name !== 'file' || filePart || tooManyFields) {
        file.resume();
        return;
      }
      filePart = (async () => {
        const check = await store.checkUploadForm(fields, now());
        if (!check.ok) {
          file.resume();
          return { status: 403, code: check.code, message: check.message };
        }
        const outcome = await store.receive(check.policy, file);
        if (outcome === 'too_large') return { status: 400, code: 'EntityTooLarge', message: 'Your proposed upload exceeds the maximum allowed size' };
        if (outcome === 'empty') return { status: 400, code: 'EntityTooSmall', message: 'Your proposed upload is smaller than the minimum allowed size' };
        return { status: 204 };
      })().catch((error: unknown) => ({ status: 500, code: 'InternalError', message: String(error) }));
    });
    parser.on('close', () => {
      if (tooManyFields) resolve(tooMany);
      else resolve(filePart ?? { status: 400, code: 'InvalidArgument', message: 'POST requires exactly one file upload per request.' });
    });
    parser.on('error', () => {
      resolve({ status: 400, code: 'MalformedPOSTRequest', message: 'The body of your POST request is not well-formed multipart/form-data.' });
    });
  });
  req.pipe(parser);
  const result = await answered;
  if (result.status === 204) res.writeHead(204, { 'cache-control': 'no-store' }).end();
  else writeS3Error(res, result.status, result.code ?? 'InternalError', result.message ?? '');
}

/** `bytes=a-b`, `bytes=a-`, `bytes=-n` of a file of `size` bytes: the inclusive range, 'unsatisfiable', or undefined (whole file). */
export function byteRange(header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | undefined {
  const match = /^bytes=(\d*)-(\d*)$/.exec((header ?? '').trim());
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  const [from, to] = [match[1] ?? '', match[2] ?? ''];
  if (from === '') {
    const suffix = Number(to);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(from);
  const end = to === '' ? size - 1 : Math.min(Number(to), size - 1);
  return start >= size || end < start ? 'unsatisfiable' : { start, end };
}

export async function handleAudioFile(req: IncomingMessage, res: ServerResponse, store: LocalAudioStore, now: () => Date): Promise<void> {
  req.resume();
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    writeS3Error(res, 405, 'MethodNotAllowed', 'Use GET.');
    return;
  }
  const file = await store.checkGetUrl(new URL(req.url ?? '/', 'http://127.0.0.1').searchParams, now());
  if (!file) {
    writeS3Error(res, 403, 'AccessDenied', 'The URL is not signed, or it has expired.');
    return;
  }
  let size: number;
  try {
    size = (await stat(file.path)).size;
  } catch {
    writeS3Error(res, 404, 'NoSuchKey', 'The specified key does not exist.');
    return;
  }
  const headers: Record<string, string> = {
    'content-type': file.contentType ?? 'application/octet-stream',
    'accept-ranges': 'bytes',
    'cache-control': 'private, max-age=60',
    ...(file.downloadName ? { 'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(file.downloadName)}` } : {}),
  };
  const range = byteRange(req.headers.range, size);
  if (range === 'unsatisfiable') {
    res.writeHead(416, { ...headers, 'content-range': `bytes */${String(size)}` }).end();
    return;
  }
  const { start, end } = range ?? { start: 0, end: size - 1 };
  res.writeHead(range ? 206 : 200, {
    ...headers,
    'content-length': String(end - start + 1),
    ...(range ? { 'content-range': `bytes ${String(start)}-${String(end)}/${String(size)}` } : {}),
  });
  if (req.method === 'HEAD' || size === 0) {
    res.end();
    return;
  }
  createReadStream(file.path, { start, end }).pipe(res);
}
