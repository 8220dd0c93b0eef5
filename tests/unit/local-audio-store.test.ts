/**
 * The local AudioStore's own behaviour beyond the port's contract (issue 16): an upload that breaks
 * off leaves nothing in the audio folder, neither the object nor its temporary file.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LocalAudioStore } from '../../lambdas/adapters/local-audio/localAudioStore';
import { wavBytes } from '../support/audio';

let folder: string;
afterEach(() => {
  rmSync(folder, { recursive: true, force: true });
});

describe('the local AudioStore', () => {
  it('keeps nothing of an upload whose stream fails (the browser disconnected)', async () => {
    folder = mkdtempSync(join(tmpdir(), 'trackpitch-audio-local-'));
    const store = new LocalAudioStore({ folder, signingKey: () => Promise.resolve(Buffer.alloc(32, 7)), appUrl: 'http://127.0.0.1:3000' });
    const key = 'uploads/user-1/01KAKZ3R0000000000000000AA';
    const wav = wavBytes({ seconds: 0.5 });
    async function* brokenOff() {
      yield wav.slice(0, 1000);
      await Promise.resolve();
      throw new Error('aborted');
    }
    const policy = { key, contentType: 'audio/wav', maxBytes: wav.length, expiresAt: Date.now() + 60_000 };
    await expect(store.receive(policy, brokenOff())).rejects.toThrow('aborted');
    expect(readdirSync(join(folder, 'uploads', 'user-1'))).toEqual([]);
    expect(await store.head(key)).toBeUndefined();
  });
});
