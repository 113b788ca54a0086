/**
 * Read first: the steps of the image-job workflow (statemachines/image-job.asl.json).
 *
 * Step Functions retries a step after a failure that may have happened before or after its write, so
 * every step is safe to run again: MarkRunning is conditional on `pending`; RunEngine writes only
 * objects under keys fixed by the job; SettleCharge and ReleaseCharge go through the ledger, whose
 * transitions are guarded by the job's charge state (the second attempt is a no-op); QueueCallback may
 * send twice, under one delivery id that receivers deduplicate by. Whatever fails, the job ends
 * terminal once and the money moves once. RunEngine's rounds (the engine run, or a queued provider's
 * submit and checks, each within the job's limits) are in rounds.ts.
 */
import type { LedgerPort } from '../billing/ledger';
import type { CallbackMessage } from '../callbacks/deliver';
import { settlement } from '../catalog/pricing';
import type { DecodedImage, EngineRequest, EngineTicket, ImageEngine, OutputFormat } from '../engine/engine';
import { type CheckedOutputs, checkIdentity } from '../engine/identity';
import { ERROR_CODES, type ErrorCode } from '../errors';
import type { FaceAnalyzer } from '../faces';
import { candidateOf } from '../images/prepare';
import { callbackMessage } from '../jobs/callback-message';
import { releaseJobCharge, settleJobCharge } from '../jobs/charge';
import {
  canceledError,
  cancelOpenTickets,
  type EngineStepResult,
  type EngineWaiting,
  type Job,
  type JobError,
  type JobsRepository,
  loadJob,
  type RunOutcome,
  runUntil,
  type StoredInput,
  settleBasisOf,
  timeoutError,
  workTicket,
} from '../jobs/job';
import { identityResult, pricedOutcomeOf } from '../jobs/result';
import type { LinkMaker } from '../jobs/status';
import type { ProfilesReader } from '../profiles/profile';
import type { Clock } from '../shared/clock';
import { awaitSeconds, jobReported } from './reports';
import {
  checkRound,
  EngineFailedError,
  type EngineWork,
  QUEUE_CHECK_LIMIT_MS,
  runRound,
  submitRound,
  watchForCancel,
  withinLimits,
} from './rounds';

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
  /**
   * Asks the provider a ticket names to stop its work, through the ticket's own provider whatever the
   * routes say now; never throws (rounds.ts cancelEngineWork).
   */
  cancelEngineWork(ticket: EngineTicket | null): Promise<void>;
  /** For the operator: work a provider may have done (and charged) that the job will not use. */
  warn?(message: string, fields: Record<string, unknown>): void;
  /**
   * Where a queued provider (`provider`: the kind of ticket its submit makes) reports the job's work finished:
   * its webhook URL naming the job, signed by us (reports.ts). Absent: no webhook, and the workflow checks the
   * provider after each wait.
   */
  reportUrl?(job: Pick<Job, 'accountId' | 'jobId' | 'baseUrl'>, provider: string): Promise<string>;
  settings: { asyncBudgetMs: number; maxRunningJobs: number };
}

