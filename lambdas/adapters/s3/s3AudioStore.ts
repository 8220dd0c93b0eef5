/**
 * The AudioStore over a private S3 bucket (issue 16; lib/cloud/audio.ts makes it). The browser posts
 * the file with a presigned POST whose policy holds the (staging) key, the one media type and the size
 * range; complete copies a checked upload to the track's key and deletes the staging object. The
 * bucket's lifecycle expires `uploads/` objects after a day (uploads never completed, forms posted
 * again). Reads use GetObject. The player's presigned GET is S3GetUrlSigner's (AudioUrls), which needs no S3 client.
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
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import type { AudioObjectHead, AudioStore, AudioUploadForm, AudioUploadRequest } from '../../ports';

const isMissing = (error: unknown) =>
  error instanceof NotFound || error instanceof NoSuchKey || (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404);

export class S3AudioStore implements AudioStore {
  constructor(
    private readonly s3: S3Client,
    private readonly bucket: string,
  ) {}

  static forRegion(region: string, bucket: string) {
    return new S3AudioStore(new S3Client({ region }), bucket);
  }

  async presignUpload(request: AudioUploadRequest): Promise<AudioUploadForm> {
    const { url, fields } = await createPresignedPost(this.s3, {
      Bucket: this.bucket,
      Key: request.key,
      Conditions: [
        ['content-length-range', 1, request.maxBytes],
        ['eq', '$Content-Type', request.contentType],
      ],
      Fields: { 'Content-Type': request.contentType },
      Expires: request.expiresInSeconds,
    });
    return { url, fields, expiresAt: new Date(request.now.getTime() + request.expiresInSeconds * 1000) };
  }

  async head(key: string): Promise<AudioObjectHead | undefined> {
    try {
      const head = await this.s3.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { size: head.ContentLength ?? 0, contentType: head.ContentType };
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async read(key: string): Promise<ReadableStream<Uint8Array> | undefined> {
    try {
      const object = await this.s3.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return object.Body?.transformToWebStream() as ReadableStream<Uint8Array> | undefined;
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  /**
   * A server-side copy (its media type copied with it, or replaced by `contentType`; encrypted as the bucket's default encryption
   * says, as every object written without its own), then the staging object's delete.
   */
  async promote(stagingKey: string, finalKey: string, options: { contentType?: string } = {}): Promise<boolean> {
    const metadata = options.contentType ? { MetadataDirective: 'REPLACE' as const, ContentType: options.contentType } : { MetadataDirective: 'COPY' as const };
    try {
      await this.s3.send(new CopyObjectCommand({ Bucket: this.bucket, Key: finalKey, CopySource: `${this.bucket}/${stagingKey}`, ...metadata }));
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
    await this.delete(stagingKey);
    return true;
  }

  async delete(key: string): Promise<void> {
    await this.s3.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }
}
