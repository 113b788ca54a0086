/**
 * @jest-environment ./test/faces/onnx-environment.js
 *
 * Identity retries priced, never a loss, over the wire through the provider doubles (which draw a stranger
 * on `[double:drift]` and no face at all on `[double:no-face]`): every output made again is charged at the
 * operation's per-output price and reserved up front, the answer and the ledger name the outputs made
 * again, a subject with no face drawn is not retried, and a synchronous call whose retries would reach
 * its deadline delivers its best attempt instead of a 504. Synchronous and asynchronous alike.
 */
import { findBaseModel } from '../../../functions/domain/catalog/catalog';
import { facePhoto, seedFaceProfile } from '../../support/faces';
import { operationCaller, pollJob, useProviderRuntime } from '../../support/providers/e2e';
import { balanceOf, expectOk } from './support';

const OPENING_MICROS = 10_000_000;
/** The sync budget of this file: long enough for three quick attempts, short enough to make a slow retry miss it. */
const SYNC_BUDGET_SECONDS = 10;
jest.setTimeout(180_000);

const world = useProviderRuntime({ SYNC_BUDGET_SECONDS: String(SYNC_BUDGET_SECONDS) });
const call = operationCaller(world);
const spent = async (accountId: string) => OPENING_MICROS - (await balanceOf(accountId));

/** base-a-2 on fal's flux-2 (the doubles' routes): flat, $0.04 an output at 1K. */
const PER_OUTPUT = (() => {
  const pricing = findBaseModel('base-a-2')?.pricing;
  if (pricing?.metering !== 'flat' || pricing.perImageMicros['1K'] === undefined) throw new Error('base-a-2 is flat');
  return pricing.perImageMicros['1K'];
})();

interface Answer {
  job_id?: string;
  known_subjects: { counts: Record<string, number> };
  identity?: {
    expected: string[];
    outputs: {
      output_index: number;
      kept: string[];
      missing: string[];
      attempts: number;
      carried_by?: Record<string, string>;
    }[];
    retried_outputs: number;
  };
}

interface LedgerEntry {
  kind: string;
  job_id: string | null;
  retried_outputs?: number;
  note: string | null;
}

const settleEntries = async (apiKey: string): Promise<LedgerEntry[]> => {
  const response = await world.runtime.call('GET', '/v2/service/account/ledger?limit=100', { apiKey });
  expect(response.status).toBe(200);
  const { entries } = (await response.json()) as { entries: LedgerEntry[] };
  return entries.filter((entry) => entry.kind === 'settle');
};

/** A new account with one trained profile, and a generate body naming it on base-a-2 (fal). */
const subject = async () => {
  const account = await world.runtime.newAccount();
  const profile = await seedFaceProfile(account.accountId, facePhoto('astronaut.jpg'));
  const body = (prompt: string, more: Record<string, unknown> = {}) => ({
    prompt: `[[${profile.profileId}]] ${prompt}`,
    base_model: 'base-a-2',
    ...more,
  });
  return { account, profile, body };
};

