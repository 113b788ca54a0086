/**
 * Each hosted provider's list prices, by model, in the domain's terms (catalog/route-margins.ts): the
 * models each adapter has a price table for, and what one of their outputs costs. Read at every cold start
 * (functions/deployment/settings.ts checks the route table against it), so it imports only the adapters'
 * price tables, which are data (no adapter, no image library).
 */

import type { HostedProviderId, TrainerProviderId } from '../../../deployment/providers';
import type { ListPrice } from '../../../domain/catalog/route-margins';
import { falFamilyOf, falPossibleCostMicros } from './fal/families';
import { GEMINI_IMAGE_PRICE_MICROS, imageSizeFor } from './gemini/prices';
import { OPENAI_OUTPUT_TOKENS, OPENAI_PRICES_MICROS_PER_TOKEN } from './openai/prices';

/** The provider models each adapter knows (its model table), for the margin table of every pairing. */
export const PROVIDER_MODELS: Readonly<Record<HostedProviderId, readonly string[]>> = {
  openai: Object.keys(OPENAI_PRICES_MICROS_PER_TOKEN),
  gemini: ['gemini-3.1-flash-image'],
  fal: [
    'fal-ai/flux-2',
    'fal-ai/flux-2-pro',
    'fal-ai/nano-banana-2',
    'fal-ai/qwen-image-2',
    'fal-ai/bytedance/seedream/v5/text-to-image',
  ],
};

const openAiPrice = (model: string): ListPrice | undefined => {
  const rates = OPENAI_PRICES_MICROS_PER_TOKEN[model];
  const outputTokens = OPENAI_OUTPUT_TOKENS[model];
  if (!rates || !outputTokens) return undefined;
  return {
    per: 'token',
    textInputMicros: rates.textInput,
    imageInputMicros: rates.imageInput,
    imageOutputMicros: rates.imageOutput,
    outputTokens,
  };
};

const falPrice = (model: string): ListPrice | undefined => {
  let priced: boolean;
  try {
    priced = falFamilyOf(model).price !== undefined;
  } catch {
    return undefined;
  }
  if (!priced) return undefined;
  return {
    per: 'image',
    imageMicros: (width, height) => falPossibleCostMicros(model, { width, height, numOutputImages: 1 }) ?? 0,
  };
};

/** A provider model's list price; undefined for a model without a published price, or our own `http` backend. */
export const listPriceOf = (provider: string, model: string): ListPrice | undefined => {
  switch (provider) {
    case 'openai':
      return openAiPrice(model);
    case 'gemini':
      return PROVIDER_MODELS.gemini.includes(model)
        ? { per: 'image', imageMicros: (width, height) => GEMINI_IMAGE_PRICE_MICROS[imageSizeFor(width, height)] }
        : undefined;
    case 'fal':
      return falPrice(model);
    default:
      return undefined;
  }
};

/**
 * fal's trainer for FLUX.2 [dev] (`fal-ai/flux-2-trainer`): 0.0064 USD per step (fal's model page,
 * https://fal.ai/models/fal-ai/flux-2-trainer, as quoted in issue 42: "6.40 USD at 1 000 steps"), so fal's
 * default of 1 000 steps costs more than the Full Train price (2.90 USD).
 */
export const FAL_TRAINER_MICROS_PER_STEP = 6_400;

/**
 * Each LoRA trainer's list price a step and the training it runs unless LORA_TRAINER_STEPS and
 * LORA_TRAINER_LEARNING_RATE say otherwise. fal: 300 steps list at 1.92 USD, 66 % of the Full Train price
 * (at most 70 %: 317 steps); fal's default learning rate (5e-5) is kept.
 */
export const TRAINER_LIST_PRICES: Readonly<
  Record<TrainerProviderId, { microsPerStep: number; defaultSteps: number; defaultLearningRate: number }>
> = {
  fal: { microsPerStep: FAL_TRAINER_MICROS_PER_STEP, defaultSteps: 300, defaultLearningRate: 0.00005 },
};

/** What a training of `steps` lists at on the trainer of provider `id`. */
export const trainerCostMicros = (id: TrainerProviderId, steps: number): number =>
  steps * TRAINER_LIST_PRICES[id].microsPerStep;

/** FLUX.2 [dev] with a LoRA: its price is in the family's table (fal/families.ts). */
export { FAL_LORA_MICROS_PER_MEGAPIXEL } from './fal/families';
