import sharp from 'sharp';
import {
  combineSignatures,
  imageSignature,
  profileSignature,
  SIGNATURE_MAX_HAMMING_DISTANCE,
  signatureDistance,
  signaturesMatch,
} from '../../functions/adapters/engine/signature';

/** A photo stand-in: a seeded 8×6 grid of colours, upscaled smoothly, as a JPEG. */
const photo = async (seed: number, width = 64, height = 48): Promise<Buffer> => {
  let state = seed;
  const next = () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state >>> 24;
  };
  const grid = Buffer.from(Array.from({ length: 8 * 6 * 3 }, next));
  return sharp(grid, { raw: { width: 8, height: 6, channels: 3 } })
    .resize(width, height, { fit: 'fill' })
    .jpeg({ quality: 92 })
    .toBuffer();
};

const flat = (colour: string) =>
  sharp({ create: { width: 64, height: 48, channels: 3, background: colour } })
    .png()
    .toBuffer();

describe('image signature', () => {
  it('is a stable hex string for the same bytes', async () => {
    const image = await photo(1);
    const signature = await imageSignature(image);
    expect(signature).toMatch(/^[0-9a-f]{22}$/);
    expect(await imageSignature(image)).toBe(signature);
  });

  it('survives resizing and JPEG re-encoding', async () => {
    const original = await photo(1);
    const enlarged = await sharp(original).resize(640, 480).jpeg({ quality: 60 }).toBuffer();
    const shrunk = await sharp(original).resize(40, 30).png().toBuffer();
    const webp = await sharp(original).resize(1024, 768).webp({ quality: 50 }).toBuffer();
    const signature = await imageSignature(original);
    for (const copy of [enlarged, shrunk, webp]) {
      const copySignature = await imageSignature(copy);
      expect(signatureDistance(signature, copySignature)).toBeLessThanOrEqual(SIGNATURE_MAX_HAMMING_DISTANCE);
      expect(signaturesMatch(signature, copySignature)).toBe(true);
    }
  });

  it('follows the EXIF orientation', async () => {
    const upright = await photo(3);
    const storedSideways = await sharp(upright)
      .rotate(270)
      .withMetadata({ orientation: 6 })
      .jpeg({ quality: 92 })
      .toBuffer();
    expect(signaturesMatch(await imageSignature(upright), await imageSignature(storedSideways))).toBe(true);
  });

  it('tells a clearly different image apart', async () => {
    const [first, second] = await Promise.all([photo(1), photo(2)]);
    expect(signaturesMatch(await imageSignature(first), await imageSignature(second))).toBe(false);
  });

  it('tells flat images of different colours apart', async () => {
    const [red, blue] = await Promise.all([flat('#d02020'), flat('#2020d0')]);
    expect(signaturesMatch(await imageSignature(red), await imageSignature(blue))).toBe(false);
    expect(signaturesMatch(await imageSignature(red), await imageSignature(await sharp(red).jpeg().toBuffer()))).toBe(
      true,
    );
  });

  it('never matches a string that is not a signature', async () => {
    const signature = await imageSignature(await photo(1));
    for (const other of ['', 'abc', signature.toUpperCase(), `${signature}.`, `${signature.slice(0, 21)}g`]) {
      expect(signaturesMatch(signature, other)).toBe(false);
      expect(signaturesMatch(other, signature)).toBe(false);
    }
  });
});

describe('profile signature', () => {
  it('of one photo is that photo’s signature', async () => {
    const image = await photo(5);
    expect(await profileSignature([image])).toBe(await imageSignature(image));
  });

  it('matches a resized copy of any of its photos, and not an unrelated image', async () => {
    const photos = await Promise.all([10, 11, 12, 13, 14].map((seed) => photo(seed)));
    const signature = await profileSignature(photos);
    for (const image of photos) {
      const copy = await sharp(image).resize(256, 192).jpeg({ quality: 70 }).toBuffer();
      expect(signaturesMatch(await imageSignature(copy), signature)).toBe(true);
    }
    expect(signaturesMatch(await imageSignature(await photo(99)), signature)).toBe(false);
  });

  it('leads with the per-bit majority of the photos', async () => {
    const a = `${'f'.repeat(16)}102030`;
    const b = `${'f'.repeat(15)}0405060`;
    const c = `${'0'.repeat(16)}a0b0c0`;
    expect(combineSignatures([a, b, c]).split('.')).toEqual([`${'f'.repeat(15)}0506070`, a, b, c]);
  });

  it('keeps each distinct photo once', async () => {
    const a = `${'1'.repeat(16)}aabbcc`;
    expect(combineSignatures([a, a, a])).toBe(a);
  });
});
