/**
 * The engine step's exactly-once work (functions/domain/workflow/steps.ts, runEngine), on fakes and Jest's
 * timers: a queued provider is submitted once, its ticket stored on the job and checked by later rounds
 * until done; a finished step answers its recorded outcome without asking any engine again; a job that
 * ends while the provider holds its work asks the provider to stop.
 */
import { HttpEngineError } from '../../../../functions/adapters/engine/http-engine';
import type {
  EngineOutcome,
  EngineQueue,
  EngineRequest,
  EngineTicket,
  ImageEngine,
  QueueCheck,
} from '../../../../functions/domain/engine/engine';
import { canceledError, type Job } from '../../../../functions/domain/jobs/job';
import { CANCEL_CHECK_MS, cancelEngineWork, EngineFailedError } from '../../../../functions/domain/workflow/rounds';
import {
  providerWorkLostError,
  release,
  runEngine,
  type WorkflowDeps,
} from '../../../../functions/domain/workflow/steps';
import { aJob, engineWork, reserveJob } from '../../../support/builders/jobs';
import { aProfile } from '../../../support/builders/profiles';
import { FAKE_FACE_MODEL, FakeLedger, fakeEngine, fakeFace, fakeFaceAnalyzer, fakeJobs } from '../../../support/fakes';

const ACCOUNT = 'acc_1';
const NOW = Date.parse('2026-11-23T12:00:00.000Z');
const BUDGET_MS = 30 * 60 * 1000;
const FUNCTION_MS = 15 * 60 * 1000;
/** How long one check may take before the round answers `waiting` (the workflow's QUEUE_CHECK_LIMIT_MS). */
const CHECK_ROUND_MS = 120_000;

beforeEach(() => jest.useFakeTimers({ now: NOW }));
afterEach(() => jest.useRealTimers());

const ME = [1, 0, 0];

const OUTPUTS = [Buffer.from('output 0'), Buffer.from('output 1')];
const USAGE = { outputTokens: 0, megapixels: 2.1, providerCostMicros: 51_000 };
const IMAGES: EngineOutcome = { kind: 'images', images: OUTPUTS, usage: USAGE };

/**
 * A provider that queues work, in memory: it records every submit, check and cancel, answers `waiting`
 * to the first `waitingChecks` checks, then `done` with `outcome`. `check` may be replaced.
 */
const queuedProvider = (waitingChecks: number, outcome: EngineOutcome = IMAGES) => {
  const submits: EngineRequest[] = [];
  const webhooks: (string | undefined)[] = [];
  const checks: EngineTicket[] = [];
  const cancels: EngineTicket[] = [];
  const runs: EngineRequest[] = [];
  let answer = async (_signal: AbortSignal): Promise<QueueCheck> =>
    checks.length <= waitingChecks ? { state: 'waiting', progress: 0.3 } : { state: 'done', outcome };
  const queue: EngineQueue = {
    kind: 'fake-queue',
    accepts: () => true,
    submit: async (request, _signal, webhookUrl) => {
      submits.push(request);
      webhooks.push(webhookUrl);
      return { engine: 'fake-queue', requests: [{ id: `req_${submits.length}` }], submittedAt: NOW };
    },
    check: async (ticket, _request, signal) => {
      checks.push(ticket);
      return answer(signal);
    },
    cancel: async (ticket) => void cancels.push(ticket),
  };
  const engine: ImageEngine = {
    run: async (request) => {
      runs.push(request);
      return outcome;
    },
    queue,
  };
  return {
    engine,
    submits,
    webhooks,
    checks,
    cancels,
    runs,
    answerChecksWith: (next: (signal: AbortSignal) => Promise<QueueCheck>) => {
      answer = next;
    },
  };
};

/** A check that answers nothing until its signal aborts, then rejects with the signal's reason (as sendWithRetries does). */
const heldCheck = (signal: AbortSignal) =>
  new Promise<QueueCheck>((_resolve, reject) => {
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });

const ticketOf = (id: string): EngineTicket => ({ engine: 'fake-queue', requests: [{ id }], submittedAt: NOW });

