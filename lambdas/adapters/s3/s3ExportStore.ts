/**
 * The data export's writer over S3 (issue 26 §3; ExportStore): the zip is uploaded as it is built, a
 * part of PART_BYTES at a time (S3's multipart upload: CreateMultipartUpload, UploadPart, then
 * CompleteMultipartUpload), so the Lambda holds one part, never the archive, and its answer stays small
 * (an API answer is capped at 6 MB). An archive smaller than one part is one PutObject. A failure
 * aborts the upload (the bucket's lifecycle aborts any left over after a day). @aws-sdk/lib-storage is
 * not installed; this is the part of its Upload the export needs, one part in flight.
 */
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
  type CompletedPart,
} from '@aws-sdk/client-s3';
import type { ExportStore } from '../../ports';

/** S3's smallest part but the last is 5 MiB. */
export const PART_BYTES = 5 * 1024 * 1024;

export class S3ExportStore implements ExportStore {
  constructor(
    private readonly s3: S3Client,
    private readonly bucket: string,
    private readonly partBytes = PART_BYTES,
  ) {}

  static forRegion(region: string, bucket: string) {
    return new S3ExportStore(new S3Client({ region }), bucket);
  }

  async write(key: string, chunks: AsyncIterable<Uint8Array>, options: { contentType: string }): Promise<{ bytes: number }> {
    const object = { Bucket: this.bucket, Key: key };
    let pending: Uint8Array[] = [];
    let pendingBytes = 0;
    let total = 0;
    let uploadId: string | undefined;
    const parts: CompletedPart[] = [];
    const take = () => {
      const body = Buffer.concat(pending, pendingBytes);
      pending = [];
      pendingBytes = 0;
      return body;
    };
    const uploadPart = async (body: Buffer) => {
      uploadId ??= (await this.s3.send(new CreateMultipartUploadCommand({ ...object, ContentType: options.contentType }))).UploadId;
      if (!uploadId) throw new Error(`S3 started no multipart upload of ${key}`);
      const PartNumber = parts.length + 1;
      const { ETag, ChecksumCRC32 } = await this.s3.send(new UploadPartCommand({ ...object, UploadId: uploadId, PartNumber, Body: body }));
      // The part's checksum, when the client sent one (its default), as the completion may ask for it.
      parts.push({ ETag, PartNumber, ...(ChecksumCRC32 ? { ChecksumCRC32 } : {}) });
    };
    try {
      for await (const chunk of chunks) {
        pending.push(chunk);
        pendingBytes += chunk.byteLength;
        total += chunk.byteLength;
        if (pendingBytes >= this.partBytes) await uploadPart(take());
      }
      if (uploadId === undefined) {
        // The whole archive fit in one part: one PutObject.
        await this.s3.send(new PutObjectCommand({ ...object, ContentType: options.contentType, Body: take() }));
        return { bytes: total };
      }
      if (pendingBytes > 0) await uploadPart(take());
      await this.s3.send(new CompleteMultipartUploadCommand({ ...object, UploadId: uploadId, MultipartUpload: { Parts: parts } }));
      return { bytes: total };
    } catch (error) {
      if (uploadId !== undefined) {
        try {
          await this.s3.send(new AbortMultipartUploadCommand({ ...object, UploadId: uploadId }));
        } catch {
          // The lifecycle aborts it a day on; the export's own failure is the one to tell.
        }
      }
      throw error;
    }
  }
}
