import {
  ceilingPrice,
  finalPrice,
  floorPrice,
  type PricedRequest,
  settlement,
  TRAINING_PRICE_MICROS,
} from '../../../../functions/domain/catalog/pricing';
import type { EngineUsage } from '../../../../functions/domain/engine/engine';

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

  it('prices enhance and remix per output by what is recognised in it, not by the largest count', () => {
    // Two profiles, each recognised in a different output: both outputs show a profile (0.30, not 0.27).
    const faces = [
      { outputIndex: 0, billed: true },
      { outputIndex: 1, billed: true },
    ];
    expect(
      finalPrice(remix(2), { usage: usage(), knownSubjects: { prf_a: 1, prf_b: 1 }, recognizedFaces: faces }),
    ).toBe(300_000);
    // Two profiles in one output: that output once at 0.15, the other at 0.12.
    const together = [
      { outputIndex: 0, billed: true },
      { outputIndex: 0, billed: true },
    ];
    const outcome = { usage: usage(), knownSubjects: { prf_a: 1, prf_b: 1 }, recognizedFaces: together };
    expect(finalPrice({ operation: 'enhance', numOutputImages: 2 }, outcome)).toBe(270_000);
    // An animal's match is reported, not billed: no profile price for it.
    const cat = { usage: usage(), knownSubjects: {}, recognizedFaces: [{ outputIndex: 0, billed: false }] };
    expect(finalPrice(remix(1), cat)).toBe(120_000);
  });
});

describe('identity retries are priced', () => {
  const retried = (outputs: number, more: EngineUsage = usage()) => ({ outputs, usage: more });

  it('charges each output made again at the flat tier price, the surcharge only on what is delivered', () => {
    const outcome = { usage: usage(), knownSubjects: { prf_a: 1 }, retries: retried(2) };
    expect(finalPrice(edit('base-c-2', { resolution: '4K', n: 1 }), outcome)).toBe(3 * 160_000 + 30_000);
  });

  it('a retry request that made outputs again costs more than the same request in report mode', () => {
    const request = edit('base-c-2', { resolution: '4K', n: 4 });
    const report = finalPrice(request, nobody);
    const retry = finalPrice(request, { ...nobody, retries: retried(8) });
    expect(retry).toBe(report + 8 * 160_000);
  });

  it('charges enhance and remix 0.12 per output made again', () => {
    const outcome = { usage: usage(), knownSubjects: {}, recognizedFaces: [], retries: retried(2) };
    expect(finalPrice(remix(1), outcome)).toBe(120_000 + 2 * 120_000);
  });

  it('prices a metered model from the usage of every call, never below the floor per output made', () => {
    // base-b-2: $40 per 1M output tokens; 1000 delivered + 2000 retried tokens.
    const outcome = { usage: usage(1000), knownSubjects: {}, retries: retried(2, usage(2000)) };
    expect(finalPrice(edit('base-b-2'), outcome)).toBe(120_000);
    const cheap = { usage: usage(10), knownSubjects: {}, retries: retried(2, usage(20)) };
    expect(finalPrice(edit('base-b-2'), cheap)).toBe(3 * 20_000);
    // base-a-2-pro: megapixels of every output made.
    const mp = { usage: usage(0, 1), knownSubjects: {}, retries: retried(1, usage(0, 1)) };
    expect(finalPrice(edit('base-a-2-pro', { width: 1000, height: 1000 }), mp)).toBe(2 * 120_000);
  });

  it('a retry call without its token counts settles at the reservation (fail closed)', () => {
    const outcome = {
      usage: usage(1000),
      knownSubjects: {},
      retries: retried(1, { ...usage(1000), tokensMissing: true }),
    };
    expect(settlement(edit('base-b-2'), outcome, 500_000)).toMatchObject({
      chargedMicros: 500_000,
      usageMissing: true,
    });
  });

  it('reserves every output retries may make again, and settlement never exceeds it', () => {
    const sent = { promptBytes: 100, images: 1 };
    const request = edit('base-c-2', { resolution: '2K', n: 2 });
    const ceiling = ceilingPrice(request, { recognisable: 1, sent, maxRetriedOutputs: 4 });
    expect(ceiling).toBe(6 * 120_000 + 2 * 30_000);
    const worst = { usage: usage(), knownSubjects: { prf_a: 2 }, retries: retried(4) };
    expect(settlement(request, worst, ceiling)).toMatchObject({ chargedMicros: ceiling, unbilledMicros: 0 });
    expect(ceilingPrice(remix(2), { recognisable: 1, sent, maxRetriedOutputs: 4 })).toBe(2 * 150_000 + 4 * 120_000);
    // Token-metered: output and input tokens of every call that may be made.
    const tokens = edit('base-b-2', { resolution: '1K', n: 1 });
    const once = ceilingPrice(tokens, { recognisable: 0, sent });
    expect(ceilingPrice(tokens, { recognisable: 0, sent, maxRetriedOutputs: 2 })).toBe(3 * once);
  });
});
