/**
 * Profile photos, pictures, reference faces and face templates as stored objects, under the profile's
 * prefix (no image work here): photos/NN.jpg, references/NN.jpg (aligned face crops, best first),
 * picture.jpg and template.json (model id, kind, mean and per-photo embeddings).
 */
import { createHash } from 'node:crypto';
import type { FaceTemplate } from '../../domain/faces';
import type { ObjectStore } from './object-store';

export const profilePrefix = (accountId: string, profileId: string) => `profiles/${accountId}/${profileId}/`;
export const photoKey = (accountId: string, profileId: string, index: number) =>
  `${profilePrefix(accountId, profileId)}photos/${String(index + 1).padStart(2, '0')}.jpg`;
export const pictureKey = (accountId: string, profileId: string) => `${profilePrefix(accountId, profileId)}picture.jpg`;
export const referenceKey = (accountId: string, profileId: string, rank: number) =>
  `${profilePrefix(accountId, profileId)}references/${String(rank + 1).padStart(2, '0')}.jpg`;
export const templateKey = (accountId: string, profileId: string) =>
  `${profilePrefix(accountId, profileId)}template.json`;

/**
 * What a hosted trainer is shown of a profile and what it made (the training zip, the LoRA): also the
 * profile's, but under digests of its ids (`profiles/shared/<A>/<P>/`), since their presigned URLs reach a
 * provider, which is never shown `prf_…` or an account id (as shared-inputs.ts does for reference crops).
 * Deleted with the profile (deleteAll), and, being under `profiles/`, never expired by the bucket's lifecycle.
 */
const digest = (kind: string, id: string): string =>
  createHash('sha256').update(`${kind}:${id}`).digest('hex').slice(0, 32);
export const profileSharedPrefix = (accountId: string, profileId: string) =>
  `profiles/shared/${digest('account', accountId)}/${digest('profile', profileId)}/`;

export const photoStore = (objects: ObjectStore) => ({
  load: (keys: string[]) =>
    Promise.all(
      keys.map(async (key) => {
        const stored = await objects.get(key);
        if (!stored) throw new Error(`photo ${key} is missing`);
        return stored.body;
      }),
    ),
  async deleteAll(accountId: string, profileId: string): Promise<void> {
    await objects.deletePrefix(profilePrefix(accountId, profileId));
    await objects.deletePrefix(profileSharedPrefix(accountId, profileId));
  },
  picture: async (key: string) => (await objects.get(key))?.body,
  async saveReference(accountId: string, profileId: string, rank: number, jpeg: Buffer): Promise<string> {
    const key = referenceKey(accountId, profileId, rank);
    await objects.put(key, jpeg, 'image/jpeg');
    return key;
  },
  /** The picture is a face crop, already a JPEG of the picture's size. */
  async savePicture(accountId: string, profileId: string, jpeg: Buffer): Promise<string> {
    const key = pictureKey(accountId, profileId);
    await objects.put(key, jpeg, 'image/jpeg');
    return key;
  },
  async saveTemplate(accountId: string, profileId: string, template: FaceTemplate): Promise<string> {
    const key = templateKey(accountId, profileId);
    await objects.put(key, Buffer.from(JSON.stringify(template)), 'application/json');
    return key;
  },
});
