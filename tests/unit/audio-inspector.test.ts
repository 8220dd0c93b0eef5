/**
 * What music-metadata reads of files made in code (issue 16), through the inspector and the core's
 * judgement: a WAV from its header; an AAC in ADTS and a VBR MP3 without a Xing header, whose lengths
 * are known only by counting frames, by a second read to their end.
 */
import { describe, expect, it } from 'vitest';
import { musicMetadataInspector } from '../../lambdas/adapters/audioInspector';
import { judgeAudio } from '../../lambdas/core/tracks';
import { adtsBytes, textBytes, vbrMp3Bytes, wavBytes } from '../support/audio';

/** The inspector over bytes as storage hands them out, counting how often the file is opened. */
async function inspect(bytes: Uint8Array<ArrayBuffer>, contentType: string) {
  let opened = 1;
  const readAgain = () => {
    opened += 1;
    return Promise.resolve(new Blob([bytes]).stream());
  };
  const facts = await musicMetadataInspector.inspect(new Blob([bytes]).stream(), { contentType, size: bytes.length }, readAgain);
  return { verdict: judgeAudio(facts), opened };
}

describe('the audio inspector', () => {
  it('reads a WAV from its header, in one read', async () => {
    const { verdict, opened } = await inspect(wavBytes({ seconds: 1.5, sampleRate: 8000 }), 'audio/wav');
    expect(verdict).toEqual({ outcome: 'audio', format: 'wav', durationSeconds: 1.5, sampleRate: 8000 });
    expect(opened).toBe(1);
  });

  it('takes an AAC in ADTS, its length counted in a second read', async () => {
    const { verdict, opened } = await inspect(adtsBytes({ seconds: 3, sampleRate: 44100 }), 'audio/aac');
    expect(verdict).toMatchObject({ outcome: 'audio', format: 'aac', sampleRate: 44100 });
    expect(verdict.outcome === 'audio' && verdict.durationSeconds).toBeCloseTo(3, 1);
    expect(opened).toBe(2);
  });

  it('takes a VBR MP3 without a Xing header, its length counted in a second read', async () => {
    const { verdict, opened } = await inspect(vbrMp3Bytes({ frames: 120 }), 'audio/mpeg');
    expect(verdict).toMatchObject({ outcome: 'audio', format: 'mp3', sampleRate: 44100 });
    expect(verdict.outcome === 'audio' && verdict.durationSeconds).toBeCloseTo((120 * 1152) / 44100, 1);
    expect(opened).toBe(2);
  });

  it('refuses text named an MP3 without reading it twice', async () => {
    const { verdict, opened } = await inspect(textBytes(), 'audio/mpeg');
    expect(verdict).toEqual({ outcome: 'not_audio' });
    expect(opened).toBe(1);
  });
});
