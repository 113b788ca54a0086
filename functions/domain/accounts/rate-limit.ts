/**
 * Read first: the per-account request rate. Every request made with an API key counts in its account's
 * current one-minute window (one atomic table update, the only table operation this adds to a request);
 * past the account's limit it is answered 429 RATE_LIMITED with `Retry-After`, and every answer to an
 * authenticated request carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` (seconds
 * until the window ends), the IETF draft's names. The limit is the configured default unless the
 * operator set one for the account (`npm run admin -- limits`). A fixed window lets a client make up to
 * twice its limit across a window boundary; API Gateway's stage throttle is the outer guard.
 */
import { RateLimitedError } from '../errors';
import type { Clock } from '../shared/clock';

export const RATE_WINDOW_MS = 60_000;

/** The counts a window keeps: every request, and the requests that send to the caller's URL. */
export type RateCounterName = 'requests' | 'outbound';

export interface RateCounter {
  /** Counts one request in the account's window (starting at `windowStart`), returning the window's count so far. */
  hit(accountId: string, windowStart: number, windowEnd: number, counter: RateCounterName): Promise<number>;
}

export interface RateWindow {
  limit: number;
  count: number;
  resetAt: number;
}

export const admitRequest = (
  deps: { counter: RateCounter; clock: Clock },
  accountId: string,
  limit: number,
): Promise<RateWindow> => admit(deps, accountId, limit, 'requests');

/**
 * Requests that make the service POST to a URL the caller chooses (a webhook test, a redelivery) are
 * counted apart too, on the same window item, under a much lower limit: the service must not become a
 * way to send many requests to someone else's server.
 */
export const admitOutboundSend = (
  deps: { counter: RateCounter; clock: Clock },
  accountId: string,
  limit: number,
): Promise<RateWindow> => admit(deps, accountId, limit, 'outbound');

const admit = async (
  deps: { counter: RateCounter; clock: Clock },
  accountId: string,
  limit: number,
  counter: RateCounterName,
): Promise<RateWindow> => {
  const now = deps.clock();
  const windowStart = Math.floor(now / RATE_WINDOW_MS) * RATE_WINDOW_MS;
  const window = {
    limit,
    count: await deps.counter.hit(accountId, windowStart, windowStart + RATE_WINDOW_MS, counter),
    resetAt: windowStart + RATE_WINDOW_MS,
  };
  if (window.count > limit) {
    throw new RateLimitedError(
      window,
      secondsUntil(window.resetAt, now),
      counter === 'outbound' ? 'webhook tests and redeliveries' : 'requests',
    );
  }
  return window;
};

const secondsUntil = (at: number, now: number) => Math.max(1, Math.ceil((at - now) / 1000));

export const rateLimitHeaders = (window: RateWindow, now: number): Record<string, string> => ({
  'RateLimit-Limit': String(window.limit),
  'RateLimit-Remaining': String(Math.max(0, window.limit - window.count)),
  'RateLimit-Reset': String(secondsUntil(window.resetAt, now)),
});
