/**
 * A synchronous image operation: prepare, reserve the ceiling (the most it can cost) with the job, run the engine under the
 * deadline, check identity in the outputs (engine/identity.ts: recognition, and with `retry` another
 * attempt at an output missing an expected subject), store them, then settle (success) or release (refusal, failure, timeout) the
 * reservation exactly once through jobs/charge.ts, and answer the result. The budget covers the whole
 * request, fetching the inputs included. Everything before the reservation fails without a job or a charge.
 */
import type { Caller } from '../accounts/accounts';
import { settlement } from '../catalog/pricing';
import { abortableRun, type EngineOutcome, type KeepTicket } from '../engine/engine';
import { type CheckedOutputs, checkIdentity } from '../engine/identity';
import { ContentModerationError, type DomainError, NoImageGeneratedError, RequestTimeoutError } from '../errors';
import { releaseJobCharge, reserveJobCharge, settleJobCharge } from '../jobs/charge';
import { jobErrorOf } from '../jobs/job';
import { type ImageResult, identityResult, pricedOutcomeOf, providerCost, resultOf } from '../jobs/result';
import { type ImageCommand, newJob, type RequestContext } from './command';
import type { ImageDeps } from './deps';
import { clientRequestIdClaim } from './idempotency';
import { prepare } from './prepare';

/** A refusal or failure as the job records it and as the caller sees it. */
export const outcomeError = (outcome: Exclude<EngineOutcome, { kind: 'images' }>): DomainError =>
  outcome.kind === 'moderated'
    ? new ContentModerationError(outcome.message)
    : new NoImageGeneratedError(outcome.message);

class DeadlineReached extends Error {}

/**
 * Time kept at the end of the sync budget to save the outputs and settle: identity retries end this long
 * before the deadline (a tenth of the budget when that is shorter), so a retry never costs the caller a
 * good first attempt (504) after every attempt was paid.
 */
export const SYNC_FINISH_MARGIN_MS = 5_000;
export const syncRetriesEndAt = (startedAt: number, syncBudgetMs: number): number =>
  startedAt + syncBudgetMs - Math.min(SYNC_FINISH_MARGIN_MS, syncBudgetMs / 10);

export const runSync = async (
  deps: ImageDeps,
  caller: Caller,
  command: ImageCommand,
  context: RequestContext,
): Promise<ImageResult> => {
  const startedAt = deps.clock();
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new DeadlineReached()), deps.settings.syncBudgetMs);
  const timedOut = () => new RequestTimeoutError(Math.round(deps.settings.syncBudgetMs / 1000));
  try {
    const prepared = await prepare(deps, caller, command, deadline.signal).catch((error: unknown) => {
      throw error instanceof DeadlineReached ? timedOut() : error;
    });
    const job = newJob(deps.newId('job'), caller, command, context, deps.clock(), 'sync', null);
    await reserveJobCharge(
      deps.ledger,
      job,
      prepared.reservedMicros,
      clientRequestIdClaim(command, job, deps.settings),
    );

    // This request made the reservation and nothing else holds it: closing it needs no read of it first.
    const known = { reservedMicros: prepared.reservedMicros };
    const fail = async (error: DomainError | Error): Promise<never> => {
      await releaseJobCharge(deps.ledger, job, jobErrorOf(error), deps.clock(), known);
      throw error;
    };

    // Every queued provider ticket (the first attempt's, each identity retry's) is stored on the job before
    // its work is checked: if this process dies mid-call, the sweep of abandoned work (workflow/abandoned.ts)
    // or a replay of the request closes the job and cancels that work. One that cannot be stored fails its run
    // (the engine cancels its work).
    const keepTicket: KeepTicket = (ticket) => deps.jobs.addTicket(job.accountId, job.jobId, ticket);
    let outcome: EngineOutcome;
    const callStartedAt = deps.clock();
    try {
      outcome = await abortableRun(
        deps.engine,
        { ...prepared.engineRequest, workKey: job.jobId, accountId: job.accountId },
        deadline.signal,
        undefined,
        keepTicket,
      );
    } catch (error) {
      return await fail(error instanceof DeadlineReached || deadline.signal.aborted ? timedOut() : (error as Error));
    }
    if (outcome.kind !== 'images') return await fail(outcomeError(outcome));
    const firstCallMs = deps.clock() - callStartedAt;

    const { outputFormat } = prepared.engineRequest;
    let outputKeys: string[];
    let checked: CheckedOutputs;
    try {
      checked = await checkIdentity(
        deps,
        { ...prepared.engineRequest, workKey: job.jobId, accountId: job.accountId },
        outcome.images,
        prepared.identityCheck,
        {
          signal: deadline.signal,
          keepTicket,
          ...(outcome.carriedByLora && { carriedByLora: outcome.carriedByLora }),
          window: {
            endsAt: syncRetriesEndAt(startedAt, deps.settings.syncBudgetMs),
            firstCallMs,
            clock: deps.clock,
          },
        },
      );
      outputKeys = await deps.outputs.save(caller.accountId, job.jobId, checked.images, outputFormat);
    } catch (error) {
      return await fail(error instanceof DeadlineReached || deadline.signal.aborted ? timedOut() : (error as Error));
    }
    const completedAt = deps.clock();
    const result = {
      outputKeys,
      outputFormat,
      ...identityResult(checked, prepared.identityCheck),
      ...providerCost(outcome.usage),
    };
    try {
      const charge = settlement(prepared.priced, pricedOutcomeOf(outcome.usage, result), prepared.reservedMicros);
      await settleJobCharge(deps.ledger, job, charge, result, completedAt, known);
    } catch (error) {
      // Unsettled work is not delivered, and its reservation must not stay held: release it (a no-op
      // if the settle did land after all) and answer the failure.
      return await fail(error as Error);
    }
    return await resultOf(deps.outputs, { ...job, completedAt, result }, checked.images);
  } finally {
    clearTimeout(timer);
  }
};
