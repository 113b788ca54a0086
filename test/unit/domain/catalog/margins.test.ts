/**
 * No model sells below what its provider charges at list prices: the catalog's prices
 * (functions/domain/catalog/catalog.ts) against the adapters' price tables (openai.ts, gemini.ts,
 * fal/families.ts), for every provider model docs/providers.md's operator-cost table routes a model to,
 * at every resolution and aspect ratio the model offers, per output image (inputs are the caller's:
 * token-metered models bill them at rates of their own, checked rate by rate).
 */
import fs from 'node:fs';
import path from 'node:path';
import { askedSize, falFamilyOf, falMegapixels } from '../../../../functions/adapters/engine/providers/fal/families';
import { GEMINI_IMAGE_PRICE_MICROS, imageSizeFor } from '../../../../functions/adapters/engine/providers/gemini/gemini';
import { OPENAI_PRICES_MICROS_PER_TOKEN } from '../../../../functions/adapters/engine/providers/openai/openai';
import {
  ASPECT_RATIOS,
  BASE_MODELS,
  findBaseModel,
  PINNED_MODEL,
  PINNED_PRICES,
} from '../../../../functions/domain/catalog/catalog';
import { resolveOutputSpec } from '../../../../functions/domain/catalog/output-spec';
import { floorPrice } from '../../../../functions/domain/catalog/pricing';

/** Each catalog model and the provider models it is routed to in docs/providers.md's operator-cost table. */
const PAIRINGS: Record<string, string[]> = {
  'base-c-2': ['gemini:gemini-3.1-flash-image', 'fal:fal-ai/nano-banana-2'],
  'base-b-2': ['openai:gpt-image-2'],
  'base-b-2.5-flare': ['openai:gpt-image-2.5-flare'],
  'base-b-2.5-sunburst': ['openai:gpt-image-2.5-sunburst'],
  'base-a-2': ['fal:fal-ai/flux-2'],
  'base-a-2-pro': ['fal:fal-ai/flux-2-pro'],
  'base-d-2': ['fal:fal-ai/qwen-image-2'],
  // fal's seedream v5: no published price (fal/families.ts), so no cost to compare with.
  'base-e-5-pro': [],
};

/** What one output image of width×height costs at the provider, inputs aside (micro-USD). */
const providerCostPerImage = (route: string, width: number, height: number): number => {
  const [provider, model = ''] = route.split(/:(.*)/s);
  if (provider === 'gemini') return GEMINI_IMAGE_PRICE_MICROS[imageSizeFor(width, height)];
  if (provider !== 'fal') throw new Error(`${route}: not priced per image`);
  const family = falFamilyOf(model);
  const { price } = family;
  if (!price) throw new Error(`${route}: no price`);
  const size = askedSize(family, width, height);
  if (price.per === 'image')
    return price.imageMicros * (size.kind === 'aspect_ratio' ? (price.tierFactor?.[size.resolution] ?? 1) : 1);
  const megapixels =
    size.kind === 'image_size'
      ? falMegapixels(size.width, size.height)
      : falMegapixels(size.longEdgePx, size.longEdgePx);
  return price.firstMegapixelMicros + (megapixels - 1) * price.furtherMegapixelMicros;
};

const outputsOf = (id: string) => {
  const model = findBaseModel(id);
  if (!model) throw new Error(id);
  return model.resolutions.flatMap((resolution) =>
    ASPECT_RATIOS.filter((ratio) => ratio !== 'auto').map((aspectRatio) =>
      resolveOutputSpec(model.operations[0] ?? 'generate', { baseModel: id, resolution, aspectRatio }),
    ),
  );
};

describe('no model sells below its provider cost at list prices', () => {
  it('pairs every catalog model, and every pairing is in docs/providers.md', () => {
    expect(Object.keys(PAIRINGS).sort()).toEqual(BASE_MODELS.map((model) => model.id).sort());
    const page = fs.readFileSync(path.resolve(__dirname, '../../../../docs/providers.md'), 'utf8');
    for (const [id, routes] of Object.entries(PAIRINGS))
      for (const route of routes) expect(page).toContain(`\`${id}\` on \`${route.split(':')[1]}\``);
  });

  it.each(
    Object.entries(PAIRINGS).flatMap(([id, routes]) =>
      findBaseModel(id)?.pricing.metering === 'tokens' ? [] : routes.map((route) => [id, route] as const),
    ),
  )('%s on %s: every resolution and aspect ratio, per image', (id, route) => {
    for (const output of outputsOf(id)) {
      const ours = floorPrice({ operation: 'generate', output, numOutputImages: 1 });
      const cost = providerCostPerImage(route, output.width, output.height);
      if (ours < cost) throw new Error(`${id} on ${route} at ${output.width}x${output.height}: ${ours} < ${cost}`);
    }
  });

  it.each(
    Object.entries(PAIRINGS).flatMap(([id, routes]) =>
      findBaseModel(id)?.pricing.metering === 'tokens' ? routes.map((route) => [id, route] as const) : [],
    ),
  )('%s on %s: each token rate at least OpenAI’s', (id, route) => {
    const pricing = findBaseModel(id)?.pricing;
    if (pricing?.metering !== 'tokens') throw new Error(id);
    const price = OPENAI_PRICES_MICROS_PER_TOKEN[route.split(':')[1] ?? ''];
    if (!price) throw new Error(`${route} has no price`);
    // Catalog rates are per 1000 tokens, OpenAI's micro-USD per token.
    expect(pricing.perThousandOutputTokensMicros).toBeGreaterThanOrEqual(price.imageOutput * 1000);
    expect(pricing.perThousandInputTextTokensMicros).toBeGreaterThanOrEqual(price.textInput * 1000);
    expect(pricing.perThousandInputImageTokensMicros).toBeGreaterThanOrEqual(price.imageInput * 1000);
  });

  it.each(PAIRINGS[PINNED_MODEL.baseModel] ?? [])('enhance and remix (pinned at 2K) on %s', (route) => {
    for (const [width, height] of [
      [2048, 1536],
      [2048, 2048],
      [1152, 2048],
    ] as const)
      expect(PINNED_PRICES.perImageMicros).toBeGreaterThanOrEqual(providerCostPerImage(route, width, height));
  });
});
