/**
 * Photo-like test pictures, made in memory and the same for the same seed. Their cost to decode and
 * encode is what matters, not what they show, so they have what makes real photos expensive: detail at
 * every scale (large blobs, mid-size texture, per-pixel sensor noise), hard edges, a colour gradient.
 * A smooth gradient would flatter every codec (a 12 MP gradient JPEG is a few hundred KB; a phone photo
 * is 3-6 MB): the 12 MP JPEG made here is about 5 MB at quality 90.
 */
import sharp from 'sharp';

export interface SyntheticPhotoOptions {
  width: number;
  height: number;
  seed: number;
  /** Amplitude of the per-pixel noise, in levels (±). Real sensors at base ISO: 4-12. */
  grainLevels?: number;
  /** Per-channel tint added across the frame, so two seeds can have different colour statistics. */
  tint?: [number, number, number];
}

/** Interleaved 8-bit RGB pixels. */
export const syntheticPhotoPixels = async (options: SyntheticPhotoOptions): Promise<Buffer> => {
  const { width, height, seed } = options;
  const grain = options.grainLevels ?? 10;
  const tint = options.tint ?? [0, 0, 0];
  const random = mulberry32(seed);
  const [blobs, texture] = await Promise.all([
    upscaledNoise(Math.ceil(width / 24), Math.ceil(height / 24), width, height, random),
    upscaledNoise(Math.ceil(width / 4), Math.ceil(height / 4), width, height, random),
  ]);
  const tileEdgePx = Math.max(1, Math.round(Math.min(width, height) / 8));
  const tilesAcross = Math.ceil(width / tileEdgePx);
  const tileOffsets = Array.from({ length: tilesAcross * Math.ceil(height / tileEdgePx) }, () =>
    Math.round((random() - 0.5) * 60),
  );
  const pixels = Buffer.allocUnsafe(width * height * 3);
  let state = (Math.imul(seed, 2654435761) | 1) >>> 0;
  for (let y = 0; y < height; y += 1) {
    const tileRow = Math.floor(y / tileEdgePx) * tilesAcross;
    for (let x = 0; x < width; x += 1) {
      const index = (y * width + x) * 3;
      const tile = tileOffsets[tileRow + Math.floor(x / tileEdgePx)];
      const across = x / width;
      const down = y / height;
      for (let channel = 0; channel < 3; channel += 1) {
        // xorshift32 inline: a function call per sample would double the time of this loop.
        state ^= state << 13;
        state ^= state >>> 17;
        state ^= state << 5;
        const noise = (((state >>> 0) & 0xffff) / 0xffff - 0.5) * 2 * grain;
        const gradient = channel === 0 ? 70 * across - 35 : channel === 2 ? 50 * down - 25 : 30 * (across - down);
        const value =
          128 +
          0.7 * (blobs[index + channel] - 128) +
          0.35 * (texture[index + channel] - 128) +
          tile +
          gradient +
          tint[channel] +
          noise;
        pixels[index + channel] = Math.min(255, Math.max(0, value));
      }
    }
  }
  return pixels;
};

export const syntheticPhotoJpeg = async (options: SyntheticPhotoOptions & { quality?: number }): Promise<Buffer> =>
  sharp(await syntheticPhotoPixels(options), { raw: { width: options.width, height: options.height, channels: 3 } })
    .jpeg({ quality: options.quality ?? 90 })
    .toBuffer();

/** Uniform noise on a small grid, enlarged with a cubic kernel: smooth structure at the grid's scale. */
const upscaledNoise = (
  gridWidth: number,
  gridHeight: number,
  width: number,
  height: number,
  random: () => number,
): Promise<Buffer> => {
  const grid = Buffer.alloc(gridWidth * gridHeight * 3);
  for (let index = 0; index < grid.length; index += 1) grid[index] = Math.floor(random() * 256);
  return sharp(grid, { raw: { width: gridWidth, height: gridHeight, channels: 3 } })
    .resize(width, height, { fit: 'fill', kernel: 'cubic' })
    .raw()
    .toBuffer();
};

const mulberry32 = (seed: number): (() => number) => {
  let current = seed >>> 0;
  return () => {
    current = (current + 0x6d2b79f5) >>> 0;
    let t = current;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};
