import { decodeShrinkFor, MIN_REGION_PX } from '../../../../functions/adapters/faces/face-geometry';

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
