/** Direct uploads in the bucket: `uploads/<account>/<upload_id>`, expired by the lifecycle (lib/constructs/data.ts). */

import { BUCKET_AREAS } from '../../deployment/access';
import type { UploadStore } from '../../domain/images/uploads';
import type { ObjectStore } from './object-store';

export const uploadKey = (accountId: string, uploadId: string) => `${BUCKET_AREAS.uploads}${accountId}/${uploadId}`;

export const uploadStore = (objects: ObjectStore): UploadStore => ({
  presignPut: (accountId, uploadId, contentType, sizeBytes, expiresInSeconds) =>
    objects.presignPut(uploadKey(accountId, uploadId), contentType, sizeBytes, expiresInSeconds),
  stat: async (accountId, uploadId) => {
    const head = await objects.head(uploadKey(accountId, uploadId));
    return head && { uploadedAt: head.lastModified, version: head.etag };
  },
  read: async (accountId, uploadId) => {
    const stored = await objects.get(uploadKey(accountId, uploadId));
    return stored && { bytes: stored.body, uploadedAt: stored.lastModified };
  },
});
