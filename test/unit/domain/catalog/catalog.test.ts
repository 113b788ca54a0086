import {
  BASE_MODELS,
  type BaseModel,
  DEFAULT_BASE_MODEL,
  findBaseModel,
  PINNED_MODEL,
  PINNED_PRICES,
} from '../../../../functions/domain/catalog/catalog';

const ids = (test: (model: BaseModel) => boolean) => BASE_MODELS.filter(test).map((model) => model.id);
const BASE_B_FAMILY = ['base-b-2', 'base-b-2.5-flare', 'base-b-2.5-sunburst'];

const pricesOf = (model: BaseModel): number[] => {
  const { pricing } = model;
  const prices =
    pricing.metering === 'flat'
      ? Object.values(pricing.perImageMicros)
      : pricing.metering === 'tokens'
        ? [pricing.perThousandOutputTokensMicros, pricing.floorPerImageMicros]
        : [pricing.perMegapixelMicros, pricing.floorPerImageMicros];
  return [...prices, model.identitySurchargeMicros];
};

describe('base model catalog', () => {
  it('lists the eight models of the spec, each once', () => {
    expect(BASE_MODELS.map((model) => model.id).sort()).toEqual([
      'base-a-2',
      'base-a-2-pro',
      'base-b-2',
      'base-b-2.5-flare',
      'base-b-2.5-sunburst',
      'base-c-2',
      'base-d-2',
      'base-e-5-pro',
    ]);
  });

  it('defaults to base-c-2 at 1K, 2K and 4K', () => {
    expect(DEFAULT_BASE_MODEL).toBe('base-c-2');
    expect(findBaseModel('base-c-2')?.resolutions).toEqual(['1K', '2K', '4K']);
  });

  it('offers 4K only on base-c-2 and the base-b family', () => {
    expect(ids((model) => model.resolutions.includes('4K'))).toEqual(['base-c-2', ...BASE_B_FAMILY]);
  });

  it('takes quality and an exact size only on the base-b family', () => {
    expect(ids((model) => model.qualities.length > 0)).toEqual(BASE_B_FAMILY);
    expect(ids((model) => model.exactSize)).toEqual(BASE_B_FAMILY);
  });

  it('offers xhigh and max only on the two 2.5 variants', () => {
    expect(ids((model) => model.qualities.includes('xhigh'))).toEqual(['base-b-2.5-flare', 'base-b-2.5-sunburst']);
    expect(ids((model) => model.qualities.includes('max'))).toEqual(['base-b-2.5-flare', 'base-b-2.5-sunburst']);
  });

  it('offers auto aspect ratio only on base-c-2 and the base-b family', () => {
    expect(ids((model) => model.autoAspectRatio)).toEqual(['base-c-2', ...BASE_B_FAMILY]);
  });

  it('lets base-e-5-pro generate but not edit', () => {
    expect(findBaseModel('base-e-5-pro')?.operations).toEqual(['generate']);
  });

  it('meters base-b by tokens and base-a-2-pro by megapixels', () => {
    expect(ids((model) => model.pricing.metering === 'tokens')).toEqual(BASE_B_FAMILY);
    expect(ids((model) => model.pricing.metering === 'megapixels')).toEqual(['base-a-2-pro']);
  });

  it('prices every tier a flat model offers', () => {
    for (const model of BASE_MODELS) {
      if (model.pricing.metering !== 'flat') continue;
      expect(Object.keys(model.pricing.perImageMicros).sort()).toEqual([...model.resolutions].sort());
    }
  });

  it('holds every price as a positive integer of micro-USD', () => {
    const prices = [
      ...BASE_MODELS.flatMap(pricesOf),
      PINNED_PRICES.perImageMicros,
      PINNED_PRICES.perImageWithProfileMicros,
    ];
    for (const price of prices) expect(Number.isSafeInteger(price) && price > 0).toBe(true);
  });

  it('pins enhance and remix to base-c-2 at 2K for 0.12, or 0.15 with a recognised profile', () => {
    expect(PINNED_MODEL).toEqual({ baseModel: 'base-c-2', resolution: '2K' });
    expect(PINNED_PRICES).toEqual({ perImageMicros: 120_000, perImageWithProfileMicros: 150_000 });
  });
});
