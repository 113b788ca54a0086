/**
 * Read first: the steps of the image-job workflow (statemachines/image-job.asl.json).
 *
 * Step Functions retries a step after a failure that may have happened before or after its write, so
 * every step is safe to run again: MarkRunning is conditional on `pending`; RunEngine writes only
 * objects under keys fixed by the job; SettleCharge and ReleaseCharge go through the ledger, whose
 * transitions are guarded by the job's charge state (the second attempt is a no-op); QueueCallback may
 * send twice, under one delivery id that receivers deduplicate by. Whatever fails, the job ends
 * terminal once and the money moves once.
 */
import type { LedgerPort } from '../billing/ledger';
import type { CallbackMessage } from '../callbacks/deliver';
import { finalPrice } from '../catalog/pricing';
import {
  abortableRun,
  type DecodedImage,
  type EngineOutcome,
  type EngineQueue,
  type EngineRequest,
  type EngineTicket,
  type ImageEngine,
  type OutputFormat,
  type ProgressReport,
} from '../engine/engine';
import { recogniseSubjects } from '../engine/recognition';
import { ERROR_CODES, type ErrorCode, NotFoundError } from '../errors';
import type { FaceAnalyzer } from '../faces';
import { candidateOf } from '../images/prepare';
import type { ProfilesReader } from '../profiles/profile';
import type { Clock } from '../shared/clock';
import { releaseJobCharge, settleJobCharge } from './charge';
import {
  canceledError,
  type EngineStepResult,
  type Job,
  type JobError,
  type JobsRepository,
  type RunOutcome,
  runUntil,
  type StoredInput,
} from './job';
import { type LinkMaker, statusBody } from './status';

export interface JobStep {
  accountId: string;
  jobId: string;
}

/** MarkRunning's input: the job, how many of the account's asynchronous jobs may run at once, and until when it may wait (epoch ms). */
export interface AdmissionStep extends JobStep {
  maxRunning?: number;
  runUntil?: number;
}

export interface WorkflowDeps {
  clock: Clock;
  jobs: JobsRepository;
  ledger: LedgerPort;
  engine: ImageEngine;
  /** Finds the faces in the outputs, for recognition (engine/recognition.ts). */
  faces: FaceAnalyzer;
  /** The candidates' faces, read again when the engine runs (the job keeps their ids). */
  profiles: Pick<ProfilesReader, 'findMany'>;
  inputs: { load(inputs: StoredInput[]): Promise<DecodedImage[]> };
  outputs: { save(accountId: string, jobId: string, images: Buffer[], format: OutputFormat): Promise<string[]> };
  link: LinkMaker;
  enqueueCallback(message: CallbackMessage): Promise<void>;
  settings: { asyncBudgetMs: number; maxRunningJobs: number };
}

/** An engine error worth another try (the workflow's Retry names it). */
export class TransientEngineError extends Error {
  override name = 'TransientEngineError';
}

/** The engine failed for good: the workflow releases the charge and reports INTERNAL_ERROR. */
export class EngineFailedError extends Error {
  override name = 'EngineFailed';
}

/** Time kept back from the function's own deadline to record the outcome. */
const STEP_MARGIN_MS = 15_000;

/**
 * How often a running engine step reads its job to learn of a cancel (a Lambda task runs on after its
 * execution is stopped): one GetItem per job every 5 s, none for a job that ends sooner.
 */
export const CANCEL_CHECK_MS = 5_000;

/** At most one progress write per job in this interval; reports in between keep only the latest. */
export const PROGRESS_WRITE_INTERVAL_MS = 2_000;

/**
 * The engine's progress reports, written to the job at a bounded rate: the first at once, then at most one
 * per interval, each the latest report, so a fast engine costs one write and a long one one every 2 s.
 */
