/**
 * The image use cases (functions/domain/images/submit.ts and the files it names) on fakes of the typed
 * ports: what is reserved, settled and released, what the caller is answered, and what a repeated
 * client_request_id does. Each test breaks one thing.
 */

import type { EngineTicket } from '../../../../functions/domain/engine/engine';
import {
  ClientRequestIdTakenError,
  ContentModerationError,
  DomainError,
  IdempotencyKeyReusedError,
  InsufficientBalanceError,
  RequestTimeoutError,
  ServiceUnavailableError,
} from '../../../../functions/domain/errors';
import type { ImageCommand } from '../../../../functions/domain/images/command';
import { ABANDONED_AFTER_MS, requestFingerprint } from '../../../../functions/domain/images/idempotency';
import { submit } from '../../../../functions/domain/images/submit';
import { JOB_RETENTION_MS } from '../../../../functions/domain/jobs/job';
import { markRunning, queueCallback } from '../../../../functions/domain/workflow/steps';
import { imageCommand, UNIT_ACCOUNT, unitCaller } from '../../../support/builders/commands';
import { aJob } from '../../../support/builders/jobs';
import { type FakeImageWorld, FakeLedger, fakeImageWorld, fakeJobs } from '../../../support/fakes';

const ACCOUNT = UNIT_ACCOUNT;
const caller = unitCaller;
const context = { baseUrl: 'https://api.test' };
const PRICE = 120_000;

const enhance = (overrides: Partial<ImageCommand> = {}) => imageCommand('enhance', { prompt: 'sharper', ...overrides });

let world: FakeImageWorld;
beforeEach(() => {
  world = fakeImageWorld(ACCOUNT, 1_000_000);
});

const onlyJob = () => {
  expect(world.ledger.jobs.size).toBe(1);
  return [...world.ledger.jobs.values()][0]!;
};

/** A synchronous job still running since `start`, holding the claim of `clientRequestId`. */
const runningOriginal = (jobId: string, clientRequestId: string, start: number) =>
  world.ledger.reserve({
    accountId: ACCOUNT,
    amountMicros: PRICE,
    creates: { kind: 'job', job: aJob(ACCOUNT, { jobId, mode: 'sync', status: 'running', createdAt: start }) },
    claim: {
      clientRequestId,
      jobId,
      fingerprint: requestFingerprint(enhance({ clientRequestId })),
      keepUntil: start + 1e9,
    },
    at: start,
  });

