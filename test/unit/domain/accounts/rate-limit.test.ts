import {
  admitRequest,
  RATE_WINDOW_MS,
  type RateCounter,
  rateLimitHeaders,
} from '../../../../functions/domain/accounts/rate-limit';
import { RateLimitedError } from '../../../../functions/domain/errors';

const counterOf = () => {
  const counts = new Map<string, number>();
  const counter: RateCounter = {
    hit: async (accountId, windowStart) => {
      const key = `${accountId}/${windowStart}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
      return counts.get(key)!;
    },
  };
  return counter;
};

describe('the per-account request rate', () => {
  const minute = Date.parse('2026-11-23T12:00:00Z');

  it('admits up to the limit in a window, then refuses with the seconds until the window ends', async () => {
    let now = minute + 45_500;
    const deps = { counter: counterOf(), clock: () => now };
    for (let i = 0; i < 3; i += 1) await admitRequest(deps, 'acc_1', 3);
    const refused = await admitRequest(deps, 'acc_1', 3).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RateLimitedError);
    expect(refused).toMatchObject({ code: 'RATE_LIMITED', retryAfterSeconds: 15 });
    now = minute + RATE_WINDOW_MS;
    await expect(admitRequest(deps, 'acc_1', 3)).resolves.toMatchObject({
      count: 1,
      resetAt: minute + 2 * RATE_WINDOW_MS,
    });
  });

  it('counts each account in its own window', async () => {
    const deps = { counter: counterOf(), clock: () => minute };
    await admitRequest(deps, 'acc_1', 1);
    await expect(admitRequest(deps, 'acc_2', 1)).resolves.toMatchObject({ count: 1 });
  });

  it('says the limit, what is left (never below 0) and the whole seconds until the reset', () => {
    expect(rateLimitHeaders({ limit: 10, count: 12, resetAt: minute + 60_000 }, minute + 59_001)).toEqual({
      'RateLimit-Limit': '10',
      'RateLimit-Remaining': '0',
      'RateLimit-Reset': '1',
    });
    expect(rateLimitHeaders({ limit: 10, count: 4, resetAt: minute + 60_000 }, minute)).toEqual({
      'RateLimit-Limit': '10',
      'RateLimit-Remaining': '6',
      'RateLimit-Reset': '60',
    });
  });
});
