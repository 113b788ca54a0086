/**
 * Read first: the callback retry budget. At most MAX_CALLBACK_ATTEMPTS (6) attempts, so at most 5 waits.
 *
 * The wait after attempt n (1-based) is nominal(n) = min(30 s × 4^(n−1), 1500 s):
 *   30, 120, 480, 1500, 1500 s, in total 3630 s ≈ 60.5 min.
 * Each wait is jittered by ±20 % (nominal × (0.8 + 0.4 × random)), so the whole budget stays "about an
 * hour" at both jitter extremes: 2904 s (48.4 min) to 4356 s (72.6 min). Full or equal jitter would
 * spread one job's budget by a factor of 2; ±20 % is enough to keep the retries of many jobs whose
 * receiver was down at the same time from arriving in step.
 *
 * The deliverer applies a wait with SQS ChangeMessageVisibility, whose maximum is 43 200 s (12 h); the
 * longest wait here is 1800 s.
 */
export const MAX_CALLBACK_ATTEMPTS = 6;
export const RETRY_BASE_DELAY_SECONDS = 30;
export const RETRY_BACKOFF_FACTOR = 4;
export const RETRY_MAX_NOMINAL_DELAY_SECONDS = 1500;
export const RETRY_JITTER_FRACTION = 0.2;

/** What one attempt produced: the receiver's HTTP status, or no answer at all. */
export type DeliveryResult = number | 'timeout' | 'network';

export type DeliveryOutcome = 'delivered' | 'gone' | 'retry';

/**
 * Seconds to wait before the next attempt, after `attemptsSoFar` attempts (≥ 1) have failed;
 * undefined once the attempts are spent. `random` returns a number in [0, 1), like Math.random.
 */
export function retryDelaySeconds(attemptsSoFar: number, random: () => number): number | undefined {
  if (!Number.isInteger(attemptsSoFar) || attemptsSoFar < 1) {
    throw new RangeError(`attemptsSoFar must be an integer ≥ 1, got ${attemptsSoFar}`);
  }
  if (attemptsSoFar >= MAX_CALLBACK_ATTEMPTS) return undefined;
  const nominalSeconds = Math.min(
    RETRY_BASE_DELAY_SECONDS * RETRY_BACKOFF_FACTOR ** (attemptsSoFar - 1),
    RETRY_MAX_NOMINAL_DELAY_SECONDS,
  );
  const unit = Math.min(Math.max(random(), 0), 1);
  return Math.round(nominalSeconds * (1 - RETRY_JITTER_FRACTION + 2 * RETRY_JITTER_FRACTION * unit));
}

/** 2xx: delivered. 410 Gone: the receiver asks us to stop. Anything else (3xx, 4xx, 5xx, no answer): retry. */
export function deliveryOutcome(result: DeliveryResult): DeliveryOutcome {
  if (typeof result === 'number' && result >= 200 && result <= 299) return 'delivered';
  if (result === 410) return 'gone';
  return 'retry';
}

export function shouldRetry(result: DeliveryResult): boolean {
  return deliveryOutcome(result) === 'retry';
}
