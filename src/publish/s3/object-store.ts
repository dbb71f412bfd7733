// The bucket a CDN serves from, through the AWS SDK: S3, Cloudflare R2, Backblaze B2, MinIO, Ceph. Request
// checksums only when an operation requires them: R2, MinIO and B2 reject the SDK's default CRC32 trailers. Every
// request has a time limit, so a slow store delays only the publish job, never the server or the local artifacts.
import { DeleteObjectsCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';

export interface S3Settings {
  bucket: string;
  /** For services other than AWS, e.g. https://ACCOUNT.r2.cloudflarestorage.com or http://127.0.0.1:9000. */
  endpoint: string | undefined;
  region: string;
  /** Key prefix under which the read URLs' paths go ('' or ending in /). */
  prefix: string;
  forcePathStyle: boolean;
}

export interface PutRequest {
  key: string;
  body: Buffer;
  contentType: string;
  cacheControl: string;
  contentDisposition?: string;
}

export interface ObjectStore {
  readonly description: string;
  /**
   * Which store and place this is, for the record of what was put there: the description, and the endpoint when it
   * is not AWS's (another service with a bucket of the same name is another destination).
   */
  readonly destination: string;
  put(object: PutRequest): Promise<void>;
  /** Deletes keys (at most 1000 a call); rejects when any could not be deleted. */
  delete(keys: readonly string[]): Promise<void>;
  /** Every key under the prefix (without it): one request per 1,000 keys. */
  list(): Promise<string[]>;
  /** A small object's text, or null when there is none under that key. */
  get(key: string): Promise<string | null>;
}

export function s3ObjectStore(settings: S3Settings, options: { timeoutMs?: number } = {}): ObjectStore {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const client = new S3Client({
    region: settings.region,
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    forcePathStyle: settings.forcePathStyle,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 2,
    // The SDK's requestTimeout alone only logs a warning when it passes ("Init client requestHandler with
    // throwOnRequestTimeout=true to turn this into an error"), and the request waits on: a store that accepted the
    // connection and never answered held the publish, and so the regeneration job, for good.
    requestHandler: {
      connectionTimeout: 5_000,
      requestTimeout: timeoutMs,
      throwOnRequestTimeout: true,
      socketTimeout: timeoutMs,
    },
  });
  const key = (k: string) => `${settings.prefix}${k}`;
  return {
    description: `s3://${settings.bucket}/${settings.prefix}`,
    destination: `s3://${settings.bucket}/${settings.prefix}${settings.endpoint ? ` at ${endpointName(settings.endpoint)}` : ''}`,
    async put(o) {
      await send(() => client.send(new PutObjectCommand({
        Bucket: settings.bucket,
        Key: key(o.key),
        Body: o.body,
        ContentType: o.contentType,
        CacheControl: o.cacheControl,
        ...(o.contentDisposition ? { ContentDisposition: o.contentDisposition } : {}),
      })), settings, timeoutMs);
    },
    async delete(keys) {
      if (keys.length === 0) return;
      const out = await send(() => client.send(new DeleteObjectsCommand({
        Bucket: settings.bucket,
        Delete: { Objects: keys.map((k) => ({ Key: key(k) })), Quiet: true },
      })), settings, timeoutMs);
      if (out.Errors && out.Errors.length > 0) throw new Error(`${out.Errors.length} objects not deleted: ${out.Errors[0]?.Code ?? 'error'}`);
    },
    async get(k) {
      try {
        const out = await send(() => client.send(new GetObjectCommand({ Bucket: settings.bucket, Key: key(k) })), settings, timeoutMs);
        return (await out.Body?.transformToString('utf-8')) ?? '';
      } catch (error) {
        if (error instanceof StoreError && error.code === 'NoSuchKey') return null;
        throw error;
      }
    },
    async list() {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page = await send(() => client.send(new ListObjectsV2Command({ Bucket: settings.bucket, Prefix: settings.prefix, ContinuationToken: token })), settings, timeoutMs);
        for (const o of page.Contents ?? []) if (o.Key?.startsWith(settings.prefix)) keys.push(o.Key.slice(settings.prefix.length));
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return keys;
    },
  };
}

/** The endpoint's origin and path: never the user information a URL may carry. */
function endpointName(endpoint: string): string {
  const url = new URL(endpoint);
  return `${url.origin}${url.pathname === '/' ? '' : url.pathname}`;
}

/** A request to the store; its failure, when it fails, in words an operator can act on (StoreError). */
async function send<T>(request: () => Promise<T>, settings: S3Settings, timeoutMs: number): Promise<T> {
  try {
    return await request();
  } catch (error) {
    const name = (error as { name?: unknown } | null)?.name;
    throw new StoreError(describeStoreError(error, settings, timeoutMs), typeof name === 'string' ? name : 'Error');
  }
}

/** A request the store refused or did not answer, said in one line (its message is the whole story: no stack). */
export class StoreError extends Error {
  override name = 'StoreError';
  constructor(
    message: string,
    /** The store's error code (NoSuchBucket, AccessDenied, …), or the SDK's error name. */
    readonly code: string,
  ) {
    super(message);
  }
}

/** Network errors of a store that did not answer at all. */
const UNREACHABLE: ReadonlySet<string> = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT']);

/**
 * What went wrong, with the setting to look at. Ceph's gateway (and others) send error codes with an empty message,
 * which the SDK words "UnknownError": a missing bucket and a wrong secret both read "UnknownError" before.
 */
export function describeStoreError(error: unknown, settings: S3Settings, timeoutMs: number): string {
  const e = (error ?? {}) as { name?: string; message?: string; code?: string; $metadata?: { httpStatusCode?: number } };
  const name = typeof e.name === 'string' ? e.name : 'Error';
  const status = e.$metadata?.httpStatusCode;
  const message = typeof e.message === 'string' && e.message !== 'UnknownError' && e.message !== name ? e.message : '';
  const where = settings.endpoint ? endpointName(settings.endpoint) : `AWS (${settings.region})`;
  const hints: Record<string, string> = {
    NoSuchBucket: `no bucket "${settings.bucket}" at ${where} (PUBLISH_S3_BUCKET, PUBLISH_S3_ENDPOINT)`,
    InvalidAccessKeyId: `the store knows no such access key (AWS_ACCESS_KEY_ID)`,
    SignatureDoesNotMatch: `the secret does not match the access key (AWS_SECRET_ACCESS_KEY)`,
    AccessDenied: `the key is not allowed this on bucket "${settings.bucket}" (it needs s3:PutObject, s3:GetObject, s3:DeleteObject and s3:ListBucket there)`,
    AuthorizationHeaderMalformed: `the bucket is in another region than ${settings.region} (PUBLISH_S3_REGION)`,
    PermanentRedirect: `the bucket is in another region than ${settings.region}, or needs PUBLISH_S3_FORCE_PATH_STYLE (PUBLISH_S3_REGION)`,
    CredentialsProviderError: `no credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or AWS_PROFILE, or give the machine a role)`,
    TimeoutError: `no answer from ${where} within ${timeoutMs} ms (PUBLISH_S3_ENDPOINT)`,
  };
  // The endpoint not answering at all (an operator's review read "Error: connect ECONNREFUSED 127.0.0.1:9000"), or its
  // name not resolving: which setting says where the store is.
  const unreachable = typeof e.code === 'string' && UNREACHABLE.has(e.code) && !hints[name]
    ? `${where} cannot be reached (${message || e.code}): check PUBLISH_S3_ENDPOINT and that the store is up`
    : undefined;
  let said = unreachable ?? hints[name] ?? (status !== undefined && status >= 500 ? `the store failed (${message || 'no message'})` : message || 'no message');
  // Virtual-host addressing puts the bucket in the host name, which MinIO, Ceph and most private endpoints do not
  // resolve: say which setting asks for path-style addressing.
  if (e.code === 'ENOTFOUND' && !settings.forcePathStyle && settings.endpoint && message.includes(`${settings.bucket}.${new URL(settings.endpoint).hostname}`)) {
    said += ` (the bucket as part of the host name: for MinIO, Ceph and other endpoints that want endpoint/bucket/key, set PUBLISH_S3_FORCE_PATH_STYLE=true)`;
  }
  const code = typeof e.code === 'string' && !said.includes(e.code) ? ` ${e.code}` : '';
  return `${name}${status !== undefined ? ` (HTTP ${status})` : code}: ${said}`;
}
