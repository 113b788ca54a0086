/**
 * Read first: no money is held by work whose execution is lost.
 *
 * A job or a profile holds a reservation until its workflow settles or releases it. If the execution is
 * lost (a function died between the reservation and StartExecution, a synchronous call's function died
 * mid-work, the local runtime was killed), nothing would ever close it. This use case is handed the open
 * jobs and profiles and closes those that can no longer close themselves, releasing their reservations
 * through the ledger (guarded by the charge state, so a late settle or a second run moves no money twice):
 * - a synchronous job older than a function can live (GRACE_MS): its caller is gone, INTERNAL_ERROR;
 * - an async job or a training whose execution is not running, once older than GRACE_MS (so a submit
 *   still between its reservation and its StartExecution is left alone): TIMEOUT or ERROR;
 * - an async job past its budget is left to its running execution, whose steps enforce the budget.
 * The scheduled function on AWS (functions/maintenance/) uses it, and so does the local runtime's start
 * (with no grace: nothing of a previous run can still be in flight), after resuming the async jobs.
 */

import type { LedgerPort } from '../billing/ledger';
import type { EngineTicket } from '../engine/engine';
import { ERROR_CODES, type ErrorCode } from '../errors';
import { releaseJobCharge } from '../jobs/charge';
import { cancelOpenTickets, type JobError, type JobsRepository } from '../jobs/job';
import type { ProfilesReader } from '../profiles/profile';
import { releaseProfile } from '../profiles/profiles';
import { trainingFailureMessage } from '../profiles/training';
import type { Clock } from '../shared/clock';

/** The longest a Lambda function lives (15 minutes), plus a minute: past it, no submit is still in flight. */
export const GRACE_MS = 16 * 60_000;

export interface OpenWork {
  kind: 'job' | 'profile';
  accountId: string;
  id: string;
}

export type ExecutionState = 'running' | 'ended' | 'missing';

export interface AbandonedWorkDeps {
  clock: Clock;
  /** How old open work must be before it is judged (GRACE_MS on AWS; 0 where nothing can be in flight). */
  graceMs: number;
  jobs: Pick<JobsRepository, 'get'>;
  profiles: Pick<ProfilesReader, 'get'>;
  ledger: Pick<LedgerPort, 'release'>;
  /** Asks the provider a job's ticket names to stop its work; never throws. */
  cancelEngineWork(ticket: EngineTicket | null): Promise<void>;
  /** The state of the workflow execution named after the job or profile. */
  executionState(kind: OpenWork['kind'], id: string): Promise<ExecutionState>;
}

export interface ClosedWork {
  jobs: string[];
  profiles: string[];
}

const OPEN_JOB = ['pending', 'running'];
const OPEN_PROFILE = ['VALIDATING', 'QUEUING', 'IN_PROGRESS'];

const errorFor = (code: ErrorCode, message: string): JobError => ({
  code: ERROR_CODES.includes(code) ? code : 'INTERNAL_ERROR',
  message,
});

export const closeAbandonedWork = async (deps: AbandonedWorkDeps, open: readonly OpenWork[]): Promise<ClosedWork> => {
  const closed: ClosedWork = { jobs: [], profiles: [] };
  for (const item of open) {
    const now = deps.clock();
    if (item.kind === 'profile') {
      const profile = await deps.profiles.get(item.accountId, item.id);
      if (!profile || !OPEN_PROFILE.includes(profile.status) || now < profile.createdAt + deps.graceMs) continue;
      if ((await deps.executionState('profile', item.id)) === 'running') continue;
      // Released as FailTraining would, without its callback (the sweep's function sends no messages).
      await releaseProfile(deps, item.accountId, item.id, trainingFailureMessage({ Error: 'ExecutionLost' }), now);
      closed.profiles.push(item.id);
      continue;
    }
    const job = await deps.jobs.get(item.accountId, item.id);
    if (!job || !OPEN_JOB.includes(job.status) || now < job.createdAt + deps.graceMs) continue;
    if (job.mode === 'async' && (await deps.executionState('job', job.jobId)) === 'running') continue;
    const error =
      job.mode === 'sync'
        ? errorFor(
            'INTERNAL_ERROR',
            'The request ended before its result was ready; the reserved cost was refunded. Please send it again.',
          )
        : errorFor(
            'TIMEOUT',
            'The job could not run to its end; the reserved cost was refunded. Please submit it again.',
          );
    await releaseJobCharge(deps.ledger, job, error, now);
    // Whatever a queued provider still holds for the job would run on unseen, and be charged.
    await cancelOpenTickets(deps.cancelEngineWork, job);
    closed.jobs.push(job.jobId);
  }
  return closed;
};
