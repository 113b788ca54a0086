/**
 * What a training preflight measures of one decoded photo, with sharp:
 *
 * - sharpness: the variance of the Laplacian of the photo in grey, fit inside 512 px (the usual blur
 *   measure: edges make it large, a blurred photo has few). Below BLURRY_BELOW the photo reads as very
 *   blurry. Flat drawings with few edges measure 25-130 and the same blurred with sigma 4 measure 1-2;
 *   textured photos measure far more, so the threshold flags only photos with next to no edge at all
 *   (test/unit/adapters/images/photo-analysis.test.ts);
 * - greyscale: every pixel of the 128 px preview has its channels within 6 levels of one another;
 * - a difference hash (dHash, 64 bits: is each pixel of a 9x8 grey thumbnail brighter than its right
 *   neighbour), whose Hamming distance tells near-duplicates (resized, recompressed, lightly edited
 *   copies) apart from different photos.
 */
import type { DecodedImage } from '../../domain/engine/engine';
import type { PhotoMeasures } from '../../domain/profiles/preflight';
import { loadSharp } from './sharp';

export const BLURRY_BELOW = 10;
const SHARPNESS_EDGE_PX = 512;
const GREY_TOLERANCE = 6;
const LAPLACIAN = { width: 3, height: 3, kernel: [0, 1, 0, 1, -4, 1, 0, 1, 0], offset: 128 };

const variance = (values: Buffer): number => {
  let sum = 0;
  let squares = 0;
  for (const value of values) {
    sum += value;
    squares += value * value;
  }
  const mean = sum / values.length;
  return squares / values.length - mean * mean;
};

const differenceHash = async (photo: DecodedImage): Promise<string> => {
  const sharp = await loadSharp();
  const pixels = await sharp(photo.data)
    .flatten({ background: '#ffffff' })
    .greyscale()
    .resize(9, 8, { fit: 'fill' })
    .raw()
    .toBuffer();
  let bits = 0n;
  for (let y = 0; y < 8; y += 1) {
    for (let x = 0; x < 8; x += 1) bits = (bits << 1n) | (pixels[y * 9 + x] > pixels[y * 9 + x + 1] ? 1n : 0n);
  }
  return bits.toString(16).padStart(16, '0');
};

const sharpness = async (photo: DecodedImage): Promise<number> => {
  const sharp = await loadSharp();
  const edges = await sharp(photo.data)
    .flatten({ background: '#ffffff' })
    .greyscale()
    .resize(SHARPNESS_EDGE_PX, SHARPNESS_EDGE_PX, { fit: 'inside', withoutEnlargement: true })
    .convolve(LAPLACIAN)
    .raw()
    .toBuffer();
  return variance(edges);
};

const isGreyscale = async (photo: DecodedImage): Promise<boolean> => {
  const sharp = await loadSharp();
  const preview = photo.preview ?? {
    data: await sharp(photo.data)
      .flatten({ background: '#ffffff' })
      .resize(128, 128, { fit: 'inside' })
      .toColourspace('srgb')
      .removeAlpha()
      .raw()
      .toBuffer(),
  };
  for (let i = 0; i + 2 < preview.data.length; i += 3) {
    const [r, g, b] = [preview.data[i], preview.data[i + 1], preview.data[i + 2]];
    if (Math.max(r, g, b) - Math.min(r, g, b) > GREY_TOLERANCE) return false;
  }
  return true;
};

export const measurePhoto = async (photo: DecodedImage): Promise<PhotoMeasures> => {
  const [hash, laplacianVariance, greyscale] = await Promise.all([
    differenceHash(photo),
    sharpness(photo),
    isGreyscale(photo),
  ]);
  return { differenceHash: hash, sharpness: laplacianVariance, blurry: laplacianVariance < BLURRY_BELOW, greyscale };
};