describe('a synchronous call', () => {
  it('reserves the floor with a running job, settles the final price once the outputs are stored, and answers the images', async () => {
    const outcome = await submit(world.deps, caller, enhance(), context);
    expect(outcome).toEqual({
      kind: 'result',
      replayed: false,
      result: {
        jobId: 'job_0001',
        knownSubjects: {},
        recognizedFaces: [],
        identity: {
          expected: [],
          outputs: [{ outputIndex: 0, kept: [], missing: [], attempts: 1 }],
        },
        images: [Buffer.from('output 0')],
        downloadUrls: [],
      },
    });
    const stored = onlyJob();
    expect(stored.chargeState).toBe('settled');
    expect(stored.job).toMatchObject({
      mode: 'sync',
      status: 'succeeded',
      result: { outputKeys: [`outputs/${ACCOUNT}/${stored.job.jobId}/0.jpg`], outputFormat: 'jpg' },
    });
    expect(world.ledger.movesOf(stored.job.jobId)).toEqual([`reserve -${PRICE}`, 'settle 0']);
    expect(await world.ledger.balance(ACCOUNT)).toBe(1_000_000 - PRICE);
  });

  it('answers links valid for 24 hours from completion when asked for urls', async () => {
    const outcome = await submit(world.deps, caller, enhance({ responseMode: 'urls' }), context);
    if (outcome.kind !== 'result') throw new Error('expected a result');
    const { job } = onlyJob();
    expect(outcome.result.images).toEqual([]);
    expect(outcome.result.downloadUrls).toEqual([
      `https://api.test/v2/service/downloads/outputs/${ACCOUNT}/${job.jobId}/0.jpg?until=${job.completedAt! + JOB_RETENTION_MS}`,
    ]);
  });

  it('creates and charges nothing when the balance cannot cover the floor, and never runs the engine', async () => {
    world = fakeImageWorld(ACCOUNT, PRICE - 1);
    await expect(submit(world.deps, caller, enhance(), context)).rejects.toBeInstanceOf(InsufficientBalanceError);
    expect(world.ledger.jobs.size).toBe(0);
    expect(world.engine.requests).toHaveLength(0);
  });

  it('releases the reservation and records the refusal when the engine moderates', async () => {
    world.deps.engine = { run: async () => ({ kind: 'moderated', message: 'not allowed' }) };
    await expect(submit(world.deps, caller, enhance(), context)).rejects.toEqual(
      new ContentModerationError('not allowed'),
    );
    const stored = onlyJob();
    expect(stored).toMatchObject({
      chargeState: 'released',
      job: { status: 'failed', error: { code: 'CONTENT_MODERATION', message: 'not allowed' } },
    });
    expect(await world.ledger.balance(ACCOUNT)).toBe(1_000_000);
  });

  it("stores a queued provider's ticket on the job while the call runs, so a lost call's work can be canceled", async () => {
    const ticket: EngineTicket = {
      engine: 'fal',
      model: 'fal-ai/flux-2',
      requests: [{ id: 'req_1', status: 's', response: 'r', cancel: 'c', images: 1 }],
      submittedAt: 0,
    };
    const engine = world.deps.engine;
    let heldWhileRunning: EngineTicket | null | undefined;
    world.deps.engine = {
      run: async (request, signal, progress, keepTicket) => {
        await keepTicket?.(ticket);
        heldWhileRunning = onlyJob().job.engineTickets[0];
        return engine.run(request, signal, progress);
      },
    };
    await submit(world.deps, caller, enhance(), context);
    expect(heldWhileRunning).toEqual(ticket);
  });

  it('releases the reservation and records INTERNAL_ERROR when the engine fails', async () => {
    world.deps.engine = { run: async () => Promise.reject(new Error('GPU on fire')) };
    await expect(submit(world.deps, caller, enhance(), context)).rejects.toThrow('GPU on fire');
    expect(onlyJob()).toMatchObject({
      chargeState: 'released',
      job: { status: 'failed', error: { code: 'INTERNAL_ERROR' } },
    });
  });

  it('releases the reservation when the outputs cannot be stored: nothing undelivered is charged', async () => {
    world.deps.outputs.save = async () => Promise.reject(new Error('bucket unavailable'));
    await expect(submit(world.deps, caller, enhance(), context)).rejects.toThrow('bucket unavailable');
    expect(onlyJob().chargeState).toBe('released');
    expect(await world.ledger.balance(ACCOUNT)).toBe(1_000_000);
  });

  it('releases the reservation when the settlement fails, and answers the failure', async () => {
    world.ledger.settle = async () => Promise.reject(new Error('table unavailable'));
    await expect(submit(world.deps, caller, enhance(), context)).rejects.toThrow('table unavailable');
    expect(onlyJob().chargeState).toBe('released');
    expect(await world.ledger.balance(ACCOUNT)).toBe(1_000_000);
  });
});

