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
import { findOpenWork } from '../../functions/adapters/dynamo/open-work';
import type { DynamoProfiles } from '../../functions/adapters/dynamo/profiles-repository';
import type { Table } from '../../functions/adapters/dynamo/table';
import type { LedgerPort } from '../../functions/domain/billing/ledger';
import type { EngineTicket } from '../../functions/domain/engine/engine';
import type { JobsRepository } from '../../functions/domain/jobs/job';
import type { Profile, ProfilesReader } from '../../functions/domain/profiles/profile';
import { needsReembedding } from '../../functions/domain/profiles/reembed';
import type { Clock } from '../../functions/domain/shared/clock';
import { closeAbandonedWork, type OpenWork } from '../../functions/domain/workflow/abandoned';

export interface ReconcileDeps {
  table: Table;
  jobs: JobsRepository;
  profiles: Pick<ProfilesReader, 'get'>;
  ledger: LedgerPort;
  clock: Clock;
  startImageJob(input: { accountId: string; jobId: string; hasCallback: boolean }): Promise<void>;
  /** Stops what a queued provider still holds for a job closed here (never throws). */
  cancelEngineWork(ticket: EngineTicket | null): Promise<void>;
}

export interface Reconciled {
  resumedJobs: string[];
  failedJobs: string[];
  failedProfiles: string[];
}

export const reconcileInterruptedWork = async (deps: ReconcileDeps): Promise<Reconciled> => {
  const resumedJobs: string[] = [];
  const rest: OpenWork[] = [];
  for (const item of await findOpenWork(deps.table)) {
    const job = item.kind === 'job' ? await deps.jobs.get(item.accountId, item.id) : undefined;
    if (job?.mode === 'async' && (job.status === 'pending' || job.status === 'running')) {
      await deps.startImageJob({ accountId: job.accountId, jobId: job.jobId, hasCallback: job.callbackUrl !== null });
      resumedJobs.push(job.jobId);
    } else {
      rest.push(item);
    }
  }
  // Nothing of the previous run is still in flight: what cannot resume is closed now.
  const closed = await closeAbandonedWork({ ...deps, graceMs: 0, executionState: async () => 'missing' }, rest);
  return { resumedJobs, failedJobs: closed.jobs, failedProfiles: closed.profiles };
};

/**
 * After a change of face model (FACE_MODEL_ID, or a new MODEL_ID in the checkout): when some READY profile
 * lacks a template of the model the functions run, the backfill workflow is started, as a deploy starts it on
 * AWS (lib/constructs/workflows.ts). A start after a stop resumes it: the workflow skips what is done.
 */
export const startBackfillIfNeeded = async (deps: {
  profiles: Pick<DynamoProfiles, 'readyPage'>;
  modelId: string;
  clock: Clock;
  startBackfill(modelId: string, at: number): Promise<void>;
}): Promise<{ modelId: string } | null> => {
  let cursor: string | null = null;
  do {
    const page: { profiles: Profile[]; cursor: string | null } = await deps.profiles.readyPage(cursor, 500);
    if (page.profiles.some((profile) => needsReembedding(profile, deps.modelId))) {
      await deps.startBackfill(deps.modelId, deps.clock());
      return { modelId: deps.modelId };
    }
    cursor = page.cursor;
  } while (cursor !== null);
  return null;
};
