import {
  deliveryOutcome,
  MAX_CALLBACK_ATTEMPTS,
  retryDelaySeconds,
  shouldRetry,
} from '../../../../functions/domain/callbacks/retry-schedule';

const lowest = () => 0;
const middle = () => 0.5;
const highest = () => 0.999_999;

const waits = (random: () => number) =>
  Array.from({ length: MAX_CALLBACK_ATTEMPTS - 1 }, (_, index) => retryDelaySeconds(index + 1, random) ?? NaN);
const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

describe('retry schedule', () => {
  it('allows six attempts', () => {
    expect(MAX_CALLBACK_ATTEMPTS).toBe(6);
  });

  it('gives up after the sixth attempt', () => {
    expect(retryDelaySeconds(5, middle)).toBeDefined();
    expect(retryDelaySeconds(6, middle)).toBeUndefined();
    expect(retryDelaySeconds(7, middle)).toBeUndefined();
  });

  it('the nominal waits grow 30, 120, 480 s and are capped at 1500 s', () => {
    expect(waits(middle)).toEqual([30, 120, 480, 1500, 1500]);
  });

  it('jitter keeps each wait within ±20 % of nominal', () => {
    expect(waits(lowest)).toEqual([24, 96, 384, 1200, 1200]);
    expect(waits(highest)).toEqual([36, 144, 576, 1800, 1800]);
  });

  it('the whole budget is about an hour at both jitter extremes', () => {
    expect(sum(waits(middle))).toBe(3630);
    expect(sum(waits(lowest)) / 60).toBeGreaterThanOrEqual(45);
    expect(sum(waits(highest)) / 60).toBeLessThanOrEqual(75);
  });

  it('every wait is a whole number of seconds SQS can apply (≤ 12 h)', () => {
    for (const random of [lowest, () => 0.123, () => 0.777, highest]) {
      for (const wait of waits(random)) {
        expect(Number.isInteger(wait)).toBe(true);
        expect(wait).toBeGreaterThan(0);
        expect(wait).toBeLessThanOrEqual(43_200);
      }
    }
  });

  it('a random source outside [0, 1) is clamped', () => {
    expect(retryDelaySeconds(1, () => -5)).toBe(24);
    expect(retryDelaySeconds(1, () => 7)).toBe(36);
  });

  it('attemptsSoFar below 1 or fractional is a programming error', () => {
    expect(() => retryDelaySeconds(0, middle)).toThrow(RangeError);
    expect(() => retryDelaySeconds(1.5, middle)).toThrow(RangeError);
  });
});

describe('delivery outcome', () => {
  it('any 2xx is delivered', () => {
    for (const status of [200, 201, 202, 204, 299]) expect(deliveryOutcome(status)).toBe('delivered');
  });

  it('410 Gone stops the retries', () => {
    expect(deliveryOutcome(410)).toBe('gone');
    expect(shouldRetry(410)).toBe(false);
  });

  it('redirects, other client errors, server errors and no answer are retried', () => {
    for (const result of [199, 300, 301, 400, 401, 404, 408, 429, 500, 502, 503, 'timeout', 'network'] as const) {
      expect(shouldRetry(result)).toBe(true);
    }
  });

  it('a delivered callback is not retried', () => {
    expect(shouldRetry(200)).toBe(false);
  });
});