const progressWriter = (deps: Pick<WorkflowDeps, 'jobs' | 'clock'>, job: JobStep) => {
  let lastWriteAt = Number.NEGATIVE_INFINITY;
  let written = 0;
  let pending: number | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const write = () => {
    timer = undefined;
    if (pending === undefined || pending <= written) return;
    written = pending;
    lastWriteAt = deps.clock();
    void deps.jobs.recordProgress(job.accountId, job.jobId, written, lastWriteAt).catch(() => undefined);
  };
  return {
    report: (fraction: number) => {
      if (!(fraction > written) || fraction >= 1) return;
      pending = Math.max(pending ?? 0, fraction);
      const waitMs = lastWriteAt + PROGRESS_WRITE_INTERVAL_MS - deps.clock();
      if (waitMs <= 0) write();
      else timer ??= setTimeout(write, waitMs);
    },
    stop: () => clearTimeout(timer),
  };
};

class Canceled extends Error {}
class DeadlineReached extends Error {}
/** A queue check ran past its round's limit: not a failure, the next round checks again. */
class RoundOver extends Error {}

const loadJob = async (deps: Pick<WorkflowDeps, 'jobs'>, step: JobStep): Promise<Job> => {
  const job = await deps.jobs.get(step.accountId, step.jobId);
  if (!job) throw new NotFoundError(`Job ${step.jobId} not found.`);
  return job;
};

const timeoutError = (limitMs: number): JobError => ({
  code: 'TIMEOUT',
  message: `The job did not finish within its time limit (${Math.round(limitMs / 1000)} s); the reserved cost was refunded.`,
});

/**
 * MarkRunning: the job starts when the account has a place under its cap of running asynchronous jobs;
 * otherwise it stays pending and the workflow waits and asks again. A job whose budget has passed while
 * it waited goes on without a place: RunEngine then ends it TIMEOUT, refunded.
 */
export const markRunning = async (
  deps: Pick<WorkflowDeps, 'jobs' | 'clock' | 'settings'>,
  step: AdmissionStep,
): Promise<{ started: boolean }> => {
  const admitted = await deps.jobs.markRunning(
    step.accountId,
    step.jobId,
    deps.clock(),
    step.maxRunning ?? deps.settings.maxRunningJobs,
  );
  if (admitted === 'started') return { started: true };
  // Executions started without the job's deadline (resumed after a restart) read it from the job.
  const until = step.runUntil ?? runUntil(await loadJob(deps, step), deps.settings.asyncBudgetMs);
  return { started: deps.clock() >= until };
};

/** How long one check of a queued provider's work may take before the step gives up this round. */
const QUEUE_CHECK_LIMIT_MS = 120_000;

/** How long asking a provider to stop work may take (best effort, on the way out). */
const PROVIDER_CANCEL_LIMIT_MS = 10_000;

/** Asks the provider to stop the job's queued work, if it has any; never throws (the job's outcome stands either way). */
export const cancelEngineWork = async (
  queue: Pick<EngineQueue, 'cancel'> | undefined,
  ticket: EngineTicket | null,
): Promise<void> => {
  if (!ticket || !queue) return;
  await queue.cancel(ticket, AbortSignal.timeout(PROVIDER_CANCEL_LIMIT_MS)).catch(() => undefined);
};

/** `work`, or the signal's reason as soon as it aborts (a provider that ignores its signal is left behind). */
const untilAborted = <T>(work: Promise<T>, signal: AbortSignal): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });

/** What one round of the engine step does: run the engine, submit queued work, or check it. */
type EngineWork = (signal: AbortSignal, progress: ProgressReport) => Promise<EngineOutcome | 'waiting'>;

