/** The job-status body, identical for polling and for the callback (the callback signs these bytes). */
import type { Caller } from '../accounts/accounts';
import { JobExpiredError, NotFoundError } from '../errors';
import type { Clock } from '../shared/clock';
import { toIso } from '../shared/clock';
import { usdDecimal } from '../shared/money';
import { type Job, type JobPageQuery, type JobsRepository, progressOf } from './job';
import { downloadLinks, type ImageResultBody, imageResultBody, type LinkMaker, subjectsOf } from './result';

export interface JobStatusBody {
  job_id: string;
  status: Job['status'];
  operation: Job['operation'];
  created_at: string;
  result: ImageResultBody | null;
  error: { code: string; message: string } | null;
  completed_at: string | null;
  /** 0 to 1: 0 while pending, the engine's last report while running, 1 once succeeded. */
  progress: number;
  /** Seconds left at the pace so far; null while unknown (pending, no report yet) and for a failed job. */
  eta_seconds: number | null;
  /** The job's money as USD strings: reserved at submit; final once ended (the price settled, or "0.00" when refunded). */
  cost: { reserved: string; final: string | null } | null;
}

export type { LinkMaker };

/** A poll and the callback always carry links (never the bytes), whatever the job's response mode. */
export const statusBody = async (job: Job, link: LinkMaker, now: number): Promise<JobStatusBody> => {
  const { progress, etaSeconds } = progressOf(job, now);
  return {
    job_id: job.jobId,
    status: job.status,
    operation: job.operation,
    created_at: toIso(job.createdAt),
    result:
      job.status === 'succeeded' && job.result
        ? imageResultBody({
            jobId: job.jobId,
            ...subjectsOf(job.result),
            images: [],
            downloadUrls: await downloadLinks(link, { ...job, result: job.result }),
          })
        : null,
    error: job.status === 'failed' && job.error ? { code: job.error.code, message: job.error.message } : null,
    completed_at: job.completedAt === null ? null : toIso(job.completedAt),
    progress,
    eta_seconds: etaSeconds,
    cost: job.charge && {
      reserved: usdDecimal(job.charge.reservedMicros),
      final: job.charge.finalMicros === null ? null : usdDecimal(job.charge.finalMicros),
    },
  };
};

/** GET /jobs/{job_id}: the caller's job (another account's is not found); 410 past its expiry. */
export const status = async (
  deps: { jobs: JobsRepository; clock: Clock; link: LinkMaker },
  caller: Caller,
  jobId: string,
): Promise<JobStatusBody> => {
  const job = await deps.jobs.get(caller.accountId, jobId);
  if (!job) throw new NotFoundError(`Job ${jobId} not found.`);
  if (job.expiresAt !== null && deps.clock() >= job.expiresAt) throw new JobExpiredError(jobId);
  return statusBody(job, deps.link, deps.clock());
};

/**
 * GET /jobs: the caller's jobs, newest first, synchronous ones included (so that the result of a call
 * whose client hung up can still be found), one page per call. Jobs past their retention are left out.
 */
export const list = async (
  deps: { jobs: JobsRepository; clock: Clock; link: LinkMaker },
  caller: Caller,
  query: JobPageQuery,
): Promise<{ jobs: JobStatusBody[]; next_cursor: string | null }> => {
  const page = await deps.jobs.list(caller.accountId, query);
  const now = deps.clock();
  const current = page.jobs.filter((job) => job.expiresAt === null || now < job.expiresAt);
  return {
    jobs: await Promise.all(current.map((job) => statusBody(job, deps.link, now))),
    next_cursor: page.cursor ?? null,
  };
};
