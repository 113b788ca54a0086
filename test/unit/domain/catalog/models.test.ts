/**
 * GET /v2/service/models as a client reads it (functions/domain/catalog/models.ts): every catalog model with
 * what it accepts and costs, what serves it in this deployment, the names it also answers to, and the
 * pinned model of enhance and remix.
 */

import { ROUTE_TARGETS } from '../../../../functions/deployment/providers';
import { BASE_MODELS, DEFAULT_BASE_MODEL } from '../../../../functions/domain/catalog/catalog';
import { parseModelRoutes as parseRoutes } from '../../../../functions/domain/catalog/model-routes';
import { type ModelBody, modelList } from '../../../../functions/domain/catalog/models';

const parseModelRoutes = (text: string | undefined, name?: string) => parseRoutes(text, ROUTE_TARGETS, name);

const modelOf = (models: ModelBody[], id: string): ModelBody => {
  const model = models.find((candidate) => candidate.id === id);
  if (!model) throw new Error(`${id} is not listed`);
  return model;
};

const sandbox = () => modelList({}, {}, 'sandbox');

describe('the models', () => {
  it('lists every catalog model once, in catalog order, the default marked', () => {
    const list = sandbox();
    expect(list.default_model).toBe(DEFAULT_BASE_MODEL);
    expect(list.models.map((model) => model.id)).toEqual(BASE_MODELS.map((model) => model.id));
    expect(list.models.filter((model) => model.default).map((model) => model.id)).toEqual([DEFAULT_BASE_MODEL]);
  });

  it.each(BASE_MODELS.map((model) => [model.id, model] as const))(
    'shows %s with the operations, tiers, qualities and size of the catalog',
    (id, catalog) => {
      const model = modelOf(sandbox().models, id);
      expect(model.operations).toEqual(catalog.operations);
      expect(model.resolutions).toEqual(catalog.resolutions);
      expect(model.qualities).toEqual(catalog.qualities);
      expect(model.size).toBe(catalog.exactSize);
      expect(model.aspect_ratios.includes('auto')).toBe(catalog.autoAspectRatio);
      expect(model.pricing.metering).toBe(catalog.pricing.metering);
    },
  );

  it('shows a flat-priced model with auto aspect ratio in full', () => {
    expect(modelOf(sandbox().models, 'base-c-2')).toEqual({
      id: 'base-c-2',
      default: true,
      operations: ['edit', 'generate'],
      resolutions: ['1K', '2K', '4K'],
      aspect_ratios: ['auto', '1:1', '3:4', '4:3', '9:16', '16:9'],
      default_aspect_ratio: 'auto',
      qualities: [],
      size: false,
      pricing: {
        metering: 'flat',
        per_image: {
          '1K': { usd: '0.08', micro_usd: 80_000 },
          '2K': { usd: '0.12', micro_usd: 120_000 },
          '4K': { usd: '0.16', micro_usd: 160_000 },
        },
        identity_surcharge: { usd: '0.03', micro_usd: 30_000 },
      },
      served_by: 'sandbox',
      aliases: [],
    });
  });

  it('offers only the tiers a model has, and 4:3 by default without auto', () => {
    const model = modelOf(sandbox().models, 'base-d-2');
    expect(model.pricing).toEqual({
      metering: 'flat',
      per_image: { '1K': { usd: '0.05', micro_usd: 50_000 }, '2K': { usd: '0.10', micro_usd: 100_000 } },
      identity_surcharge: { usd: '0.03', micro_usd: 30_000 },
    });
    expect(model.aspect_ratios).toEqual(['1:1', '3:4', '4:3', '9:16', '16:9']);
    expect(model.default_aspect_ratio).toBe('4:3');
  });

  it('prices a token-metered model per thousand output tokens and per thousand input tokens, with a floor', () => {
    const model = modelOf(sandbox().models, 'base-b-2');
    expect(model.pricing).toEqual({
      metering: 'tokens',
      per_thousand_output_tokens: { usd: '0.04', micro_usd: 40_000 },
      per_thousand_input_text_tokens: { usd: '0.007', micro_usd: 7_000 },
      per_thousand_input_image_tokens: { usd: '0.011', micro_usd: 11_000 },
      floor_per_image: { usd: '0.02', micro_usd: 20_000 },
      identity_surcharge: { usd: '0.03', micro_usd: 30_000 },
    });
    expect(model.qualities).toEqual(['auto', 'low', 'medium', 'high']);
    expect(model.size).toBe(true);
  });

  it('prices a megapixel-metered model per megapixel with a floor', () => {
    expect(modelOf(sandbox().models, 'base-a-2-pro').pricing).toEqual({
      metering: 'megapixels',
      per_megapixel: { usd: '0.12', micro_usd: 120_000 },
      floor_per_image: { usd: '0.06', micro_usd: 60_000 },
      identity_surcharge: { usd: '0.03', micro_usd: 30_000 },
    });
  });

  it('shows a generate-only model as such', () => {
    expect(modelOf(sandbox().models, 'base-e-5-pro').operations).toEqual(['generate']);
  });
});

describe('what serves each model', () => {
  const routes = parseModelRoutes('{"base-b-2":"openai:gpt-image-2","base-d-2":"http"}');

  it('is hosted for a route to a provider, backend for a route to the HTTP engine, else the sandbox', () => {
    const { models } = modelList(routes, {}, 'sandbox');
    expect(modelOf(models, 'base-b-2').served_by).toBe('hosted');
    expect(modelOf(models, 'base-d-2').served_by).toBe('backend');
    expect(modelOf(models, 'base-c-2').served_by).toBe('sandbox');
  });

  it('is the backend for unrouted models when the default engine is HTTP', () => {
    const { models, pinned } = modelList(routes, {}, 'http');
    expect(modelOf(models, 'base-b-2').served_by).toBe('hosted');
    expect(modelOf(models, 'base-c-2').served_by).toBe('backend');
    expect(pinned.served_by).toBe('backend');
  });

  it('never shows the provider or its model name', () => {
    expect(JSON.stringify(modelList(routes, {}, 'sandbox'))).not.toMatch(/openai|gpt-image/);
  });
});

describe('aliases', () => {
  it('are listed under the model they name, sorted', () => {
    const { models } = modelList(
      {},
      { nb2: 'base-c-2', 'gpt-image-2': 'base-b-2', 'nano-banana-2': 'base-c-2' },
      'sandbox',
    );
    expect(modelOf(models, 'base-c-2').aliases).toEqual(['nano-banana-2', 'nb2']);
    expect(modelOf(models, 'base-b-2').aliases).toEqual(['gpt-image-2']);
    expect(modelOf(models, 'base-d-2').aliases).toEqual([]);
  });
});

describe('the pinned model of enhance and remix', () => {
  it('names the model, the tier and both prices', () => {
    expect(sandbox().pinned).toEqual({
      operations: ['enhance', 'remix'],
      base_model: 'base-c-2',
      resolution: '2K',
      per_image: { usd: '0.12', micro_usd: 120_000 },
      per_image_with_profile: { usd: '0.15', micro_usd: 150_000 },
      served_by: 'sandbox',
    });
  });

  it('is served by whatever serves its model', () => {
    expect(
      modelList(parseModelRoutes('{"base-c-2":"gemini:gemini-3.1-flash-image"}'), {}, 'sandbox').pinned.served_by,
    ).toBe('hosted');
  });
});