/**
 * The engine step, safe to run again. A job whose outcome is recorded (engineRun) answers it at once:
 * a step retried after its outputs were stored does no work again. Otherwise, within the job's budget:
 * - a queued provider (fal; EngineQueue): the first round submits and stores the ticket on the job, and
 *   answers `waiting`; the workflow waits and runs the step again, which checks the ticket, and so on
 *   until the work is done. No round holds a Lambda for the generation, so a job can use its whole
 *   budget, and a retried round checks the same provider request instead of starting another;
 * - any other engine runs in this step, with the job's work key (so an engine that deduplicates by
 *   Idempotency-Key does the work once); its own retries are inside the adapter, and the workflow does
 *   not repeat it.
 * A refusal is an outcome, not an error. A job that ends (canceled, deadline, budget) while a provider
 * holds its work asks the provider to stop.
 */
export const runEngine = async (
  deps: WorkflowDeps,
  step: JobStep,
  functionRemainingMs: number,
): Promise<EngineStepResult> => {
  const job = await loadJob(deps, step);
  // Canceled before or while it ran: the cancel has released the charge already; the release that follows is a no-op.
  if (job.status === 'failed' && job.error) {
    await cancelEngineWork(deps.engine.queue, job.engineTicket);
    return { outcome: 'failed', error: job.error };
  }
  if (job.engineRun) return job.engineRun;
  if (!job.work) throw new EngineFailedError(`job ${job.jobId} has no stored work`);
  const now = deps.clock();
  const budgetLeftMs = job.createdAt + deps.settings.asyncBudgetMs - now;
  const cancelLeftMs = job.cancelAt === null ? Number.POSITIVE_INFINITY : job.cancelAt - now;
  const byDeadline = () => canceledError('deadline', (job.cancelAt ?? now) - job.createdAt);
  if (cancelLeftMs <= 0 && cancelLeftMs <= budgetLeftMs) {
    await cancelEngineWork(deps.engine.queue, job.engineTicket);
    return { outcome: 'failed', error: byDeadline() };
  }
  if (budgetLeftMs <= 0) {
    await cancelEngineWork(deps.engine.queue, job.engineTicket);
    return { outcome: 'failed', error: timeoutError(deps.settings.asyncBudgetMs) };
  }

  const { candidates: candidateIds, ...work } = job.work.engine;
  const queue = deps.engine.queue;
  const ticket = job.engineTicket;
  // A check needs no inputs (they went with the submission): they are read only when work starts.
  const [images, profiles] = await Promise.all([
    ticket ? [] : deps.inputs.load(job.work.inputs),
    candidateIds.length > 0
      ? deps.profiles.findMany(
          job.accountId,
          candidateIds.map(({ profileId }) => profileId),
        )
      : [],
  ]);
  // A profile deleted since the submit is no longer READY (or gone): no longer a candidate.
  const candidates = profiles.filter((profile) => profile.status === 'READY').map(candidateOf);
  const request: EngineRequest = { ...work, candidates, images, workKey: job.jobId };

  let engineWork: EngineWork;
  let limitOfRoundMs = Number.POSITIVE_INFINITY;
  if (ticket) {
    if (!queue)
      throw new EngineFailedError(`job ${job.jobId} holds a ${ticket.engine} ticket that no engine here checks`);
    limitOfRoundMs = QUEUE_CHECK_LIMIT_MS;
    engineWork = async (signal, progress) => {
      const check = await untilAborted(queue.check(ticket, request, signal), signal).catch((error: unknown) => {
        // Checking again is safe (the same ticket), so the workflow may retry this round.
        if (!signal.aborted && error instanceof Error && 'retryable' in error && error.retryable === true)
          throw new TransientEngineError(error.message);
        throw error;
      });
      if (check.state === 'done') return check.outcome;
      progress(check.progress ?? (check.queuePosition !== undefined ? 0.05 : 0.5));
      return 'waiting';
    };
  } else if (queue?.accepts(request)) {
    // No round limit here: a submit cut short might still reach the provider, and the next round would pay again.
    engineWork = async (signal) => {
      const submitted = await untilAborted(queue.submit(request, signal), signal);
      const held = await deps.jobs.recordTicket(job.accountId, job.jobId, submitted);
      // Another round stored its ticket first: that one is the job's work, this one is stopped.
      if (held.requests[0]?.id !== submitted.requests[0]?.id) await cancelEngineWork(deps.engine.queue, submitted);
      // A cancel that landed between the submit and the store found no ticket to stop: stop it here.
      else if ((await loadJob(deps, job)).status === 'failed') await cancelEngineWork(deps.engine.queue, submitted);
      return 'waiting';
    };
  } else {
    engineWork = (signal, progress) => abortableRun(deps.engine, request, signal, progress);
  }

  const outcome = await withinLimits(deps, job, engineWork, {
    limitMs: Math.min(budgetLeftMs, cancelLeftMs, functionRemainingMs - STEP_MARGIN_MS, limitOfRoundMs),
    deadlineBinds: cancelLeftMs < budgetLeftMs && cancelLeftMs <= functionRemainingMs - STEP_MARGIN_MS,
    roundBinds: limitOfRoundMs < Math.min(budgetLeftMs, cancelLeftMs, functionRemainingMs - STEP_MARGIN_MS),
  });
  if (outcome === 'waiting') return { outcome: 'waiting' };
  if (outcome === 'round-over') {
    // The check took longer than a round may: ask again after the wait (the ticket stays).
    return { outcome: 'waiting' };
  }
  if ('outcome' in outcome) {
    if (outcome.outcome === 'failed')
      await cancelEngineWork(deps.engine.queue, (await loadJob(deps, step)).engineTicket);
    return outcome;
  }
  let run: RunOutcome;
  if (outcome.kind === 'moderated')
    run = { outcome: 'failed', error: { code: 'CONTENT_MODERATION', message: outcome.message } };
  else if (outcome.kind === 'no_image')
    run = { outcome: 'failed', error: { code: 'NO_IMAGE_GENERATED', message: outcome.message } };
  else {
    // Recognition runs after the engine, in this step, so it is billed by the same rule as the sync path.
    const [{ knownSubjects, recognizedFaces }, outputKeys] = await Promise.all([
      recogniseSubjects(deps.faces, outcome.images, candidates),
      deps.outputs.save(job.accountId, job.jobId, outcome.images, work.outputFormat),
    ]);
    run = { outcome: 'succeeded', outputKeys, knownSubjects, recognizedFaces, usage: outcome.usage };
  }
  await deps.jobs.recordRun(job.accountId, job.jobId, run);
  return run;
};

