/**
 * No route is served at a loss: the margin of every pairing the code knows (each provider adapter's model
 * table × each base model it can serve × each size the model offers, and enhance/remix on the default
 * model), from the catalog's prices (functions/domain/catalog/catalog.ts) and the adapters' price tables
 * (functions/adapters/engine/providers/list-prices.ts), printed as a table; which pairings sell at or below
 * the provider's list price, and that such a route stops the start unless ALLOW_ROUTES_BELOW_COST=true.
 */
import fs from 'node:fs';
import path from 'node:path';
import { listPriceOf, PROVIDER_MODELS } from '../../../../functions/adapters/engine/providers/list-prices';
import { ROUTE_TARGETS } from '../../../../functions/deployment/providers';
import { loadConfig } from '../../../../functions/deployment/settings';
import { BASE_MODELS } from '../../../../functions/domain/catalog/catalog';
import { parseModelRoutes } from '../../../../functions/domain/catalog/model-routes';
import { checkRouteCosts, type MarginRow, routeMargins } from '../../../../functions/domain/catalog/route-margins';

/** Every pairing: a provider model and a base model the route table lets it serve (tokens need reported tokens). */
const PAIRINGS = Object.entries(PROVIDER_MODELS).flatMap(([provider, models]) =>
  models.flatMap((model) =>
    BASE_MODELS.filter((base) => base.pricing.metering !== 'tokens' || ROUTE_TARGETS[provider]?.reportsTokens).map(
      (base) => ({ baseModel: base.id, route: `${provider}:${model}`, price: listPriceOf(provider, model) }),
    ),
  ),
);

const marginsOf = (pairing: (typeof PAIRINGS)[number]): MarginRow[] =>
  pairing.price ? routeMargins(pairing.baseModel, pairing.route, pairing.price) : [];

const usd = (micros: number) => (micros / 1e6).toFixed(4);

/** The pairing's thinnest size: the one with the smallest margin as a share of our price. */
const thinnest = (rows: MarginRow[]) =>
  rows.reduce((worst, row) => (row.marginMicros / row.ourMicros < worst.marginMicros / worst.ourMicros ? row : worst));

/** The pairings below cost with the catalog and price tables as they are (each: the first size that is). */
const BELOW_COST = [
  'base-c-2 on openai:gpt-image-2',
  'base-b-2.5-flare on openai:gpt-image-2',
  'base-d-2 on openai:gpt-image-2',
  'base-a-2 on openai:gpt-image-2',
  'base-a-2-pro on openai:gpt-image-2',
  'base-e-5-pro on openai:gpt-image-2',
  'base-c-2 on openai:gpt-image-2.5-flare',
  'base-b-2.5-flare on openai:gpt-image-2.5-flare',
  'base-d-2 on openai:gpt-image-2.5-flare',
  'base-a-2 on openai:gpt-image-2.5-flare',
  'base-a-2-pro on openai:gpt-image-2.5-flare',
  'base-e-5-pro on openai:gpt-image-2.5-flare',
  'base-c-2 on openai:gpt-image-2.5-sunburst',
  'base-b-2.5-flare on openai:gpt-image-2.5-sunburst',
  'base-d-2 on openai:gpt-image-2.5-sunburst',
  'base-a-2 on openai:gpt-image-2.5-sunburst',
  'base-a-2-pro on openai:gpt-image-2.5-sunburst',
  'base-e-5-pro on openai:gpt-image-2.5-sunburst',
  'base-b-2 on gemini:gemini-3.1-flash-image',
  'base-b-2.5-flare on gemini:gemini-3.1-flash-image',
  'base-b-2.5-sunburst on gemini:gemini-3.1-flash-image',
  'base-d-2 on gemini:gemini-3.1-flash-image',
  'base-a-2 on gemini:gemini-3.1-flash-image',
  'base-a-2 on fal:fal-ai/flux-2-pro',
  'base-c-2 on fal:fal-ai/nano-banana-2',
  'base-d-2 on fal:fal-ai/nano-banana-2',
  'base-a-2 on fal:fal-ai/nano-banana-2',
  'base-a-2-pro on fal:fal-ai/nano-banana-2',
  'base-e-5-pro on fal:fal-ai/nano-banana-2',
];

/** The routes docs/providers.md documents, each with whether it is below cost. */
const DOCUMENTED: [string, string, boolean][] = [
  ['base-c-2', 'gemini:gemini-3.1-flash-image', false],
  ['base-c-2', 'fal:fal-ai/nano-banana-2', true],
  ['base-b-2', 'openai:gpt-image-2', false],
  ['base-b-2.5-flare', 'openai:gpt-image-2.5-flare', true],
  ['base-b-2.5-sunburst', 'openai:gpt-image-2.5-sunburst', false],
  ['base-a-2', 'fal:fal-ai/flux-2', false],
  ['base-a-2-pro', 'fal:fal-ai/flux-2-pro', false],
  ['base-d-2', 'fal:fal-ai/qwen-image-2', false],
];

