import {
  finalPrice,
  floorPrice,
  type PricedRequest,
  TRAINING_PRICE_MICROS,
} from '../../../../functions/domain/catalog/pricing';

type EditOverrides = Partial<{ resolution: '1K' | '2K' | '4K'; width: number; height: number; n: number }>;
const edit = (baseModel: string, overrides: EditOverrides = {}): PricedRequest => ({
  operation: 'edit',
  output: {
    baseModel,
    resolution: overrides.resolution ?? '1K',
    width: overrides.width ?? 1024,
    height: overrides.height ?? 768,
  },
  numOutputImages: overrides.n ?? 1,
});
const remix = (n: number): PricedRequest => ({ operation: 'remix', numOutputImages: n });
const usage = (outputTokens = 0, megapixels = 0) => ({ outputTokens, megapixels });
const nobody = { usage: usage(), knownSubjects: {} };

describe('pricing', () => {
  it('charges 2.90 for standard training and 1.49 for fast', () => {
    expect(TRAINING_PRICE_MICROS).toEqual({ standard: 2_900_000, fast: 1_490_000 });
  });

  it('reserves the tier price per image on a flat model', () => {
    expect(floorPrice(edit('base-c-2', { resolution: '2K', n: 3 }))).toBe(360_000);
  });

  it('settles a flat model at the floor when no identity is recognised', () => {
    expect(finalPrice(edit('base-c-2', { n: 2 }), nobody)).toBe(160_000);
  });

  it('adds the identity surcharge per recognised occurrence', () => {
    const outcome = { usage: usage(), knownSubjects: { prf_a: 2, prf_b: 1 } };
    expect(finalPrice(edit('base-c-2', { n: 2 }), outcome)).toBe(160_000 + 3 * 30_000);
  });

  it('ignores subjects counted zero times', () => {
    expect(finalPrice(edit('base-c-2'), { usage: usage(), knownSubjects: { prf_a: 0 } })).toBe(80_000);
  });

  it('reserves the per-image floor on a token-metered model', () => {
    expect(floorPrice(edit('base-b-2', { resolution: '4K', n: 2 }))).toBe(40_000);
  });

  it('settles a token-metered model from its output tokens', () => {
    expect(finalPrice(edit('base-b-2'), { usage: usage(1290), knownSubjects: {} })).toBe(51_600);
  });

  it('never settles a metered model below its floor', () => {
    expect(finalPrice(edit('base-b-2', { n: 2 }), { usage: usage(100), knownSubjects: {} })).toBe(40_000);
  });

  it('reserves the price of the requested size on a megapixel-metered model', () => {
    expect(floorPrice(edit('base-a-2-pro', { width: 1024, height: 768, n: 2 }))).toBe(2 * 94_372);
  });

  it('applies the per-image floor to small megapixel outputs', () => {
    expect(floorPrice(edit('base-a-2-pro', { width: 512, height: 512 }))).toBe(60_000);
  });

  it('settles a megapixel-metered model from the reported megapixels, rounded up to the micro', () => {
    expect(
      finalPrice(edit('base-a-2-pro', { width: 2048, height: 2048 }), {
        usage: usage(0, 4.2000001),
        knownSubjects: {},
      }),
    ).toBe(504_001);
  });

  it('does not round a floating-point residue up', () => {
    expect(finalPrice(edit('base-a-2-pro'), { usage: usage(0, 1.1 + 2.2), knownSubjects: {} })).toBe(396_000);
  });

  it('reserves 0.12 per remix or enhance image', () => {
    expect(floorPrice(remix(3))).toBe(360_000);
    expect(floorPrice({ operation: 'enhance', numOutputImages: 1 })).toBe(120_000);
  });

  it('settles remix at 0.15 per image showing a recognised profile', () => {
    expect(finalPrice(remix(2), { usage: usage(), knownSubjects: { prf_a: 2 } })).toBe(300_000);
  });

  it('charges 0.15 only for as many images as a profile provably appears in', () => {
    expect(finalPrice(remix(3), { usage: usage(), knownSubjects: { prf_a: 1 } })).toBe(150_000 + 2 * 120_000);
    expect(finalPrice(remix(2), { usage: usage(), knownSubjects: { prf_a: 2, prf_b: 2 } })).toBe(300_000);
  });

  it('settles remix without recognition at the floor', () => {
    expect(finalPrice(remix(2), nobody)).toBe(floorPrice(remix(2)));
  });
});
