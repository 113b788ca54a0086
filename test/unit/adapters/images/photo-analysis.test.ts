import sharp from 'sharp';
import { BLURRY_BELOW, measurePhoto } from '../../../../functions/adapters/images/photo-analysis';
import { NEAR_DUPLICATE_BITS } from '../../../../functions/domain/profiles/preflight';
import { variedPhoto } from '../../../support/photos';

const decoded = async (data: Buffer) => {
  const { width, height } = await sharp(data).metadata();
  return { data, format: 'jpeg' as const, width: width!, height: height! };
};
const distance = (a: string, b: string) =>
  [...(BigInt(`0x${a}`) ^ BigInt(`0x${b}`)).toString(2)].filter((bit) => bit === '1').length;

describe('measuring a training photo', () => {
  it('finds a varied photo sharp, in colour', async () => {
    const measures = await measurePhoto(await decoded(await variedPhoto(3)));
    expect(measures).toMatchObject({ blurry: false, greyscale: false });
    expect(measures.sharpness).toBeGreaterThan(BLURRY_BELOW);
  });

  it('finds the same photo blurred very blurry', async () => {
    expect(
      await measurePhoto(
        await decoded(
          await sharp(await variedPhoto(3))
            .blur(4)
            .jpeg()
            .toBuffer(),
        ),
      ),
    ).toMatchObject({ blurry: true });
  });

  it('finds the same photo in grey greyscale', async () => {
    expect(
      await measurePhoto(
        await decoded(
          await sharp(await variedPhoto(3))
            .greyscale()
            .jpeg()
            .toBuffer(),
        ),
      ),
    ).toMatchObject({ greyscale: true });
  });

  it('hashes a resized, recompressed copy within the near-duplicate distance, and other photos beyond it', async () => {
    const original = await measurePhoto(await decoded(await variedPhoto(3)));
    const copy = await measurePhoto(
      await decoded(
        await sharp(await variedPhoto(3))
          .resize(300)
          .jpeg({ quality: 70 })
          .toBuffer(),
      ),
    );
    const other = await measurePhoto(await decoded(await variedPhoto(4)));
    expect(distance(original.differenceHash, copy.differenceHash)).toBeLessThanOrEqual(NEAR_DUPLICATE_BITS);
    expect(distance(original.differenceHash, other.differenceHash)).toBeGreaterThan(NEAR_DUPLICATE_BITS);
  });
});
