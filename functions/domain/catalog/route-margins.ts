/**
 * Read first: no route is served at a loss. A route (MODEL_ROUTES: a base model on `provider:model`) is
 * compared, size by size, with what its provider lists for the same work (the adapters' price tables,
 * handed in as a `ListPrice`, so that the domain names no provider):
 *
 * - a flat or megapixel-metered model: our price of one output at every resolution and aspect ratio it
 *   offers (pricing.ts `floorPrice`) against the provider's price of that output (a token-priced provider:
 *   the most output tokens an image of that size takes, at `auto` quality, times its output rate);
 * - a token-metered model on a token-priced provider: each of our token rates (output, text input, image
 *   input) against the provider's, per 1M tokens; on a provider priced per image, our floor per image (its
 *   tokens are the provider's, which our rates were not set for);
 * - the default model also serves enhance and remix (pinned at 2K): their 0.12 against the 2K output.
 *
 * A size is below cost when the provider's list price is at or above ours (nothing earned, or a loss).
 * Inputs are the caller's and left aside (fal's /edit endpoints also bill input megapixels). A provider
 * model without a published price (seedream) cannot be compared: it is listed as unknown, not refused.
 * The check at start (functions/deployment/settings.ts, bin/local.ts, the stack's synth) refuses a route
 * table with a pairing below cost unless ALLOW_ROUTES_BELOW_COST=true.
 */
import { ASPECT_RATIOS, type BaseModel, findBaseModel, PINNED_MODEL, PINNED_PRICES } from './catalog';
import { type ModelRoutes, ModelRoutesError } from './model-routes';
import { pinnedTwoK, resolveOutputSpec } from './output-spec';
import { floorPrice } from './pricing';
import { maxOutputTokensPerImage, type OutputTokenRule } from './token-counts';

/** What a provider lists for its model, in micro-USD. */
export type ListPrice =
  /** Per token (micro-USD per token), with the rule of the most output tokens an image takes. */
  | {
      per: 'token';
      textInputMicros: number;
      imageInputMicros: number;
      imageOutputMicros: number;
      outputTokens: OutputTokenRule;
    }
  /** Per output image of width×height, inputs aside. */
  | { per: 'image'; imageMicros: (width: number, height: number) => number };

/** A provider model's list price, or undefined where none is published. */
export type ListPriceOf = (provider: string, model: string) => ListPrice | undefined;

export interface MarginRow {
  baseModel: string;
  /** `provider:model`. */
  route: string;
  /** What is compared: `1K 4:3 1024x768`, `enhance/remix 2K 2048x1536`, `output tokens`, … */
  size: string;
  unit: 'image' | '1M tokens';
  ourMicros: number;
  providerMicros: number;
  /** Ours minus the provider's. */
  marginMicros: number;
  /** The provider's list price is at or above ours. */
  belowCost: boolean;
}

const row = (
  baseModel: string,
  route: string,
  size: string,
  unit: MarginRow['unit'],
  ourMicros: number,
  providerMicros: number,
): MarginRow => ({
  baseModel,
  route,
  size,
  unit,
  ourMicros,
  providerMicros,
  marginMicros: ourMicros - providerMicros,
  belowCost: providerMicros >= ourMicros,
});

/** Every output size a model offers: each resolution at each aspect ratio (`auto` resolves to one of them). */
const outputsOf = (model: BaseModel) =>
  model.resolutions.flatMap((resolution) =>
    ASPECT_RATIOS.filter((ratio) => ratio !== 'auto').map((aspectRatio) =>
      resolveOutputSpec(model.operations[0] ?? 'generate', { baseModel: model.id, resolution, aspectRatio }),
    ),
  );

/** The provider's price of one output of width×height. */
const providerImageMicros = (price: ListPrice, width: number, height: number): number =>
  price.per === 'image'
    ? price.imageMicros(width, height)
    : Math.ceil(maxOutputTokensPerImage(price.outputTokens, undefined, width, height) * price.imageOutputMicros);

