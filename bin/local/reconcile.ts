/**
 * Read first: what the local runtime does on start about work a previous run left unfinished.
 *
 * The local Step Functions keeps executions in memory, so a stop (SIGTERM, or SIGKILL) loses the ones
 * that were running, and their jobs and profiles would stay non-terminal with their money held. On
 * start, before it takes requests, the runtime looks for them (functions/adapters/dynamo/open-work.ts):
 * - an async job still `pending` or `running` gets its workflow started again under the same name; every
 *   step is safe to run again, so it ends terminal once and its money moves once;
 * - a synchronous job still open lost its caller with the process: it fails with INTERNAL_ERROR and its
 *   reservation is released;
 * - a profile still training fails (ERROR) and its reservation is released: the photo URLs it was
 *   created from are not kept, so training cannot be resumed; the message asks to create it again.
 * On AWS, Standard workflows outlive a function's crash; work whose execution is lost there (a function
 * that died between its reservation and StartExecution, or mid-way through a synchronous call) is closed
 * by a scheduled function (functions/maintenance/close-abandoned-work.ts).
 */
import type { LedgerPort } from '../../functions/domain/billing/ledger';
import { completion, type JobsRepository } from '../../functions/domain/jobs/job';
import { failTraining } from '../../functions/domain/profiles/training';
import type { Clock } from '../../functions/domain/shared/clock';
import { findOpenWork } from '../../functions/adapters/dynamo/open-work';
import type { Table } from '../../functions/adapters/dynamo/table';

const OPEN_JOB_STATUSES = ['pending', 'running'];

export interface ReconcileDeps {
  table: Table;
  jobs: JobsRepository;
  ledger: LedgerPort;
  clock: Clock;
  startImageJob(input: { accountId: string; jobId: string; hasCallback: boolean }): Promise<void>;
}

export interface Reconciled {
  resumedJobs: string[];
  failedJobs: string[];
  failedProfiles: string[];
}

export const reconcileInterruptedWork = async (deps: ReconcileDeps): Promise<Reconciled> => {
  const reconciled: Reconciled = { resumedJobs: [], failedJobs: [], failedProfiles: [] };
  for (const item of await findOpenWork(deps.table)) {
    if (item.kind === 'profile') {
      await failTraining(deps, { accountId: item.accountId, profileId: item.id, failure: { Error: 'ServiceRestarted' } });
      reconciled.failedProfiles.push(item.id);
      continue;
    }
    const job = await deps.jobs.get(item.accountId, item.id);
    if (!job || !OPEN_JOB_STATUSES.includes(job.status)) continue;
    if (job.mode === 'async') {
      await deps.startImageJob({ accountId: job.accountId, jobId: job.jobId, hasCallback: job.callbackUrl !== null });
      reconciled.resumedJobs.push(job.jobId);
    } else {
      const at = deps.clock();
      const error = { code: 'INTERNAL_ERROR' as const, message: 'The service stopped before the result was ready; the reserved cost was refunded. Please send the request again.' };
      await deps.ledger.release({ accountId: job.accountId, owner: { kind: 'job', id: job.jobId }, ownerPatch: { status: 'failed', error, ...completion(at) }, at });
      reconciled.failedJobs.push(job.jobId);
    }
  }
  return reconciled;
};
