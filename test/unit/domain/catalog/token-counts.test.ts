/**
 * The reservation is the most a request can cost (functions/domain/catalog/pricing.ts, ceilingPrice), and
 * the settlement never charges more (settlement): the token counts it is computed from are OpenAI's
 * published ones (token-counts.ts), what a provider reports above them is the operator's loss, and a
 * token-metered run without usage settles at the reservation.
 */
import { BASE_MODELS, findBaseModel } from '../../../../functions/domain/catalog/catalog';
import {
  type CeilingInputs,
  ceilingPrice,
  finalPrice,
  floorPrice,
  type PricedRequest,
  settlement,
} from '../../../../functions/domain/catalog/pricing';
import {
  GPT_IMAGE_2_OUTPUT_TOKENS,
  GPT_IMAGE_25_OUTPUT_TOKENS,
  gptImageOutputTokens,
  maxOutputTokensPerImage,
} from '../../../../functions/domain/catalog/token-counts';

const request = (
  baseModel: string,
  {
    quality,
    n = 1,
    width = 1024,
    height = 1024,
  }: { quality?: string; n?: number; width?: number; height?: number } = {},
): PricedRequest => ({
  operation: 'generate',
  output: { baseModel, resolution: '1K', width, height, ...(quality && { quality: quality as 'high' }) },
  numOutputImages: n,
});
const nothingSent: CeilingInputs = { recognisable: 0, sent: { promptBytes: 0, images: 0 } };
const usage = (outputTokens: number, extra: Record<string, unknown> = {}) => ({
  outputTokens,
  megapixels: 0,
  ...extra,
});
const tokenPricing = (id: string) => {
  const pricing = findBaseModel(id)?.pricing;
  if (pricing?.metering !== 'tokens') throw new Error(`${id} is not token-metered`);
  return pricing;
};

describe("OpenAI's published output-token counts (gpt-image-2)", () => {
  it.each([
    ['low', 1024, 1024, 196],
    ['medium', 1024, 1024, 1756],
    ['high', 1024, 1024, 7024],
    ['high', 1536, 1024, 5488],
    ['high', 1024, 1536, 5488],
  ] as const)('%s %ix%i is %i tokens, as OpenAI publishes it', (quality, width, height, tokens) => {
    expect(gptImageOutputTokens(GPT_IMAGE_2_OUTPUT_TOKENS, quality, width, height)).toBe(tokens);
  });

  it('bounds every size the provider may be asked for, from the smallest to the largest, at every quality', () => {
    for (const rule of [GPT_IMAGE_2_OUTPUT_TOKENS, GPT_IMAGE_25_OUTPUT_TOKENS])
      for (const quality of Object.keys(rule.qualityFactors) as 'high'[])
        for (const [width, height] of [
          [1024, 1024],
          [1536, 1024],
          [1024, 576],
          [2048, 1152],
          [3840, 2160],
          [2160, 3840],
          [1344, 576],
          [1488, 496],
        ])
          expect(maxOutputTokensPerImage(rule, quality, width, height)).toBeGreaterThanOrEqual(
            gptImageOutputTokens(rule, quality, width, height),
          );
  });

  it('bounds `auto` (the provider chooses) by the highest quality the model takes', () => {
    expect(maxOutputTokensPerImage(GPT_IMAGE_2_OUTPUT_TOKENS, 'auto', 1024, 1024)).toBe(
      maxOutputTokensPerImage(GPT_IMAGE_2_OUTPUT_TOKENS, 'high', 1024, 1024),
    );
    expect(maxOutputTokensPerImage(GPT_IMAGE_25_OUTPUT_TOKENS, undefined, 1024, 1024)).toBe(
      maxOutputTokensPerImage(GPT_IMAGE_25_OUTPUT_TOKENS, 'max', 1024, 1024),
    );
  });
});