const world = async (engine: ImageEngine, overrides: Partial<Job> = {}) => {
  const ledger = new FakeLedger({ [ACCOUNT]: 10_000_000 });
  const jobs = fakeJobs(ledger);
  const job = aJob(
    ACCOUNT,
    {
      operation: 'generate',
      status: 'running',
      startedAt: NOW,
      work: engineWork(
        {
          operation: 'generate',
          prompt: 'a portrait of [[prf_me]]',
          width: 1024,
          height: 1024,
          outputFormat: 'png',
          numOutputImages: 2,
          baseModel: 'base-a-2',
          candidates: [{ profileId: 'prf_me' }],
          namedInPrompt: ['prf_me'],
        },
        {
          operation: 'generate',
          output: { baseModel: 'base-a-2', resolution: '1K', width: 1024, height: 1024 },
          numOutputImages: 2,
        },
      ),
      ...overrides,
    },
    NOW,
  );
  await reserveJob(ledger, job, 100_000, NOW);
  const saved: { jobId: string; images: Buffer[]; format: string }[] = [];
  const loads: number[] = [];
  const faces = fakeFaceAnalyzer((image) => (image.toString() === 'output 0' ? [fakeFace(ME)] : []));
  const me = aProfile(
    ACCOUNT,
    {
      profileId: 'prf_me',
      face: { modelId: FAKE_FACE_MODEL, kind: 'person', mean: ME, referenceKeys: ['profiles/prf_me/ref-0.jpg'] },
    },
    NOW,
  );
  const time = { now: NOW };
  const deps: WorkflowDeps = {
    clock: () => time.now,
    jobs,
    ledger,
    engine,
    faces,
    profiles: { findMany: async (_accountId, ids) => (ids.includes('prf_me') ? [me] : []) },
    inputs: {
      load: async (inputs) => {
        loads.push(inputs.length);
        return [];
      },
    },
    outputs: {
      save: async (_accountId, jobId, images, format) => {
        saved.push({ jobId, images, format });
        return images.map((_, index) => `outputs/${ACCOUNT}/${jobId}/${index}.${format}`);
      },
    },
    link: async () => 'https://api.test/v2/service/downloads/dl',
    enqueueCallback: async () => undefined,
    cancelEngineWork: (ticket) => cancelEngineWork(engine.queue, ticket),
    settings: { asyncBudgetMs: BUDGET_MS, maxRunningJobs: 20 },
  };
  const stored = () => {
    const held = ledger.jobs.get(job.jobId);
    if (!held) throw new Error('the job is gone');
    return held.job;
  };
  const step = { accountId: ACCOUNT, jobId: job.jobId };
  const round = () => runEngine(deps, step, FUNCTION_MS);
  return { deps, job, stored, saved, loads, faces, time, round };
};

/** A success as RunEngine hands it on: with the job's settle basis (the fakes' jobs have no charge recorded). */
const handedOn = (job: Job, run: object) => ({
  ...run,
  settleBasis: { priced: job.work?.priced, outputFormat: job.work?.engine.outputFormat },
});

const SUCCEEDED = (jobId: string) => ({
  outcome: 'succeeded',
  outputKeys: [`outputs/${ACCOUNT}/${jobId}/0.png`, `outputs/${ACCOUNT}/${jobId}/1.png`],
  knownSubjects: { prf_me: 1 },
  recognizedFaces: [
    {
      outputIndex: 0,
      profileId: 'prf_me',
      box: { x: 0, y: 0, width: 300, height: 300 },
      similarity: 1,
      billed: true,
    },
  ],
  // Named in the prompt, so expected: kept in the output that shows it, missing from the other.
  identity: {
    expected: ['prf_me'],
    outputs: [
      { outputIndex: 0, kept: ['prf_me'], missing: [], attempts: 1, carriedBy: { prf_me: 'references' } },
      { outputIndex: 1, kept: [], missing: ['prf_me'], attempts: 1, carriedBy: { prf_me: 'references' } },
    ],
  },
  usage: USAGE,
});