/** Time kept back from the function's own deadline to record the outcome. */
const STEP_MARGIN_MS = 15_000;

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
    await cancelOpenTickets(deps.cancelEngineWork, job);
    return { outcome: 'failed', error: job.error };
  }
  if (job.engineRun) return withSettleBasis(job.engineRun, job);
  if (!job.work) throw new EngineFailedError(`job ${job.jobId} has no stored work`);
  const now = deps.clock();
  const budgetLeftMs = job.createdAt + deps.settings.asyncBudgetMs - now;
  const cancelLeftMs = job.cancelAt === null ? Number.POSITIVE_INFINITY : job.cancelAt - now;
  const byDeadline = () => canceledError('deadline', (job.cancelAt ?? now) - job.createdAt);
  if (cancelLeftMs <= 0 && cancelLeftMs <= budgetLeftMs) {
    await cancelOpenTickets(deps.cancelEngineWork, job);
    return { outcome: 'failed', error: byDeadline() };
  }
  if (budgetLeftMs <= 0) {
    await cancelOpenTickets(deps.cancelEngineWork, job);
    return { outcome: 'failed', error: timeoutError(deps.settings.asyncBudgetMs) };
  }

  const { candidates: candidateIds, ...work } = job.work.engine;
  const queue = deps.engine.queue;
  const ticket = workTicket(job);
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
  const inputPoses = new Map(candidateIds.map(({ profileId, inputPose }) => [profileId, inputPose]));
  const candidates = profiles
    .filter((profile) => profile.status === 'READY')
    .map((profile) => {
      const candidate = candidateOf(profile, deps.faces.modelId);
      const inputPose = inputPoses.get(profile.profileId);
      return inputPose ? { ...candidate, inputPose } : candidate;
    });
  const request: EngineRequest = { ...work, candidates, images, workKey: job.jobId, accountId: job.accountId };

  // A provider that does not deduplicate is called once per job: the job is marked before the call, and a
  // run of this step that finds the mark (an earlier run ended between the call and its outcome: a Lambda
  // error, a restart) does not call again. The job fails refunded; the operator may have been charged.
  if (!ticket && (queue?.accepts(request) || deps.engine.startsOnce?.(request) === true)) {
    if (!(await deps.jobs.markEngineCall(job.accountId, job.jobId, deps.clock()))) {
      deps.warn?.('provider work may have run in an earlier attempt: not asked again, the job fails refunded', {
        job_id: job.jobId,
        base_model: request.baseModel,
        operation: request.operation,
        num_output_images: request.numOutputImages,
        size: `${request.width}x${request.height}`,
        call_started_at: job.engineCallAt,
      });
      const run: RunOutcome = { outcome: 'failed', error: providerWorkLostError() };
      await deps.jobs.recordRun(job.accountId, job.jobId, run);
      return run;
    }
  }

  let engineWork: EngineWork;
  let webhookUrl: string | undefined;
  let limitOfRoundMs = Number.POSITIVE_INFINITY;
  if (ticket) {
    if (!queue)
      throw new EngineFailedError(`job ${job.jobId} holds a ${ticket.engine} ticket that no engine here checks`);
    limitOfRoundMs = QUEUE_CHECK_LIMIT_MS;
    engineWork = checkRound(queue, ticket, request);
  } else if (queue?.accepts(request)) {
    // No round limit here: a submit cut short might still reach the provider, and the next round would pay again.
    webhookUrl = await deps.reportUrl?.(job, queue.kindOf?.(request) ?? queue.kind);
    engineWork = submitRound(deps, queue, job, request, webhookUrl);
  } else {
    engineWork = runRound(deps.engine, request);
  }

  const outcome = await withinLimits(deps, job, engineWork, {
    limitMs: Math.min(budgetLeftMs, cancelLeftMs, functionRemainingMs - STEP_MARGIN_MS, limitOfRoundMs),
    deadlineBinds: cancelLeftMs < budgetLeftMs && cancelLeftMs <= functionRemainingMs - STEP_MARGIN_MS,
    roundBinds: limitOfRoundMs < Math.min(budgetLeftMs, cancelLeftMs, functionRemainingMs - STEP_MARGIN_MS),
  });
  // A provider that reports back is waited for (AwaitEngine) until the job's time is up, not checked every wait.
  const waiting = (): EngineWaiting =>
    (ticket ? ticket.webhook === true : webhookUrl !== undefined)
      ? {
          outcome: 'waiting',
          ...awaitSeconds(Math.min(budgetLeftMs, cancelLeftMs) - (deps.clock() - now)),
          reported: jobReported(job),
        }
      : { outcome: 'waiting' };
  if (outcome === 'waiting') return waiting();
  if (outcome === 'round-over') {
    // The check took longer than a round may: ask again after the wait (the ticket stays).
    return waiting();
  }
  if ('outcome' in outcome) {
    if (outcome.outcome === 'failed') await cancelOpenTickets(deps.cancelEngineWork, await loadJob(deps, step));
    return outcome;
  }
  let run: RunOutcome;
  if (outcome.kind === 'moderated')
    run = { outcome: 'failed', error: { code: 'CONTENT_MODERATION', message: outcome.message } };
  else if (outcome.kind === 'no_image')
    run = { outcome: 'failed', error: { code: 'NO_IMAGE_GENERATED', message: outcome.message } };
  else {
    // Identity is checked after the engine, in this step, so it is billed by the same rule as the sync path;
    // retries (identity_check "retry") run within what is left of the job's budget and of this function.
    // Each retry's ticket is stored on the job before its work is checked (one that cannot be stored fails that
    // retry, its work stopped), and the job is watched as the engine round watches it: a cancel stops the retry
    // running now, and every path that ends the job cancels what its tickets still hold. The retries' window
    // closes STEP_MARGIN_MS before the job's or the function's end, leaving the time to record.
    const mode = job.work.identityCheck ?? 'report';
    const watch = watchForCancel(deps, job);
    let checked: CheckedOutputs;
    try {
      checked = await checkIdentity(deps, request, outcome.images, mode, {
        retrySignal: watch.signal,
        ...(outcome.carriedByLora && { carriedByLora: outcome.carriedByLora }),
        window: {
          endsAt: now + Math.min(budgetLeftMs, cancelLeftMs, functionRemainingMs - STEP_MARGIN_MS),
          firstCallMs: deps.clock() - now,
          clock: deps.clock,
        },
        stillWanted: async () => (await loadJob(deps, step)).status === 'running',
        keepTicket: (retryTicket) => deps.jobs.addTicket(job.accountId, job.jobId, retryTicket),
      });
    } finally {
      watch.stop();
    }
    const current = watch.signal.aborted || mode === 'retry' ? await loadJob(deps, step) : job;
    if (current.status === 'failed') {
      // Canceled during the retries: nothing is stored or settled; what the job's tickets hold is stopped.
      await cancelOpenTickets(deps.cancelEngineWork, current);
      return { outcome: 'failed', error: current.error ?? canceledError('request') };
    }
    const outputKeys = await deps.outputs.save(job.accountId, job.jobId, checked.images, work.outputFormat);
    run = { outcome: 'succeeded', outputKeys, ...identityResult(checked, mode), usage: outcome.usage };
  }
  await deps.jobs.recordRun(job.accountId, job.jobId, run);
  return withSettleBasis(run, job);
};

