/**
 * Read first: the base-model catalog, with prices. This table is the only place that says which model
 * does what and what it costs; operators change prices here. Money is integer micro-USD
 * (1 USD = 1_000_000). Edit and generate choose a model; enhance and remix are pinned to the default
 * model at 2K and have their own two prices (spec: 0.12 per image, 0.15 with a recognised profile).
 */
import { GPT_IMAGE_2_OUTPUT_TOKENS, GPT_IMAGE_25_OUTPUT_TOKENS, type OutputTokenRule } from './token-counts';

export const RESOLUTIONS = ['1K', '2K', '4K'] as const;
export type Resolution = (typeof RESOLUTIONS)[number];

export const ASPECT_RATIOS = ['auto', '1:1', '3:4', '4:3', '9:16', '16:9'] as const;
export type AspectRatio = (typeof ASPECT_RATIOS)[number];

import type { Quality } from './quality';

export { QUALITIES, type Quality } from './quality';

/** The operations that let the caller choose a base model. */
export type ModelOperation = 'edit' | 'generate';

/** How a model's output is charged. Every amount is micro-USD. */
export type ModelPricing =
  /** A fixed price per output image for each resolution tier the model offers. */
  | { metering: 'flat'; perImageMicros: Partial<Record<Resolution, number>> }
  /**
   * Priced from the engine's token counts: output tokens, and the input tokens of the prompt (text) and of
   * the images sent (image), never below a floor per output image. `outputTokens` is the provider's
   * published rule for the most output tokens an image of a size and quality takes (token-counts.ts): the
   * reservation (pricing.ts, `ceilingPrice`) is computed from it.
   */
  | {
      metering: 'tokens';
      perThousandOutputTokensMicros: number;
      perThousandInputTextTokensMicros: number;
      perThousandInputImageTokensMicros: number;
      floorPerImageMicros: number;
      outputTokens: OutputTokenRule;
    }
  /** Priced from the output megapixels (1 MP = 1_000_000 px), never below a floor per output image. */
  | { metering: 'megapixels'; perMegapixelMicros: number; floorPerImageMicros: number };

export interface BaseModel {
  id: string;
  operations: readonly ModelOperation[];
  resolutions: readonly Resolution[];
  /** Whether `aspect_ratio: auto` is offered (and is then the default; `4:3` otherwise). */
  autoAspectRatio: boolean;
  /** Accepted `quality` values; empty when the model takes no `quality` field. */
  qualities: readonly Quality[];
  /** Whether an exact `size` may replace the 1K tier. */
  exactSize: boolean;
  pricing: ModelPricing;
  /** Added per recognised subject occurrence (each count in `known_subjects`). */
  identitySurchargeMicros: number;
}

const BASE_B_QUALITIES = ['auto', 'low', 'medium', 'high'] as const satisfies readonly Quality[];
const BASE_B_25_QUALITIES = [...BASE_B_QUALITIES, 'xhigh', 'max'] as const satisfies readonly Quality[];
const EDIT_AND_GENERATE = ['edit', 'generate'] as const satisfies readonly ModelOperation[];

export const DEFAULT_BASE_MODEL = 'base-c-2';