describe('an asynchronous submit', () => {
  it('creates a pending job with its work, reserves the floor, starts its workflow and answers its id', async () => {
    const outcome = await submit(
      world.deps,
      caller,
      enhance({ async: true, callbackUrl: 'https://hooks.test/in' }),
      context,
    );
    const stored = onlyJob();
    expect(outcome).toEqual({ kind: 'accepted', jobId: stored.job.jobId, replayed: false });
    expect(stored).toMatchObject({
      chargeState: 'reserved',
      job: {
        mode: 'async',
        status: 'pending',
        callbackUrl: 'https://hooks.test/in',
        work: { priced: { operation: 'enhance' } },
      },
    });
    expect(world.started).toEqual([
      {
        accountId: ACCOUNT,
        jobId: stored.job.jobId,
        hasCallback: true,
        maxRunning: 20,
        runUntil: stored.job.createdAt + 840_000,
      },
    ]);
    expect(world.engine.requests).toHaveLength(0);
  });

  it('releases at once, and answers 503, when the workflow cannot be started', async () => {
    world.deps.workflows.startImageJob = async () => Promise.reject(new Error('throttled'));
    await expect(submit(world.deps, caller, enhance({ async: true }), context)).rejects.toBeInstanceOf(
      ServiceUnavailableError,
    );
    expect(onlyJob()).toMatchObject({
      chargeState: 'released',
      job: { status: 'failed', error: { code: 'SERVICE_UNAVAILABLE' } },
    });
    expect(await world.ledger.balance(ACCOUNT)).toBe(1_000_000);
  });

  it('removes the stored inputs of a submit refused for its balance', async () => {
    world = fakeImageWorld(ACCOUNT, 0);
    const removed: string[] = [];
    world.deps.inputs.remove = async (_accountId, jobId) => void removed.push(jobId);
    await expect(submit(world.deps, caller, enhance({ async: true }), context)).rejects.toBeInstanceOf(
      InsufficientBalanceError,
    );
    expect(removed).toHaveLength(1);
    expect(world.started).toHaveLength(0);
  });
});

describe('a repeated client_request_id', () => {
  it('answers the original result again, replayed, with no second run or charge', async () => {
    const first = await submit(world.deps, caller, enhance({ clientRequestId: 'r1' }), context);
    const again = await submit(world.deps, caller, enhance({ clientRequestId: 'r1' }), context);
    expect(again).toEqual({ ...first, replayed: true });
    expect(world.engine.requests).toHaveLength(1);
    expect(world.ledger.entries.filter((entry) => entry.kind === 'reserve')).toHaveLength(1);
  });

  it('answers the same job again for an asynchronous submit', async () => {
    const first = await submit(world.deps, caller, enhance({ async: true, clientRequestId: 'r2' }), context);
    expect(await submit(world.deps, caller, enhance({ async: true, clientRequestId: 'r2' }), context)).toEqual({
      ...first,
      replayed: true,
    });
    expect(world.started).toHaveLength(1);
  });

  it('is refused with another body, and charges nothing', async () => {
    await submit(world.deps, caller, enhance({ clientRequestId: 'r3' }), context);
    await expect(
      submit(world.deps, caller, enhance({ clientRequestId: 'r3', prompt: 'brighter' }), context),
    ).rejects.toBeInstanceOf(IdempotencyKeyReusedError);
    expect(world.ledger.entries.filter((entry) => entry.kind === 'reserve')).toHaveLength(1);
  });

  it("lets exactly one of two concurrent submits create the job: the loser of the claim answers the winner's job", async () => {
    const outcomes = await Promise.all(
      [1, 2].map(() => submit(world.deps, caller, enhance({ async: true, clientRequestId: 'r4' }), context)),
    );
    const { job } = onlyJob();
    expect(outcomes.map((outcome) => outcome.kind === 'accepted' && outcome.jobId)).toEqual([job.jobId, job.jobId]);
    expect(outcomes.map((outcome) => outcome.replayed).sort()).toEqual([false, true]);
    expect(world.ledger.entries.filter((entry) => entry.kind === 'reserve')).toHaveLength(1);
  });

  it('passes on a lost claim whose winner cannot be found, rather than inventing an answer', async () => {
    world.deps.ledger.reserve = async () => Promise.reject(new ClientRequestIdTakenError('r5'));
    await expect(submit(world.deps, caller, enhance({ clientRequestId: 'r5' }), context)).rejects.toBeInstanceOf(
      ClientRequestIdTakenError,
    );
  });

  it('waits for a synchronous original still running, and answers 408 when the budget runs out', async () => {
    const start = world.time.clock();
    await runningOriginal('job_running', 'r6', start);
    await expect(submit(world.deps, caller, enhance({ clientRequestId: 'r6' }), context)).rejects.toBeInstanceOf(
      RequestTimeoutError,
    );
    expect(world.time.clock() - start).toBe(world.deps.settings.syncBudgetMs);
    expect(world.ledger.jobs.get('job_running')!.chargeState).toBe('reserved');
  });

  it('releases a synchronous original abandoned past its budget, and answers its failure', async () => {
    const start = world.time.clock();
    await runningOriginal('job_dead', 'r7', start);
    world.time.advance(world.deps.settings.syncBudgetMs + ABANDONED_AFTER_MS + 1);
    const failure = await submit(world.deps, caller, enhance({ clientRequestId: 'r7' }), context).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(DomainError);
    expect(failure).toMatchObject({ code: 'INTERNAL_ERROR' });
    expect(world.ledger.movesOf('job_dead')).toEqual([`reserve -${PRICE}`, `release ${PRICE}`]);
  });

  it('is free again once its job has expired: a new job is created and charged', async () => {
    await submit(world.deps, caller, enhance({ clientRequestId: 'r8' }), context);
    world.time.advance(JOB_RETENTION_MS + 1);
    const again = await submit(world.deps, caller, enhance({ clientRequestId: 'r8' }), context);
    expect(again.replayed).toBe(false);
    expect(world.ledger.jobs.size).toBe(2);
  });
});

