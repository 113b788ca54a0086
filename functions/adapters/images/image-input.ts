/**
 * Read first: image inputs come from callers we do not trust, so the order below is the guard.
 *
 * 1. The form (URL, data URI, bare base64, direct upload) becomes bytes, capped at `maxInputBytes`
 *    (a direct upload at MAX_UPLOAD_BYTES; image-source.ts).
 * 2. The format is read from the magic bytes only; a data URI's type and a Content-Type are ignored.
 * 3. The dimensions are read from the header and checked BEFORE any pixel is decoded (pixel bombs);
 *    every sharp pipeline also carries `limitInputPixels` as a second guard.
 * 4. The pixels are decoded once: to verify them (fast path: the original bytes are returned untouched),
 *    or to auto-orient by EXIF and fit inside 4096 px, or because the input is HEIC/HEIF, which sharp's
 *    prebuilt libvips cannot decode (no HEVC): heic-decode (libheif in WASM) gives RGBA pixels instead.
 *    The verifying decode is a small one (JPEG and WebP shrink on load, but every byte is still read),
 *    and its product is kept as `preview`, so an engine that needs statistics does not decode again.
 *
 * Every refusal is an InvalidRequestError (400) naming the input. A file that fails to decode is the
 * caller's, so decoding errors become a 400 too, never a 500.
 *
 * The result's `format` is what its `data` is: the caller's format when the bytes are the caller's, and the
 * encoder's when they were rebuilt (a HEIC, a rotated or a large PNG or WebP becomes JPEG, or PNG with alpha);
 * `sourceFormat` keeps the caller's when it differs. So a label made from `format` cannot disagree with `data`.
 *
 * Intermediate encoding, when pixels had to be rebuilt: JPEG quality 95 with 4:4:4 chroma (visually
 * lossless, several times faster to encode than PNG (DESIGN §8), and the transcode the spec applies to
 * profile PNGs); PNG when the image has an alpha channel, which JPEG would lose. Decoding is checked with sharp's
 * default `failOn: 'warning'`, so what passes here also passes an engine that reads `data` with defaults.
 */
import type { ResizeOptions, Sharp, SharpOptions } from 'sharp';
import type { DecodedImage, ImageFormat, ImagePreview, InputFormat } from '../../domain/engine/engine';
import { InvalidRequestError } from '../../domain/errors';
import { type FetchBytes, type ReadUpload, readImageSource } from './image-source';
import { loadSharp } from './sharp';

export type { FetchBytes, ReadUpload } from './image-source';

export const MAX_INPUT_BYTES = 25 * 1024 * 1024;
/** Decoded RGBA must fit in memory: 100 MP is 400 MB of pixels. */
export const MAX_INPUT_PIXELS = 100_000_000;
/**
 * HEIC is decoded whole inside WASM (YUV planes, RGBA in the WASM heap, then a copy in JS: 10-15 bytes a
 * pixel, and the WASM heap never shrinks), so its ceiling is lower. 64 MP admits 48-50 MP phone photos.
 */
export const MAX_HEIF_PIXELS = 64_000_000;
export const MAX_INPUT_EDGE_PX = 30_000;
/** Inputs larger than this on either side are resized to fit inside it (spec: "resized to 4K"). */
export const MAX_DECODED_EDGE_PX = 4096;

/** Long edge of the preview; JPEG and WebP shrink on load towards it, yet every byte is still read. */
export const PREVIEW_EDGE_PX = 128;
const SHARP_INPUT: SharpOptions = { limitInputPixels: MAX_INPUT_PIXELS };
const FIT_INSIDE: ResizeOptions = {
  width: MAX_DECODED_EDGE_PX,
  height: MAX_DECODED_EDGE_PX,
  fit: 'inside',
  withoutEnlargement: true,
};

/** The preview of encoded image bytes: flattened on white, shrunk to fit PREVIEW_EDGE_PX, sRGB, raw. */
export const previewOf = async (data: Buffer, options?: SharpOptions): Promise<ImagePreview> => {
  const sharp = await loadSharp();
  const { data: pixels, info } = await sharp(data, options)
    .flatten({ background: '#ffffff' })
    .resize(PREVIEW_EDGE_PX, PREVIEW_EDGE_PX, { fit: 'inside', withoutEnlargement: true })
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: pixels, width: info.width, height: info.height };
};

export interface ImageInputDeps {
  fetchBytes: FetchBytes;
  /** The caller's direct uploads; absent where an input must be a URL or base64. */
  readUpload?: ReadUpload;
  /** Cap on the input's bytes, fetched or decoded from base64. Default MAX_INPUT_BYTES. */
  maxInputBytes?: number;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** The major brands heic-decode accepts; `heim`/`heis` (layered HEVC) are not among them. */
const HEIF_MAJOR_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'mif1', 'msf1']);
const AV1_BRANDS = new Set(['avif', 'avis']);

/**
 * The format announced by the first bytes. HEIF is an ISO BMFF `ftyp` box at offset 4. AVIF shares that
 * container and often the generic `mif1` major brand, and neither sharp's header (it reports `hevc` for
 * any `mif1`) nor the magic alone tells it apart: a file listing an AV1 brand is refused.
 */
