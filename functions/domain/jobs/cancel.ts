/**
 * Read first: canceling an asynchronous job (POST /jobs/{job_id}/cancel).
 *
 * The money decides: the cancel releases the job's reservation with `CANCELED`, through the same ledger
 * transaction as every other release, guarded by the job's charge state. If the engine's success settled
 * first, the release moves nothing and the cancel answers 409 with the job as it ended; if the cancel
 * released first, the workflow's settlement moves nothing. Either way one outcome, one ledger movement.
 *
 * Then the execution is stopped, a queued provider holding the job's work (its ticket) is asked to stop
 * it (best effort: the job's outcome is decided already), and, if the job has a callback_url, its
 * callback is queued under the job's fixed delivery id (a stopped execution sends none; one that raced past the stop sends the same
 * id again, which receivers deduplicate). A running engine step learns of the cancel within
 * CANCEL_CHECK_MS and aborts the engine call (workflow/rounds.ts).
 *
 * A synchronous call is owned by its request and cannot be canceled (409).
 */
import type { Caller } from '../accounts/accounts';
import type { LedgerPort } from '../billing/ledger';
import type { CallbackMessage } from '../callbacks/deliver';
import type { EngineTicket } from '../engine/engine';
import { JobNotCancelableError, NotFoundError } from '../errors';
import type { Clock } from '../shared/clock';
import { callbackMessage } from './callback-message';
import { releaseJobCharge } from './charge';
import { canceledError, cancelOpenTickets, type JobsRepository } from './job';
import { type JobStatusBody, type LinkMaker, statusBody } from './status';

export interface CancelDeps {
  jobs: JobsRepository;
  ledger: Pick<LedgerPort, 'release'>;
  clock: Clock;
  link: LinkMaker;
  stopImageJob(jobId: string): Promise<void>;
  /** Asks the provider to stop a queued job's work; never throws (workflow/rounds.ts cancelEngineWork). */
  cancelEngineWork(ticket: EngineTicket | null): Promise<void>;
  enqueueCallback(message: CallbackMessage): Promise<void>;
}

export const cancel = async (deps: CancelDeps, caller: Caller, jobId: string): Promise<JobStatusBody> => {
  const job = await deps.jobs.get(caller.accountId, jobId);
  if (!job) throw new NotFoundError(`Job ${jobId} not found.`);
  if (job.mode === 'sync')
    throw new JobNotCancelableError(`Job ${jobId} is a synchronous call; it ends with its request.`);
  if (job.status === 'succeeded' || job.status === 'failed')
    throw new JobNotCancelableError(`Job ${jobId} has already ended: ${job.status}.`);

  const released = await releaseJobCharge(deps.ledger, job, canceledError('request'), deps.clock());
  const ended = await deps.jobs.get(caller.accountId, jobId);
  if (!ended) throw new NotFoundError(`Job ${jobId} not found.`);
  if (!released.applied) throw new JobNotCancelableError(`Job ${jobId} has already ended: ${ended.status}.`);

  await deps.stopImageJob(jobId);
  // Every ticket the job opened and not known finished: its work's, and an identity retry's running now.
  await cancelOpenTickets(deps.cancelEngineWork, ended);
  if (ended.callbackUrl)
    await deps.enqueueCallback(await callbackMessage({ ...ended, callbackUrl: ended.callbackUrl }, deps.link));
  return statusBody(ended, deps.link, deps.clock());
};
