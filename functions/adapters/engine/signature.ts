/**
 * Read first: the sandbox identity signature.
 *
 * The sandbox has no face model, so "this input shows the profile's subject" is approximated by "this
 * input looks like one of the profile's photos". An image's signature is
 *
 *   <16 hex: 64-bit difference hash><6 hex: mean colour, 8 bits per RGB channel>
 *
 * computed from the auto-oriented image (transparency flattened onto white) shrunk to 9×8 pixels. The
 * dHash bit for a pair of horizontal neighbours is 1 when the left one is brighter; shrinking first makes
 * it insensitive to resizing and JPEG re-encoding. The mean colour keeps flat images apart, whose hashes
 * are all zero whatever their colour.
 *
 * A profile's signature is a set of image signatures joined by '.': the per-bit majority (and mean
 * colour) of all the photos first, then each distinct photo's own signature, so an input matches the
 * profile when it looks like the typical photo or like any one photo. Two signatures match when some
 * pair of their entries is within SIGNATURE_MAX_HAMMING_DISTANCE bits and SIGNATURE_MAX_COLOUR_DIFFERENCE
 * levels on every channel. A string in any other format (say, from another backend's trainer) never matches.
 */
import sharp from 'sharp';

export const SIGNATURE_MAX_HAMMING_DISTANCE = 10;
export const SIGNATURE_MAX_COLOUR_DIFFERENCE = 32;

const HASH_WIDTH = 9;
const HASH_HEIGHT = 8;
const HASH_BITS = (HASH_WIDTH - 1) * HASH_HEIGHT;
const ENTRY = /^[0-9a-f]{22}$/;
const SIGNATURE = /^[0-9a-f]{22}(\.[0-9a-f]{22})*$/;

interface Entry {
  hash: bigint;
  /** Mean R, G, B, 0 to 255. */
  colour: number[];
}

/** The signature of one image (any format sharp reads). */
export const imageSignature = async (image: Buffer): Promise<string> => {
  const { data, info } = await sharp(image)
    .autoOrient()
    .flatten({ background: '#ffffff' })
    .resize(HASH_WIDTH, HASH_HEIGHT, { fit: 'fill' })
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  const channels = info.channels;
  const pixels = HASH_WIDTH * HASH_HEIGHT;
  const luma: number[] = [];
  const sums = [0, 0, 0];
  for (let pixel = 0; pixel < pixels; pixel += 1) {
    const [r, g, b] = [data[pixel * channels], data[pixel * channels + 1], data[pixel * channels + 2]];
    luma.push(0.299 * r + 0.587 * g + 0.114 * b);
    sums[0] += r;
    sums[1] += g;
    sums[2] += b;
  }
  let hash = 0n;
  for (let y = 0; y < HASH_HEIGHT; y += 1) {
    for (let x = 0; x < HASH_WIDTH - 1; x += 1) {
      const left = luma[y * HASH_WIDTH + x];
      const right = luma[y * HASH_WIDTH + x + 1];
      hash = (hash << 1n) | (left > right ? 1n : 0n);
    }
  }
  return formatEntry({ hash, colour: sums.map((sum) => Math.round(sum / pixels)) });
};

/** The signature of a profile trained on `images` (at least one). */
export const profileSignature = async (images: Buffer[]): Promise<string> =>
  combineSignatures(await Promise.all(images.map(imageSignature)));

/** Combines image signatures already computed (at least one) into a profile signature. */
export const combineSignatures = (signatures: string[]): string => {
  const entries = signatures.flatMap(parseEntries);
  if (entries.length === 0) throw new TypeError('a profile signature needs at least one image signature');
  let majority = 0n;
  for (let bit = HASH_BITS - 1; bit >= 0; bit -= 1) {
    const ones = entries.filter((entry) => (entry.hash >> BigInt(bit)) & 1n).length;
    // A tie goes to the first photo, so one photo's profile signature is that photo's signature.
    const set =
      ones * 2 > entries.length || (ones * 2 === entries.length && ((entries[0].hash >> BigInt(bit)) & 1n) === 1n);
    majority = (majority << 1n) | (set ? 1n : 0n);
  }
  const colour = [0, 1, 2].map((channel) =>
    Math.round(entries.reduce((sum, entry) => sum + entry.colour[channel], 0) / entries.length),
  );
  const all = [formatEntry({ hash: majority, colour }), ...entries.map(formatEntry)];
  return [...new Set(all)].join('.');
};

export const isSignature = (value: string): boolean => SIGNATURE.test(value);

/** The smallest Hamming distance between the hashes of any entry of `a` and any entry of `b`. */
export const signatureDistance = (a: string, b: string): number => {
  const left = parseEntries(a);
  const right = parseEntries(b);
  return Math.min(...left.flatMap((x) => right.map((y) => hammingDistance(x.hash, y.hash))));
};

/** True when some entry of `a` and some entry of `b` are close in both structure and colour. */
export const signaturesMatch = (a: string, b: string): boolean => {
  if (!isSignature(a) || !isSignature(b)) return false;
  const right = parseEntries(b);
  return parseEntries(a).some((x) =>
    right.some(
      (y) =>
        hammingDistance(x.hash, y.hash) <= SIGNATURE_MAX_HAMMING_DISTANCE &&
        x.colour.every((value, channel) => Math.abs(value - y.colour[channel]) <= SIGNATURE_MAX_COLOUR_DIFFERENCE),
    ),
  );
};

const parseEntries = (signature: string): Entry[] => {
  if (!isSignature(signature)) throw new TypeError(`not an image signature: ${JSON.stringify(signature)}`);
  return signature.split('.').map((entry) => {
    if (!ENTRY.test(entry)) throw new TypeError(`not an image signature entry: ${entry}`);
    return {
      hash: BigInt(`0x${entry.slice(0, 16)}`),
      colour: [0, 1, 2].map((channel) => parseInt(entry.slice(16 + channel * 2, 18 + channel * 2), 16)),
    };
  });
};

const formatEntry = ({ hash, colour }: Entry): string =>
  hash.toString(16).padStart(16, '0') + colour.map((value) => value.toString(16).padStart(2, '0')).join('');

const hammingDistance = (a: bigint, b: bigint): number => {
  let difference = a ^ b;
  let count = 0;
  while (difference) {
    count += Number(difference & 1n);
    difference >>= 1n;
  }
  return count;
};
