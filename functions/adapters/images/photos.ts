/** Profile photos in the bucket, transcoded with sharp (only the functions that decode images import this). */
import type { DecodedImage } from '../../domain/engine/engine';
import type { ObjectStore } from '../s3/object-store';
import { photoKey, photoStore } from '../s3/photo-store';
import { loadSharp } from './sharp';

/** Spec: PNGs are transcoded to JPEG quality 95; WebP and HEIC are stored the same way. */
const PHOTO_JPEG_QUALITY = 95;

export const profilePhotos = (objects: ObjectStore) => ({
  ...photoStore(objects),
  async savePhoto(accountId: string, profileId: string, index: number, photo: DecodedImage): Promise<string> {
    const key = photoKey(accountId, profileId, index);
    const jpeg =
      photo.format === 'jpeg'
        ? photo.data
        : await (await loadSharp())(photo.data).rotate().jpeg({ quality: PHOTO_JPEG_QUALITY }).toBuffer();
    await objects.put(key, jpeg, 'image/jpeg');
    return key;
  },
});
