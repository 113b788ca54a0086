/**
 * GET /v2/service/models: the catalog (catalog.ts) as a client sees it, with what this deployment does
 * with each model: whether a real hosted model serves it (the route table, model-routes.ts) or the
 * sandbox. Provider-neutral like the catalog (no provider names, never a key), so a client can build a
 * form from it: only the fields each model accepts, and what it costs.
 */
import { type MoneyBody, moneyBody } from '../shared/money';
import {
  ASPECT_RATIOS,
  BASE_MODELS,
  type BaseModel,
  DEFAULT_BASE_MODEL,
  PINNED_MODEL,
  PINNED_PRICES,
  RESOLUTIONS,
} from './catalog';
import type { ModelRoutes } from './model-routes';
import { FALLBACK_ASPECT_RATIO } from './output-spec';

export type ModelPricingBody =
  | {
      metering: 'flat';
      per_image: Partial<Record<(typeof RESOLUTIONS)[number], MoneyBody>>;
      identity_surcharge: MoneyBody;
    }
  | {
      metering: 'tokens';
      per_thousand_output_tokens: MoneyBody;
      per_thousand_input_text_tokens: MoneyBody;
      per_thousand_input_image_tokens: MoneyBody;
      floor_per_image: MoneyBody;
      identity_surcharge: MoneyBody;
    }
  | { metering: 'megapixels'; per_megapixel: MoneyBody; floor_per_image: MoneyBody; identity_surcharge: MoneyBody };

export interface ModelBody {
  id: string;
  default: boolean;
  operations: string[];
  resolutions: string[];
  aspect_ratios: string[];
  default_aspect_ratio: string;
  qualities: string[];
  size: boolean;
  pricing: ModelPricingBody;
  /** `hosted`: a real model at a provider; `backend`: the operator's own GPU backend; `sandbox`: images made on sharp, for development. */
  served_by: 'hosted' | 'backend' | 'sandbox';
  /** Other names this deployment accepts for the model in `base_model`. */
  aliases: string[];
}

export interface ModelListBody {
  default_model: string;
  models: ModelBody[];
  /** Enhance and remix: no model choice, pinned to this model at this resolution, with their own prices. */
  pinned: {
    operations: ['enhance', 'remix'];
    base_model: string;
    resolution: string;
    per_image: MoneyBody;
    per_image_with_profile: MoneyBody;
    served_by: ModelBody['served_by'];
  };
}

const pricingOf = (model: BaseModel): ModelPricingBody => {
  const identity_surcharge = moneyBody(model.identitySurchargeMicros);
  const { pricing } = model;
  switch (pricing.metering) {
    case 'flat':
      return {
        metering: 'flat',
        per_image: Object.fromEntries(
          RESOLUTIONS.flatMap((tier) => {
            const micros = pricing.perImageMicros[tier];
            return micros === undefined ? [] : [[tier, moneyBody(micros)]];
          }),
        ),
        identity_surcharge,
      };
    case 'tokens':
      return {
        metering: 'tokens',
        per_thousand_output_tokens: moneyBody(pricing.perThousandOutputTokensMicros),
        per_thousand_input_text_tokens: moneyBody(pricing.perThousandInputTextTokensMicros),
        per_thousand_input_image_tokens: moneyBody(pricing.perThousandInputImageTokensMicros),
        floor_per_image: moneyBody(pricing.floorPerImageMicros),
        identity_surcharge,
      };
    case 'megapixels':
      return {
        metering: 'megapixels',
        per_megapixel: moneyBody(pricing.perMegapixelMicros),
        floor_per_image: moneyBody(pricing.floorPerImageMicros),
        identity_surcharge,
      };
  }
};

export const modelList = (
  routes: ModelRoutes,
  aliases: Readonly<Record<string, string>>,
  defaultEngine: 'sandbox' | 'http',
): ModelListBody => {
  const servedBy = (id: string): ModelBody['served_by'] => {
    const route = routes[id];
    if (route) return route.provider === 'http' ? 'backend' : 'hosted';
    return defaultEngine === 'http' ? 'backend' : 'sandbox';
  };
  return {
    default_model: DEFAULT_BASE_MODEL,
    models: BASE_MODELS.map((model) => ({
      id: model.id,
      default: model.id === DEFAULT_BASE_MODEL,
      operations: [...model.operations],
      resolutions: [...model.resolutions],
      aspect_ratios: ASPECT_RATIOS.filter((ratio) => ratio !== 'auto' || model.autoAspectRatio),
      default_aspect_ratio: model.autoAspectRatio ? 'auto' : FALLBACK_ASPECT_RATIO,
      qualities: [...model.qualities],
      size: model.exactSize,
      pricing: pricingOf(model),
      served_by: servedBy(model.id),
      aliases: Object.entries(aliases)
        .filter(([, id]) => id === model.id)
        .map(([alias]) => alias)
        .sort(),
    })),
    pinned: {
      operations: ['enhance', 'remix'],
      base_model: PINNED_MODEL.baseModel,
      resolution: PINNED_MODEL.resolution,
      per_image: moneyBody(PINNED_PRICES.perImageMicros),
      per_image_with_profile: moneyBody(PINNED_PRICES.perImageWithProfileMicros),
      served_by: servedBy(PINNED_MODEL.baseModel),
    },
  };
};
