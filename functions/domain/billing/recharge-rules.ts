/**
 * Read first: what an automatic charge may be (issue 41; docs/billing.md, "Auto-recharge: who agrees and
 * how much"). Auto-recharge charges a saved card with no person present, so:
 *
 * - only a person in the portal's session turns it on, raises its amount or threshold, or saves a card; an
 *   API key (even one with the `billing` scope) may turn it off or lower it, nothing more (403
 *   PERSON_REQUIRED). With nothing set there is nothing to lower.
 * - when on, `amount` lies within the top-up limits (TOP_UP_MIN_USD..TOP_UP_MAX_USD) and within the daily
 *   cap, and `threshold` is below `amount` (a 422 on the field).
 * - automatic charges per account per UTC day stop at AUTO_RECHARGE_DAILY_MAX_USD: each charge is counted
 *   on a per-account per-day item by the same conditional transaction that claims it (billing-settings.ts),
 *   so a race of settles cannot pass the cap.
 */
import { PersonRequiredError } from '../errors';
import { usdDecimal } from '../shared/money';

/** Who is changing the settings: a signed-in person in the portal, or an API key. */
export type BillingActor = 'person' | 'api-key';

export interface AutoRechargeInput {
  enabled: boolean;
  thresholdMicros: number;
  amountMicros: number;
}

export interface RechargeLimits {
  /** The top-up limits (TOP_UP_MIN_USD, TOP_UP_MAX_USD). */
  minMicros: number;
  maxMicros: number;
  /** AUTO_RECHARGE_DAILY_MAX_USD: automatic charges per account per day, together. */
  dailyMaxMicros: number;
}

export interface RechargeProblem {
  field: 'amount' | 'threshold';
  message: string;
}

/** What is wrong with auto-recharge settings that turn it on (none when it is off: nothing will be charged). */
export const rechargeProblems = (input: AutoRechargeInput, limits: RechargeLimits): RechargeProblem[] => {
  if (!input.enabled) return [];
  const problems: RechargeProblem[] = [];
  const most = Math.min(limits.maxMicros, limits.dailyMaxMicros);
  if (input.amountMicros < limits.minMicros || input.amountMicros > most)
    problems.push({
      field: 'amount',
      message: `auto_recharge.amount must be from ${usdDecimal(limits.minMicros)} to ${usdDecimal(most)} USD${
        most < limits.maxMicros ? ' (the daily cap of automatic charges)' : ''
      }.`,
    });
  if (input.thresholdMicros >= input.amountMicros)
    problems.push({
      field: 'threshold',
      message: `auto_recharge.threshold must be below auto_recharge.amount (${usdDecimal(input.amountMicros)} USD).`,
    });
  return problems;
};

/**
 * Refuses (403 PERSON_REQUIRED) what only a person may agree to: with an API key, auto-recharge may be turned
 * off or lowered (amount and threshold each at most what is stored), never turned on or raised.
 */
export const assertAgreedTo = (
  actor: BillingActor,
  stored: AutoRechargeInput | null,
  input: AutoRechargeInput,
): void => {
  if (actor === 'person') return;
  if (input.enabled && !stored?.enabled) throw new PersonRequiredError('Turning auto-recharge on');
  if (input.amountMicros > (stored?.amountMicros ?? 0) || input.thresholdMicros > (stored?.thresholdMicros ?? 0))
    throw new PersonRequiredError('Raising auto-recharge’s amount or threshold');
};

/** Refuses (403 PERSON_REQUIRED) a card saved for automatic charges from anywhere but a person's portal session. */
export const assertMaySaveCard = (actor: BillingActor, saveCard: boolean | undefined): void => {
  if (saveCard === true && actor !== 'person') throw new PersonRequiredError('Saving a card for automatic charges');
};

/** The day an automatic charge counts against: the UTC day of `at`, from its start (epoch ms). */
export const rechargeDayStart = (at: number): number => at - (at % 86_400_000);
