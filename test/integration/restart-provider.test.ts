/**
 * @jest-environment ./test/faces/onnx-environment.js
 *
 * Nothing is left running at fal across a stop of the service (issue 31): `npm start` (or `npm run
 * start:assets`) is run as a child process whose routes put base-a-2 on the fal double (started here),
 * killed with work held at fal, and started again on the same data directory:
 * - a synchronous call in flight lost its caller with the process: the start's sweep of abandoned work
 *   fails it (INTERNAL_ERROR), refunds it once, and fal receives the cancel of its request;
 * - a route change while async jobs are held at fal (started again with base-a-2 routed to OpenAI, as a
 *   deployment would change MODEL_ROUTES): a job already at fal completes from fal, and a cancel of
 *   another reaches fal, not the provider the route names now.
 * What is asserted is what a user sees (the job, the ledger) and what fal receives (the cancel).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { services } from '../../bin/local-aws/services';
import { entriesOfJob } from '../support/ledger';
import {
  type JobStatus,
  jobStatus,
  type ProviderDoubles,
  pollJob,
  startProviderDoubles,
} from '../support/providers/e2e';
import { startTestRuntime, type TestRuntime } from '../support/runtime';
import { startServiceProcess, stopServiceProcess } from '../support/service-process';

jest.setTimeout(120_000);

let doubles: ProviderDoubles;

beforeAll(async () => {
  doubles = await startProviderDoubles();
});
afterAll(async () => {
  await doubles?.close();
});
afterEach(() => {
  expect(doubles.violations()).toEqual([]);
});

/** The PUTs to the cancel URL of the fal double's submission `index`. */
const falCancels = (index: number): number => {
  const id = doubles.fal.submissions[index]?.requestId;
  return doubles.fal.received.filter(
    (request) => request.method === 'PUT' && request.path.endsWith(`/requests/${id}/cancel`),
  ).length;
};

