/**
 * The engine contract says exactly `width`×`height` in exactly `outputFormat`. Providers offer sizes or
 * aspect ratios and tiers of their own: the adapter asks for the nearest one (these helpers choose it)
 * and fits what comes back with sharp (cover, centred; re-encoded only when size or format differ).
 */
import type { OutputFormat } from '../../../domain/engine/engine';
import { loadSharp } from '../../images/sharp';

const MAGIC: Record<OutputFormat, Buffer> = {
  png: Buffer.from([0x89, 0x50, 0x4e, 0x47]),
  jpg: Buffer.from([0xff, 0xd8, 0xff]),
};

/** JPEG quality of re-encoded outputs (the sandbox and the HTTP contract use the same). */
const JPEG_QUALITY = 92;

export const fitImage = async (
  data: Buffer,
  width: number,
  height: number,
  format: OutputFormat,
  signal?: AbortSignal,
): Promise<Buffer> => {
  signal?.throwIfAborted();
  const sharp = await loadSharp();
  const meta = await sharp(data).metadata();
  const rightFormat = data.subarray(0, MAGIC[format].length).equals(MAGIC[format]);
  if (rightFormat && meta.width === width && meta.height === height && (meta.orientation ?? 1) === 1) return data;
  const resized = sharp(data).rotate().resize(width, height, { fit: 'cover', position: 'centre' });
  return format === 'png'
    ? resized.png().toBuffer()
    : resized.flatten({ background: '#ffffff' }).jpeg({ quality: JPEG_QUALITY }).toBuffer();
};

export { nearestAspectRatio } from './aspect-ratio';

/**
 * The offered size (w×h) that needs the least change to become width×height: closest aspect first,
 * then the smallest that is at least as large on the long side (so fitting shrinks), else the largest.
 */
export const nearestSize = (
  width: number,
  height: number,
  offered: readonly { width: number; height: number }[],
): { width: number; height: number } => {
  const target = Math.log(width / height);
  const aspectGap = (size: { width: number; height: number }) => Math.abs(Math.log(size.width / size.height) - target);
  const bestGap = Math.min(...offered.map(aspectGap));
  const sameShape = offered.filter((size) => aspectGap(size) - bestGap < 1e-9);
  const long = Math.max(width, height);
  const bigEnough = sameShape
    .filter((size) => Math.max(size.width, size.height) >= long)
    .sort((a, b) => a.width * a.height - b.width * b.height);
  return bigEnough[0] ?? [...sameShape].sort((a, b) => b.width * b.height - a.width * a.height)[0] ?? { width, height };
};

/** Megapixels of `count` images of width×height (1 MP = 1 000 000 px). */
export const megapixelsOf = (width: number, height: number, count: number): number =>
  (width * height * count) / 1_000_000;