/** A success goes on with what settling it needs of the job (read by this step), so settle reads nothing first. */
const withSettleBasis = (run: RunOutcome, job: Job): EngineStepResult =>
  run.outcome === 'succeeded' && job.work ? { ...run, settleBasis: settleBasisOf(job) } : run;

/**
 * SettleCharge: the final price with the job's success, in one guarded transaction. What it needs of the
 * job comes from RunEngine's read (the settle basis); an outcome without one (an execution started by an
 * earlier release) reads the job.
 */
export const settle = async (
  deps: Pick<WorkflowDeps, 'jobs' | 'ledger' | 'clock'>,
  step: JobStep & { run: EngineStepResult },
): Promise<void> => {
  if (step.run.outcome !== 'succeeded') throw new Error('only a succeeded run is settled');
  const basis = step.run.settleBasis ?? settleBasisOf(await loadJob(deps, step));
  const { providerCostMicros } = step.run.usage;
  const result = {
    outputKeys: step.run.outputKeys,
    outputFormat: basis.outputFormat,
    knownSubjects: step.run.knownSubjects,
    recognizedFaces: step.run.recognizedFaces ?? [],
    ...(step.run.identity && { identity: step.run.identity }),
    ...(step.run.identityRetries && { identityRetries: step.run.identityRetries }),
    ...(providerCostMicros !== undefined ? { providerCostMicros } : {}),
  };
  // The reservation is what the ledger holds for the job (read back with it); a job reserved by an older
  // release without it on the record is charged its price, capped by the ledger at what it holds.
  const reserved = basis.reservedMicros ?? Number.MAX_SAFE_INTEGER;
  // The reservation and the status were read with the job: the ledger need not read the item again.
  const known =
    basis.reservedMicros !== undefined && basis.readStatus !== undefined
      ? { reservedMicros: basis.reservedMicros, asyncJobStatus: basis.readStatus }
      : undefined;
  const charge = settlement(basis.priced, pricedOutcomeOf(step.run.usage, step.run), reserved);
  await settleJobCharge(deps.ledger, step, charge, result, deps.clock(), known);
};

/** How a failure caught by the workflow ({Error, Cause}) is reported on the job. */
export const failureError = (failure: { Error?: string; Cause?: string } | undefined, budgetMs: number): JobError => {
  if (failure?.Error === 'States.Timeout') return timeoutError(budgetMs);
  const code = ERROR_CODES.find((candidate): candidate is ErrorCode => candidate === failure?.Error);
  if (code && code !== 'INTERNAL_ERROR') return { code, message: failure?.Cause ?? code };
  return { code: 'INTERNAL_ERROR', message: 'The image engine failed. The reserved cost was refunded.' };
};

/**
 * ReleaseCharge: the refund, then whatever a queued provider still holds for the job is asked to stop (the
 * Catch of a failed step lands here too, so no path that ends a job leaves its ticket's work running).
 */
export const release = async (
  deps: Pick<WorkflowDeps, 'jobs' | 'ledger' | 'clock' | 'settings' | 'cancelEngineWork'>,
  step: JobStep & { run?: EngineStepResult; failure?: { Error?: string; Cause?: string } },
): Promise<void> => {
  const error =
    step.run?.outcome === 'failed' ? step.run.error : failureError(step.failure, deps.settings.asyncBudgetMs);
  await releaseJobCharge(deps.ledger, step, error, deps.clock());
  const job = await deps.jobs.get(step.accountId, step.jobId);
  if (job?.status === 'failed') await cancelOpenTickets(deps.cancelEngineWork, job);
};

/** A job whose provider call may have run in an earlier attempt of its step, without an answer. */
export const providerWorkLostError = (): JobError => ({
  code: 'INTERNAL_ERROR',
  message:
    'The image provider may have started this work in an attempt that ended without its answer; it is not asked again. The reserved cost was refunded.',
});

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
