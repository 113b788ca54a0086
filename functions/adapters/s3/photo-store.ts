/** Profile photos and pictures as stored objects, under the account's prefix (no image work here). */
import type { ObjectStore } from './object-store';

export const profilePrefix = (accountId: string, profileId: string) => `profiles/${accountId}/${profileId}/`;
export const photoKey = (accountId: string, profileId: string, index: number) =>
  `${profilePrefix(accountId, profileId)}photos/${String(index + 1).padStart(2, '0')}.jpg`;
export const pictureKey = (accountId: string, profileId: string) => `${profilePrefix(accountId, profileId)}picture.jpg`;

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
  },
  picture: async (key: string) => (await objects.get(key))?.body,
});