describe('the margin of every routed pairing', () => {
  it('prints the table and finds exactly these pairings below cost', () => {
    const lines = [
      '| base model | provider model | thinnest size | ours | provider | margin | below cost |',
      '|---|---|---|---|---|---|---|',
    ];
    for (const pairing of PAIRINGS) {
      const rows = marginsOf(pairing);
      if (rows.length === 0) {
        lines.push(`| ${pairing.baseModel} | ${pairing.route} | – | – | no published price | unknown | not checked |`);
        continue;
      }
      const row = thinnest(rows);
      const share = Math.round((100 * row.marginMicros) / row.ourMicros);
      lines.push(
        `| ${pairing.baseModel} | ${pairing.route} | ${row.size} (per ${row.unit}) | ${usd(row.ourMicros)} | ${usd(row.providerMicros)} | ` +
          `${usd(row.marginMicros)} (${share} %) | ${rows.some((each) => each.belowCost) ? 'yes' : 'no'} |`,
      );
    }
    console.log(`Margins at list prices, per pairing (its thinnest size):\n${lines.join('\n')}`);
    const below = PAIRINGS.filter((pairing) => marginsOf(pairing).some((row) => row.belowCost)).map(
      (pairing) => `${pairing.baseModel} on ${pairing.route}`,
    );
    expect(below).toEqual(BELOW_COST);
  });

  it.each(DOCUMENTED)('%s on %s: below cost %s, and in docs/providers.md', (baseModel, route, belowCost) => {
    const [provider = '', model = ''] = route.split(/:(.*)/s);
    const price = listPriceOf(provider, model);
    if (!price) throw new Error(`${route} has no price`);
    expect(routeMargins(baseModel, route, price).some((row) => row.belowCost)).toBe(belowCost);
    const page = fs.readFileSync(path.resolve(__dirname, '../../../../docs/providers.md'), 'utf8');
    expect(page).toContain(`\`${baseModel}\` on \`${model}\``);
  });

  it('compares every size the model offers, and enhance/remix at 2K on the default model', () => {
    const price = listPriceOf('gemini', 'gemini-3.1-flash-image');
    if (!price) throw new Error('no price');
    const rows = routeMargins('base-c-2', 'gemini:gemini-3.1-flash-image', price);
    expect(rows.filter((row) => row.size.startsWith('4K'))).toHaveLength(5);
    expect(rows.filter((row) => row.size.startsWith('enhance/remix 2K'))).toEqual(
      Array.from({ length: 3 }, () => expect.objectContaining({ ourMicros: 120_000, providerMicros: 100_800 })),
    );
  });
});

describe('a route below cost stops the start', () => {
  const routes = (text: string) => parseModelRoutes(text, ROUTE_TARGETS);

  it('names each pairing below cost, the size, both prices and the way out', () => {
    const table = routes(
      '{"base-c-2":"fal:fal-ai/nano-banana-2","base-b-2.5-flare":"openai:gpt-image-2.5-flare","base-a-2":"fal:fal-ai/flux-2"}',
    );
    expect(() => checkRouteCosts(table, listPriceOf, false)).toThrow(
      /^MODEL_ROUTES: "base-c-2" on fal:fal-ai\/nano-banana-2 sells at or below the provider's list price \(1K 1024x1024: ours \$0\.0800, the provider's \$0\.0800 per image, and \d+ more\); "base-b-2\.5-flare" on openai:gpt-image-2\.5-flare .*ALLOW_ROUTES_BELOW_COST=true/,
    );
  });

  it('lets routes above cost, without a published price, or to our own backend start', () => {
    const table = routes(
      '{"base-a-2":"fal:fal-ai/flux-2","base-e-5-pro":"fal:fal-ai/bytedance/seedream/v5/text-to-image","base-d-2":"http"}',
    );
    expect(() => checkRouteCosts(table, listPriceOf, false)).not.toThrow();
  });

  it('at cold start, unless ALLOW_ROUTES_BELOW_COST=true', () => {
    const env = { SERVICE_TABLE_NAME: 'table', MODEL_ROUTES: '{"base-c-2":"fal:fal-ai/nano-banana-2"}' };
    expect(() => loadConfig(env)).toThrow(/"base-c-2" on fal:fal-ai\/nano-banana-2 sells at or below/);
    expect(loadConfig({ ...env, ALLOW_ROUTES_BELOW_COST: 'true' }).ALLOW_ROUTES_BELOW_COST).toBe(true);
  });
});
