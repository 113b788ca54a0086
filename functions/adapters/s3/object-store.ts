/**
 * The bucket, in the domain's words. The client is configured for both homes: path-style addressing
 * and checksums only when required, with Buffers as bodies (newer SDK checksums made the former local
 * S3 store corrupted objects, DESIGN.md §2).
 */
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { localCredentials } from '../aws-clients';

export interface ObjectStore {
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /** Undefined when there is no such object. */
  get(
    key: string,
  ): Promise<{ body: Buffer; contentType: string | undefined; lastModified: number | undefined } | undefined>;
  /** The object's metadata without its body (its ETag names its bytes); undefined when there is no such object. */
  head(key: string): Promise<{ lastModified: number | undefined; etag?: string } | undefined>;
  /** A short-lived GET URL for the object. */
  presignGet(key: string, expiresInSeconds: number): Promise<string>;
  /**
   * A short-lived PUT URL for the object. Content-Type and Content-Length are signed, so S3 refuses a
   * body of any other length or type (a presigned PUT cannot carry a size range; an exact size can).
   */
  presignPut(key: string, contentType: string, contentLength: number, expiresInSeconds: number): Promise<string>;
  /** Deletes every object under `prefix`; returns how many. */
  deletePrefix(prefix: string): Promise<number>;
}

/**
 * The origin of the URLs `presignGet` and `presignPut` answer, which a browser page must be allowed to
 * reach (the portal's Content-Security-Policy): the endpoint's own (path-style) where one is set, else
 * the bucket's regional virtual-hosted origin, the form the SDK's presigner produces on AWS.
 */
export const presignedUrlOrigin = (config: { bucket: string; region: string; endpoint?: string }): string =>
  config.endpoint ? new URL(config.endpoint).origin : `https://${config.bucket}.s3.${config.region}.amazonaws.com`;

export const createObjectStore = (config: { bucket: string; region: string; endpoint?: string }): ObjectStore => {
  const client = new S3Client({
    region: config.region,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // The local S3 accepts the local development key pair.
    ...(config.endpoint ? { endpoint: config.endpoint, forcePathStyle: true, credentials: localCredentials() } : {}),
  });
  return {
    async put(key, body, contentType) {
      await client.send(
        new PutObjectCommand({ Bucket: config.bucket, Key: key, Body: body, ContentType: contentType }),
      );
    },
    async get(key) {
      try {
        const result = await client.send(new GetObjectCommand({ Bucket: config.bucket, Key: key }));
        if (!result.Body) throw new Error(`S3 answered ${key} without a body`);
        return {
          body: Buffer.from(await result.Body.transformToByteArray()),
          contentType: result.ContentType,
          lastModified: result.LastModified?.getTime(),
        };
      } catch (error) {
        if (error instanceof Error && (error.name === 'NoSuchKey' || error.name === 'NotFound')) return undefined;
        throw error;
      }
    },
    async head(key) {
      try {
        const result = await client.send(new HeadObjectCommand({ Bucket: config.bucket, Key: key }));
        return { lastModified: result.LastModified?.getTime(), etag: result.ETag };
      } catch (error) {
        if (error instanceof Error && (error.name === 'NoSuchKey' || error.name === 'NotFound')) return undefined;
        throw error;
      }
    },
    presignGet: (key, expiresInSeconds) =>
      getSignedUrl(client, new GetObjectCommand({ Bucket: config.bucket, Key: key }), { expiresIn: expiresInSeconds }),
    presignPut: (key, contentType, contentLength, expiresInSeconds) =>
      getSignedUrl(
        client,
        new PutObjectCommand({
          Bucket: config.bucket,
          Key: key,
          ContentType: contentType,
          ContentLength: contentLength,
        }),
        {
          expiresIn: expiresInSeconds,
          signableHeaders: new Set(['content-type', 'content-length']),
        },
      ),
    async deletePrefix(prefix) {
      let deleted = 0;
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket: config.bucket, Prefix: prefix, ContinuationToken: token }),
        );
        const objects = (page.Contents ?? []).flatMap((object) => (object.Key ? [{ Key: object.Key }] : []));
        if (objects.length > 0) {
          await client.send(
            new DeleteObjectsCommand({ Bucket: config.bucket, Delete: { Objects: objects, Quiet: true } }),
          );
          deleted += objects.length;
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return deleted;
    },
  };
};
