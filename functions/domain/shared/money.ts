/** Money is integer micro-USD everywhere inside the service; dollars appear only at the edges. */
export const MICROS_PER_USD = 1_000_000;

/** Parses a dollar amount written as a decimal string ("10", "2.90", "0.000001") without floats. */
export const parseUsd = (text: string): number | undefined => {
  const match = /^(\d{1,9})(?:\.(\d{1,6}))?$/.exec(text.trim());
  if (!match) return undefined;
  const [, whole, fraction = ''] = match;
  return Number(whole) * MICROS_PER_USD + Number(fraction.padEnd(6, '0'));
};

/**
 * A dollar amount as a person types one for money that moves through Stripe: whole cents, at most seven
 * digits before the point ("5", "25.00", "2000.00"). Top-ups, auto-recharge, thresholds and the operator's limits.
 */
export const USD_AMOUNT_PATTERN = /^\d{1,7}(\.\d{1,2})?$/;

/** The micro-USD of such an amount (USD_AMOUNT_PATTERN), or undefined when `text` is not one. */
export const usdAmountMicros = (text: string): number | undefined =>
  USD_AMOUNT_PATTERN.test(text) ? parseUsd(text) : undefined;

/** Micro-USD as a decimal dollar string with two to six decimals, exact: 1_490_000 → "1.49", -232 → "-0.000232". */
export const usdDecimal = (micros: number): string => {
  const sign = micros < 0 ? '-' : '';
  const abs = Math.abs(micros);
  const whole = Math.floor(abs / MICROS_PER_USD);
  const fraction = String(abs % MICROS_PER_USD)
    .padStart(6, '0')
    .replace(/0{1,4}$/, '');
  return `${sign}${whole}.${fraction.padEnd(2, '0')}`;
};

/** Shows micro-USD as dollars with at least two decimals: 1_490_000 → "1.49 USD". */
export const formatUsd = (micros: number): string => `${usdDecimal(micros)} USD`;

/** An amount on the wire: the dollar string to show and the exact integer to compute with. */
export interface MoneyBody {
  usd: string;
  micro_usd: number;
}

export const moneyBody = (micros: number): MoneyBody => ({ usd: usdDecimal(micros), micro_usd: micros });
