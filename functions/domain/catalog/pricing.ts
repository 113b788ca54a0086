/**
 * Read first: what an image request costs, in integer micro-USD.
 *
 * - `floorPrice` is the reservation taken at submit: the cheapest outcome the request can have, with no
 *   identity recognised. Flat models: the tier price per image. Token-metered: the per-image floor.
 *   Megapixel-metered: the output size is fixed before the run, so the floor is that size's price (never
 *   below the per-image floor). Enhance and remix: 0.12 per image.
 * - `finalPrice` is the settlement, from the engine's usage and recognised subjects. Metered usage never
 *   settles below the floor, so settlement only ever adds to the reservation. Identity adds the model's
 *   surcharge per recognised occurrence (edit, generate), or moves images to the 0.15 rate (enhance,
 *   remix).
 * - Rounding: a metered amount is rounded up to the next whole micro-USD, once, on the total of the
 *   request (not per image). A floating-point residue below a millionth of a micro is not rounded up.
 */

import type { EngineUsage, Operation } from '../engine/engine';
import { type BaseModel, findBaseModel, PINNED_PRICES, type Resolution } from './catalog';

/** Price of training one profile, per tier (spec). */
export const TRAINING_PRICE_MICROS = { standard: 2_900_000, fast: 1_490_000 } as const;

/** What pricing needs to know about a request; edit and generate carry their resolved output spec. */
export type PricedRequest =
  | {
      operation: Extract<Operation, 'edit' | 'generate'>;
      output: { baseModel: string; resolution: Resolution; width: number; height: number };
      numOutputImages: number;
    }
  | { operation: Extract<Operation, 'enhance' | 'remix'>; numOutputImages: number };

/** A finished run: the engine's usage and what recognition found in its outputs. */
export interface PricedOutcome {
  usage: EngineUsage;
  /** profile id → times that subject appears, summed over all outputs (engine/recognition.ts). */
  knownSubjects: Record<string, number>;
}

const PIXELS_PER_MEGAPIXEL = 1_000_000;

const ceilMicros = (amount: number): number => Math.ceil(amount - 1e-6);

const modelOf = (id: string): BaseModel => {
  const model = findBaseModel(id);
  // The output spec was resolved against the same catalog, so this is a programming error.
  if (!model) throw new Error(`base model ${id} is not in the catalog`);
  return model;
};

const modelFloor = (
  model: BaseModel,
  output: Extract<PricedRequest, { output: unknown }>['output'],
  numOutputImages: number,
): number => {
  const { pricing } = model;
  switch (pricing.metering) {
    case 'flat': {
      const perImage = pricing.perImageMicros[output.resolution];
      if (perImage === undefined) throw new Error(`base model ${model.id} has no ${output.resolution} price`);
      return perImage * numOutputImages;
    }
    case 'tokens':
      return pricing.floorPerImageMicros * numOutputImages;
    case 'megapixels': {
      const sizeMicros = ceilMicros((output.width * output.height * pricing.perMegapixelMicros) / PIXELS_PER_MEGAPIXEL);
      return Math.max(pricing.floorPerImageMicros, sizeMicros) * numOutputImages;
    }
  }
};

const meteredMicros = (model: BaseModel, usage: EngineUsage): number => {
  const { pricing } = model;
  switch (pricing.metering) {
    case 'flat':
      return 0;
    case 'tokens':
      return ceilMicros((Math.max(0, usage.outputTokens) * pricing.perThousandTokensMicros) / 1000);
    case 'megapixels':
      return ceilMicros(Math.max(0, usage.megapixels) * pricing.perMegapixelMicros);
  }
};

const occurrences = (knownSubjects: Record<string, number>): number[] =>
  Object.values(knownSubjects).filter((count) => Number.isInteger(count) && count > 0);

/** The reservation taken at submit. */
export const floorPrice = (request: PricedRequest): number =>
  'output' in request
    ? modelFloor(modelOf(request.output.baseModel), request.output, request.numOutputImages)
    : PINNED_PRICES.perImageMicros * request.numOutputImages;

/** The settled price of a finished run; never below `floorPrice(request)`. */
export const finalPrice = (request: PricedRequest, outcome: PricedOutcome): number => {
  const counts = occurrences(outcome.knownSubjects);
  if (!('output' in request)) {
    // Counts are summed over outputs, and a subject appears at most once per image, so the largest
    // count is the number of images provably showing a recognised profile.
    const withProfile = Math.min(request.numOutputImages, Math.max(0, ...counts));
    return (
      withProfile * PINNED_PRICES.perImageWithProfileMicros +
      (request.numOutputImages - withProfile) * PINNED_PRICES.perImageMicros
    );
  }
  const model = modelOf(request.output.baseModel);
  const base = Math.max(
    modelFloor(model, request.output, request.numOutputImages),
    meteredMicros(model, outcome.usage),
  );
  const identity = counts.reduce((sum, count) => sum + count, 0) * model.identitySurchargeMicros;
  return base + identity;
};
