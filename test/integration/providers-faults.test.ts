/**
 * @jest-environment ./test/faces/onnx-environment.js
 *
 * A provider is asked to do work once, and nothing is left running at a provider (issue 31), black box
 * through the provider doubles: a provider that answers 500 after doing the work, or never answers, is not
 * sent the request again (the job fails INTERNAL_ERROR, refunded); fal's status failing for a minute of the
 * workflow's time keeps the job waiting; every path that ends a job holding a fal ticket (the Catch's
 * release, a failed ticket store, a synchronous 504, the deadline, the budget) makes the double receive the
 * cancel of that request, and so does a cancel after a route change, which a job held at fal also outlives. The file's runtime shortens a provider attempt (1 s), the synchronous budget
 * (3 s) and the asynchronous one (6 s); the workflow's waits run at its time scale (TIME_SCALE).
 */
import { resetComposition } from '../../functions/composition/core';
import type { JobStepDeps } from '../../functions/composition/workflows/job-steps';
import { jobStepDeps } from '../../functions/composition/workflows/job-steps';
import { type JobStatus, jobStatus, pollJob, useProviderRuntime } from '../support/providers/e2e';
import { inProcessOnly } from '../support/runtime';
import { balanceOf, expectError } from './images/support';

const OPENING_MICROS = 10_000_000;

/**
 * A fifth of the test runtime's default: a round of fal's wait chain (heartbeats of 30, 120 and 480 s in the
 * workflow's seconds) takes 0.13 s, so the job whose status fails for twelve checks waits less than a second.
 */
const TIME_SCALE = 0.0002;

const world = useProviderRuntime(
  {
    CALLBACK_RETRY_SCALE: '0',
    PROVIDER_ATTEMPT_TIMEOUT_SECONDS: '1',
    SYNC_BUDGET_SECONDS: '3',
    ASYNC_BUDGET_SECONDS: '6',
  },
  {},
  TIME_SCALE,
);

const spent = async (accountId: string) => OPENING_MICROS - (await balanceOf(accountId));

const call = (operation: string, apiKey: string, body: unknown) =>
  world.runtime.call('POST', `/v2/service/${operation}`, { apiKey, body });

/** Submits an asynchronous generate; answers the job id of the 202. */
const submit = async (apiKey: string, body: Record<string, unknown>): Promise<string> => {
  const response = await call('generate', apiKey, { ...body, async: true });
  const text = await response.text();
  expect({ status: response.status, text }).toEqual({ status: 202, text: expect.stringContaining('"pending"') });
  return (JSON.parse(text) as { job_id: string }).job_id;
};

/**
 * The paths of the cancels the fal double received for the submission at index `index`. Each path that
 * ends a job asks on its own (RunEngine, then ReleaseCharge; the cancel route, then the step that learns of
 * it): fal answers a repeated cancel as it did the first, so the tests ask for at least one.
 */
const falCancels = (index: number): string[] => {
  const id = world.doubles.fal.submissions[index]?.requestId;
  return world.doubles.fal.received
    .filter((request) => request.method === 'PUT' && request.path.endsWith(`/requests/${id}/cancel`))
    .map((request) => request.path);
};

/** The cancels of submission `index` once at least one arrived (a step refunds first, then cancels), within 10 s. */
const falCancelsSoon = async (index: number): Promise<string[]> => {
  const deadline = Date.now() + 10_000;
  while (falCancels(index).length === 0 && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 20));
  return falCancels(index);
};

const failedRefunded = (code: string) => ({ status: 'failed', error: { code }, cost: { final: '0.00' } });

/**
 * A fault at a provider that does not deduplicate, how to script it on its double, and how many work
 * requests that double has received so far.
 */
interface WorkFault {
  name: string;
  model: string;
  mode: 'sync' | 'async';
  arm(): void;
  sent(): number;
}

