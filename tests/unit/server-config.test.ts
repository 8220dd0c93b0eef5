/**
 * The server configuration (lambdas/composition/config.ts): a Lambda entry reads it from its environment
 * once; the local stack builds its own (lib/local/stack.ts). SEND_INTERVAL_SECONDS has one parser.
 */
import { describe, expect, it } from 'vitest';
import { parsePositiveSeconds, readServerConfig, sendIntervalMs } from '../../lambdas/composition/config';
import { SEND_INTERVAL_MS } from '../../lambdas/core/sendingWindow';
import { localServerConfig } from '../../lib/local/stack';

describe('SEND_INTERVAL_SECONDS and FOLLOW_UP_DAY_SECONDS', () => {
  it.each([
    [undefined, undefined],
    ['', undefined],
    ['  ', undefined],
    ['5', 5],
    ['0.5', 0.5],
    ['0', 'invalid'],
    ['-1', 'invalid'],
    ['soon', 'invalid'],
    ['Infinity', 'invalid'],
  ] as const)('reads %j as %j', (raw, parsed) => {
    expect(parsePositiveSeconds(raw)).toBe(parsed);
  });

  it('is 60 s unless set, and milliseconds for the stores and the ticker', () => {
    expect(sendIntervalMs(undefined)).toBe(SEND_INTERVAL_MS);
    expect(sendIntervalMs(0.5)).toBe(500);
  });

  it('paces a Lambda by the variable, and by 60 s when it is unset or not a positive number', () => {
    const env = { TABLE_NAME: 't' };
    expect(readServerConfig({ ...env, SEND_INTERVAL_SECONDS: '2' }).intervalMs).toBe(2000);
    expect(readServerConfig(env).intervalMs).toBe(SEND_INTERVAL_MS);
    expect(readServerConfig({ ...env, SEND_INTERVAL_SECONDS: 'soon' }).intervalMs).toBe(SEND_INTERVAL_MS);
  });

  it('makes a follow-up day last FOLLOW_UP_DAY_SECONDS, and a day when it is unset or not a positive number', () => {
    const env = { TABLE_NAME: 't' };
    expect(readServerConfig({ ...env, FOLLOW_UP_DAY_SECONDS: '20' }).followUpDayMs).toBe(20_000);
    expect(readServerConfig(env).followUpDayMs).toBeUndefined();
    expect(readServerConfig({ ...env, FOLLOW_UP_DAY_SECONDS: '0' }).followUpDayMs).toBeUndefined();
  });
});

describe('a Lambda entry’s configuration', () => {
  it('needs TABLE_NAME, and uses Bedrock and Gmail unless the runtime is local', () => {
    expect(() => readServerConfig({})).toThrow('TABLE_NAME is not set');
    expect(readServerConfig({ TABLE_NAME: 't' })).toMatchObject({ writer: 'bedrock', mailbox: 'gmail', appUrl: 'http://127.0.0.1:3000' });
    expect(readServerConfig({ TABLE_NAME: 't', TRACKPITCH_RUNTIME: 'local', APP_URL: 'https://app.example/' })).toMatchObject({
      writer: 'local',
      mailbox: 'local',
      appUrl: 'https://app.example',
    });
  });

  it('keeps tracks in S3 (the bucket AUDIO_BUCKET_NAME names) unless the runtime is local', () => {
    expect(readServerConfig({ TABLE_NAME: 't', AUDIO_BUCKET_NAME: 'tp-audio' })).toMatchObject({ audio: 's3', audioBucketName: 'tp-audio' });
    expect(readServerConfig({ TABLE_NAME: 't', TRACKPITCH_RUNTIME: 'local' })).toMatchObject({ audio: 'local' });
    expect(readServerConfig({ TABLE_NAME: 't' })).not.toHaveProperty('audioBucketName');
  });
});

describe('a local stack’s configuration', () => {
  const stack = { tableName: 'tp', region: 'us-east-1', dynamoEndpoint: 'http://127.0.0.1:1', appUrl: 'http://127.0.0.1:2' };

  it('is its own table, engine and URL, with the local writer, mailbox, billing twin and audio folder', () => {
    expect(localServerConfig(stack)).toEqual({
      ...stack,
      writer: 'local',
      mailbox: 'local',
      intervalMs: SEND_INTERVAL_MS,
      billing: 'local',
      billingPrices: { pro: 'price_local_pro', label: 'price_local_label' },
      audio: 'local',
    });
  });

  it('takes Bedrock when asked for (WRITER=bedrock npm start)', () => {
    expect(localServerConfig({ ...stack, writer: { writer: 'bedrock', bedrockModelId: 'model-1' } })).toMatchObject({
      writer: 'bedrock',
      bedrockModelId: 'model-1',
      mailbox: 'local',
    });
  });
});
