/**
 * A hosted trainer never trains at a loss by accident (functions/domain/catalog/trainer-cost.ts): fal's
 * flux-2-trainer at 0.0064 USD a step against the Full Train price of 2.90 USD.
 */
import {
  FAL_TRAINER_MICROS_PER_STEP,
  TRAINER_LIST_PRICES,
  trainerCostMicros,
} from '../../../../functions/adapters/engine/providers/list-prices';
import { TRAINING_PRICE_MICROS } from '../../../../functions/domain/catalog/pricing';
import {
  checkTrainerCost,
  TRAINER_COST_TARGET_SHARE,
  TrainerCostError,
} from '../../../../functions/domain/catalog/trainer-cost';

const FAL_TRAINER_DEFAULT_STEPS = TRAINER_LIST_PRICES.fal.defaultSteps;
const falTrainerCostMicros = (steps: number) => trainerCostMicros('fal', steps);
const check = (steps: number, allow = false) =>
  checkTrainerCost(falTrainerCostMicros(steps), allow, `LORA_TRAINER_STEPS=${steps}`, 'ALLOW_TRAINING_BELOW_COST=true');

describe('the trainer’s cost against the Full Train price', () => {
  it('at the default 300 steps lists 1.92 USD, at most 70 % of the 2.90 USD Full Train price', () => {
    expect(FAL_TRAINER_MICROS_PER_STEP).toBe(6_400);
    expect(falTrainerCostMicros(FAL_TRAINER_DEFAULT_STEPS)).toBe(1_920_000);
    expect(TRAINING_PRICE_MICROS.standard).toBe(2_900_000);
    expect(falTrainerCostMicros(FAL_TRAINER_DEFAULT_STEPS)).toBeLessThanOrEqual(
      TRAINER_COST_TARGET_SHARE * TRAINING_PRICE_MICROS.standard,
    );
    expect(() => check(FAL_TRAINER_DEFAULT_STEPS)).not.toThrow();
  });

  it.each(Object.entries(TRAINER_LIST_PRICES))(
    '%s’s trainer at its default steps lists at most 70 %% of the price',
    (id, list) => {
      expect(trainerCostMicros(id as keyof typeof TRAINER_LIST_PRICES, list.defaultSteps)).toBeLessThanOrEqual(
        TRAINER_COST_TARGET_SHARE * TRAINING_PRICE_MICROS.standard,
      );
    },
  );

  it('starts up to the price (453 steps, 2.8992 USD) and stops one step beyond it, naming the setting and the way out', () => {
    expect(() => check(453)).not.toThrow();
    expect(() => check(454)).toThrow(TrainerCostError);
    expect(() => check(1_000)).toThrow(
      'LORA_TRAINER_STEPS=1000: the trainer lists 6.40 USD a training, more than the Full Train price (2.90 USD). ' +
        'Lower the steps, or set ALLOW_TRAINING_BELOW_COST=true to train at a loss (docs/identity.md).',
    );
  });

  it('trains at a loss only when the operator allows it', () => {
    expect(() => check(1_000, true)).not.toThrow();
  });
});
