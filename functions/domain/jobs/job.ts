/**
 * An image job: every image operation, synchronous or not, is a job record that owns its charge
 * (the ledger's reserve/settle/release are guarded by its charge state). A synchronous call simply
 * waits for its job to finish within the request.
 */
import type { ErrorCode } from '../errors';
import type { Operation, OutputFormat } from '../images/engine';

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
}

export interface Job {
  jobId: string;
  accountId: string;
  operation: Operation;
  mode: JobMode;
  status: JobStatus;
  createdAt: number;
  completedAt: number | null;
  /** completedAt + 24 h: past it, polling answers 410. Decided by our code, never by TTL timing. */
  expiresAt: number | null;
  result: JobResult | null;
  error: JobError | null;
}
