/**
 * Track uploads (issue 16) on a fresh in-memory local stack (the same as npm start), over HTTP as the
 * browser does them: POST /api/tracks/uploads (the signed form), the multipart POST of a generated WAV
 * to the local AudioStore's form URL, then POST /api/tracks/{id}/complete (the server reads the file's
 * metadata and promotes it), for a WAV of ~10 MB and one of ~50 MB; medians of `runs`. Beside them, two
 * floors measured in the same run on the same bytes: the raw write of the file to disk (the local store
 * writes one), and the same multipart POST to a trivial local server that only drains the body.
 * Prints figures; no assertions.
 *
 *   npx tsx bench/upload.ts [runs]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TrackUpload } from '../schema/api/tracks';
import { uniqueEmail } from '../tests/support/accounts';
import { wavBytes } from '../tests/support/audio';
import { medianOf, startBenchStack } from './stack';

const runs = Number(process.argv[2] ?? 5);
/** 44.1 kHz 16-bit mono: 88,200 bytes a second of audio. */
const SAMPLE_RATE = 44_100;
const SIZES_MB = [10, 50];
const MB = 1024 * 1024;

const ms = (value: number) => `${value.toFixed(0)} ms`;
const rate = (bytes: number, elapsedMs: number) => `${(bytes / MB / (elapsedMs / 1000)).toFixed(0)} MB/s`;

/** The browser's form: its fields in order, then the file. */
function formOf(fields: Record<string, string>, wav: Uint8Array<ArrayBuffer>) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('file', new Blob([wav], { type: 'audio/wav' }), 'track.wav');
  return form;
}

/** A server that reads a POST's body to the end and answers 204: HTTP and multipart encoding, nothing stored. */
async function startDrainServer() {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${String(port)}/`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const bench = await startBenchStack();
const drain = await startDrainServer();
const diskDir = mkdtempSync(join(tmpdir(), 'trackpitch-bench-upload-'));
try {
  const account = await bench.users.create({ email: uniqueEmail('bench-upload') });
  const api = async (path: string, body: unknown) => {
    const response = await fetch(`${bench.stack.appUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${account.idToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${path}: ${String(response.status)} ${await response.text()}`);
    return response.json() as Promise<unknown>;
  };
  // What the browser sends with complete: the waveform it drew from the file.
  const peaks = Array.from({ length: 800 }, (_, i) => Math.abs(Math.sin(i / 25)));

  for (const sizeMb of SIZES_MB) {
    const wav = wavBytes({ seconds: (sizeMb * MB) / (SAMPLE_RATE * 2), sampleRate: SAMPLE_RATE });
    const uploadMs: number[] = [];
    const completeMs: number[] = [];
    const totalMs: number[] = [];
    const diskMs: number[] = [];
    const drainMs: number[] = [];
    // One run more than measured: the first warms the handlers, the JIT and the page cache.
    for (let run = 0; run <= runs; run++) {
      const t0 = performance.now();
      const { track_id, upload } = (await api('/api/tracks/uploads', {
        name: `Bench ${String(sizeMb)} MB`,
        content_type: 'audio/wav',
        size: wav.length,
      })) as TrackUpload;
      const t1 = performance.now();
      const posted = await fetch(upload.url, { method: 'POST', body: formOf(upload.fields, wav) });
      if (posted.status !== 204) throw new Error(`upload: ${String(posted.status)} ${await posted.text()}`);
      const t2 = performance.now();
      const ready = (await api(`/api/tracks/${track_id}/complete`, { peaks })) as { format?: string; size_bytes?: number };
      const t3 = performance.now();
      if (ready.format !== 'wav' || ready.size_bytes !== wav.length) throw new Error(`complete: ${JSON.stringify(ready).slice(0, 200)}`);

      const t4 = performance.now();
      await writeFile(join(diskDir, `run-${String(run)}.wav`), wav);
      const t5 = performance.now();
      const drained = await fetch(drain.url, { method: 'POST', body: formOf(upload.fields, wav) });
      if (drained.status !== 204) throw new Error(`drain: ${String(drained.status)}`);
      const t6 = performance.now();
      if (run === 0) continue;
      uploadMs.push(t2 - t1);
      completeMs.push(t3 - t2);
      totalMs.push(t3 - t0);
      diskMs.push(t5 - t4);
      drainMs.push(t6 - t5);
    }
    const bytes = wav.length;
    console.log(`WAV of ${(bytes / MB).toFixed(1)} MB (${String(runs)} runs, medians):`);
    console.log(
      `  form → upload → complete: ${ms(medianOf(totalMs))} (${rate(bytes, medianOf(totalMs))}); of it the upload POST ${ms(medianOf(uploadMs))} (${rate(bytes, medianOf(uploadMs))}), complete (metadata read + promote) ${ms(medianOf(completeMs))}`,
    );
    console.log(
      `  floors, same bytes: raw write to disk ${ms(medianOf(diskMs))} (${rate(bytes, medianOf(diskMs))}); the same multipart POST to a server that only drains it ${ms(medianOf(drainMs))} (${rate(bytes, medianOf(drainMs))}); the upload POST is ${(medianOf(uploadMs) / medianOf(drainMs)).toFixed(1)}× the drain's time`,
    );
  }
} finally {
  rmSync(diskDir, { recursive: true, force: true });
  await drain.close();
  await bench.stop();
}
