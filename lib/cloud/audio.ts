/**
 * The tracks' audio (issue 16, DESIGN §12): a private S3 bucket the browser uploads to with presigned
 * POSTs (their policies hold the key, media type and size) and the listen page will play from with
 * short-lived signed GETs. Blocked public access, S3-managed encryption, TLS only, owner-enforced
 * objects, access logs to the site's log bucket; versioning off, so a deleted track's audio is gone.
 * The browser uploads to `uploads/<sub>/<id>`; complete copies checked audio to `tracks/<sub>/<id>`
 * (cover art, issue 25 §5: `uploads/<sub>/<id>-cover` → `tracks/<sub>/<id>-cover`, the same prefixes and grants).
 * Lifecycle: objects under `uploads/` expire after a day (never completed, refused and their delete
 * failed, or a form posted again), and so do the data exports' zips under `exports/` (issue 26 §3);
 * incomplete multipart uploads are aborted. CORS lets only the
 * app's origin POST and GET. Grants follow `handlerGroups[*].audio` (schema/routes.ts), per prefix.
 */
import { Aws, Duration, Fn, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { PolicyStatement, type IGrantable } from 'aws-cdk-lib/aws-iam';
import { BlockPublicAccess, Bucket, BucketEncryption, HttpMethods, ObjectOwnership, type CfnBucket, type IBucket } from 'aws-cdk-lib/aws-s3';
import { Construct, type IConstruct } from 'constructs';
import type { HandlerGroupDefinition } from '../../schema/routes';
import { acknowledge } from './nag';

/** Where ready tracks' audio lives (lambdas/core/tracks.ts trackAudioKey) and where uploads land (trackUploadKey). */
export const TRACKS_PREFIX = 'tracks/';
export const UPLOADS_PREFIX = 'uploads/';
/** Where the data export's zips are written (lambdas/core/account.ts accountExportKey), expired a day on. */
export const EXPORTS_PREFIX = 'exports/';
/**
 * The export writer's actions on `exports/*` (issue 26 §3): PutObject covers the multipart upload's
 * create, parts and completion, AbortMultipartUpload its abort on a failure, GetObject the signed download URL.
 */
export const EXPORT_ACTIONS = ['s3:PutObject', 's3:AbortMultipartUpload', 's3:GetObject'] as const;

type AudioAccess = NonNullable<HandlerGroupDefinition['audio']>;

/**
 * What each access may do, on which prefixes. The tracks function presigns uploads (PutObject), heads
 * and reads them, copies checked ones to `tracks/` (GetObject of the source, PutObject of the copy) and
 * deletes both; the listen page only reads ready tracks.
 */
export const AUDIO_ACTIONS = {
  read: ['s3:GetObject'],
  readwrite: ['s3:GetObject', 's3:PutObject', 's3:DeleteObject'],
} as const satisfies Record<AudioAccess, readonly string[]>;
export const AUDIO_PREFIXES = {
  read: [TRACKS_PREFIX],
  readwrite: [UPLOADS_PREFIX, TRACKS_PREFIX],
} as const satisfies Record<AudioAccess, readonly string[]>;
/**
 * Whether an access lists its prefixes (s3:ListBucket on the bucket, its prefixes only): without it S3
 * answers a HeadObject or GetObject of a missing key with 403, and complete could not tell "not uploaded
 * yet" (a clear 4xx) from a refusal. The listen page only signs URLs: it never asks what is missing.
 */
export const AUDIO_LISTS = { read: false, readwrite: true } as const satisfies Record<AudioAccess, boolean>;

/**
 * The first group of the stack's id (`arn:…:stack/<name>/<uuid>`): the same at every update, new at
 * every creation of the stack.
 */
const stackCreationId = Fn.select(0, Fn.split('-', Fn.select(2, Fn.split('/', Aws.STACK_ID))));

/**
 * The bucket's name, from the stage, account and stack id only (no resource): the site's CSP names the
 * bucket's host, and the bucket's CORS names the site, so neither may depend on the other's resource
 * (a name CloudFormation generates would be such a dependency). The bucket is retained when a first
 * deployment fails; the stack id part gives the retry, a new stack, a new name instead of "already exists".
 */
export const audioBucketName = (stage: string) => `trackpitch-${stage}-audio-${Aws.ACCOUNT_ID}-${stackCreationId}`;

/** The host the browser posts uploads to and plays from (virtual-hosted style, as the SDK presigns). */
export const audioBucketHost = (stage: string) => `${audioBucketName(stage)}.s3.${Aws.REGION}.${Aws.URL_SUFFIX}`;

export interface AudioStorageProps {
  stage: string;
  /** The web app's origin (https://…): the only one CORS allows. */
  appOrigin: string;
  logBucket: IBucket;
}

export class AudioStorage extends Construct {
  readonly bucket: Bucket;

  constructor(scope: Construct, id: string, props: AudioStorageProps) {
    super(scope, id);
    this.bucket = new Bucket(this, 'Bucket', {
      bucketName: audioBucketName(props.stage),
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      versioned: false,
      serverAccessLogsBucket: props.logBucket,
      serverAccessLogsPrefix: 's3-audio/',
      lifecycleRules: [
        { id: 'expire-uploads', prefix: UPLOADS_PREFIX, expiration: Duration.days(1) },
        // A data export is downloaded at once (its URL lasts minutes): nothing of it is kept past a day.
        { id: 'expire-exports', prefix: EXPORTS_PREFIX, expiration: Duration.days(1) },
        { id: 'abort-incomplete-multipart', abortIncompleteMultipartUploadAfter: Duration.days(1) },
      ],
      cors: [
        {
          allowedOrigins: [props.appOrigin],
          allowedMethods: [HttpMethods.POST, HttpMethods.GET, HttpMethods.HEAD],
          allowedHeaders: ['content-type', 'range'],
          exposedHeaders: ['content-length', 'content-range', 'accept-ranges', 'etag'],
          maxAge: 3600,
        },
      ],
      removalPolicy: RemovalPolicy.RETAIN,
    });
  }

  /** Grants exactly what a handler group's `audio` says, on its prefixes' objects only. */
  grant(grantee: IGrantable & IConstruct, access: HandlerGroupDefinition['audio']): Record<string, string> {
    if (access === undefined) return {};
    const prefixes = AUDIO_PREFIXES[access];
    grantee.grantPrincipal.addToPrincipalPolicy(
      new PolicyStatement({
        sid: access === 'read' ? 'AudioRead' : 'AudioReadWrite',
        actions: [...AUDIO_ACTIONS[access]],
        resources: prefixes.map((prefix) => this.bucket.arnForObjects(`${prefix}*`)),
      }),
    );
    if (AUDIO_LISTS[access]) {
      grantee.grantPrincipal.addToPrincipalPolicy(
        new PolicyStatement({
          sid: 'AudioListPrefixes',
          actions: ['s3:ListBucket'],
          resources: [this.bucket.bucketArn],
          conditions: { StringLike: { 's3:prefix': prefixes.map((prefix) => `${prefix}*`) } },
        }),
      );
    }
    const logicalId = Stack.of(this).getLogicalId(this.bucket.node.defaultChild as CfnBucket);
    for (const prefix of prefixes) {
      acknowledge(grantee, {
        id: `AwsSolutions-IAM5[Resource::<${logicalId}.Arn>/${prefix}*]`,
        reason: `Tracks' audio objects are keyed ${prefix}<user>/<track id>, made at upload time: the grant covers that prefix of the audio bucket only.`,
      });
    }
    return { AUDIO_BUCKET_NAME: this.bucket.bucketName };
  }

  /** The data export's writer (`writesExports` in schema/routes.ts): EXPORT_ACTIONS on `exports/*` only. */
  grantExports(grantee: IGrantable & IConstruct): Record<string, string> {
    grantee.grantPrincipal.addToPrincipalPolicy(
      new PolicyStatement({ sid: 'ExportsWrite', actions: [...EXPORT_ACTIONS], resources: [this.bucket.arnForObjects(`${EXPORTS_PREFIX}*`)] }),
    );
    const logicalId = Stack.of(this).getLogicalId(this.bucket.node.defaultChild as CfnBucket);
    acknowledge(grantee, {
      id: `AwsSolutions-IAM5[Resource::<${logicalId}.Arn>/${EXPORTS_PREFIX}*]`,
      reason: `Data exports are keyed ${EXPORTS_PREFIX}<user>/<export id>, made at export time: the grant covers that prefix of the audio bucket only.`,
    });
    return { AUDIO_BUCKET_NAME: this.bucket.bucketName };
  }
}
