/**
 * One round of the engine step (steps.ts, runEngine), within its limits. A round runs the engine, or for
 * a queued provider (fal; EngineQueue) submits the work and stores its ticket on the job, or checks that
 * ticket; the step picks the round, and this file runs it until it answers or a limit ends it: the job's
 * budget, its cancel_after deadline, what the function run has left, a cancel, or a check's own limit.
 * The engine's progress is written to the job at a bounded rate on the way.
 */
import {
  abortableRun,
  type EngineOutcome,
  type EngineQueue,
  type EngineRequest,
  type EngineTicket,
  type ImageEngine,
  type ProgressReport,
} from '../engine/engine';
import { canceledError, type Job, type JobsRepository, loadJob, type RunOutcome, timeoutError } from '../jobs/job';
import type { Clock } from '../shared/clock';

/** What a round needs: the job's record (its cancel, its progress, its ticket) and the time. */
export interface RoundDeps {
  clock: Clock;
  jobs: JobsRepository;
}

/** An engine error worth another try (the workflow's Retry names it). */
export class TransientEngineError extends Error {
  override name = 'TransientEngineError';
}

/** The engine failed for good: the workflow releases the charge and reports INTERNAL_ERROR. */
export class EngineFailedError extends Error {
  override name = 'EngineFailed';
}

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
const progressWriter = (deps: RoundDeps, job: Pick<Job, 'accountId' | 'jobId'>) => {
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

/** The job ended (canceled) while its step was working: the reason a watch aborts with. */
export class Canceled extends Error {}

/**
 * Watches the job while its step works: the signal aborts with Canceled as soon as a read (every
 * CANCEL_CHECK_MS) finds the job ended, so work in flight (an engine round, an identity retry) is stopped.
 */
export const watchForCancel = (
  deps: Pick<RoundDeps, 'jobs'>,
  job: Pick<Job, 'accountId' | 'jobId'>,
): { signal: AbortSignal; stop(): void } => {
  const controller = new AbortController();
  const watcher = setInterval(() => {
    void deps.jobs.get(job.accountId, job.jobId).then(
      (current) => {
        if (current?.status === 'failed' || current?.status === 'succeeded') controller.abort(new Canceled());
      },
      () => undefined,
    );
  }, CANCEL_CHECK_MS);
  return { signal: controller.signal, stop: () => clearInterval(watcher) };
};

class DeadlineReached extends Error {}
/** A queue check ran past its round's limit: not a failure, the next round checks again. */
class RoundOver extends Error {}

/** How long one check of a queued provider's work may take before the step gives up this round. */
export const QUEUE_CHECK_LIMIT_MS = 120_000;

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
export type EngineWork = (signal: AbortSignal, progress: ProgressReport) => Promise<EngineOutcome | 'waiting'>;

/** A queued provider's work checked again (the same ticket, so a retried round asks the same request). */
export const checkRound =
  (queue: EngineQueue, ticket: EngineTicket, request: EngineRequest): EngineWork =>
  async (signal, progress) => {
    const check = await untilAborted(queue.check(ticket, request, signal), signal).catch((error: unknown) => {
      // Checking again is safe (the same ticket): a transient failure (fal's status answering 5xx for a
      // while) keeps the job waiting, checked again after the workflow's wait, until its own budget ends it.
      if (!signal.aborted && error instanceof Error && 'retryable' in error && error.retryable === true)
        return 'transient' as const;
      throw error;
    });
    if (check === 'transient') return 'waiting';
    if (check.state === 'done') return check.outcome;
    progress(check.progress ?? (check.queuePosition !== undefined ? 0.05 : 0.5));
    return 'waiting';
  };

/** A queued provider's work submitted, and its ticket stored on the job before anything else can fail. */
export const submitRound =
  (deps: RoundDeps, queue: EngineQueue, job: Job, request: EngineRequest, webhookUrl?: string): EngineWork =>
  async (signal) => {
    const submitted = await untilAborted(queue.submit(request, signal, webhookUrl), signal);
    // A ticket that cannot be stored would leave its work running unseen (and charged): stop it, then fail.
    const held = await deps.jobs.recordTicket(job.accountId, job.jobId, submitted).catch(async (error: unknown) => {
      await cancelEngineWork(queue, submitted);
      throw error;
    });
    // Another round stored its ticket first: that one is the job's work, this one is stopped.
    if (held.requests[0]?.id !== submitted.requests[0]?.id) await cancelEngineWork(queue, submitted);
    // A cancel that landed between the submit and the store found no ticket to stop: stop it here.
    else if ((await loadJob(deps, job)).status === 'failed') await cancelEngineWork(queue, submitted);
    return 'waiting';
  };

/** Any other engine, run in this round until it answers. */
export const runRound =
  (engine: ImageEngine, request: EngineRequest): EngineWork =>
  (signal, progress) =>
    abortableRun(engine, request, signal, progress);

/**
 * Runs one round of engine work until it answers or a limit ends it: the job's budget, its cancel_after
 * deadline, what this function run has left (Lambda stops at 15 minutes), a cancel (the job is read
 * every CANCEL_CHECK_MS), or the round's own limit (a queue check). Progress is written at a bounded rate.
 */
export const withinLimits = async (
  deps: RoundDeps,
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
  const watch = watchForCancel(deps, job);
  const forwardCancel = () => controller.abort(watch.signal.reason);
  watch.signal.addEventListener('abort', forwardCancel, { once: true });
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
    watch.stop();
    watch.signal.removeEventListener('abort', forwardCancel);
    progress.stop();
  }
};
