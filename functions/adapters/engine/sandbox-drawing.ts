/**
 * The sandbox engine's drawing helpers (the operations are in sandbox-engine.ts): where the named faces
 * go and their layers, the one pipeline per request with its linear finish and its encode, the statistics
 * read on a small copy of an input, and the request's seeds.
 */
import { createHash } from 'node:crypto';
import type { OverlayOptions, Sharp } from 'sharp';
import type { DecodedImage, EngineRequest, OutputFormat } from '../../domain/engine/engine';
import { previewOf } from '../images/image-input';
import { loadSharp } from '../images/sharp';

const WHITE = '#ffffff';
const PNG_OPTIONS = { compressionLevel: 3, adaptiveFiltering: false } as const;
const JPEG_OPTIONS = { quality: 90, mozjpeg: false } as const;

// ---- identity ----

/**
 * Each face's crop gets 30% of the longer side (614 px at 2K, the face itself about 440 px), less when
 * they would not fit side by side in 90% of the width or height, a quarter of a crop apart. Measured with
 * the face analyser on the fixtures' faces: at a fifth of the side a dim face beside another was missed
 * in about half the layouts (detector scores near its 0.5 threshold); at 30% every face was found (scores
 * 0.75-0.94), alone or two side by side, square or 16:9.
 */
const FACE_SHARE = 0.3;
const FACE_ROW_SHARE = 0.9;
const FACE_GAP_SHARE = 0.25;

/**
 * Where the named faces go: squares side by side, centred across the middle (generate), or along the
 * bottom (edit, so that the faces of the edited photo, usually high in the frame, stay visible).
 */
const faceLayout = (
  count: number,
  width: number,
  height: number,
  row: FaceRow,
): { edgePx: number; lefts: number[]; top: number } => {
  const edgePx = Math.max(
    1,
    Math.floor(
      Math.min(
        Math.max(width, height) * FACE_SHARE,
        (width * FACE_ROW_SHARE) / (count + (count - 1) * FACE_GAP_SHARE),
        height * FACE_ROW_SHARE,
      ),
    ),
  );
  const gapPx = Math.round(edgePx * FACE_GAP_SHARE);
  const rowPx = count * edgePx + (count - 1) * gapPx;
  const first = Math.max(0, Math.round((width - rowPx) / 2));
  return {
    edgePx,
    lefts: Array.from({ length: count }, (_, index) => first + index * (edgePx + gapPx)),
    top: Math.max(0, row === 'middle' ? Math.round((height - edgePx) / 2) : Math.round(height * 0.98) - edgePx),
  };
};

type FaceRow = 'middle' | 'bottom';

/**
 * How a face is redrawn, as a model redraws rather than pastes: turned a little (±8°), relit (±8 %) and
 * resaturated (±15 %), seeded by the request, so an output never holds the crop's own pixels and
 * recognition is tested on a face that was drawn.
 */
const redrawn = async (face: Buffer, edgePx: number, random: () => number): Promise<Buffer> => {
  const sharp = await loadSharp();
  const angle = (random() - 0.5) * 16;
  const turned = await sharp(face)
    .autoOrient()
    .flatten({ background: WHITE })
    .toColourspace('srgb')
    .rotate(angle, { background: WHITE })
    .toBuffer();
  const meta = await sharp(turned).metadata();
  // Cut back to the face's own square (the turn grew the canvas), then to the layout's size.
  const side = Math.round(
    Math.min(meta.width ?? edgePx, meta.height ?? edgePx) /
      (Math.abs(Math.cos((angle * Math.PI) / 180)) + Math.abs(Math.sin((angle * Math.PI) / 180))),
  );
  return sharp(turned)
    .extract({
      left: Math.max(0, Math.round(((meta.width ?? side) - side) / 2)),
      top: Math.max(0, Math.round(((meta.height ?? side) - side) / 2)),
      width: side,
      height: side,
    })
    .resize(edgePx, edgePx, { fit: 'cover' })
    .modulate({ brightness: 0.92 + random() * 0.16, saturation: 0.85 + random() * 0.3 })
    .raw()
    .toBuffer();
};

/** The faces as composite layers for an output of this size (none when no face is named). */
export const faceLayers = async (
  faces: Buffer[],
  width: number,
  height: number,
  row: FaceRow,
  random: () => number = () => 0.5,
): Promise<OverlayOptions[]> => {
  if (faces.length === 0) return [];
  const { edgePx, lefts, top } = faceLayout(faces.length, width, height, row);
  const resized: Buffer[] = [];
  for (const face of faces) resized.push(await redrawn(face, edgePx, random));
  return resized.map((input, index) => ({
    input,
    raw: { width: edgePx, height: edgePx, channels: 3 as const },
    left: lefts[index],
    top,
  }));
};

// ---- rendering ----

/** Per-channel `a * value + b`, the last step of every output. */
export interface ChannelLinear {
  a: number[];
  b: number[];
}

const IDENTITY: ChannelLinear = { a: [1, 1, 1], b: [0, 0, 0] };

export interface Seeds {
  /** Deterministic numbers in [0, 1) for one purpose (`label`) of this request. */
  random(label: string): () => number;
}