const FAULTS: WorkFault[] = [
  {
    name: 'OpenAI answers 500 after making the images',
    model: 'base-b-2',
    mode: 'sync',
    arm: () => world.doubles.openai.script.push({ kind: 'work-then-fail', status: 500 }),
    sent: () => world.doubles.openai.received.length,
  },
  {
    name: 'Gemini never answers (the attempt times out)',
    model: 'base-c-2',
    mode: 'sync',
    arm: () => world.doubles.gemini.script.push({ kind: 'hang' }),
    sent: () => world.doubles.gemini.counters.requests,
  },
  {
    name: 'OpenAI never answers an asynchronous job',
    model: 'base-b-2',
    mode: 'async',
    arm: () => world.doubles.openai.script.push({ kind: 'hang' }),
    sent: () => world.doubles.openai.received.length,
  },
  {
    name: 'Gemini answers 500 after making the image of an asynchronous job',
    model: 'base-c-2',
    mode: 'async',
    arm: () => world.doubles.gemini.script.push({ kind: 'work-then-fail', status: 500 }),
    sent: () => world.doubles.gemini.counters.requests,
  },
  {
    name: 'fal answers its submit 500 after queueing the request',
    model: 'base-a-2',
    mode: 'async',
    arm: () => world.doubles.fal.failNext(500, { on: 'submit', afterWork: true }),
    sent: () => world.doubles.fal.counters.submits,
  },
  {
    name: 'fal never answers a submit',
    model: 'base-a-2',
    mode: 'async',
    arm: () => world.doubles.fal.hangNextSubmit(),
    sent: () => world.doubles.fal.counters.submits,
  },
];

describe('a provider is asked to do work once', () => {
  it.each(FAULTS)('$name: one request, the $mode job fails INTERNAL_ERROR, refunded', async (fault) => {
    const account = await world.runtime.newAccount(OPENING_MICROS);
    const before = fault.sent();
    fault.arm();
    const body = { prompt: 'a kite', base_model: fault.model };
    if (fault.mode === 'sync') await expectError(await call('generate', account.apiKey, body), 500, 'INTERNAL_ERROR');
    else {
      const jobId = await submit(account.apiKey, body);
      expect(await pollJob(world.runtime, account.apiKey, jobId)).toMatchObject(failedRefunded('INTERNAL_ERROR'));
    }
    expect(fault.sent() - before).toBe(1);
    expect(await spent(account.accountId)).toBe(0);
  });
});

describe('fal’s status failing', () => {
  it('for a minute of the workflow’s time keeps the job waiting, then it succeeds on the one request', async () => {
    const account = await world.runtime.newAccount(OPENING_MICROS);
    const before = { ...world.doubles.fal.counters };
    world.doubles.fal.holdNext({ queuedPolls: 2, runningPolls: 2 });
    // 60 s of checks every 5 s, each of a check's four attempts failing: twelve checks' worth of 503s.
    world.doubles.fal.failNext(503, { on: 'status', times: 12 * 4, retryAfter: '0' });
    const jobId = await submit(account.apiKey, { prompt: 'a flaky harbour', base_model: 'base-a-2' });
    const job = await pollJob(world.runtime, account.apiKey, jobId);
    expect(job).toMatchObject({ status: 'succeeded', error: null });
    expect(world.doubles.fal.counters.submits - before.submits).toBe(1);
    expect(world.doubles.fal.counters.statusPolls - before.statusPolls).toBeGreaterThan(12 * 4);
    // Its own request is never stopped (an earlier test's orphan may still be redelivered and stopped meanwhile).
    const requestId = world.doubles.fal.submissions.at(-1)?.requestId;
    expect(world.doubles.fal.received.filter((request) => request.path.endsWith(`${requestId}/cancel`))).toEqual([]);
  });

  it('until the job’s budget ends it: TIMEOUT, refunded, and fal receives the cancel', async () => {
    const account = await world.runtime.newAccount(OPENING_MICROS);
    const index = world.doubles.fal.submissions.length;
    world.doubles.fal.holdNext({ queuedPolls: 1_000_000 });
    world.doubles.fal.failNext(503, { on: 'status', times: 1_000_000, retryAfter: '0' });
    try {
      const jobId = await submit(account.apiKey, { prompt: 'a harbour never checked', base_model: 'base-a-2' });
      const job = await pollJob(world.runtime, account.apiKey, jobId, undefined, { timeoutMs: 30_000 });
      expect(job).toMatchObject(failedRefunded('TIMEOUT'));
      expect((await falCancelsSoon(index)).length).toBeGreaterThanOrEqual(1);
      expect(await spent(account.accountId)).toBe(0);
    } finally {
      // The rest of the scripted failures must not reach the next test.
      world.doubles.fal.clearFailures();
    }
  }, 40_000);
});

