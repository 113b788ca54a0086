/**
 * The engine step of an asynchronous job and its cancels, on fakes and Jest's timers (no waiting): a job
 * canceled before it runs, a cancel noticed while the engine runs, the cancel_after deadline, and a cancel
 * that loses to the job's success.
 */

import type { EngineOutcome, EngineTicket } from '../../../../functions/domain/engine/engine';
import { cancel } from '../../../../functions/domain/jobs/cancel';
import type { Job } from '../../../../functions/domain/jobs/job';
import { CANCEL_CHECK_MS, cancelEngineWork } from '../../../../functions/domain/workflow/rounds';
import { runEngine, settle } from '../../../../functions/domain/workflow/steps';
import { aJob, engineWork, reserveJob, workflowDeps } from '../../../support/builders/jobs';
import { FakeLedger, fakeJobs } from '../../../support/fakes';

const ACCOUNT = 'acc_1';
const NOW = Date.parse('2026-11-23T12:00:00.000Z');
const FLOOR = 120_000;
const caller = { accountId: ACCOUNT, keyId: 'key_1' };

beforeEach(() => jest.useFakeTimers({ now: NOW }));
afterEach(() => jest.useRealTimers());

/** An engine that answers only when told to, stops on an abort as a provider's client does, and says whether it saw one. */
const heldEngine = () => {
  let answer: (outcome: EngineOutcome) => void = () => undefined;
  const state = { aborted: false };
  return {
    state,
    answer: (outcome: EngineOutcome) => answer(outcome),
    run: (_request: unknown, signal: AbortSignal) =>
      new Promise<EngineOutcome>((resolve, reject) => {
        answer = resolve;
        signal.addEventListener('abort', () => {
          state.aborted = true;
          reject(signal.reason);
        });
      }),
  };
};

const world = async (overrides: Partial<Job> = {}) => {
  const ledger = new FakeLedger({ [ACCOUNT]: 10_000_000 });
  const jobs = fakeJobs(ledger);
  const engine = heldEngine();
  const job = aJob(
    ACCOUNT,
    {
      status: 'running',
      startedAt: NOW,
      work: engineWork(),
      ...overrides,
    },
    NOW,
  );
  await reserveJob(ledger, job, FLOOR, NOW);
  const deps = workflowDeps({ jobs, ledger, engine, link: async () => 'https://api.test/v2/service/downloads/dl' });
  const stopped: string[] = [];
  const cancelDeps = {
    jobs,
    ledger,
    clock: deps.clock,
    link: deps.link,
    stopImageJob: async (jobId: string) => void stopped.push(jobId),
    cancelEngineWork: (ticket: EngineTicket | null) => cancelEngineWork(deps.engine.queue, ticket),
    enqueueCallback: deps.enqueueCallback,
  };
  return { ledger, engine, job, deps, cancelDeps, stopped };
};

const IMAGES: EngineOutcome = {
  kind: 'images',
  images: [Buffer.from('jpeg')],
  usage: { outputTokens: 0, megapixels: 3.1 },
};

describe('canceling a job', () => {
  it('aborts the engine call within one check once the job is canceled, and reports CANCELED', async () => {
    const { engine, job, deps, cancelDeps, ledger, stopped } = await world();
    const step = runEngine(deps, job, 15 * 60 * 1000);
    await jest.advanceTimersByTimeAsync(1000);
    await cancel(cancelDeps, caller, job.jobId);
    expect(stopped).toEqual([job.jobId]);
    await jest.advanceTimersByTimeAsync(CANCEL_CHECK_MS);
    await expect(step).resolves.toEqual({ outcome: 'failed', error: expect.objectContaining({ code: 'CANCELED' }) });
    expect(engine.state.aborted).toBe(true);
    expect(ledger.movesOf(job.jobId)).toEqual([`reserve ${-FLOOR}`, `release ${FLOOR}`]);
  });

  it('does not run the engine for a job canceled before its turn', async () => {
    const { engine, job, deps, cancelDeps } = await world({ status: 'pending', startedAt: null });
    await cancel(cancelDeps, caller, job.jobId);
    await expect(runEngine(deps, job, 15 * 60 * 1000)).resolves.toEqual({
      outcome: 'failed',
      error: expect.objectContaining({ code: 'CANCELED' }),
    });
    expect(engine.state.aborted).toBe(false);
  });

  it('ends a job at its cancel_after deadline', async () => {
    const { engine, job, deps } = await world({ cancelAt: NOW + 3000 });
    const step = runEngine(deps, job, 15 * 60 * 1000);
    await jest.advanceTimersByTimeAsync(3000);
    await expect(step).resolves.toEqual({
      outcome: 'failed',
      error: { code: 'CANCELED', message: expect.stringContaining('cancel_after 3 s') },
    });
    expect(engine.state.aborted).toBe(true);
  });

  it('loses to a success that settled first: 409, and the charge stays settled', async () => {
    const { engine, job, deps, cancelDeps, ledger } = await world();
    const step = runEngine(deps, job, 15 * 60 * 1000);
    await jest.advanceTimersByTimeAsync(10);
    engine.answer(IMAGES);
    const run = await step;
    await settle(deps, { ...job, run });
    await expect(cancel(cancelDeps, caller, job.jobId)).rejects.toMatchObject({
      code: 'JOB_NOT_CANCELABLE',
      message: `Job ${job.jobId} has already ended: succeeded.`,
    });
    // The settlement entry moves the difference between the final price and the reservation: none here.
    expect(ledger.movesOf(job.jobId)).toEqual([`reserve ${-FLOOR}`, 'settle 0']);
  });

  it('wins over a success that comes after it: the settlement moves nothing', async () => {
    const { engine, job, deps, cancelDeps, ledger } = await world();
    const step = runEngine(deps, job, 15 * 60 * 1000);
    await jest.advanceTimersByTimeAsync(10);
    await cancel(cancelDeps, caller, job.jobId);
    engine.answer(IMAGES);
    const run = await step;
    if (run.outcome === 'succeeded') await settle(deps, { ...job, run });
    expect(ledger.movesOf(job.jobId)).toEqual([`reserve ${-FLOOR}`, `release ${FLOOR}`]);
  });

  it('refuses a synchronous call', async () => {
    const { job, cancelDeps } = await world({ mode: 'sync' });
    await expect(cancel(cancelDeps, caller, job.jobId)).rejects.toMatchObject({ code: 'JOB_NOT_CANCELABLE' });
  });
});