/** The margin of one base model on one provider model, size by size (see the header). */
export const routeMargins = (baseModelId: string, route: string, price: ListPrice): MarginRow[] => {
  const model = findBaseModel(baseModelId);
  if (!model) throw new ModelRoutesError(`"${baseModelId}" is not a base model`);
  const rows: MarginRow[] = [];
  const { pricing } = model;
  if (pricing.metering === 'tokens' && price.per === 'token') {
    // Catalog rates are per 1000 tokens, list prices per token: both as per 1M tokens.
    rows.push(
      row(
        model.id,
        route,
        'output tokens',
        '1M tokens',
        pricing.perThousandOutputTokensMicros * 1000,
        price.imageOutputMicros * 1e6,
      ),
      row(
        model.id,
        route,
        'text input tokens',
        '1M tokens',
        pricing.perThousandInputTextTokensMicros * 1000,
        price.textInputMicros * 1e6,
      ),
      row(
        model.id,
        route,
        'image input tokens',
        '1M tokens',
        pricing.perThousandInputImageTokensMicros * 1000,
        price.imageInputMicros * 1e6,
      ),
    );
  } else {
    for (const output of outputsOf(model)) {
      const ours = floorPrice({ operation: model.operations[0] ?? 'generate', output, numOutputImages: 1 });
      const size = `${output.resolution} ${output.width}x${output.height}`;
      rows.push(row(model.id, route, size, 'image', ours, providerImageMicros(price, output.width, output.height)));
    }
  }
  if (model.id === PINNED_MODEL.baseModel)
    for (const [w, h] of [
      [4, 3],
      [1, 1],
      [9, 16],
    ] as const) {
      const { width, height } = pinnedTwoK(w, h);
      const provider = providerImageMicros(price, width, height);
      rows.push(
        row(model.id, route, `enhance/remix 2K ${width}x${height}`, 'image', PINNED_PRICES.perImageMicros, provider),
      );
    }
  return rows;
};

const usd = (micros: number) => `$${(micros / 1e6).toFixed(4)}`;

/**
 * The route table's pairings below cost, one message each naming the first size that is (empty: none).
 * A route without a published list price (or to our own `http` backend) is not compared.
 */
export const routesBelowCost = (routes: ModelRoutes, listPriceOf: ListPriceOf): string[] =>
  Object.entries(routes).flatMap(([id, route]) => {
    const price = listPriceOf(route.provider, route.model);
    if (!price) return [];
    const name = `${route.provider}:${route.model}`;
    const below = routeMargins(id, name, price).filter((margin) => margin.belowCost);
    const first = below[0];
    if (!first) return [];
    return [
      `"${id}" on ${name} sells at or below the provider's list price (${first.size}: ours ${usd(first.ourMicros)}, ` +
        `the provider's ${usd(first.providerMicros)} per ${first.unit}${below.length > 1 ? `, and ${below.length - 1} more` : ''})`,
    ];
  });

/**
 * Refuses a route table with a pairing below cost, naming each, unless the operator allowed it
 * (ALLOW_ROUTES_BELOW_COST=true, or the stack's context `allowRoutesBelowCost`).
 */
export const checkRouteCosts = (
  routes: ModelRoutes,
  listPriceOf: ListPriceOf,
  allowBelowCost: boolean,
  name = 'MODEL_ROUTES',
  allowName = 'ALLOW_ROUTES_BELOW_COST=true',
): void => {
  if (allowBelowCost) return;
  const below = routesBelowCost(routes, listPriceOf);
  if (below.length === 0) return;
  throw new ModelRoutesError(
    `${name}: ${below.join('; ')}. Raise the catalog's price (functions/domain/catalog/catalog.ts), route the model ` +
      `elsewhere, or set ${allowName} to serve it anyway (docs/providers.md, "What a request costs").`,
  );
};