describe('a queued provider', () => {
  it('is submitted once by the first round, whose ticket is stored on the job', async () => {
    const provider = queuedProvider(1);
    const { job, stored, round } = await world(provider.engine);
    await expect(round()).resolves.toEqual({ outcome: 'waiting' });
    expect(provider.submits).toHaveLength(1);
    expect(provider.submits[0]).toMatchObject({ workKey: job.jobId, baseModel: 'base-a-2', numOutputImages: 2 });
    expect(provider.checks).toEqual([]);
    expect(provider.runs).toEqual([]);
    expect(stored().engineTickets[0]).toEqual(ticketOf('req_1'));
  });

  it('is told the webhook of the provider whose queue makes the ticket', async () => {
    const provider = queuedProvider(1);
    const { deps, job, round } = await world(provider.engine);
    const asked: string[] = [];
    deps.reportUrl = async ({ jobId }, name) => {
      asked.push(name);
      return `https://api.test/v2/service/providers/${name}/webhook?job=${jobId}`;
    };
    await round();
    expect(asked).toEqual(['fake-queue']);
    expect(provider.webhooks).toEqual([`https://api.test/v2/service/providers/fake-queue/webhook?job=${job.jobId}`]);
  });

  it('is checked, not submitted again, by the later rounds, which record its progress', async () => {
    const provider = queuedProvider(2);
    const { stored, round } = await world(provider.engine);
    await round();
    await expect(round()).resolves.toEqual({ outcome: 'waiting' });
    await expect(round()).resolves.toEqual({ outcome: 'waiting' });
    expect(provider.submits).toHaveLength(1);
    expect(provider.checks).toEqual([ticketOf('req_1'), ticketOf('req_1')]);
    expect(stored().progress).toBe(0.3);
    expect(stored().engineRun).toBeNull();
  });

  it('reads the inputs only to submit: a check sends none', async () => {
    const provider = queuedProvider(1);
    const { loads, round } = await world(provider.engine);
    await round();
    await round();
    expect(loads).toHaveLength(1);
    expect(provider.submits).toHaveLength(1);
  });

  it('once done, saves the outputs, recognises who they show and records the outcome', async () => {
    const provider = queuedProvider(0);
    const { job, stored, saved, faces, round } = await world(provider.engine);
    await round();
    const run = await round();
    expect(run).toEqual(handedOn(job, SUCCEEDED(job.jobId)));
    expect(saved).toEqual([{ jobId: job.jobId, images: OUTPUTS, format: 'png' }]);
    expect(faces.analysed.map(String)).toEqual(['output 0', 'output 1']);
    // The job keeps the outcome alone: the basis is read again with it.
    expect(stored().engineRun).toEqual(SUCCEEDED(job.jobId));
  });

  it('is not asked again once the outcome is recorded', async () => {
    const provider = queuedProvider(0);
    const { job, saved, round } = await world(provider.engine);
    await round();
    await round();
    await expect(round()).resolves.toEqual(handedOn(job, SUCCEEDED(job.jobId)));
    expect(provider.submits).toHaveLength(1);
    expect(provider.checks).toHaveLength(1);
    expect(saved).toHaveLength(1);
  });

  it('turns a refusal into a failed outcome, recorded', async () => {
    const provider = queuedProvider(0, { kind: 'moderated', message: 'blocked by the provider' });
    const { stored, round } = await world(provider.engine);
    await round();
    const failed = { outcome: 'failed', error: { code: 'CONTENT_MODERATION', message: 'blocked by the provider' } };
    await expect(round()).resolves.toEqual(failed);
    expect(stored().engineRun).toEqual(failed);
  });

  it('submits once when two rounds run at once: the second finds the call-started mark, does not call, and fails the job', async () => {
    const provider = queuedProvider(1);
    const { stored, round } = await world(provider.engine);
    const [first, second] = await Promise.all([round(), round()]);
    expect(provider.submits).toHaveLength(1);
    expect(first).toEqual({ outcome: 'waiting' });
    expect(second).toEqual({ outcome: 'failed', error: providerWorkLostError() });
    expect(stored().engineTickets[0]).toEqual(ticketOf('req_1'));
    // The next round finds the recorded failure: ReleaseCharge then refunds and stops the ticket's work.
    await expect(round()).resolves.toEqual({ outcome: 'failed', error: providerWorkLostError() });
  });

  it('does not submit again when an earlier run may have submitted without storing its ticket', async () => {
    const provider = queuedProvider(1);
    const { stored, round } = await world(provider.engine, { engineCallAt: NOW - 1000 });
    await expect(round()).resolves.toEqual({ outcome: 'failed', error: providerWorkLostError() });
    expect(provider.submits).toEqual([]);
    expect(stored().engineRun).toEqual({ outcome: 'failed', error: providerWorkLostError() });
  });

  it('cancels the submitted work when its ticket cannot be stored, and fails the round', async () => {
    const provider = queuedProvider(1);
    const { deps, round } = await world(provider.engine);
    deps.jobs = { ...deps.jobs, recordTicket: async () => Promise.reject(new Error('table unavailable')) };
    await expect(round()).rejects.toThrow('table unavailable');
    expect(provider.submits).toHaveLength(1);
    expect(provider.cancels).toEqual([ticketOf('req_1')]);
  });

  it('answers waiting when a check takes longer than a round may, and keeps the ticket', async () => {
    const provider = queuedProvider(0);
    const { stored, round } = await world(provider.engine, { engineTickets: [ticketOf('req_1')] });
    provider.answerChecksWith(heldCheck);
    const step = round();
    await jest.advanceTimersByTimeAsync(CHECK_ROUND_MS);
    await expect(step).resolves.toEqual({ outcome: 'waiting' });
    expect(provider.cancels).toEqual([]);
    expect(stored().engineTickets[0]).toEqual(ticketOf('req_1'));
  });
});

