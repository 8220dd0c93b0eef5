/**
 * The S3 AudioStore's reading of S3's errors (issue 16), S3 mocked: a missing key (NotFound on a
 * HeadObject, NoSuchKey on a GetObject or a CopyObject's source) is the port's "nothing stored"
 * (undefined, or false for promote), which complete answers as "not uploaded yet"; a 403 (S3's answer
 * for a missing key when the role may not list the bucket, or any refusal) stays an error, never read
 * as missing, so a permissions mistake shows instead of looking like an upload that never came.
 */
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  NotFound,
  NoSuchKey,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { S3AudioStore } from '../../lambdas/adapters/s3/s3AudioStore';

const s3Mock = mockClient(S3Client);
const store = new S3AudioStore(new S3Client({ region: 'eu-west-1', credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' } }), 'tp-audio');
const KEY = 'uploads/user-1/01KAKZ3R0000000000000000AA';

/** What the SDK throws for a 403: HEAD has no body, so its error is named by the status alone. */
const forbidden = (name: 'Forbidden' | 'AccessDenied') =>
  new S3ServiceException({ name, $fault: 'client', message: 'Access Denied', $metadata: { httpStatusCode: 403 } });

beforeEach(() => {
  s3Mock.reset();
});

describe('S3AudioStore: a missing key', () => {
  it('is nothing stored: head and read answer undefined, promote false (nothing deleted)', async () => {
    s3Mock.on(HeadObjectCommand).rejects(new NotFound({ message: 'Not Found', $metadata: { httpStatusCode: 404 } }));
    s3Mock.on(GetObjectCommand).rejects(new NoSuchKey({ message: 'The specified key does not exist.', $metadata: { httpStatusCode: 404 } }));
    s3Mock.on(CopyObjectCommand).rejects(new NoSuchKey({ message: 'The specified key does not exist.', $metadata: { httpStatusCode: 404 } }));
    expect(await store.head(KEY)).toBeUndefined();
    expect(await store.read(KEY)).toBeUndefined();
    expect(await store.promote(KEY, 'tracks/user-1/01KAKZ3R0000000000000000AA')).toBe(false);
    expect(s3Mock.commandCalls(DeleteObjectCommand)).toHaveLength(0);
    expect(s3Mock.commandCalls(HeadObjectCommand)[0]?.args[0].input).toEqual({ Bucket: 'tp-audio', Key: KEY });
  });

  it('is also a 404 the SDK names otherwise (an S3 error of status 404)', async () => {
    s3Mock
      .on(HeadObjectCommand)
      .rejects(new S3ServiceException({ name: 'NotFound', $fault: 'client', message: 'Not Found', $metadata: { httpStatusCode: 404 } }));
    expect(await store.head(KEY)).toBeUndefined();
  });
});

describe('S3AudioStore: a 403', () => {
  it('stays an error on head, read and promote: never read as "not uploaded yet"', async () => {
    s3Mock.on(HeadObjectCommand).rejects(forbidden('Forbidden'));
    s3Mock.on(GetObjectCommand).rejects(forbidden('AccessDenied'));
    s3Mock.on(CopyObjectCommand).rejects(forbidden('AccessDenied'));
    await expect(store.head(KEY)).rejects.toMatchObject({ name: 'Forbidden', $metadata: { httpStatusCode: 403 } });
    await expect(store.read(KEY)).rejects.toMatchObject({ name: 'AccessDenied' });
    await expect(store.promote(KEY, 'tracks/user-1/01KAKZ3R0000000000000000AA')).rejects.toMatchObject({ name: 'AccessDenied' });
    expect(s3Mock.commandCalls(DeleteObjectCommand)).toHaveLength(0);
  });
});
