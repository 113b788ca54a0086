/**
 * Read first: what an image request costs, in integer micro-USD.
 *
 * - `ceilingPrice` is the reservation taken at submit: the most the request can cost, so that the
 *   balance never goes below zero. Flat models: the tier price per image. Megapixel-metered: the output
 *   size is fixed before the run, so that size's price (never below the per-image floor). Token-metered:
 *   the provider's published output-token count for the size and quality, times the count, plus the input
 *   tokens of its images and prompt (token-counts.ts, with the sources), at the model's rates, never below
 *   the floor. Every model adds its identity surcharge for each candidate that can be recognised, in every
 *   output; enhance and remix reserve 0.15 per image (the price with a recognised profile) when they have
 *   a candidate, 0.12 otherwise. With `identity_check: "retry"` the ceiling also covers every output the
 *   retries may make again (MAX_IDENTITY_RETRIES per output), each at the model's per-output price.
 * - Identity retries are the caller's: each output made again is charged at the operation's per-output
 *   price (flat: the tier price; megapixels: the size price; tokens: what the retry calls used, never below
 *   the floor per output; enhance and remix: 0.12), whatever it shows; the identity surcharge follows only
 *   what is delivered. So a retry never costs the operator more than it earns (docs/identity.md).
 * - Enhance and remix price each output by what is recognised in it: 0.15 for an output in which a profile
 *   is recognised (billed), 0.12 for one without (spec), however many profiles an output shows.
 * - `floorPrice` is the least the request can cost (no identity recognised, metered usage at its floor).
 * - `finalPrice` is the price of the finished run, from the engine's usage and recognised subjects: never
 *   below the floor. `settlement` charges it, capped at the reservation: what a provider reports above the
 *   reservation is the operator's loss (`unbilledMicros`, logged and alarmed through the ledger), and a
 *   token-metered run whose tokens were not reported settles at the reservation (fail closed).
 * - Rounding: a metered amount is rounded up to the next whole micro-USD, once, on the total of the
 *   request (not per image). A floating-point residue below a millionth of a micro is not rounded up.
 */

import type { EngineUsage, Operation } from '../engine/engine';
import { type BaseModel, findBaseModel, PINNED_PRICES, type Quality, type Resolution } from './catalog';
import { maxInputTokens, maxOutputTokensPerImage, type SentInputs } from './token-counts';

/** Price of training one profile, per tier (spec). */
export const TRAINING_PRICE_MICROS = { standard: 2_900_000, fast: 1_490_000 } as const;

/** What pricing needs to know about a request; edit and generate carry their resolved output spec. */
export type PricedRequest =
  | {
      operation: Extract<Operation, 'edit' | 'generate'>;
      /** `quality` is needed for the ceiling only (the submit's); a stored job's request may lack it. */
      output: { baseModel: string; resolution: Resolution; width: number; height: number; quality?: Quality };
      numOutputImages: number;
    }
  | { operation: Extract<Operation, 'enhance' | 'remix'>; numOutputImages: number };

/** A finished run: the engine's usage and what recognition found in its outputs. */
export interface PricedOutcome {
  usage: EngineUsage;
  /** profile id → times that subject appears, summed over all outputs (engine/recognition.ts). */
  knownSubjects: Record<string, number>;
  /**
   * The recognitions by output (engine/recognition.ts): enhance and remix charge each output by whether a
   * billed profile is recognised in it. Absent on a run recorded before they were kept: the largest count
   * stands in (a subject appears at most once per output, so at least that many outputs show one).
   */
  recognizedFaces?: readonly { outputIndex: number; billed: boolean }[];
  /** Identity retries (engine/identity.ts): the outputs made again, and what their calls used. */
  retries?: PricedRetries;
}

/** What identity retries made: charged at the operation's per-output price, whatever they show. */
export interface PricedRetries {
  /** Outputs made again (each one more attempt at an output). */
  outputs: number;
  /** What the retry calls used, summed (token- and megapixel-metered models price it); absent: nothing reported. */
  usage?: EngineUsage;
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
      return ceilMicros(
        (Math.max(0, usage.outputTokens) * pricing.perThousandOutputTokensMicros +
          Math.max(0, usage.inputTextTokens ?? 0) * pricing.perThousandInputTextTokensMicros +
          Math.max(0, usage.inputImageTokens ?? 0) * pricing.perThousandInputImageTokensMicros) /
          1000,
      );
    case 'megapixels':
      return ceilMicros(Math.max(0, usage.megapixels) * pricing.perMegapixelMicros);
  }
};

const occurrences = (knownSubjects: Record<string, number>): number[] =>
  Object.values(knownSubjects).filter((count) => Number.isInteger(count) && count > 0);

/** The least the request can cost. */
export const floorPrice = (request: PricedRequest): number =>
  'output' in request
    ? modelFloor(modelOf(request.output.baseModel), request.output, request.numOutputImages)
    : PINNED_PRICES.perImageMicros * request.numOutputImages;

/** Outputs in which a billed profile is recognised (enhance and remix charge each at the profile price). */
const outputsWithProfile = (outcome: PricedOutcome, numOutputImages: number): number => {
  const counted = outcome.recognizedFaces
    ? new Set(outcome.recognizedFaces.filter((face) => face.billed).map((face) => face.outputIndex)).size
    : Math.max(0, ...occurrences(outcome.knownSubjects));
  return Math.min(numOutputImages, counted);
};

