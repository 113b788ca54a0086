/**
 * Canceling asynchronous jobs, black box: by request (pending and running), by a `cancel_after`
 * deadline, and against the job's own completion. Each job is an enhance of a small JPEG; `sandbox:slow`
 * keeps one running as long as a test needs.
 */
import { services } from '../../bin/local-aws/services';
import { ended, holdPlaces, type JobBody, pollJob, submitEnhance, waitForJob } from '../support/async-jobs';
import { base64Jpeg } from '../support/images';
import { entriesOfJob } from '../support/ledger';
import { startReceiver } from '../support/receiver';
import { startTestRuntime, type TestRuntime } from '../support/runtime';
import { balanceOf } from './images/support';

let runtime: TestRuntime;
let image: string;

beforeAll(async () => {
  runtime = await startTestRuntime({ env: { CALLBACK_RETRY_SCALE: '0' } });
  image = await base64Jpeg();
});
afterAll(() => runtime.close());

const submit = (apiKey: string, extra: Record<string, unknown> = {}) => submitEnhance(runtime, apiKey, image, extra);
const cancel = (apiKey: string, jobId: string) => runtime.call('POST', `/v2/service/jobs/${jobId}/cancel`, { apiKey });
const poll = (apiKey: string, jobId: string) => pollJob(runtime, apiKey, jobId);
const until = (apiKey: string, jobId: string, wanted: (job: JobBody) => boolean, timeoutMs = 30_000) =>
  waitForJob(runtime, apiKey, jobId, wanted, { timeoutMs });

describe('canceling a job', () => {
  it('stops a running job: failed CANCELED, the reservation refunded once, the callback sent', async () => {
    const account = await runtime.newAccount();
    const before = await balanceOf(account.accountId);
    const receiver = await startReceiver([204]);
    try {
      const jobId = await submit(account.apiKey, { prompt: 'sandbox:slow=30', callback_url: receiver.url });
      await until(account.apiKey, jobId, (job) => job.status === 'running');
      const response = await cancel(account.apiKey, jobId);
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ job_id: jobId, status: 'failed', error: { code: 'CANCELED' } });
      expect(await balanceOf(account.accountId)).toBe(before);
      await receiver.waitFor(1);
      expect(JSON.parse(receiver.received[0]!.body)).toMatchObject({
        job_id: jobId,
        status: 'failed',
        error: { code: 'CANCELED' },
      });
      expect((await entriesOfJob(account.accountId, jobId)).map((entry) => entry.kind)).toEqual(['reserve', 'release']);
    } finally {
      await receiver.close();
    }
  });

  it('stops a job still waiting for a place, before it ever runs', async () => {
    const account = await runtime.newAccount();
    await services().accounts.get(account.accountId);
    await holdPlaces(account.accountId, 1_000);
    const before = await balanceOf(account.accountId);
    const jobId = await submit(account.apiKey);
    expect((await poll(account.apiKey, jobId)).status).toBe('pending');
    const response = await cancel(account.apiKey, jobId);
    expect(await response.json()).toMatchObject({ status: 'failed', error: { code: 'CANCELED' } });
    expect(await balanceOf(account.accountId)).toBe(before);
    await holdPlaces(account.accountId, 0);
  });

  it('answers 409 with the status for a job that has ended, and moves nothing', async () => {
    const account = await runtime.newAccount();
    const jobId = await submit(account.apiKey);
    await until(account.apiKey, jobId, ended);
    const balance = await balanceOf(account.accountId);
    const response = await cancel(account.apiKey, jobId);
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({
      code: 'JOB_NOT_CANCELABLE',
      detail: `Job ${jobId} has already ended: succeeded.`,
    });
    expect(await balanceOf(account.accountId)).toBe(balance);
  });

  it('answers 404 for another account’s job, which goes on', async () => {
    const owner = await runtime.newAccount();
    const other = await runtime.newAccount();
    const jobId = await submit(owner.apiKey);
    expect((await cancel(other.apiKey, jobId)).status).toBe(404);
    expect((await until(owner.apiKey, jobId, ended)).status).toBe('succeeded');
  });

  it('cancels a job whose cancel_after deadline passes, refunded', async () => {
    const account = await runtime.newAccount();
    const before = await balanceOf(account.accountId);
    const jobId = await submit(account.apiKey, { prompt: 'sandbox:slow=30', cancel_after: 1 });
    const job = await until(account.apiKey, jobId, ended, 15_000);
    expect(job).toMatchObject({
      status: 'failed',
      error: { code: 'CANCELED', message: expect.stringContaining('cancel_after 1 s') },
    });
    expect(await balanceOf(account.accountId)).toBe(before);
  });

  it('refuses cancel_after without async: true (422 at cancel_after)', async () => {
    const account = await runtime.newAccount();
    const response = await runtime.call('POST', '/v2/service/enhance', {
      apiKey: account.apiKey,
      body: { image, cancel_after: 5 },
    });
    expect(response.status).toBe(422);
    expect(((await response.json()) as { detail: Array<{ loc: unknown }> }).detail.map((entry) => entry.loc)).toEqual([
      ['body', 'cancel_after'],
    ]);
  });

  it('settles exactly one outcome when a cancel crosses the job’s completion, 50 times over', async () => {
    const account = await runtime.newAccount(1_000_000_000);
    const before = await balanceOf(account.accountId);
    const jobIds = await Promise.all(Array.from({ length: 50 }, () => submit(account.apiKey)));
    const answers = await Promise.all(
      jobIds.map(async (jobId, index) => {
        await new Promise((resolve) => setTimeout(resolve, index * 7));
        return (await cancel(account.apiKey, jobId)).status;
      }),
    );
    let charged = 0;
    for (const [index, jobId] of jobIds.entries()) {
      const job = await until(account.apiKey, jobId, ended);
      const kinds = (await entriesOfJob(account.accountId, jobId)).map((entry) => entry.kind);
      if (answers[index] === 200) {
        expect({ jobId, status: job.status, code: job.error?.code, kinds }).toEqual({
          jobId,
          status: 'failed',
          code: 'CANCELED',
          kinds: ['reserve', 'release'],
        });
      } else {
        expect({ jobId, answer: answers[index], status: job.status, kinds }).toEqual({
          jobId,
          answer: 409,
          status: 'succeeded',
          kinds: ['reserve', 'settle'],
        });
        charged += 1;
      }
    }
    const pricePerJob = 120_000;
    expect(await balanceOf(account.accountId)).toBe(before - charged * pricePerJob);
  }, 120_000);
});
