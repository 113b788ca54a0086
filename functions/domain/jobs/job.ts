/**
 * An image job: every image operation, synchronous or not, is a job record that owns its charge
 * (the ledger's reserve/settle/release are guarded by its charge state). A synchronous call waits for
 * its job within the request; an asynchronous one is run by the image-job workflow and polled.
 */

import type { PricedRequest } from '../catalog/pricing';
import type {
  CandidateProfile,
  EngineRequest,
  EngineTicket,
  EngineUsage,
  ImageFormat,
  Operation,
  OutputFormat,
} from '../engine/engine';
import type { IdentityCheck, IdentityReport, IdentityRetries } from '../engine/identity';
import type { RecognizedFace } from '../engine/recognition';
import { DomainError, type ErrorCode, NotFoundError } from '../errors';

export const JOB_STATUSES = ['pending', 'running', 'succeeded', 'failed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export const JOB_MODES = ['sync', 'async'] as const;
export type JobMode = (typeof JOB_MODES)[number];

/** A job's result and its download links stay available this long after completion. */
export const JOB_RETENTION_MS = 24 * 3600 * 1000;

export interface JobError {
  code: ErrorCode;
  message: string;
}

export interface JobResult {
  outputKeys: string[];
  outputFormat: OutputFormat;
  knownSubjects: Record<string, number>;
  /** The recognitions `knownSubjects` counts, with each face's box; absent on jobs stored before boxes were kept. */
  recognizedFaces?: RecognizedFace[];
  /** Who was expected and kept in each output (engine/identity.ts); absent with identity_check "off". */
  identity?: IdentityReport;
  /** What identity retries cost the provider (the operator's); never shown to the caller. */
  identityRetries?: IdentityRetries;
  /** What the provider charged the operator for the work (micro-USD), where known; never shown to the caller. */
  providerCostMicros?: number;
}

/** An input image the workflow reads back from the bucket. */
export interface StoredInput {
  key: string;
  /** The format of the stored bytes (HEIC was re-encoded before it was stored). */
  format: ImageFormat;
  width: number;
  height: number;
}

/**
 * What an asynchronous job's workflow needs to run the engine and price the outcome. The candidates are
 * kept by id only (a face template is kilobytes, and a request may name dozens): RunEngine reads their
 * faces again, so a profile deleted in the meantime is no longer a candidate.
 */
export interface JobWork {
  engine: Omit<EngineRequest, 'images' | 'candidates' | 'workKey' | 'accountId'> & {
    /** By id, with the subject's head pose in the input where it was found (absent on older jobs). */
    candidates: Pick<CandidateProfile, 'profileId' | 'inputPose'>[];
  };
  inputs: StoredInput[];
  priced: PricedRequest;
  /** `identity_check` (engine/identity.ts); absent on jobs submitted before it: they report. */
  identityCheck?: IdentityCheck;
}

export interface Job {
  jobId: string;
  accountId: string;
  operation: Operation;
  mode: JobMode;
  status: JobStatus;
  createdAt: number;
  startedAt: number | null;
  completedAt: number | null;
  /** completedAt + 24 h: past it, polling answers 410. Decided by our code, never by TTL timing. */
  expiresAt: number | null;
  result: JobResult | null;
  error: JobError | null;
  responseMode: 'bytes' | 'urls';
  callbackUrl: string | null;
  clientRequestId: string | null;
  /** The API base URL the job was submitted on, for its download links. */
  baseUrl: string;
  /** From `cancel_after`: past this (epoch ms) an unfinished job is canceled and refunded. */
  cancelAt: number | null;
  /** The engine's last reported progress (0 to 1) while running, and when it was written (epoch ms). */
  progress: number | null;
  progressAt: number | null;
  work: JobWork | null;
  /**
   * Every queued provider ticket (fal) the job has opened, in order, each stored before its work is first
   * checked: the work's own first (the step that submitted it stores it before anything else can fail, and
   * every later step checks that ticket, so the provider is asked once per job; `workTicket`), then each
   * identity retry's. Every path that ends the job cancels those still open (`openTickets`).
   */
  engineTickets: EngineTicket[];
  /**
   * When the engine step first began a call that a provider does not deduplicate (a POST of paid work):
   * set once, conditionally, before the call. A later run of the step that finds it does not call again
   * (the provider may have done the work); absent on jobs that never made such a call.
   */
  engineCallAt?: number | null;
  /** The engine step's outcome once its outputs are stored: a step run again returns it instead of working again. */
  engineRun: RunOutcome | null;
  /**
   * The task token the workflow waits on for the provider's report (AwaitEngine), and when the wait began
   * (epoch ms); the latest attempt's. Absent on jobs that never waited for a report.
   */
  awaitToken?: string | null;
  awaitSince?: number | null;
  /** The ticket's requests the provider has reported finished (by its webhook, or a fallback check), each once. */
  engineReported?: string[];
  /** Set once a report's SendTaskSuccess went through: a redelivered report resumes the job only until then. */
  reportResumed?: boolean;
  /** What the ledger holds for the job, read back with it (the ledger writes it, the job's own writes never do). */
  charge: JobCharge | null;
}

/** The job's money: the reservation made at submit, and what it came to once ended (0 when released). */
export interface JobCharge {
  reservedMicros: number;
  finalMicros: number | null;
}

/** What the engine step hands to settlement or release. */
export type RunOutcome =
  | {
      outcome: 'succeeded';
      outputKeys: string[];
      knownSubjects: Record<string, number>;
      /** Absent on a run recorded before boxes were kept. */
      recognizedFaces?: RecognizedFace[];
      /** Absent with identity_check "off", and on a run recorded before the report was kept. */
      identity?: IdentityReport;
      identityRetries?: IdentityRetries;
      usage: EngineUsage;
    }
  | { outcome: 'failed'; error: JobError };

/**
 * What settling a job needs of its record, as the engine step read it: handed on with a succeeded outcome
 * so that SettleCharge need not read the job again. `reservedMicros` is absent on a record without its
 * charge; `readStatus` is the status read while the charge was still open (the ledger's close is guarded
 * by it, so a status or charge that moved since moves no money on this word: the close reads again).
 */
export interface SettleBasis {
  priced: PricedRequest;
  outputFormat: OutputFormat;
  reservedMicros?: number;
  readStatus?: JobStatus;
}

/** The settle basis of a job as read now. */
export const settleBasisOf = (job: Job): SettleBasis => {
  if (!job.work) throw new Error(`job ${job.jobId} has no stored work`);
  const open = job.charge !== null && job.charge.finalMicros === null && job.mode === 'async';
  return {
    priced: job.work.priced,
    outputFormat: job.work.engine.outputFormat,
    ...(job.charge && { reservedMicros: job.charge.reservedMicros }),
    ...(open && { readStatus: job.status }),
  };
};

/**
 * The engine step's answer to the workflow: an outcome (a success with its settle basis), or (a queued
 * provider still working) ask again after a wait.
 */
export type EngineStepResult = (RunOutcome & { settleBasis?: SettleBasis }) | EngineWaiting;

/**
 * A queued provider still working. With `awaitSeconds` the provider reports back to our webhook: the workflow
 * waits for that report (AwaitEngine, at most this long, the job's budget left; each later wait state at most
 * `awaitLaterSeconds[i]`, the last one checking the provider after `finalCheckSeconds`), and `reported` says every report was already in when the provider's status was read
 * (domain/workflow/reports.ts); without it, it checks again after its wait.
 */
export interface EngineWaiting {
  outcome: 'waiting';
  awaitSeconds?: number;
  awaitLaterSeconds?: number[];
  finalCheckSeconds?: number;
  reported?: boolean;
}

/** One page of an account's jobs, newest first; `cursor` continues where the page ended. */
export interface JobPageQuery {
  limit: number;
  cursor?: string;
  status?: JobStatus;
  operation?: Operation;
  createdAfter?: number;
}

export interface JobPage {
  jobs: Job[];
  /** Undefined on the last page. */
  cursor?: string;
}

export interface JobsRepository {
  get(accountId: string, jobId: string): Promise<Job | undefined>;
  /** One Query per page; a page holds at most `limit` jobs, fewer where filters drop some. */
  list(accountId: string, query: JobPageQuery): Promise<JobPage>;
  /**
   * pending → running, taking one of the account's `maxRunning` places for asynchronous jobs in the same
   * transaction: `full` when all are taken (the job stays pending), `started` otherwise, also for a job
   * already past pending (a retried step). The place is given back when the job's charge closes.
   */
  markRunning(accountId: string, jobId: string, at: number, maxRunning: number): Promise<'started' | 'full'>;
  /** The job a client_request_id was first used for, if any. */
  /** The job a client_request_id names, with the fingerprint of the request that created it (null for records older than fingerprints). */
  findByClientRequestId(
    accountId: string,
    clientRequestId: string,
  ): Promise<{ jobId: string; fingerprint: string | null } | undefined>;
  /** Frees a client_request_id whose job has expired. */
  forgetClientRequestId(accountId: string, clientRequestId: string, jobId: string): Promise<void>;
  /** Records a running job's progress, only forward and only while it runs (a later or lower report changes nothing). */
  recordProgress(accountId: string, jobId: string, progress: number, at: number): Promise<void>;
  /**
   * Stores the ticket of the job's work (an asynchronous submit) unless the job holds one already; answers
   * the job's work ticket (this one, or the earlier one that won). Throws when it cannot store it.
   */
  recordTicket(accountId: string, jobId: string, ticket: EngineTicket): Promise<EngineTicket>;
  /**
   * Adds another ticket the job opened (a synchronous call's, an identity retry's) after those it holds.
   * Throws when it cannot (no such job, the table refuses): the caller then stops that work.
   */
  addTicket(accountId: string, jobId: string, ticket: EngineTicket): Promise<void>;
  /**
   * Marks the job "a provider call may have started" unless it is marked already: true when this call
   * made the mark, false when an earlier run of the step did (then the provider must not be called again).
   */
  markEngineCall(accountId: string, jobId: string, at: number): Promise<boolean>;
  /**
   * Stores the task token the workflow now waits on (AwaitEngine). Answers the job as it was just before this
   * write (undefined: no such job), so that a report recorded before the token is seen by exactly one side.
   */
  awaitEngine(accountId: string, jobId: string, taskToken: string, at: number): Promise<Job | undefined>;
  /**
   * Records that the provider reported request `requestId` finished, once: `first` is false when it was
   * recorded already (a duplicate report). Answers the job after the write (undefined: no such job).
   */
  recordEngineReport(
    accountId: string,
    jobId: string,
    requestId: string,
  ): Promise<{ first: boolean; job: Job } | undefined>;
  /** Marks that a report resumed the waiting workflow (its SendTaskSuccess answered). */
  markReportResumed(accountId: string, jobId: string): Promise<void>;
  /** Stores the engine step's outcome once (the first recorded stays). */
  recordRun(accountId: string, jobId: string, run: RunOutcome): Promise<void>;
}

/** The ticket of the job's work (the first it opened): the one the workflow checks and its provider reports on. */
export const workTicket = (job: Pick<Job, 'engineTickets'>): EngineTicket | null => job.engineTickets[0] ?? null;

/**
 * The tickets whose work may still be running at their provider: all but those whose every request the
 * provider has reported finished (a refused submit holds no request). Canceling a request the provider has
 * finished is harmless (fal answers ALREADY_COMPLETED), so a ticket not known finished counts as open.
 */
export const openTickets = (job: Pick<Job, 'engineTickets' | 'engineReported'>): EngineTicket[] =>
  job.engineTickets.filter((ticket) =>
    ticket.requests.some((request) => request.id !== 'refused' && !job.engineReported?.includes(request.id)),
  );

/** Asks each ticket's provider to stop what is still open (each `cancel` best effort: it never throws). */
export const cancelOpenTickets = async (
  cancel: (ticket: EngineTicket) => Promise<void>,
  job: Pick<Job, 'engineTickets' | 'engineReported'>,
): Promise<void> => {
  await Promise.all(openTickets(job).map((ticket) => cancel(ticket)));
};

export const isTerminal = (status: JobStatus): boolean => status === 'succeeded' || status === 'failed';

/** A job's terminal state, as settle writes it. */
export interface JobSucceeded {
  status: 'succeeded';
  result: JobResult;
  completedAt: number;
  expiresAt: number;
}

/** A job's terminal state, as release writes it. */
export interface JobFailed {
  status: 'failed';
  error: JobError;
  completedAt: number;
  expiresAt: number;
}

export const succeededAt = (at: number, result: JobResult): JobSucceeded => ({
  status: 'succeeded',
  result,
  completedAt: at,
  expiresAt: at + JOB_RETENTION_MS,
});

export const failedAt = (at: number, error: JobError): JobFailed => ({
  status: 'failed',
  error,
  completedAt: at,
  expiresAt: at + JOB_RETENTION_MS,
});

/** How an error is recorded on a job: a domain error as itself, anything else as the engine's failure. */
export const jobErrorOf = (error: unknown): JobError =>
  error instanceof DomainError
    ? { code: error.code, message: error.message }
    : { code: 'INTERNAL_ERROR', message: 'The image engine failed. The reserved cost was refunded.' };

/** Until when an asynchronous job may wait or run (epoch ms): its budget, or its cancel_after deadline if sooner. */
export const runUntil = (job: Pick<Job, 'createdAt' | 'cancelAt'>, asyncBudgetMs: number): number =>
  Math.min(job.createdAt + asyncBudgetMs, job.cancelAt ?? Number.POSITIVE_INFINITY);

export const canceledError = (by: 'request' | 'deadline', cancelAfterMs?: number): JobError => ({
  code: 'CANCELED',
  message:
    by === 'request'
      ? 'The job was canceled; the reserved cost was refunded.'
      : `The job was canceled by its deadline (cancel_after ${Math.round((cancelAfterMs ?? 0) / 1000)} s); the reserved cost was refunded.`,
});

/** A job that ran out of time (its budget, or what its step had left): TIMEOUT, refunded. */
export const timeoutError = (limitMs: number): JobError => ({
  code: 'TIMEOUT',
  message: `The job did not finish within its time limit (${Math.round(limitMs / 1000)} s); the reserved cost was refunded.`,
});

/** The job a step names, read again; NotFoundError when it is gone. */
export const loadJob = async (
  deps: { jobs: Pick<JobsRepository, 'get'> },
  step: Pick<Job, 'accountId' | 'jobId'>,
): Promise<Job> => {
  const job = await deps.jobs.get(step.accountId, step.jobId);
  if (!job) throw new NotFoundError(`Job ${step.jobId} not found.`);
  return job;
};

/**
 * What a poll says of a job's progress: 0 while pending, the engine's last report while running, 1 once
 * succeeded; and the seconds left, extrapolated from the pace so far (null until there is a pace, or
 * for a failed job).
 */
export const progressOf = (
  job: Pick<Job, 'status' | 'progress' | 'progressAt' | 'startedAt'>,
  now: number,
): { progress: number; etaSeconds: number | null } => {
  if (job.status === 'succeeded') return { progress: 1, etaSeconds: 0 };
  const progress = job.progress ?? 0;
  if (job.status !== 'running' || job.startedAt === null || job.progressAt === null || progress <= 0 || progress >= 1)
    return { progress, etaSeconds: null };
  const spentMs = Math.max(1, job.progressAt - job.startedAt);
  const leftMs = (spentMs * (1 - progress)) / progress - (now - job.progressAt);
  return { progress, etaSeconds: Math.max(0, Math.ceil(leftMs / 1000)) };
};