/** Waits (15 s at most) until `seen()`; answers whether it was. */
const until = async (seen: () => boolean, timeoutMs = 15_000): Promise<boolean> => {
  const deadline = Date.now() + timeoutMs;
  while (!seen() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  return seen();
};

/** Whether the fal double was asked for the status of submission `index` (its ticket is checked). */
const checked = (index: number) => () =>
  doubles.fal.received.some((request) =>
    request.path.endsWith(`/requests/${doubles.fal.submissions[index]?.requestId}/status`),
  );

const post = (service: { url: string; apiKey: string }, route: string, body: unknown) =>
  fetch(`${service.url}${route}`, {
    method: 'POST',
    headers: { 'X-API-Key': service.apiKey, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('after a kill with a synchronous fal call in flight, a restart', () => {
  let runtime: TestRuntime | undefined;
  afterAll(async () => {
    await runtime?.close();
  });

  it('fails the call INTERNAL_ERROR, refunds it once, and cancels its request at fal', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'restart-fal-'));
    // A budget far longer than the test: the call is still waiting on fal when the process dies.
    const env = { ...doubles.env, SYNC_BUDGET_SECONDS: '120' };
    const service = await startServiceProcess(dataDir, { env });
    const index = doubles.fal.submissions.length;
    doubles.fal.holdNext({ queuedPolls: 1_000_000 });
    const answer = post(service, '/v2/service/generate', { prompt: 'a harbour at dusk', base_model: 'base-a-2' });
    answer.catch(() => undefined);
    // A status poll comes after the ticket is stored on the job (the call stores it before it checks).
    expect(await until(checked(index))).toBe(true);
    await stopServiceProcess(service.child, 'SIGKILL');
    expect(falCancels(index)).toBe(0);

    runtime = await startTestRuntime({ dataDir, env });
    expect(runtime.reconciled.failedJobs).toHaveLength(1);
    const [jobId] = runtime.reconciled.failedJobs;
    const accountId = runtime.devAccount!.accountId;
    const job = await services().jobs.get(accountId, jobId!);
    expect(job).toMatchObject({ mode: 'sync', status: 'failed', error: { code: 'INTERNAL_ERROR' } });
    expect((await entriesOfJob(accountId, jobId!)).map((entry) => [entry.kind, entry.amountMicros])).toEqual([
      ['reserve', expect.any(Number)],
      ['release', -(await entriesOfJob(accountId, jobId!))[0]!.amountMicros],
    ]);
    expect(falCancels(index)).toBeGreaterThanOrEqual(1);
    expect(doubles.fal.submissions.length - index).toBe(1);
  });
});

describe('a route change while jobs are held at fal', () => {
  let runtime: TestRuntime | undefined;
  afterAll(async () => {
    await runtime?.close();
  });

  it('a held job completes from fal, and a cancel of another reaches fal, refunded', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'route-change-'));
    const service = await startServiceProcess(dataDir, { env: doubles.env });
    const submit = async (prompt: string) => {
      const response = await post(service, '/v2/service/generate', { prompt, base_model: 'base-a-2', async: true });
      expect(response.status).toBe(202);
      return ((await response.json()) as { job_id: string }).job_id;
    };
    const completing = doubles.fal.submissions.length;
    // Held at fal until told (below, once the restart and the checks that need it unfinished are done): it
    // outlasts the restart whatever the machine's speed, and then completes from fal as fal would.
    doubles.fal.holdNext({ untilTold: { queuePosition: 0 } });
    const completingJob = await submit('a harbour finished by fal');
    expect(await until(checked(completing))).toBe(true);
    const completingRequest = doubles.fal.submissions[completing]!.requestId;
    const canceled = doubles.fal.submissions.length;
    doubles.fal.holdNext({ queuedPolls: 1_000_000 });
    const canceledJob = await submit('a harbour canceled at fal');
    expect(await until(checked(canceled))).toBe(true);
    await stopServiceProcess(service.child, 'SIGKILL');

    // The operator routes base-a-2 to OpenAI now (a deployment with a new MODEL_ROUTES, here a restart).
    const openAiCalls = doubles.openai.received.length;
    const routes = { ...JSON.parse(doubles.env.MODEL_ROUTES!), 'base-a-2': 'openai:gpt-image-2' };
    // base-a-2 sells below gpt-image-2's list price: allowed here, the route change is what is tested.
    runtime = await startTestRuntime({
      dataDir,
      env: { ...doubles.env, MODEL_ROUTES: JSON.stringify(routes), ALLOW_ROUTES_BELOW_COST: 'true' },
    });
    expect([...runtime.reconciled.resumedJobs].sort()).toEqual([completingJob, canceledJob].sort());
    const apiKey = runtime.devAccount!.apiKey;
    const accountId = runtime.devAccount!.accountId;
    // The restart came before fal finished: what follows runs under the new route, which new work takes.
    expect((await jobStatus(runtime, apiKey, completingJob)).status).not.toBe('succeeded');
    // fal starts the held job's work (it answers IN_PROGRESS from now on).
    doubles.fal.advance(completingRequest, 'IN_PROGRESS');
    const newWork = await runtime.call('POST', '/v2/service/generate', {
      apiKey,
      body: { prompt: 'a harbour drawn by the new route', base_model: 'base-a-2' },
    });
    expect(newWork.status).toBe(200);
    expect(doubles.openai.received.length - openAiCalls).toBe(1);

    const response = await runtime.call('POST', `/v2/service/jobs/${canceledJob}/cancel`, { apiKey });
    expect(response.status).toBe(200);
    expect(await until(() => falCancels(canceled) >= 1)).toBe(true);
    const refunded: JobStatus = await jobStatus(runtime, apiKey, canceledJob);
    expect(refunded).toMatchObject({ status: 'failed', error: { code: 'CANCELED' }, cost: { final: '0.00' } });
    expect((await entriesOfJob(accountId, canceledJob)).map((entry) => entry.kind)).toEqual(['reserve', 'release']);

    // fal finishes the held job now, after the restart, the new route's work and the other job's cancel.
    expect((await jobStatus(runtime, apiKey, completingJob)).status).not.toBe('succeeded');
    doubles.fal.advance(completingRequest, 'COMPLETED');
    const done = await pollJob(runtime, apiKey, completingJob, undefined, { timeoutMs: 60_000 });
    expect(done).toMatchObject({ status: 'succeeded', error: null });
    expect(done.result?.download_urls).toHaveLength(1);
    expect((await entriesOfJob(accountId, completingJob)).map((entry) => entry.kind)).toEqual(['reserve', 'settle']);
    expect(falCancels(completing)).toBe(0);
    // Neither job was started again at the provider the route names now, nor at fal.
    expect(doubles.openai.received.length - openAiCalls).toBe(1);
    expect(doubles.fal.submissions.length - completing).toBe(2);
  });
});
