/**
 * A webhook test and a redelivery each make the service POST to a URL the caller chooses, so the use
 * cases themselves count them on the account's outbound window: every caller (the public API, the
 * portal) gets the limit by calling them.
 */
import type { RateCounter } from '../../../../functions/domain/accounts/rate-limit';
import { NotFoundError, RateLimitedError } from '../../../../functions/domain/errors';
import { redeliver, testWebhook } from '../../../../functions/domain/jobs/deliveries';

const NOW = Date.parse('2026-11-23T12:00:30Z');
const caller = { accountId: 'acc_1', keyId: 'key_1' };

const fixture = (outboundSendsPerMinute: number) => {
  const counts = new Map<string, number>();
  const counter: RateCounter = {
    hit: async (accountId, windowStart, _windowEnd, name) => {
      const key = `${accountId}/${windowStart}/${name}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
      return counts.get(key) ?? 0;
    },
  };
  const posted: string[] = [];
  const jobReads: string[] = [];
  const shared = { counter, outboundSendsPerMinute, clock: () => NOW, newId: () => 'dlv_1' };
  const webhookTest = {
    ...shared,
    webhookSecrets: async () => ({ current: 'whsec_MMoOtEqpvPUJeoI7/rV8ao+sy+5sTCQNQEkvbo0B8UY=' }),
    post: async (url: string) => {
      posted.push(url);
      return { result: 200, latencyMs: 3 };
    },
  };
  const redelivery = {
    ...shared,
    jobs: {
      get: async (_accountId: string, jobId: string) => {
        jobReads.push(jobId);
        return undefined;
      },
    },
    link: async () => 'https://example.test/link',
    enqueueCallback: async () => undefined,
  };
  return { webhookTest, redelivery, posted, jobReads };
};

describe('the outbound-send limit, inside the use cases', () => {
  it('refuses a webhook test past the limit before anything is signed or sent', async () => {
    const { webhookTest, posted } = fixture(1);
    await testWebhook(webhookTest, caller, 'https://example.test/hook');
    const refused = await testWebhook(webhookTest, caller, 'https://example.test/hook').catch(
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(RateLimitedError);
    expect(refused).toMatchObject({ code: 'RATE_LIMITED', retryAfterSeconds: 30 });
    expect(posted).toHaveLength(1);
  });

  it('refuses a redelivery past the limit before the job is read', async () => {
    const { redelivery, jobReads } = fixture(1);
    await expect(redeliver(redelivery, caller, 'job_1', undefined)).rejects.toThrow(NotFoundError);
    await expect(redeliver(redelivery, caller, 'job_1', undefined)).rejects.toThrow(RateLimitedError);
    expect(jobReads).toEqual(['job_1']);
  });

  it('counts webhook tests and redeliveries on one window', async () => {
    const { webhookTest, redelivery, jobReads } = fixture(2);
    await testWebhook(webhookTest, caller, 'https://example.test/hook');
    await testWebhook(webhookTest, caller, 'https://example.test/hook');
    await expect(redeliver(redelivery, caller, 'job_1', undefined)).rejects.toThrow(RateLimitedError);
    expect(jobReads).toEqual([]);
  });
});