describe('a queued job that ends', () => {
  it('asks the provider to cancel the ticket of a job canceled before the round', async () => {
    const provider = queuedProvider(5);
    const error = canceledError('request');
    const { round } = await world(provider.engine, {
      status: 'failed',
      error,
      engineTickets: [ticketOf('req_1')],
    });
    await expect(round()).resolves.toEqual({ outcome: 'failed', error });
    expect(provider.cancels).toEqual([ticketOf('req_1')]);
    expect(provider.checks).toEqual([]);
  });

  it('asks the provider to cancel work submitted while the job was being canceled (before its ticket was stored)', async () => {
    const provider = queuedProvider(5);
    const { stored, round } = await world(provider.engine);
    const queue = provider.engine.queue;
    if (!queue) throw new Error('the provider queues');
    const submit = queue.submit;
    queue.submit = async (request, signal) => {
      const ticket = await submit(request, signal);
      // The cancel lands here: it released the job and found no ticket to stop.
      Object.assign(stored(), { status: 'failed', error: canceledError('request') });
      return ticket;
    };
    await expect(round()).resolves.toEqual({ outcome: 'waiting' });
    expect(provider.cancels).toEqual([ticketOf('req_1')]);
  });

  it('asks the provider to cancel when the job is canceled during a check', async () => {
    const provider = queuedProvider(0);
    const { stored, round } = await world(provider.engine, { engineTickets: [ticketOf('req_1')] });
    provider.answerChecksWith(heldCheck);
    const step = round();
    await jest.advanceTimersByTimeAsync(10);
    Object.assign(stored(), { status: 'failed', error: canceledError('request') });
    await jest.advanceTimersByTimeAsync(CANCEL_CHECK_MS);
    await expect(step).resolves.toEqual({ outcome: 'failed', error: canceledError('request') });
    expect(provider.cancels).toEqual([ticketOf('req_1')]);
  });

  it('asks the provider to cancel a job past its budget, and reports TIMEOUT', async () => {
    const provider = queuedProvider(5);
    const { time, round } = await world(provider.engine, { engineTickets: [ticketOf('req_1')] });
    time.now = NOW + BUDGET_MS;
    await expect(round()).resolves.toEqual({
      outcome: 'failed',
      error: { code: 'TIMEOUT', message: expect.stringContaining('(1800 s)') },
    });
    expect(provider.cancels).toEqual([ticketOf('req_1')]);
    expect(provider.checks).toEqual([]);
  });

  it('asks the provider to cancel a job past its cancel_after deadline', async () => {
    const provider = queuedProvider(5);
    const { time, round } = await world(provider.engine, {
      engineTickets: [ticketOf('req_1')],
      cancelAt: NOW + 60_000,
    });
    time.now = NOW + 60_000;
    await expect(round()).resolves.toEqual({
      outcome: 'failed',
      error: { code: 'CANCELED', message: expect.stringContaining('cancel_after 60 s') },
    });
    expect(provider.cancels).toEqual([ticketOf('req_1')]);
  });
});

