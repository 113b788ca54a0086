/**
 * A hosted trainer must not train at a loss by accident: its list price for one training at the configured
 * settings (providers/list-prices.ts) against the Full Train price (pricing.ts). Above it, the start (a cold
 * start, `npm start`, `cdk synth`) stops unless the operator allows it, as route-margins.ts does for routes.
 */
import { TRAINING_PRICE_MICROS } from './pricing';

/** The share of the Full Train price the default settings keep the trainer's list price under. */
export const TRAINER_COST_TARGET_SHARE = 0.7;

export class TrainerCostError extends Error {
  override name = 'TrainerCostError';
}

export const checkTrainerCost = (costMicros: number, allow: boolean, setting: string, allowName: string): void => {
  const price = TRAINING_PRICE_MICROS.standard;
  if (allow || costMicros <= price) return;
  throw new TrainerCostError(
    `${setting}: the trainer lists ${(costMicros / 1e6).toFixed(2)} USD a training, more than the Full Train price ` +
      `(${(price / 1e6).toFixed(2)} USD). Lower the steps, or set ${allowName} to train at a loss (docs/identity.md).`,
  );
};
