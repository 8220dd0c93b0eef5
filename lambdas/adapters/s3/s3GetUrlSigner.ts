/**
 * The listen group's signed GET of a track's audio (issue 16) without the S3 client: the URL
 * getSignedUrl(S3Client, GetObjectCommand) makes, byte for byte (tests/unit/s3-get-url-signer.test.ts
 * holds them equal), signed with the SigV4 signer, SHA-256 and credential chain the DynamoDB client
 * already brings into the bundle. The full client and its presigner stay in the tracks group, which
 * needs presigned POSTs, heads and copies.
 *
 * Credentials: the default chain (@aws-sdk/credential-provider-node), the one the DynamoDB client uses:
 * in Lambda its first link reads the role's credentials from the environment, so it costs no more than
 * the env provider alone, adds no bytes (the DynamoDB client carries it) and still signs with a profile
 * or SSO outside Lambda. It is memoized, and refreshed before expiring credentials expire.
 */
import { formatUrl } from '@aws-sdk/core/util';
import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { Sha256 } from '@smithy/core/checksum';
import { extendedEncodeURIComponent, HttpRequest } from '@smithy/core/protocols';
import { SignatureV4, type SignatureV4Init } from '@smithy/signature-v4';
import type { AudioUrls } from '../../ports';
import { attachment } from './contentDisposition';

/** A bucket S3 serves at `<bucket>.s3.<region>.<suffix>` over https (no dots: the certificate would not match). */
const VIRTUAL_HOSTABLE_BUCKET = /^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/;

/** The partition's domain: China's regions are under amazonaws.com.cn (CDK's Aws.URL_SUFFIX, which the CSP names). */
const domainOf = (region: string) => (region.startsWith('cn-') ? 'amazonaws.com.cn' : 'amazonaws.com');

export class S3GetUrlSigner implements AudioUrls {
  private readonly signer: SignatureV4;
  private readonly hostname: string;

  constructor(region: string, bucket: string, credentials: SignatureV4Init['credentials']) {
    if (!VIRTUAL_HOSTABLE_BUCKET.test(bucket)) throw new Error(`The audio bucket "${bucket}" cannot be reached virtual-hosted style: no signed URLs.`);
    this.hostname = `${bucket}.s3.${region}.${domainOf(region)}`;
    // S3 signs the path as sent (no second escape) and an unsigned payload (S3RequestPresigner's options).
    this.signer = new SignatureV4({ service: 's3', region, credentials, sha256: Sha256, uriEscapePath: false, applyChecksum: false });
  }

  static forRegion(region: string, bucket: string) {
    return new S3GetUrlSigner(region, bucket, defaultProvider());
  }

  async signedGetUrl(key: string, options: { expiresInSeconds: number; now: Date; downloadName?: string }): Promise<string> {
    const request = new HttpRequest({
      method: 'GET',
      protocol: 'https:',
      hostname: this.hostname,
      // The key's segments escaped as the S3 client escapes a greedy path label.
      path: `/${key.split('/').map(extendedEncodeURIComponent).join('/')}`,
      query: {
        // What GetObjectCommand puts on the request: the operation's name, and the checksum mode its
        // default response validation (WHEN_SUPPORTED) asks for; both x-amz headers go into the query.
        'x-id': 'GetObject',
        ...(options.downloadName ? { 'response-content-disposition': attachment(options.downloadName) } : {}),
      },
      headers: { host: this.hostname, 'x-amz-checksum-mode': 'ENABLED', 'X-Amz-Content-Sha256': 'UNSIGNED-PAYLOAD' },
    });
    // formatUrl: the presigner's own (the query in code-unit order).
    return formatUrl(await this.signer.presign(request, { expiresIn: options.expiresInSeconds, signingDate: options.now }));
  }
}
