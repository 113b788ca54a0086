/** The bucket (S3 client and presigner load only in the functions that store or link objects). */
import { createObjectStore, presignedUrlOrigin } from '../adapters/s3/object-store';
import { photoStore } from '../adapters/s3/photo-store';
import { once, settings } from './core';
import { profiles } from './data';

const bucketConfig = () => ({
  bucket: settings().SERVICE_BUCKET_NAME,
  region: settings().AWS_REGION,
  endpoint: settings().S3_ENDPOINT,
});

export const objects = once(() => createObjectStore(bucketConfig()));

/** Where the bucket's presigned URLs point (a browser PUTs direct uploads there); undefined without a bucket. */
export const presignedOrigin = once((): string | undefined =>
  bucketConfig().bucket || bucketConfig().endpoint ? presignedUrlOrigin(bucketConfig()) : undefined,
);

/** A profile's picture: the profile from the table, the bytes from the bucket. */
export const pictureDeps = once(() => ({ profiles: profiles(), photos: photoStore(objects()) }));