describe('identity retries are the caller’s', () => {
  it('a retry request that made outputs again is charged more than the same request in report mode, and says so', async () => {
    const { account, profile, body } = await subject();

    await expectOk(await call('generate', account.apiKey, body('in a garden [double:drift]')));
    const report = await spent(account.accountId);
    expect(report).toBe(PER_OUTPUT);

    const submissions = world.doubles.fal.submissions.length;
    const answer = (await expectOk(
      await call('generate', account.apiKey, body('in a garden [double:drift]', { identity_check: 'retry' })),
    )) as unknown as Answer;
    const retry = (await spent(account.accountId)) - report;

    // A stranger drawn three times: two outputs made again, each at the per-output price, no surcharge.
    expect(world.doubles.fal.submissions.length - submissions).toBe(3);
    expect(answer.identity).toEqual({
      expected: [profile.profileId],
      outputs: [
        {
          output_index: 0,
          kept: [],
          missing: [profile.profileId],
          attempts: 3,
          carried_by: { [profile.profileId]: 'references' },
        },
      ],
      retried_outputs: 2,
    });
    expect(retry).toBe(3 * PER_OUTPUT);
    expect(retry).toBeGreaterThan(report);

    const [settled] = await settleEntries(account.apiKey);
    expect(settled).toMatchObject({ retried_outputs: 2, note: expect.stringContaining('2 outputs made again') });
  });

  it('reserves every retry up front: a balance short of it is a 402, nothing charged', async () => {
    // Enough for the request in report mode (one output and its surcharge), not for its two retries.
    const account = await world.runtime.newAccount(PER_OUTPUT + 30_000);
    const profile = await seedFaceProfile(account.accountId, facePhoto('astronaut.jpg'));
    const request = { prompt: `[[${profile.profileId}]] reading`, base_model: 'base-a-2' };
    const refused = await call('generate', account.apiKey, { ...request, identity_check: 'retry' });
    expect(refused.status).toBe(402);
    expect(await balanceOf(account.accountId)).toBe(PER_OUTPUT + 30_000);
    await expectOk(await call('generate', account.apiKey, { ...request, identity_check: 'report' }));
  });

  it('a subject drawn with no face (seen from behind) is not made again, and costs one attempt', async () => {
    const { account, profile, body } = await subject();
    const submissions = world.doubles.fal.submissions.length;

    const answer = (await expectOk(
      await call('generate', account.apiKey, body('seen from behind [double:no-face]', { identity_check: 'retry' })),
    )) as unknown as Answer;

    expect(world.doubles.fal.submissions.length - submissions).toBe(1);
    expect(answer.identity).toEqual({
      expected: [profile.profileId],
      outputs: [
        {
          output_index: 0,
          kept: [],
          missing: [profile.profileId],
          attempts: 1,
          carried_by: { [profile.profileId]: 'references' },
        },
      ],
      retried_outputs: 0,
    });
    expect(await spent(account.accountId)).toBe(PER_OUTPUT);
    expect((await settleEntries(account.apiKey))[0]).not.toHaveProperty('retried_outputs');
  });

  it('an asynchronous job charges its retries the same way', async () => {
    const { account, profile, body } = await subject();
    const submitted = await call(
      'generate',
      account.apiKey,
      body('in a garden [double:drift]', { identity_check: 'retry', async: true, response_mode: 'urls' }),
    );
    expect(submitted.status).toBe(202);
    const { job_id } = (await submitted.json()) as { job_id: string };
    const job = await pollJob(world.runtime, account.apiKey, job_id, undefined, { timeoutMs: 90_000 });
    expect(job.status).toBe('succeeded');
    expect((job.result as unknown as Answer).identity).toMatchObject({
      expected: [profile.profileId],
      outputs: [{ attempts: 3 }],
      retried_outputs: 2,
    });
    expect(await spent(account.accountId)).toBe(3 * PER_OUTPUT);
    expect(job.cost?.final).toBe('0.12');
  });
});

describe('a synchronous call’s retries stop in time', () => {
  it('delivers its best attempt instead of a 504 when another retry would reach the deadline', async () => {
    const { account, profile } = await subject();
    // Every OpenAI call takes 3.5 s: the first ends at ~3.5 s, a retry at ~7 s (inside the window, which
    // closes 1 s before the 10 s deadline); a second would end at ~10.5 s, so it is not started. (Three quick
    // attempts, the first test's, take about 1.3 s.)
    world.doubles.openai.delayMs = 3_500;
    try {
      const response = await call('generate', account.apiKey, {
        prompt: `[[${profile.profileId}]] on a bench [double:drift]`,
        base_model: 'base-b-2',
        identity_check: 'retry',
      });
      const answer = (await expectOk(response)) as unknown as Answer;
      const attempts = answer.identity?.outputs[0]?.attempts ?? 0;
      expect(attempts).toBeGreaterThanOrEqual(1);
      expect(attempts).toBeLessThan(3);
      expect(answer.identity?.retried_outputs).toBe(attempts - 1);
      expect(answer.identity?.outputs[0]?.missing).toEqual([profile.profileId]);
    } finally {
      world.doubles.openai.delayMs = 0;
    }
  });
});