export const BASE_MODELS: readonly BaseModel[] = [
  {
    id: 'base-c-2',
    operations: EDIT_AND_GENERATE,
    resolutions: ['1K', '2K', '4K'],
    autoAspectRatio: true,
    qualities: [],
    exactSize: false,
    // At least what its providers charge per image at list prices (test/unit/domain/catalog/margins.test.ts; a route below it stops the start: route-margins.ts): Gemini's
    // gemini-3.1-flash-image $0.0672 / $0.1008 / $0.1512, fal's nano-banana-2 $0.08 / $0.12 / $0.16.
    pricing: { metering: 'flat', perImageMicros: { '1K': 80_000, '2K': 120_000, '4K': 160_000 } },
    identitySurchargeMicros: 30_000,
  },
  {
    id: 'base-b-2',
    operations: EDIT_AND_GENERATE,
    resolutions: ['1K', '2K', '4K'],
    autoAspectRatio: true,
    qualities: BASE_B_QUALITIES,
    exactSize: true,
    // OpenAI's list prices behind it (openai.ts): output $30, text input $5, image input $8 per 1M tokens.
    // Ours: output $40, text input $7, image input $11 per 1M (each about a third above).
    pricing: {
      metering: 'tokens',
      perThousandOutputTokensMicros: 40_000,
      perThousandInputTextTokensMicros: 7_000,
      perThousandInputImageTokensMicros: 11_000,
      floorPerImageMicros: 20_000,
      outputTokens: GPT_IMAGE_2_OUTPUT_TOKENS,
    },
    identitySurchargeMicros: 30_000,
  },
  {
    id: 'base-b-2.5-flare',
    operations: EDIT_AND_GENERATE,
    resolutions: ['1K', '2K', '4K'],
    autoAspectRatio: true,
    qualities: BASE_B_25_QUALITIES,
    exactSize: true,
    // At OpenAI's list prices (openai.ts: $30 output, $5 text input, $8 image input per 1M tokens): no margin.
    pricing: {
      metering: 'tokens',
      perThousandOutputTokensMicros: 30_000,
      perThousandInputTextTokensMicros: 5_000,
      perThousandInputImageTokensMicros: 8_000,
      floorPerImageMicros: 15_000,
      outputTokens: GPT_IMAGE_25_OUTPUT_TOKENS,
    },
    identitySurchargeMicros: 30_000,
  },
  {
    id: 'base-b-2.5-sunburst',
    operations: EDIT_AND_GENERATE,
    resolutions: ['1K', '2K', '4K'],
    autoAspectRatio: true,
    qualities: BASE_B_25_QUALITIES,
    exactSize: true,
    // Twice OpenAI's list prices (openai.ts): output $60, text input $10, image input $16 per 1M tokens.
    pricing: {
      metering: 'tokens',
      perThousandOutputTokensMicros: 60_000,
      perThousandInputTextTokensMicros: 10_000,
      perThousandInputImageTokensMicros: 16_000,
      floorPerImageMicros: 30_000,
      outputTokens: GPT_IMAGE_25_OUTPUT_TOKENS,
    },
    identitySurchargeMicros: 30_000,
  },
  {
    id: 'base-d-2',
    operations: EDIT_AND_GENERATE,
    resolutions: ['1K', '2K'],
    autoAspectRatio: false,
    qualities: [],
    exactSize: false,
    pricing: { metering: 'flat', perImageMicros: { '1K': 50_000, '2K': 100_000 } },
    identitySurchargeMicros: 30_000,
  },
  {
    id: 'base-a-2',
    operations: EDIT_AND_GENERATE,
    resolutions: ['1K', '2K'],
    autoAspectRatio: false,
    qualities: [],
    exactSize: false,
    pricing: { metering: 'flat', perImageMicros: { '1K': 40_000, '2K': 70_000 } },
    identitySurchargeMicros: 30_000,
  },
  {
    id: 'base-a-2-pro',
    operations: EDIT_AND_GENERATE,
    resolutions: ['1K', '2K'],
    autoAspectRatio: false,
    qualities: [],
    exactSize: false,
    pricing: { metering: 'megapixels', perMegapixelMicros: 120_000, floorPerImageMicros: 60_000 },
    identitySurchargeMicros: 30_000,
  },
  {
    id: 'base-e-5-pro',
    operations: ['generate'],
    resolutions: ['1K', '2K'],
    autoAspectRatio: false,
    qualities: [],
    exactSize: false,
    pricing: { metering: 'flat', perImageMicros: { '1K': 80_000, '2K': 150_000 } },
    identitySurchargeMicros: 30_000,
  },
];

/** Enhance and remix: pinned model and tier, and their per-image prices (spec). */
export const PINNED_MODEL = { baseModel: DEFAULT_BASE_MODEL, resolution: '2K' } as const satisfies {
  baseModel: string;
  resolution: Resolution;
};
export const PINNED_PRICES = {
  perImageMicros: 120_000,
  perImageWithProfileMicros: 150_000,
} as const;

export const findBaseModel = (id: string): BaseModel | undefined => BASE_MODELS.find((model) => model.id === id);

/** Ids of the models that satisfy `test`, in catalog order, for error messages. */
export const baseModelIds = (test: (model: BaseModel) => boolean = () => true): string[] =>
  BASE_MODELS.filter(test).map((model) => model.id);
