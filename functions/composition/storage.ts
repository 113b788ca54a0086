/** The bucket (S3 client and presigner load only in the functions that store or link objects). */
import { createObjectStore } from '../adapters/s3/object-store';
import { photoStore } from '../adapters/s3/photo-store';
import { once, settings } from './core';
import { profiles } from './data';

export const objects = once(() =>
  createObjectStore({
    bucket: settings().SERVICE_BUCKET_NAME,
    region: settings().AWS_REGION,
    endpoint: settings().S3_ENDPOINT,
  }),
);

/** A profile's picture: the profile from the table, the bytes from the bucket. */
export const pictureDeps = once(() => ({ profiles: profiles(), photos: photoStore(objects()) }));