/**
 * Runs one round of engine work until it answers or a limit ends it: the job's budget, its cancel_after
 * deadline, what this function run has left (Lambda stops at 15 minutes), a cancel (the job is read
 * every CANCEL_CHECK_MS), or the round's own limit (a queue check). Progress is written at a bounded rate.
 */
const withinLimits = async (
  deps: WorkflowDeps,
  job: Job,
  engineWork: EngineWork,
  limits: { limitMs: number; deadlineBinds: boolean; roundBinds: boolean },
): Promise<EngineOutcome | 'waiting' | 'round-over' | RunOutcome> => {
  const controller = new AbortController();
  const timer = setTimeout(
    () =>
      controller.abort(
        limits.roundBinds ? new RoundOver() : limits.deadlineBinds ? new DeadlineReached() : new Error('deadline'),
      ),
    Math.max(0, limits.limitMs),
  );
  const progress = progressWriter(deps, job);
  const watcher = setInterval(() => {
    void deps.jobs.get(job.accountId, job.jobId).then(
      (current) => {
        if (current?.status === 'failed' || current?.status === 'succeeded') controller.abort(new Canceled());
      },
      () => undefined,
    );
  }, CANCEL_CHECK_MS);
  try {
    return await engineWork(controller.signal, progress.report).catch(async (error: unknown) => {
      if (!controller.signal.aborted) {
        if (error instanceof TransientEngineError) throw error;
        throw new EngineFailedError(error instanceof Error ? error.message : String(error));
      }
      const reason: unknown = controller.signal.reason;
      if (reason instanceof RoundOver) return 'round-over' as const;
      if (reason instanceof Canceled)
        return { outcome: 'failed', error: (await loadJob(deps, job)).error ?? canceledError('request') } as const;
      if (reason instanceof DeadlineReached)
        return {
          outcome: 'failed',
          error: canceledError('deadline', (job.cancelAt ?? deps.clock()) - job.createdAt),
        } as const;
      return { outcome: 'failed', error: timeoutError(deps.clock() - job.createdAt) } as const;
    });
  } finally {
    clearTimeout(timer);
    clearInterval(watcher);
    progress.stop();
  }
};