/** The usage of the delivered call and of the retry calls together. */
const totalUsage = (outcome: PricedOutcome): EngineUsage => {
  const more = outcome.retries?.usage;
  if (!more) return outcome.usage;
  const sum = (a: number | undefined, b: number | undefined) =>
    a === undefined && b === undefined ? undefined : (a ?? 0) + (b ?? 0);
  const inputTextTokens = sum(outcome.usage.inputTextTokens, more.inputTextTokens);
  const inputImageTokens = sum(outcome.usage.inputImageTokens, more.inputImageTokens);
  return {
    outputTokens: outcome.usage.outputTokens + more.outputTokens,
    ...(inputTextTokens !== undefined && { inputTextTokens }),
    ...(inputImageTokens !== undefined && { inputImageTokens }),
    ...((outcome.usage.tokensMissing === true || more.tokensMissing === true) && { tokensMissing: true }),
    megapixels: outcome.usage.megapixels + more.megapixels,
  };
};

const retriedOutputs = (outcome: PricedOutcome): number => Math.max(0, outcome.retries?.outputs ?? 0);

/**
 * The settled price of a finished run; never below `floorPrice(request)`. Every output made, delivered or
 * made again by an identity retry, is charged at the operation's per-output price; the identity surcharge
 * (enhance and remix: the profile price) follows what is delivered.
 */
export const finalPrice = (request: PricedRequest, outcome: PricedOutcome): number => {
  const counts = occurrences(outcome.knownSubjects);
  const retried = retriedOutputs(outcome);
  if (!('output' in request)) {
    const withProfile = outputsWithProfile(outcome, request.numOutputImages);
    return (
      withProfile * PINNED_PRICES.perImageWithProfileMicros +
      (request.numOutputImages - withProfile + retried) * PINNED_PRICES.perImageMicros
    );
  }
  const model = modelOf(request.output.baseModel);
  const base = Math.max(
    modelFloor(model, request.output, request.numOutputImages + retried),
    meteredMicros(model, totalUsage(outcome)),
  );
  const identity = counts.reduce((sum, count) => sum + count, 0) * model.identitySurchargeMicros;
  return base + identity;
};

/** What the ceiling needs to know beyond the request: who may be recognised, and what is sent. */
export interface CeilingInputs {
  /** Candidates recognition can match (each at most once per output): each may add its surcharge to every output. */
  recognisable: number;
  /** What the provider receives, for the input tokens of a token-metered model. */
  sent: SentInputs;
  /** The most outputs identity retries may make again (0 without `identity_check: "retry"`). */
  maxRetriedOutputs?: number;
}

/** The reservation taken at submit: the most the request can cost (see the header). */
export const ceilingPrice = (request: PricedRequest, inputs: CeilingInputs): number => {
  const recognisable = Math.max(0, inputs.recognisable);
  const retried = Math.max(0, inputs.maxRetriedOutputs ?? 0);
  if (!('output' in request)) {
    const perImage = recognisable > 0 ? PINNED_PRICES.perImageWithProfileMicros : PINNED_PRICES.perImageMicros;
    return perImage * request.numOutputImages + PINNED_PRICES.perImageMicros * retried;
  }
  const model = modelOf(request.output.baseModel);
  // Every output that may be made: the delivered ones and the ones retries may make again.
  const made = request.numOutputImages + retried;
  const floor = modelFloor(model, request.output, made);
  const identity = recognisable * request.numOutputImages * model.identitySurchargeMicros;
  const { pricing } = model;
  if (pricing.metering !== 'tokens') return floor + identity;
  const { width, height, quality } = request.output;
  const outputTokens = maxOutputTokensPerImage(pricing.outputTokens, quality, width, height) * made;
  const input = maxInputTokens(pricing.outputTokens, inputs.sent, made);
  const metered = meteredMicros(model, {
    outputTokens,
    inputTextTokens: input.text,
    inputImageTokens: input.image,
    megapixels: 0,
  });
  return Math.max(floor, metered) + identity;
};

/** How a finished run is charged against its reservation. */
export interface Settlement {
  /** What the balance pays: the price, never more than the reservation. */
  chargedMicros: number;
  /** The price of the run as its usage says; null when a token-metered run's tokens were not reported. */
  pricedMicros: number | null;
  /** The price above the reservation: not charged, the operator's loss (logged and alarmed). */
  unbilledMicros: number;
  /** A token-metered run without its token counts, settled at the reservation (fail closed). */
  usageMissing: boolean;
}

export const settlement = (request: PricedRequest, outcome: PricedOutcome, reservedMicros: number): Settlement => {
  const tokenMetered = 'output' in request && modelOf(request.output.baseModel).pricing.metering === 'tokens';
  if (tokenMetered && totalUsage(outcome).tokensMissing === true)
    return { chargedMicros: reservedMicros, pricedMicros: null, unbilledMicros: 0, usageMissing: true };
  const priced = finalPrice(request, outcome);
  return {
    chargedMicros: Math.min(priced, reservedMicros),
    pricedMicros: priced,
    unbilledMicros: Math.max(0, priced - reservedMicros),
    usageMissing: false,
  };
};