describe('the ceiling (the reservation)', () => {
  it('is the flat price per image, plus the surcharge of every recognisable candidate in every output', () => {
    expect(ceilingPrice(request('base-c-2', { n: 2 }), nothingSent)).toBe(floorPrice(request('base-c-2', { n: 2 })));
    expect(ceilingPrice(request('base-c-2', { n: 2 }), { ...nothingSent, recognisable: 3 })).toBe(
      floorPrice(request('base-c-2', { n: 2 })) + 2 * 3 * 30_000,
    );
  });

  it('is 0.15 per enhance or remix image when a candidate may be recognised, 0.12 otherwise', () => {
    expect(ceilingPrice({ operation: 'remix', numOutputImages: 2 }, nothingSent)).toBe(240_000);
    expect(ceilingPrice({ operation: 'enhance', numOutputImages: 2 }, { ...nothingSent, recognisable: 2 })).toBe(
      300_000,
    );
  });

  it('is, on a token-metered model, the published output tokens × the count, plus the input tokens at their rates', () => {
    const pricing = tokenPricing('base-b-2');
    const perImage = maxOutputTokensPerImage(GPT_IMAGE_2_OUTPUT_TOKENS, 'high', 1024, 1024);
    const sent = { promptBytes: 100, images: 2 };
    const text = (100 + 32) * 4;
    const image = 2 * 1_536 * 4;
    expect(ceilingPrice(request('base-b-2', { quality: 'high', n: 4 }), { recognisable: 0, sent })).toBe(
      Math.ceil(
        (4 * perImage * pricing.perThousandOutputTokensMicros +
          text * pricing.perThousandInputTextTokensMicros +
          image * pricing.perThousandInputImageTokensMicros) /
          1000,
      ),
    );
  });

  it('covers the most any reported usage within the published counts can cost, identity included', () => {
    const priced = request('base-b-2', { quality: 'high', n: 4 });
    const inputs = { recognisable: 1, sent: { promptBytes: 40, images: 1 } };
    const ceiling = ceilingPrice(priced, inputs);
    const worst = finalPrice(priced, {
      usage: usage(4 * gptImageOutputTokens(GPT_IMAGE_2_OUTPUT_TOKENS, 'high', 1024, 1024), {
        inputTextTokens: 4 * (40 + 32),
        inputImageTokens: 4 * 1_536,
      }),
      knownSubjects: { prf_a: 4 },
    });
    expect(worst).toBeLessThanOrEqual(ceiling);
  });

  it('is never below the floor of any model', () => {
    for (const model of BASE_MODELS) {
      const priced = request(model.id, { quality: 'low', width: 1024, height: 768 });
      expect(ceilingPrice(priced, nothingSent)).toBeGreaterThanOrEqual(floorPrice(priced));
    }
  });
});

describe('the settlement', () => {
  const priced = request('base-b-2', { quality: 'high' });
  const reserved = 300_000;

  it('charges the price when it is within the reservation, and releases the rest', () => {
    expect(settlement(priced, { usage: usage(5_000), knownSubjects: {} }, reserved)).toEqual({
      chargedMicros: 200_000,
      pricedMicros: 200_000,
      unbilledMicros: 0,
      usageMissing: false,
    });
  });

  it('never charges more than the reservation: the rest is unbilled (the operator’s loss)', () => {
    expect(settlement(priced, { usage: usage(10_000), knownSubjects: { prf_a: 1 } }, reserved)).toEqual({
      chargedMicros: reserved,
      pricedMicros: 430_000,
      unbilledMicros: 130_000,
      usageMissing: false,
    });
  });

  it('settles a token-metered run without usage at the reservation (fail closed)', () => {
    expect(settlement(priced, { usage: usage(0, { tokensMissing: true }), knownSubjects: {} }, reserved)).toEqual({
      chargedMicros: reserved,
      pricedMicros: null,
      unbilledMicros: 0,
      usageMissing: true,
    });
  });

  it('prices a flat model as before even when its engine reported no tokens', () => {
    const flat = request('base-c-2');
    expect(
      settlement(flat, { usage: usage(0, { tokensMissing: true }), knownSubjects: {} }, 60_000 + 30_000),
    ).toMatchObject({ chargedMicros: floorPrice(flat), usageMissing: false });
  });

  it('bills input tokens at the model’s input rates', () => {
    const pricing = tokenPricing('base-b-2');
    const price = finalPrice(priced, {
      usage: usage(1_000, { inputTextTokens: 2_000, inputImageTokens: 3_000 }),
      knownSubjects: {},
    });
    expect(price).toBe(
      Math.ceil(
        (1_000 * pricing.perThousandOutputTokensMicros +
          2_000 * pricing.perThousandInputTextTokensMicros +
          3_000 * pricing.perThousandInputImageTokensMicros) /
          1000,
      ),
    );
  });
});
