import {
  decodeShrinkFor,
  detectorInput,
  MIN_REGION_PX,
  sampleRegion,
  toLuma,
} from '../../../../functions/adapters/faces/face-geometry';

describe('decodeShrinkFor: how much smaller an image may be decoded for its faces', () => {
  it('keeps full resolution while quartering would leave the smallest face under the minimum', () => {
    expect(decodeShrinkFor(4 * MIN_REGION_PX - 1)).toBe(1);
    expect(decodeShrinkFor(100)).toBe(1);
  });

  it('never halves: sharp would decode the whole image and then resample it, slower than the whole decode', () => {
    expect(decodeShrinkFor(2 * MIN_REGION_PX)).toBe(1);
    expect(decodeShrinkFor(3 * MIN_REGION_PX)).toBe(1);
  });

  it('quarters or divides by 8 while the smallest face keeps the minimum', () => {
    expect(decodeShrinkFor(4 * MIN_REGION_PX)).toBe(4);
    expect(decodeShrinkFor(8 * MIN_REGION_PX)).toBe(8);
  });

  it('never divides by more than 8 (what a JPEG can be decoded at)', () => {
    expect(decodeShrinkFor(100 * MIN_REGION_PX)).toBe(8);
  });
});

describe('sampleRegion: a rotated square of the image, bilinear', () => {
  const width = 40;
  const height = 30;
  const data = Uint8Array.from({ length: width * height * 3 }, (_, index) => (index * 37) % 256);
  const image = { data, width, height };
  /** The definition, one tap at a time, black outside the image. */
  const reference = (
    region: { centreX: number; centreY: number; side: number; angleRadians: number },
    size: number,
  ) => {
    const at = (x: number, y: number, c: number) =>
      x < 0 || y < 0 || x >= width || y >= height ? 0 : data[(y * width + x) * 3 + c];
    const supersample = Math.max(1, Math.min(2, Math.round(region.side / size)));
    const step = region.side / size;
    const out: number[] = [];
    for (let v = 0; v < size; v += 1)
      for (let u = 0; u < size; u += 1)
        for (let c = 0; c < 3; c += 1) {
          let sum = 0;
          for (let sy = 0; sy < supersample; sy += 1)
            for (let sx = 0; sx < supersample; sx += 1) {
              const dx = u * step + ((sx + 0.5) * step) / supersample - region.side / 2;
              const dy = v * step + ((sy + 0.5) * step) / supersample - region.side / 2;
              const x = region.centreX + dx * Math.cos(region.angleRadians) - dy * Math.sin(region.angleRadians) - 0.5;
              const y = region.centreY + dx * Math.sin(region.angleRadians) + dy * Math.cos(region.angleRadians) - 0.5;
              const x0 = Math.floor(x);
              const y0 = Math.floor(y);
              const fx = x - x0;
              const fy = y - y0;
              sum +=
                (1 - fx) * (1 - fy) * at(x0, y0, c) +
                fx * (1 - fy) * at(x0 + 1, y0, c) +
                (1 - fx) * fy * at(x0, y0 + 1, c) +
                fx * fy * at(x0 + 1, y0 + 1, c);
            }
          out.push(sum / (supersample * supersample));
        }
    return out;
  };

  it.each([
    ['inside, level', { centreX: 20, centreY: 15, side: 16, angleRadians: 0 }, 8],
    ['inside, turned and supersampled', { centreX: 20, centreY: 15, side: 20, angleRadians: 0.3 }, 10],
    ['over the edge (black outside)', { centreX: 3, centreY: 28, side: 14, angleRadians: -0.5 }, 7],
  ])('%s: equals the tap-by-tap definition', (_, region, size) => {
    const sampled = Array.from(sampleRegion(image, region, size));
    const expected = reference(region, size);
    expect(sampled).toHaveLength(expected.length);
    for (const [index, value] of sampled.entries()) expect(value).toBeCloseTo(expected[index] ?? Number.NaN, 3);
  });
});

describe('detectorInput: the detector’s bytes as floats in [-1, 1]', () => {
  it('maps 0 to -1, 255 to 1 and every value in between linearly, in order', () => {
    const pixels = Uint8Array.from([0, 255, 51, 204, 1]);
    const input = detectorInput(pixels);
    expect(input).toBeInstanceOf(Float32Array);
    expect(Array.from(input)).toEqual([-1, 1, -0.6, 0.6, 1 / 127.5 - 1].map(Math.fround));
  });

  it('is as long as its input (256 × 256 × 3 for the detector)', () => {
    expect(detectorInput(new Uint8Array(256 * 256 * 3))).toHaveLength(196_608);
  });
});

describe('toLuma: the embedding crop made grey', () => {
  it('puts each pixel’s BT.601 luma in all three channels, in place', () => {
    const crop = Float32Array.from([255, 0, 0, 0, 255, 0, 0, 0, 255, 10, 20, 30]);
    const grey = toLuma(crop);
    expect(grey).toBe(crop);
    const expected = [0.299 * 255, 0.587 * 255, 0.114 * 255, 0.299 * 10 + 0.587 * 20 + 0.114 * 30];
    expected.forEach((luma, pixel) => {
      for (let channel = 0; channel < 3; channel += 1) expect(grey[3 * pixel + channel]).toBeCloseTo(luma, 3);
    });
  });

  it('leaves a grey pixel as it was', () => {
    expect(Array.from(toLuma(Float32Array.from([77, 77, 77])))).toEqual([77, 77, 77]);
  });
});