export const settle = async (
  deps: Pick<WorkflowDeps, 'jobs' | 'ledger' | 'clock'>,
  step: JobStep & { run: EngineStepResult },
): Promise<void> => {
  if (step.run.outcome !== 'succeeded') throw new Error('only a succeeded run is settled');
  const job = await loadJob(deps, step);
  if (!job.work) throw new Error(`job ${job.jobId} has no stored work`);
  const { providerCostMicros } = step.run.usage;
  const result = {
    outputKeys: step.run.outputKeys,
    outputFormat: job.work.engine.outputFormat,
    knownSubjects: step.run.knownSubjects,
    recognizedFaces: step.run.recognizedFaces ?? [],
    ...(providerCostMicros !== undefined ? { providerCostMicros } : {}),
  };
  await settleJobCharge(deps.ledger, job, finalPrice(job.work.priced, step.run), result, deps.clock());
};

/** How a failure caught by the workflow ({Error, Cause}) is reported on the job. */
export const failureError = (failure: { Error?: string; Cause?: string } | undefined, budgetMs: number): JobError => {
  if (failure?.Error === 'States.Timeout') return timeoutError(budgetMs);
  const code = ERROR_CODES.find((candidate): candidate is ErrorCode => candidate === failure?.Error);
  if (code && code !== 'INTERNAL_ERROR') return { code, message: failure?.Cause ?? code };
  return { code: 'INTERNAL_ERROR', message: 'The image engine failed. The reserved cost was refunded.' };
};

export const release = async (
  deps: Pick<WorkflowDeps, 'jobs' | 'ledger' | 'clock' | 'settings'>,
  step: JobStep & { run?: EngineStepResult; failure?: { Error?: string; Cause?: string } },
): Promise<void> => {
  const error =
    step.run?.outcome === 'failed' ? step.run.error : failureError(step.failure, deps.settings.asyncBudgetMs);
  await releaseJobCharge(deps.ledger, step, error, deps.clock());
};

/**
 * The callback carries the bytes a poll would answer at this moment; its delivery id is fixed by the job.
 * Every execution ends here: a job submitted without a callback_url (`hasCallback` false) returns at once.
 */
export const queueCallback = async (
  deps: Pick<WorkflowDeps, 'jobs' | 'link' | 'enqueueCallback'>,
  step: JobStep & { hasCallback?: boolean },
): Promise<void> => {
  if (step.hasCallback === false) return;
  const job = await loadJob(deps, step);
  if (!job.callbackUrl) return;
  await deps.enqueueCallback(await callbackMessage({ ...job, callbackUrl: job.callbackUrl }, deps.link));
};

/** The callback of a job that has ended: the body a poll answers now, under the delivery id fixed by the job. */
export const callbackMessage = async (
  job: Job & { callbackUrl: string },
  link: LinkMaker,
): Promise<CallbackMessage> => ({
  deliveryId: `dlv_${job.jobId.replace(/^job_/, '')}`,
  accountId: job.accountId,
  jobId: job.jobId,
  callbackUrl: job.callbackUrl,
  body: JSON.stringify(await statusBody(job, link, job.completedAt ?? job.createdAt)),
});
