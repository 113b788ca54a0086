/** Profile photos and pictures in the bucket, prepared with sharp (only the functions that decode images import this). */
import sharp from 'sharp';
import type { DecodedImage } from '../../domain/images/engine';
import type { ObjectStore } from '../s3/object-store';
import { photoKey, photoStore, pictureKey } from '../s3/photo-store';

/** Spec: PNGs are transcoded to JPEG quality 95; WebP and HEIC are stored the same way. */
const PHOTO_JPEG_QUALITY = 95;
const PICTURE_EDGE_PX = 512;

export const profilePhotos = (objects: ObjectStore) => ({
  ...photoStore(objects),
  async savePhoto(accountId: string, profileId: string, index: number, photo: DecodedImage): Promise<string> {
    const key = photoKey(accountId, profileId, index);
    const jpeg =
      photo.format === 'jpeg'
        ? photo.data
        : await sharp(photo.data).rotate().jpeg({ quality: PHOTO_JPEG_QUALITY }).toBuffer();
    await objects.put(key, jpeg, 'image/jpeg');
    return key;
  },
  async savePicture(accountId: string, profileId: string, photo: DecodedImage): Promise<string> {
    const key = pictureKey(accountId, profileId);
    const picture = await sharp(photo.data)
      .rotate()
      .resize(PICTURE_EDGE_PX, PICTURE_EDGE_PX, { fit: 'cover', position: sharp.strategy.attention })
      .jpeg({ quality: 90 })
      .toBuffer();
    await objects.put(key, picture, 'image/jpeg');
    return key;
  },
});
