/**
 * The per-account request rate (functions/domain/accounts/rate-limit.ts), against a runtime whose default
 * is 5 requests a minute and whose key cache is off (so an operator's limit applies at once).
 */

import { services } from '../../bin/local-aws/services';
import { Accounts } from '../../functions/domain';
import { startTestRuntime, type TestRuntime } from '../support/runtime';

const LIMIT = 5;
let runtime: TestRuntime;

beforeAll(async () => {
  runtime = await startTestRuntime({ env: { RATE_LIMIT_PER_MINUTE: String(LIMIT), API_KEY_CACHE_SECONDS: '0' } });
});
afterAll(() => runtime.close());

const status = (apiKey: string) => runtime.call('GET', '/v2/service/profiles/ids', { apiKey });

/** A fresh account, called first when its minute has enough of itself left for the test to run in one window. */
const freshWindow = async () => {
  const account = await runtime.newAccount();
  const reset = Number((await status(account.apiKey)).headers.get('RateLimit-Reset'));
  if (reset >= 5) return { account, used: 1 };
  await new Promise((resolve) => setTimeout(resolve, reset * 1000 + 200));
  return { account: await runtime.newAccount(), used: 0 };
};

describe('per-account request limits', () => {
  it('tells every answer the limit, what is left and when the window resets, then answers 429 with Retry-After', async () => {
    const { account, used } = await freshWindow();
    const remaining: number[] = [];
    for (let i = used; i < LIMIT; i += 1) {
      const response = await status(account.apiKey);
      expect(response.status).toBe(200);
      expect(response.headers.get('RateLimit-Limit')).toBe(String(LIMIT));
      const reset = Number(response.headers.get('RateLimit-Reset'));
      expect(reset).toBeGreaterThan(0);
      expect(reset).toBeLessThanOrEqual(60);
      remaining.push(Number(response.headers.get('RateLimit-Remaining')));
    }
    expect(remaining.at(-1)).toBe(0);
    const limited = await status(account.apiKey);
    expect(limited.status).toBe(429);
    expect(await limited.json()).toMatchObject({
      code: 'RATE_LIMITED',
      detail: expect.stringContaining(`${LIMIT} per minute`),
      request_id: expect.any(String),
    });
    expect(Number(limited.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect(limited.headers.get('RateLimit-Remaining')).toBe('0');
  });

  it('puts the headers on error answers too, and counts each account on its own', async () => {
    const { account } = await freshWindow();
    const missing = await runtime.call('GET', '/v2/service/jobs/job_missing', { apiKey: account.apiKey });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('RateLimit-Limit')).toBe(String(LIMIT));
    const other = await runtime.newAccount();
    expect((await status(other.apiKey)).headers.get('RateLimit-Remaining')).toBe(String(LIMIT - 1));
  });

  it('applies the limit an operator set for the account, and goes back to the default when cleared', async () => {
    const { account } = await freshWindow();
    await Accounts.setLimit(services(), account.accountId, 'requestsPerMinute', 100);
    expect((await status(account.apiKey)).headers.get('RateLimit-Limit')).toBe('100');
    await Accounts.setLimit(services(), account.accountId, 'requestsPerMinute', null);
    expect((await status(account.apiKey)).headers.get('RateLimit-Limit')).toBe(String(LIMIT));
  });

  it('does not count requests that carry no valid key', async () => {
    const response = await runtime.call('GET', '/v2/service/profiles/ids', { apiKey: 'isk_not_a_key' });
    expect(response.status).toBe(401);
    expect(response.headers.get('RateLimit-Limit')).toBeNull();
  });
});
