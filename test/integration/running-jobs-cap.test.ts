/**
 * The per-account cap of running asynchronous jobs (MarkRunning, jobs-repository.ts): a job beyond it
 * waits in `pending` and then finishes; each job takes a place while it runs and gives it back when its
 * charge closes. The runtime's cap is 1.
 */

import { services } from '../../bin/local-aws/services';
import { Accounts } from '../../functions/domain';
import { ended, holdPlaces, placesOf, submitEnhance, waitForJob } from '../support/async-jobs';
import { base64Jpeg } from '../support/images';
import { startTestRuntime, type TestRuntime } from '../support/runtime';

let runtime: TestRuntime;

beforeAll(async () => {
  runtime = await startTestRuntime({ env: { MAX_RUNNING_JOBS: '1', API_KEY_CACHE_SECONDS: '0' } });
});
afterAll(() => runtime.close());

const submit = async (apiKey: string) => submitEnhance(runtime, apiKey, await base64Jpeg());
const statusOf = async (apiKey: string, jobId: string) =>
  ((await (await runtime.call('GET', `/v2/service/jobs/${jobId}`, { apiKey })).json()) as { status: string }).status;
const settled = async (apiKey: string, jobId: string) =>
  (await waitForJob(runtime, apiKey, jobId, ended, { everyMs: 50 })).status;
const places = placesOf;

describe('the cap of running jobs per account', () => {
  it('keeps a job beyond the cap pending until a place is free, then runs it to the end', async () => {
    const account = await runtime.newAccount();
    await holdPlaces(account.accountId, 1);
    const jobId = await submit(account.apiKey);
    for (let i = 0; i < 10; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await statusOf(account.apiKey, jobId)).toBe('pending');
    }
    await holdPlaces(account.accountId, 0);
    expect(await settled(account.apiKey, jobId)).toBe('succeeded');
    expect(await places(account.accountId)).toBe(0);
  });

  it("runs an account's jobs one at a time under a cap of 1, each giving its place back", async () => {
    const account = await runtime.newAccount();
    const jobIds = await Promise.all([1, 2, 3].map(() => submit(account.apiKey)));
    for (const jobId of jobIds) expect(await settled(account.apiKey, jobId)).toBe('succeeded');
    const jobs = await Promise.all(jobIds.map(async (jobId) => (await services().jobs.get(account.accountId, jobId))!));
    const spans = jobs.map((job) => [job.startedAt!, job.completedAt!] as const).sort((a, b) => a[0] - b[0]);
    // A step stamps its time just before its write lands: the next job may read the clock a few ms before
    // the place it then takes is given back. A second job running beside the first would overlap it by
    // most of a job (hundreds of ms), far beyond this allowance.
    const STAMP_ALLOWANCE_MS = 50;
    for (let i = 1; i < spans.length; i += 1)
      expect(spans[i]![0]).toBeGreaterThanOrEqual(spans[i - 1]![1] - STAMP_ALLOWANCE_MS);
    expect(await places(account.accountId)).toBe(0);
  });

  it('does not hold other accounts back, and follows the cap an operator set for the account', async () => {
    const busy = await runtime.newAccount();
    await holdPlaces(busy.accountId, 1);
    const other = await runtime.newAccount();
    expect(await settled(other.apiKey, await submit(other.apiKey))).toBe('succeeded');
    await Accounts.setLimit(services(), busy.accountId, 'runningJobs', 2);
    expect(await settled(busy.apiKey, await submit(busy.apiKey))).toBe('succeeded');
    expect(await places(busy.accountId)).toBe(1);
  });
});
