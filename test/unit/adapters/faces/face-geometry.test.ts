import { decodeShrinkFor, detectorInput, MIN_REGION_PX } from '../../../../functions/adapters/faces/face-geometry';

describe('decodeShrinkFor: how much smaller an image may be decoded for its faces', () => {
  it('keeps full resolution while halving would leave the smallest face under the minimum', () => {
    expect(decodeShrinkFor(2 * MIN_REGION_PX - 1)).toBe(1);
    expect(decodeShrinkFor(100)).toBe(1);
  });

  it('halves, quarters or divides by 8 while the smallest face keeps the minimum', () => {
    expect(decodeShrinkFor(2 * MIN_REGION_PX)).toBe(2);
    expect(decodeShrinkFor(4 * MIN_REGION_PX)).toBe(4);
    expect(decodeShrinkFor(8 * MIN_REGION_PX)).toBe(8);
  });

  it('never divides by more than 8 (what a JPEG can be decoded at)', () => {
    expect(decodeShrinkFor(100 * MIN_REGION_PX)).toBe(8);
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
