/**
 * The S3 GET-URL signer (issue 16; the one AudioUrls over S3) against the SDK's own presigner, a dev
 * dependency kept for this test: with the same credentials, region, bucket, key, signing date and
 * expiry, its URL is the one getSignedUrl makes for a GetObjectCommand through an S3Client configured as
 * S3AudioStore.forRegion configures its client, for the player's plain GET and for a download (named by
 * the signer's `attachment`). S3 checks the signature over exactly these bytes, so any difference is a
 * URL S3 may refuse.
 */
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { describe, expect, it } from 'vitest';
import { LocalAudioStore } from '../../lambdas/adapters/local-audio/localAudioStore';
import { attachment } from '../../lambdas/adapters/s3/contentDisposition';
import { S3GetUrlSigner } from '../../lambdas/adapters/s3/s3GetUrlSigner';
import { audioUrlsOf } from '../../lambdas/composition/audioUrls';
import type { ServerConfig } from '../../lambdas/composition/config';

const BUCKET = 'trackpitch-prod-audio-123456789012-eu-west-1';
const SIGNING_DATE = new Date('2026-03-14T15:09:26Z');
/** A Lambda's role credentials carry a session token (X-Amz-Security-Token); a user's keys do not. */
const ROLE = { accessKeyId: 'ASIAEXAMPLEROLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY', sessionToken: 'IQoJb3JpZ2luX2Vj/+=token' };
const USER = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' };

/** The SDK's URL: the full client and its presigner. */
function sdkUrl(region: string, credentials: typeof ROLE | typeof USER, key: string, expiresIn: number, downloadName?: string) {
  const command = new GetObjectCommand({ Bucket: BUCKET, Key: key, ...(downloadName ? { ResponseContentDisposition: attachment(downloadName) } : {}) });
  return getSignedUrl(new S3Client({ region, credentials }), command, { expiresIn, signingDate: SIGNING_DATE });
}

function signerUrl(region: string, credentials: typeof ROLE | typeof USER, key: string, expiresInSeconds: number, downloadName?: string) {
  return new S3GetUrlSigner(region, BUCKET, credentials).signedGetUrl(key, { expiresInSeconds, now: SIGNING_DATE, ...(downloadName ? { downloadName } : {}) });
}

const TRACK_KEY = 'tracks/user-1/01KAKZ3R0000000000000000AA';
/** No key the app makes looks like this, but the path's escaping is part of what is signed. */
const ODD_KEY = "tracks/u 1/a+b!'()*~é/ü%2F.wav";

describe('S3GetUrlSigner: the URL getSignedUrl makes', () => {
  it.each([
    { region: 'eu-west-1', who: 'role', credentials: ROLE, key: TRACK_KEY, expires: 900 },
    { region: 'us-east-1', who: 'role', credentials: ROLE, key: TRACK_KEY, expires: 900 },
    { region: 'eu-west-1', who: 'user', credentials: USER, key: TRACK_KEY, expires: 60 },
    { region: 'eu-west-1', who: 'role', credentials: ROLE, key: ODD_KEY, expires: 3600 },
    { region: 'cn-north-1', who: 'role', credentials: ROLE, key: TRACK_KEY, expires: 900 },
  ])('a plain GET ($region, $who credentials, key $key, $expires s)', async ({ region, credentials, key, expires }) => {
    const url = await signerUrl(region, credentials, key, expires);
    expect(url).toBe(await sdkUrl(region, credentials, key, expires));
  });

  it.each(['Night Drive.wav', 'Say "Hi" (demo).mp3', 'Café Ünïcode – Ballade ✓.flac', 'back\\slash; semi=colon & 100%.wav', "Don't Stop 🎸.m4a"])(
    'a download named %s',
    async (name) => {
      const url = await signerUrl('eu-west-1', ROLE, TRACK_KEY, 900, name);
      expect(url).toBe(await sdkUrl('eu-west-1', ROLE, TRACK_KEY, 900, name));
      // The name is in the signed query: the download is not the player's URL with something added.
      expect(new URL(url).searchParams.get('response-content-disposition')).toBe(attachment(name));
    },
  );

  it('is served from the bucket host the CSP names for media-src (virtual-hosted style)', async () => {
    const url = new URL(await signerUrl('eu-west-1', ROLE, TRACK_KEY, 900));
    expect(url.origin).toBe(`https://${BUCKET}.s3.eu-west-1.amazonaws.com`);
    expect(url.pathname).toBe(`/${TRACK_KEY}`);
  });

  it('refuses a bucket S3 cannot serve virtual-hosted style over https', () => {
    expect(() => new S3GetUrlSigner('eu-west-1', 'audio.example.com', USER)).toThrow(/virtual-hosted/);
  });
});

describe('the listen composition: audioUrlsOf', () => {
  const config: ServerConfig = {
    tableName: 't',
    region: 'eu-west-1',
    writer: 'local',
    mailbox: 'local',
    billing: 'local',
    appUrl: 'http://127.0.0.1:3000',
    intervalMs: 60_000,
  };

  it('signs S3 URLs without the S3 client in AWS, and serves the local folder otherwise', () => {
    expect(audioUrlsOf({ ...config, audio: 's3', audioBucketName: BUCKET })).toBeInstanceOf(S3GetUrlSigner);
    expect(audioUrlsOf({ ...config, audio: 'local' })).toBeInstanceOf(LocalAudioStore);
  });

  it('answers 503 naming AUDIO_BUCKET_NAME when S3 has no bucket configured', async () => {
    const urls = audioUrlsOf({ ...config, audio: 's3' });
    await expect(urls.signedGetUrl(TRACK_KEY, { expiresInSeconds: 900, now: SIGNING_DATE })).rejects.toMatchObject({
      kind: 'unavailable',
      message: expect.stringContaining('AUDIO_BUCKET_NAME') as string,
    });
  });
});