export const sniffFormat = (bytes: Buffer): InputFormat | undefined => {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return 'png';
  if (bytes.length < 12) return undefined;
  if (bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  if (bytes.toString('latin1', 4, 8) !== 'ftyp' || !HEIF_MAJOR_BRANDS.has(bytes.toString('latin1', 8, 12)))
    return undefined;
  const boxEnd = Math.min(bytes.readUInt32BE(0), bytes.length);
  for (let offset = 16; offset + 4 <= boxEnd; offset += 4) {
    if (AV1_BRANDS.has(bytes.toString('latin1', offset, offset + 4))) return undefined;
  }
  return 'heif';
};

/** Reads, checks and normalises one image input; `label` (e.g. `images[3]`) names it in every refusal. */
export const decodeImageInput = async (value: string, label: string, deps: ImageInputDeps): Promise<DecodedImage> => {
  const bytes = await readImageSource(value, label, deps, deps.maxInputBytes ?? MAX_INPUT_BYTES);
  const format = sniffFormat(bytes);
  if (!format) throw unsupported(label);
  const header = await readHeader(bytes, label);
  refusePixelBomb(header, format, label);
  try {
    return await normalise(bytes, format, header);
  } catch (error) {
    // Only the pixel decoding of the caller's bytes runs here: its failures are the caller's file.
    const refusal = new InvalidRequestError(`${label} could not be decoded: the image is corrupt or truncated.`);
    refusal.cause = error;
    throw refusal;
  }
};

interface Header {
  width: number;
  height: number;
  orientation: number;
  hasAlpha: boolean;
}

const unsupported = (label: string) =>
  new InvalidRequestError(`${label} is not a supported image (JPEG, PNG, WebP, HEIC/HEIF).`);

const readHeader = async (bytes: Buffer, label: string): Promise<Header> => {
  // Headers only: no pixel is decoded, so the pixel limit is lifted to learn the true dimensions.
  const sharp = await loadSharp();
  const metadata = await sharp(bytes, { limitInputPixels: false })
    .metadata()
    .catch(() => undefined);
  if (!metadata?.width || !metadata.height) {
    throw new InvalidRequestError(`${label} could not be decoded: the image header is corrupt or truncated.`);
  }
  return {
    width: metadata.width,
    height: metadata.height,
    orientation: metadata.orientation ?? 1,
    hasAlpha: metadata.hasAlpha,
  };
};

const refusePixelBomb = ({ width, height }: Header, format: InputFormat, label: string): void => {
  const maxPixels = format === 'heif' ? MAX_HEIF_PIXELS : MAX_INPUT_PIXELS;
  if (width * height <= maxPixels && width <= MAX_INPUT_EDGE_PX && height <= MAX_INPUT_EDGE_PX) return;
  throw new InvalidRequestError(
    `${label} is too large: ${width}x${height} pixels (at most ${maxPixels / 1_000_000} megapixels and ${MAX_INPUT_EDGE_PX} px a side).`,
  );
};

const normalise = async (bytes: Buffer, format: InputFormat, header: Header): Promise<DecodedImage> => {
  if (format === 'heif') return encode(await decodeHeif(bytes, header.hasAlpha), format, header.hasAlpha);
  const fits = Math.max(header.width, header.height) <= MAX_DECODED_EDGE_PX;
  if (header.orientation === 1 && fits) {
    const preview = await previewOf(bytes, SHARP_INPUT);
    // The caller's own bytes, untouched: their sniffed format is theirs (HEIF went the other way above).
    return { data: bytes, format, width: header.width, height: header.height, preview };
  }
  const sharp = await loadSharp();
  return encode(sharp(bytes, { ...SHARP_INPUT, autoOrient: true }), format, header.hasAlpha);
};

/** libheif applies the file's rotation and mirroring while decoding, so the pixels come out upright. */
const decodeHeif = async (bytes: Buffer, hasAlpha: boolean): Promise<Sharp> => {
  // Loaded on first use: its WASM costs ~70 ms at cold start, and most inputs are not HEIC.
  const { default: heicDecode } = await import('heic-decode');
  const { width, height, data } = await heicDecode({ buffer: bytes });
  const sharp = await loadSharp();
  const pixels = sharp(Buffer.from(data.buffer, data.byteOffset, data.byteLength), {
    ...SHARP_INPUT,
    raw: { width, height, channels: 4 },
  });
  return hasAlpha ? pixels : pixels.removeAlpha();
};

/** Rebuilt pixels, encoded: the result is labelled with what the encoder wrote, the caller's format kept apart. */
const encode = async (image: Sharp, source: InputFormat, hasAlpha: boolean): Promise<DecodedImage> => {
  const resized = image.resize(FIT_INSIDE);
  const encoded = hasAlpha
    ? resized.png({ compressionLevel: 3 })
    : resized.jpeg({ quality: 95, chromaSubsampling: '4:4:4' });
  const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
  const format = encodedFormat(info.format);
  return { data, format, width: info.width, height: info.height, ...(format !== source && { sourceFormat: source }) };
};

const encodedFormat = (written: string): ImageFormat => {
  if (written === 'jpeg' || written === 'png' || written === 'webp') return written;
  throw new Error(`the input guard encoded ${written}, which no engine takes`);
};