describe('ReleaseCharge (the Catch of any failed step lands there)', () => {
  it('refunds the job and asks the provider to stop the work its ticket names', async () => {
    const provider = queuedProvider(5);
    const { deps, job, stored } = await world(provider.engine, { engineTickets: [ticketOf('req_1')] });
    await release(deps, { accountId: job.accountId, jobId: job.jobId, failure: { Error: 'EngineFailed', Cause: 'x' } });
    expect(stored()).toMatchObject({ status: 'failed', error: { code: 'INTERNAL_ERROR' } });
    expect(provider.cancels).toEqual([ticketOf('req_1')]);
  });
});

describe('a failed check', () => {
  it('keeps the job waiting when the provider’s error is retryable: checked again after the wait', async () => {
    const provider = queuedProvider(0);
    const { stored, round } = await world(provider.engine, { engineTickets: [ticketOf('req_1')] });
    provider.answerChecksWith(async () => {
      throw new HttpEngineError('fal answered HTTP 503: busy (gave up after 4 attempts)', { retryable: true });
    });
    await expect(round()).resolves.toEqual({ outcome: 'waiting' });
    expect(provider.cancels).toEqual([]);
    expect(stored().engineTickets[0]).toEqual(ticketOf('req_1'));
    expect(stored().status).toBe('running');
  });

  it('fails the engine for good when it is not retryable', async () => {
    const provider = queuedProvider(0);
    const { round } = await world(provider.engine, { engineTickets: [ticketOf('req_1')] });
    provider.answerChecksWith(async () => {
      throw new HttpEngineError('fal answer does not match its API: no images', { retryable: false });
    });
    await expect(round()).rejects.toThrow(EngineFailedError);
  });

  it('fails the engine for good when no engine here has a queue for the stored ticket', async () => {
    const { round } = await world(fakeEngine(), { engineTickets: [ticketOf('req_1')] });
    const step = round();
    await expect(step).rejects.toThrow(EngineFailedError);
    await expect(step).rejects.toThrow(/holds a fake-queue ticket that no engine here checks/);
  });
});

describe('a synchronous engine', () => {
  it('runs with the job id as its work key', async () => {
    const engine = fakeEngine();
    const { job, round } = await world(engine);
    await expect(round()).resolves.toMatchObject({ outcome: 'succeeded' });
    expect(engine.requests.map((request) => request.workKey)).toEqual([job.jobId]);
  });

  it('runs a request its queue does not accept, with the job id as its work key', async () => {
    const provider = queuedProvider(0);
    const engine: ImageEngine = { ...provider.engine, queue: { ...provider.engine.queue!, accepts: () => false } };
    const { job, round } = await world(engine);
    await expect(round()).resolves.toEqual(handedOn(job, SUCCEEDED(job.jobId)));
    expect(provider.runs.map((request) => request.workKey)).toEqual([job.jobId]);
    expect(provider.submits).toEqual([]);
  });

  it('gives the engine the subject’s pose in the input, as the submit stored it beside its id', async () => {
    const engine = fakeEngine();
    const inputPose = { yawDegrees: 38, pitchDegrees: -5 };
    const base = await world(engine);
    const work = base.job.work;
    if (!work) throw new Error('the job has work');
    const { round } = await world(engine, {
      work: { ...work, engine: { ...work.engine, candidates: [{ profileId: 'prf_me', inputPose }] } },
    });
    await round();
    expect(engine.requests.map((request) => request.candidates[0]?.inputPose)).toEqual([inputPose]);
  });

  it('is not run again by a step retried after it succeeded', async () => {
    const engine = fakeEngine();
    const { saved, round } = await world(engine);
    const first = await round();
    await expect(round()).resolves.toEqual(first);
    expect(engine.requests).toHaveLength(1);
    expect(saved).toHaveLength(1);
  });
});
