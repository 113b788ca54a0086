/** Profile photos and pictures in the bucket, under the account's prefix. */
import sharp from 'sharp';
import type { DecodedImage } from '../../domain/images/engine';
import type { ObjectStore } from '../s3/object-store';

/** Spec: PNGs are transcoded to JPEG quality 95; WebP and HEIC are stored the same way. */
const PHOTO_JPEG_QUALITY = 95;
const PICTURE_EDGE_PX = 512;

export const profilePrefix = (accountId: string, profileId: string) => `profiles/${accountId}/${profileId}/`;

export const profilePhotos = (objects: ObjectStore) => ({
  async savePhoto(accountId: string, profileId: string, index: number, photo: DecodedImage): Promise<string> {
    const key = `${profilePrefix(accountId, profileId)}photos/${String(index + 1).padStart(2, '0')}.jpg`;
    const jpeg = photo.format === 'jpeg' ? photo.data : await sharp(photo.data).rotate().jpeg({ quality: PHOTO_JPEG_QUALITY }).toBuffer();
    await objects.put(key, jpeg, 'image/jpeg');
    return key;
  },
  async savePicture(accountId: string, profileId: string, photo: DecodedImage): Promise<string> {
    const key = `${profilePrefix(accountId, profileId)}picture.jpg`;
    const picture = await sharp(photo.data).rotate().resize(PICTURE_EDGE_PX, PICTURE_EDGE_PX, { fit: 'cover', position: sharp.strategy.attention }).jpeg({ quality: 90 }).toBuffer();
    await objects.put(key, picture, 'image/jpeg');
    return key;
  },
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
