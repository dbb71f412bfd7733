// The bucket a CDN serves from, through the AWS SDK: S3, Cloudflare R2, Backblaze B2, MinIO, Ceph. Request
// checksums only when an operation requires them: R2, MinIO and B2 reject the SDK's default CRC32 trailers. Every
// request has a time limit, so a slow store delays only the publish job, never the server or the local artifacts.
import { DeleteObjectsCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';

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
  put(object: PutRequest): Promise<void>;
  /** Deletes keys (at most 1000 a call); rejects when any could not be deleted. */
  delete(keys: readonly string[]): Promise<void>;
}

export function s3ObjectStore(settings: S3Settings, options: { timeoutMs?: number } = {}): ObjectStore {
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
      requestTimeout: options.timeoutMs ?? 30_000,
      throwOnRequestTimeout: true,
      socketTimeout: options.timeoutMs ?? 30_000,
    },
  });
  const key = (k: string) => `${settings.prefix}${k}`;
  return {
    description: `s3://${settings.bucket}/${settings.prefix}`,
    async put(o) {
      await client.send(new PutObjectCommand({
        Bucket: settings.bucket,
        Key: key(o.key),
        Body: o.body,
        ContentType: o.contentType,
        CacheControl: o.cacheControl,
        ...(o.contentDisposition ? { ContentDisposition: o.contentDisposition } : {}),
      }));
    },
    async delete(keys) {
      if (keys.length === 0) return;
      const out = await client.send(new DeleteObjectsCommand({
        Bucket: settings.bucket,
        Delete: { Objects: keys.map((k) => ({ Key: key(k) })), Quiet: true },
      }));
      if (out.Errors && out.Errors.length > 0) throw new Error(`${out.Errors.length} objects not deleted: ${out.Errors[0]?.Code ?? 'error'}`);
    },
  };
}