describe('admission under the cap of running jobs', () => {
  const step = { accountId: ACCOUNT, jobId: 'job_waiting', maxRunning: 1 };
  const deps = (answer: 'started' | 'full', createdAt: number, now: number) => ({
    clock: () => now,
    settings: { asyncBudgetMs: 840_000, maxRunningJobs: 20 },
    jobs: {
      ...fakeJobs(new FakeLedger({})),
      markRunning: async () => answer,
      get: async () => aJob(ACCOUNT, { jobId: 'job_waiting', createdAt }),
    },
  });

  it('starts a job when the account has a place, and keeps it waiting when it has none', async () => {
    await expect(markRunning(deps('started', 0, 1_000), step)).resolves.toEqual({ started: true });
    await expect(markRunning(deps('full', 0, 1_000), step)).resolves.toEqual({ started: false });
  });

  it('lets a job whose budget passed while it waited go on, to be timed out and refunded', async () => {
    await expect(markRunning(deps('full', 0, 840_000), step)).resolves.toEqual({ started: true });
    // With the deadline the submit handed on, no read of the job is needed.
    await expect(markRunning(deps('full', 5_000, 1_000), { ...step, runUntil: 1_000 })).resolves.toEqual({
      started: true,
    });
  });
});

describe('the last step of every job', () => {
  it('queues nothing, and reads nothing, for a job submitted without a callback_url', async () => {
    let reads = 0;
    const queued: unknown[] = [];
    const deps = {
      jobs: {
        ...fakeJobs(new FakeLedger({})),
        get: async () => {
          reads += 1;
          return aJob(ACCOUNT, { callbackUrl: 'https://hooks.test/in' });
        },
      },
      link: async () => 'https://link',
      enqueueCallback: async (message: unknown) => void queued.push(message),
    };
    await queueCallback(deps, { accountId: ACCOUNT, jobId: 'job_1', hasCallback: false });
    expect({ reads, queued: queued.length }).toEqual({ reads: 0, queued: 0 });
    await queueCallback(deps, { accountId: ACCOUNT, jobId: 'job_1', hasCallback: true });
    expect({ reads, queued: queued.length }).toEqual({ reads: 1, queued: 1 });
  });
});