describe('nothing is left running at fal', () => {
  /** Waits until the fal double was asked for the status of submission `index` (its ticket is on the job). */
  const checked = async (index: number) => {
    const deadline = Date.now() + 15_000;
    const seen = () =>
      world.doubles.fal.received.some((request) =>
        request.path.endsWith(`/requests/${world.doubles.fal.submissions[index]?.requestId}/status`),
      );
    while (!seen() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(seen()).toBe(true);
  };

  it('a check that fails for good ends in the Catch’s release, which cancels the request', async () => {
    const account = await world.runtime.newAccount(OPENING_MICROS);
    const index = world.doubles.fal.submissions.length;
    world.doubles.fal.holdNext({ queuedPolls: 1_000_000 });
    // For good: the wait's status check and RunEngine's check after it both get the 404.
    world.doubles.fal.failNext(404, { on: 'status', after: 1, times: 2 });
    const jobId = await submit(account.apiKey, { prompt: 'a harbour lost', base_model: 'base-a-2' });
    expect(await pollJob(world.runtime, account.apiKey, jobId)).toMatchObject(failedRefunded('INTERNAL_ERROR'));
    expect((await falCancelsSoon(index)).length).toBeGreaterThanOrEqual(1);
  });

  it('the deadline (cancel_after) cancels the request: CANCELED, refunded', async () => {
    const account = await world.runtime.newAccount(OPENING_MICROS);
    const index = world.doubles.fal.submissions.length;
    world.doubles.fal.holdNext({ queuedPolls: 1_000_000 });
    const jobId = await submit(account.apiKey, { prompt: 'a slow harbour', base_model: 'base-a-2', cancel_after: 1 });
    await checked(index);
    expect(await pollJob(world.runtime, account.apiKey, jobId)).toMatchObject(failedRefunded('CANCELED'));
    expect((await falCancelsSoon(index)).length).toBeGreaterThanOrEqual(1);
  });

  it('a cancel asks fal to cancel the request', async () => {
    const account = await world.runtime.newAccount(OPENING_MICROS);
    const index = world.doubles.fal.submissions.length;
    world.doubles.fal.holdNext({ queuedPolls: 1_000_000 });
    const jobId = await submit(account.apiKey, { prompt: 'a harbour never drawn', base_model: 'base-a-2' });
    await checked(index);
    const response = await world.runtime.call('POST', `/v2/service/jobs/${jobId}/cancel`, { apiKey: account.apiKey });
    expect(response.status).toBe(200);
    expect((await falCancelsSoon(index)).length).toBeGreaterThanOrEqual(1);
    expect(await jobStatus(world.runtime, account.apiKey, jobId)).toMatchObject(failedRefunded('CANCELED'));
  });

  it('a synchronous call past its budget cancels the request before it answers 504', async () => {
    const account = await world.runtime.newAccount(OPENING_MICROS);
    const index = world.doubles.fal.submissions.length;
    world.doubles.fal.holdNext({ queuedPolls: 1_000_000 });
    const response = await call('generate', account.apiKey, { prompt: 'a harbour too slow', base_model: 'base-a-2' });
    // Read at once: the cancel was sent before the answer, not after it.
    const cancels = falCancels(index);
    await expectError(response, 504, 'TIMEOUT');
    expect(cancels.length).toBeGreaterThanOrEqual(1);
    expect(await spent(account.accountId)).toBe(0);
  }, 20_000);

  inProcessOnly(
    'a ticket that cannot be stored: the submitted request is canceled, the job failed, refunded',
    async () => {
      const account = await world.runtime.newAccount(OPENING_MICROS);
      const index = world.doubles.fal.submissions.length;
      const deps: JobStepDeps = jobStepDeps();
      const saved = deps.jobs;
      // The repository with one method replaced, once (its other methods keep their own `this`).
      deps.jobs = Object.assign(Object.create(saved) as typeof saved, {
        recordTicket: async () => {
          deps.jobs = saved;
          throw new Error('the table refused the ticket');
        },
      });
      try {
        world.doubles.fal.holdNext({ queuedPolls: 1_000_000 });
        const jobId = await submit(account.apiKey, { prompt: 'a harbour unrecorded', base_model: 'base-a-2' });
        const job: JobStatus = await pollJob(world.runtime, account.apiKey, jobId);
        expect(job).toMatchObject(failedRefunded('INTERNAL_ERROR'));
        expect(world.doubles.fal.submissions.length - index).toBe(1);
        expect((await falCancelsSoon(index)).length).toBeGreaterThanOrEqual(1);
      } finally {
        deps.jobs = saved;
      }
    },
  );

  // The route changed while the service runs, and its executions with it, as on AWS, where a deployment
  // with a new MODEL_ROUTES leaves running executions to new function instances. The runtime reads its
  // settings once (functions/composition/core.ts): the new ones apply after resetComposition, as the runtime
  // itself applies its own. npm run start:assets fixes each function's environment when its process
  // starts, as on Lambda, so there this path is a restart with new settings on the same data
  // (test/integration/restart-provider.test.ts, in both runtimes).
  inProcessOnly(
    'a route change mid-job: a job held at fal completes from fal, and a cancel of another reaches fal',
    async () => {
      const account = await world.runtime.newAccount(OPENING_MICROS);
      const completing = world.doubles.fal.submissions.length;
      // Held at fal until told (below, once the new route's work and the other job's cancel are checked).
      world.doubles.fal.holdNext({ untilTold: { queuePosition: 0 } });
      const completingJob = await submit(account.apiKey, { prompt: 'a harbour fal finishes', base_model: 'base-a-2' });
      await checked(completing);
      const completingRequest = world.doubles.fal.submissions[completing]!.requestId;
      const canceled = world.doubles.fal.submissions.length;
      world.doubles.fal.holdNext({ queuedPolls: 1_000_000 });
      const canceledJob = await submit(account.apiKey, { prompt: 'a harbour canceled at fal', base_model: 'base-a-2' });
      await checked(canceled);

      const routes = process.env.MODEL_ROUTES;
      process.env.MODEL_ROUTES = JSON.stringify({ ...JSON.parse(routes ?? '{}'), 'base-a-2': 'openai:gpt-image-2' });
      // base-a-2 sells below gpt-image-2's list price: allowed here, the route change is what is tested.
      process.env.ALLOW_ROUTES_BELOW_COST = 'true';
      resetComposition();
      try {
        // The change came before fal finished: what follows runs under the new route, which new work takes.
        expect((await jobStatus(world.runtime, account.apiKey, completingJob)).status).not.toBe('succeeded');
        // fal starts the held job's work (it answers IN_PROGRESS from now on).
        world.doubles.fal.advance(completingRequest, 'IN_PROGRESS');
        const openAiCalls = world.doubles.openai.received.length;
        const body = { prompt: 'a harbour drawn by the new route', base_model: 'base-a-2' };
        expect((await call('generate', account.apiKey, body)).status).toBe(200);
        expect(world.doubles.openai.received.length - openAiCalls).toBe(1);

        const response = await world.runtime.call('POST', `/v2/service/jobs/${canceledJob}/cancel`, {
          apiKey: account.apiKey,
        });
        expect(response.status).toBe(200);
        expect((await falCancelsSoon(canceled)).length).toBeGreaterThanOrEqual(1);
        expect(await jobStatus(world.runtime, account.apiKey, canceledJob)).toMatchObject(failedRefunded('CANCELED'));

        // fal finishes the held job now, under the new route, after the other job's cancel.
        expect((await jobStatus(world.runtime, account.apiKey, completingJob)).status).not.toBe('succeeded');
        world.doubles.fal.advance(completingRequest, 'COMPLETED');
        const done = await pollJob(world.runtime, account.apiKey, completingJob);
        expect(done).toMatchObject({ status: 'succeeded', error: null });
        expect(falCancels(completing)).toEqual([]);
        expect(world.doubles.openai.received.length - openAiCalls).toBe(1);
        expect(world.doubles.fal.submissions.length - completing).toBe(2);
      } finally {
        if (routes === undefined) delete process.env.MODEL_ROUTES;
        else process.env.MODEL_ROUTES = routes;
        delete process.env.ALLOW_ROUTES_BELOW_COST;
        resetComposition();
      }
    },
  );
});
