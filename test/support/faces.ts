/**
 * Real faces for tests of recognition: the committed photos (test/fixtures/faces/SOURCES.md), the real
 * analyser, and READY profiles seeded with the template and reference crop a training of those faces
 * leaves (the mean of their embeddings, the first face's aligned crop under the profile's prefix).
 * A test file that analyses faces in its own process runs in test/faces/onnx-environment.js.
 */
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { services } from '../../bin/local-aws/services';
import { createOnnxFaceAnalyzer } from '../../functions/adapters/faces/onnx-face-analyzer';
import { buildTemplate, type DetectedFace } from '../../functions/domain/faces';
import type { Profile } from '../../functions/domain/profiles/profile';
import { newId } from '../../functions/domain/shared/ids';
import { seedProfile } from './profiles';

export const analyzer = createOnnxFaceAnalyzer();

/** A photo of test/fixtures/faces/. */
export const facePhoto = (name: string): Buffer =>
  fs.readFileSync(path.join(__dirname, '..', 'fixtures', 'faces', name));

/** The faces the analyser finds in a photo, largest detector score first. */
export const facesIn = (photo: Buffer): Promise<DetectedFace[]> => analyzer.analyze(photo);

/** The reference crops' size training stores (an aligned square face). */
const REFERENCE_CROP_PX = 256;

/**
 * A READY profile of `accountId` whose template is made of `faces` of `photo` (indexes into what the
 * analyser finds; default the first), with the first of them as its reference crop in the bucket.
 */
export const seedFaceProfile = async (accountId: string, photo: Buffer, faces: number[] = [0]): Promise<Profile> => {
  const found = await facesIn(photo);
  const chosen = faces.map((index) => {
    const face = found[index];
    if (!face) throw new Error(`the photo has ${found.length} faces, not a face ${index}`);
    return face;
  });
  const template = buildTemplate(analyzer.modelId, chosen);
  const profileId = newId('prf');
  const referenceKey = `profiles/${accountId}/${profileId}/reference-0.jpg`;
  await services().objects.put(referenceKey, await analyzer.crop(photo, chosen[0], REFERENCE_CROP_PX), 'image/jpeg');
  return seedProfile(accountId, {
    profileId,
    face: { modelId: template.modelId, kind: template.kind, mean: template.mean, referenceKeys: [referenceKey] },
  });
};

/**
 * A new photo cut around face `index` of `photo` (its box grown `scale` times, kept inside the photo),
 * resized to `sizePx` a side: another picture of the same person, not the pixels training saw.
 */
export const photoAround = async (photo: Buffer, index: number, scale = 2.5, sizePx = 640): Promise<Buffer> => {
  const face = (await facesIn(photo))[index];
  if (!face) throw new Error(`no face ${index} in the photo`);
  const { width = 0, height = 0 } = await sharp(photo).metadata();
  const side = Math.min(Math.max(face.box.width, face.box.height) * scale, width, height);
  const centreX = face.box.x + face.box.width / 2;
  const centreY = face.box.y + face.box.height / 2;
  const left = Math.round(Math.min(Math.max(0, centreX - side / 2), width - side));
  const top = Math.round(Math.min(Math.max(0, centreY - side / 2), height - side));
  return sharp(photo)
    .extract({ left, top, width: Math.floor(side), height: Math.floor(side) })
    .resize(sizePx, sizePx)
    .jpeg({ quality: 90 })
    .toBuffer();
};
