/**
 * What a provider adapter asks for and what it hands back (functions/adapters/engine/providers/fit.ts):
 * the nearest offered aspect ratio or size, and an output fitted to exactly the size and format the
 * engine contract promises.
 */
import sharp from 'sharp';
import {
  fitImage,
  megapixelsOf,
  nearestAspectRatio,
  nearestSize,
} from '../../../../../functions/adapters/engine/providers/fit';

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47]);
const JPEG_MAGIC = Buffer.from([0xff, 0xd8, 0xff]);

const image = (width: number, height: number, format: 'png' | 'jpeg', background = '#336699') =>
  sharp({ create: { width, height, channels: 3, background } })
    [format]()
    .toBuffer();

const sizeOf = async (data: Buffer) => {
  const meta = await sharp(data).metadata();
  return { width: meta.width, height: meta.height, format: meta.format, orientation: meta.orientation };
};

describe('fitting an output', () => {
  it('hands back the very same bytes when size and format are already right', async () => {
    const png = await image(16, 12, 'png');
    expect(await fitImage(png, 16, 12, 'png')).toBe(png);
    const jpg = await image(16, 12, 'jpeg');
    expect(await fitImage(jpg, 16, 12, 'jpg')).toBe(jpg);
  });

  it('re-encodes a JPEG as PNG at the same size', async () => {
    const fitted = await fitImage(await image(16, 12, 'jpeg'), 16, 12, 'png');
    expect(fitted.subarray(0, 4)).toEqual(PNG_MAGIC);
    expect(await sizeOf(fitted)).toMatchObject({ width: 16, height: 12, format: 'png' });
  });

  it('re-encodes a PNG as JPEG at the same size', async () => {
    const fitted = await fitImage(await image(16, 12, 'png'), 16, 12, 'jpg');
    expect(fitted.subarray(0, 3)).toEqual(JPEG_MAGIC);
    expect(await sizeOf(fitted)).toMatchObject({ width: 16, height: 12, format: 'jpeg' });
  });

  it('covers a different shape exactly, cropping rather than stretching', async () => {
    // Left half red, right half blue, 20×10; fitted to 10×10 the centre keeps both halves.
    const halves = await sharp({ create: { width: 20, height: 10, channels: 3, background: '#ff0000' } })
      .composite([
        {
          input: await sharp({ create: { width: 10, height: 10, channels: 3, background: '#0000ff' } })
            .png()
            .toBuffer(),
          left: 10,
          top: 0,
        },
      ])
      .png()
      .toBuffer();
    const fitted = await fitImage(halves, 10, 10, 'png');
    expect(await sizeOf(fitted)).toMatchObject({ width: 10, height: 10 });
    const { data, info } = await sharp(fitted).raw().toBuffer({ resolveWithObject: true });
    const pixel = (x: number) => [...data.subarray(x * info.channels, x * info.channels + 3)];
    expect(pixel(0)).toEqual([255, 0, 0]);
    expect(pixel(9)).toEqual([0, 0, 255]);
  });

  it('flattens transparency onto white for a JPEG', async () => {
    const transparent = await sharp({
      create: { width: 4, height: 4, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
    })
      .png()
      .toBuffer();
    const fitted = await fitImage(transparent, 4, 4, 'jpg');
    const { data } = await sharp(fitted).raw().toBuffer({ resolveWithObject: true });
    expect([...data.subarray(0, 3)].every((channel) => channel >= 250)).toBe(true);
  });

  it('applies an EXIF rotation, so the size is the one a viewer sees', async () => {
    // Stored 12×16 with orientation 6: shown 16×12.
    const rotated = await sharp({ create: { width: 12, height: 16, channels: 3, background: '#336699' } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const fitted = await fitImage(rotated, 16, 12, 'jpg');
    expect(fitted).not.toBe(rotated);
    const fittedSize = await sizeOf(fitted);
    expect(fittedSize).toMatchObject({ width: 16, height: 12 });
    expect(fittedSize.orientation ?? 1).toBe(1);
  });

  it('does nothing once aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('stopped'));
    await expect(fitImage(await image(4, 4, 'png'), 8, 8, 'png', controller.signal)).rejects.toThrow('stopped');
  });
});

describe('the nearest aspect ratio offered', () => {
  const offered = ['1:1', '4:3', '3:4', '16:9', '9:16'];

  it('picks the closest shape', () => {
    expect(nearestAspectRatio(1920, 1080, offered)).toBe('16:9');
    expect(nearestAspectRatio(1000, 1000, offered)).toBe('1:1');
    expect(nearestAspectRatio(1000, 1400, offered)).toBe('3:4');
  });

  it('compares on a log scale, so landscape and portrait are treated alike', () => {
    // 2.2:1 is nearer 1:1 than 4:1 in plain ratios, nearer 4:1 in log ratios; the same for portrait.
    expect(nearestAspectRatio(2200, 1000, ['1:1', '4:1'])).toBe('4:1');
    expect(nearestAspectRatio(1000, 2200, ['1:1', '1:4'])).toBe('1:4');
  });

  it('keeps the first of two equally near', () => {
    expect(nearestAspectRatio(1000, 1000, ['4:3', '3:4'])).toBe('4:3');
  });

  it('falls back to 1:1 when nothing is offered', () => {
    expect(nearestAspectRatio(1600, 900, [])).toBe('1:1');
  });
});

describe('the nearest size offered', () => {
  const square = (side: number) => ({ width: side, height: side });

  it('picks the closest shape first', () => {
    const offered = [square(1024), { width: 1536, height: 1024 }, { width: 1024, height: 1536 }];
    expect(nearestSize(1600, 900, offered)).toEqual({ width: 1536, height: 1024 });
    expect(nearestSize(900, 1600, offered)).toEqual({ width: 1024, height: 1536 });
  });

  it('of that shape, the smallest at least as large, so fitting shrinks', () => {
    expect(nearestSize(1000, 1000, [square(2048), square(512), square(1024)])).toEqual(square(1024));
  });

  it('else the largest of that shape', () => {
    expect(nearestSize(3000, 3000, [square(1024), square(2048), square(512)])).toEqual(square(2048));
  });

  it('is the size asked when nothing is offered', () => {
    expect(nearestSize(640, 480, [])).toEqual({ width: 640, height: 480 });
  });
});

describe('megapixels', () => {
  it('counts every pixel of every image, 1 MP being a million pixels', () => {
    expect(megapixelsOf(1024, 1024, 2)).toBe(2.097152);
    expect(megapixelsOf(1000, 500, 3)).toBe(1.5);
  });
});