/** Runs `base` once and encodes one output per linear finish. */
export const renderOutputs = async (
  base: Sharp,
  finishes: ChannelLinear[],
  format: OutputFormat,
  signal: AbortSignal,
): Promise<Buffer[]> => {
  signal.throwIfAborted();
  if (finishes.length === 1) return [await encode(withLinear(base, finishes[0]), format)];
  const { data, info } = await base.raw().toBuffer({ resolveWithObject: true });
  if (info.channels !== 3) throw new Error(`sandbox engine: expected RGB pixels, got ${info.channels} channels`);
  signal.throwIfAborted();
  const raw = { width: info.width, height: info.height, channels: 3 as const };
  const sharp = await loadSharp();
  return Promise.all(finishes.map((finish) => encode(withLinear(sharp(data, { raw }), finish), format)));
};

/** One decode of an input: upright, transparency on white, RGB. */
export const load = async (image: DecodedImage): Promise<Sharp> =>
  (await loadSharp())(image.data).autoOrient().flatten({ background: WHITE }).toColourspace('srgb');

const withLinear = (image: Sharp, { a, b }: ChannelLinear): Sharp =>
  a.every((value) => value === 1) && b.every((value) => value === 0) ? image : image.linear(a, b);

export const encode = (image: Sharp, format: OutputFormat): Promise<Buffer> =>
  format === 'png' ? image.png(PNG_OPTIONS).toBuffer() : image.jpeg(JPEG_OPTIONS).toBuffer();

// ---- statistics on a small copy ----

/** Interleaved RGB pixels of the image on white, at most 128 px a side: the guard's preview, else decoded. */
export const smallCopy = async (image: DecodedImage): Promise<Buffer> =>
  (image.preview ?? (await previewOf(image.data))).data;

interface ChannelMoments {
  mean: number[];
  deviation: number[];
}

/** Interleaved RGB: one pixel a step, each channel summed in the same order (the same floating-point sums). */
export const channelMoments = (pixels: Buffer): ChannelMoments => {
  const count = pixels.length / 3;
  let [red, green, blue, redSquares, greenSquares, blueSquares] = [0, 0, 0, 0, 0, 0];
  for (let index = 0; index + 2 < pixels.length; index += 3) {
    const r = pixels[index];
    const g = pixels[index + 1];
    const b = pixels[index + 2];
    red += r;
    green += g;
    blue += b;
    redSquares += r * r;
    greenSquares += g * g;
    blueSquares += b * b;
  }
  const sums = [red, green, blue];
  const squares = [redSquares, greenSquares, blueSquares];
  const mean = sums.map((sum) => sum / count);
  return {
    mean,
    deviation: squares.map((square, channel) => Math.sqrt(Math.max(0, square / count - mean[channel] ** 2))),
  };
};

/** Reinhard-style transfer per RGB channel; the gain is bounded so a flat input does not explode. */
export const colourTransfer = (input: ChannelMoments, reference: ChannelMoments): ChannelLinear => {
  const a = [0, 1, 2].map((channel) =>
    clamp(reference.deviation[channel] / Math.max(input.deviation[channel], 1), 0.25, 4),
  );
  return { a, b: a.map((gain, channel) => reference.mean[channel] - gain * input.mean[channel]) };
};

/** Stretches luminance so its 0.5th to 99.5th percentiles span the full range (gain at most 2.5). */
export const contrastStretch = (pixels: Buffer): ChannelLinear => {
  const histogram = new Array<number>(256).fill(0);
  for (let index = 0; index + 2 < pixels.length; index += 3) {
    histogram[Math.round(0.299 * pixels[index] + 0.587 * pixels[index + 1] + 0.114 * pixels[index + 2])] += 1;
  }
  const count = pixels.length / 3;
  const percentile = (fraction: number): number => {
    let seen = 0;
    for (let level = 0; level < 256; level += 1) {
      seen += histogram[level];
      if (seen >= fraction * count) return level;
    }
    return 255;
  };
  const low = percentile(0.005);
  const high = percentile(0.995);
  if (high - low < 16 || (low <= 2 && high >= 253)) return IDENTITY;
  const gain = Math.min(255 / (high - low), 2.5);
  const offset = 127.5 - ((low + high) / 2) * gain;
  return { a: [gain, gain, gain], b: [offset, offset, offset] };
};

const clamp = (value: number, low: number, high: number): number => Math.min(high, Math.max(low, value));

// ---- seeds ----

/** Seeds derive from a hash of the request, computed on first use (enhance and remix with one output never need it). */
export const requestSeeds = (request: EngineRequest): Seeds => {
  let seed: Buffer | undefined;
  const requestHash = (): Buffer => {
    const { operation, prompt, width, height, outputFormat, numOutputImages, baseModel, quality } = request;
    const hash = createHash('sha256').update(
      JSON.stringify([operation, prompt, width, height, outputFormat, numOutputImages, baseModel, quality ?? null]),
    );
    for (const image of request.images) hash.update(`${image.data.length}:`).update(image.data);
    return hash.digest();
  };
  return {
    random: (label) => {
      seed ??= requestHash();
      return mulberry32(createHash('sha256').update(seed).update(label).digest().readUInt32BE(0));
    },
  };
};

const mulberry32 = (state: number): (() => number) => {
  let current = state >>> 0;
  return () => {
    current = (current + 0x6d2b79f5) >>> 0;
    let t = current;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};
