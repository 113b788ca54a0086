/** A validated request of any of the four image operations, in the domain's terms. */
import type { Caller } from '../accounts/accounts';
import type { AspectRatio, Quality, Resolution } from '../catalog/catalog';
import type { Operation, OutputFormat } from '../engine/engine';
import type { IdentityCheck } from '../engine/identity';
import type { Job, JobMode, JobWork } from '../jobs/job';

export interface OutputChoice {
  baseModel?: string;
  resolution?: Resolution;
  aspectRatio?: AspectRatio;
  quality?: Quality;
  size?: string;
}

export interface ImageCommand {
  operation: Operation;
  prompt: string;
  /** Image inputs in the engine's order, each with the name errors use (`images[3]`, `input_image`). */
  inputs: ReadonlyArray<{ label: string; value: string }>;
  profileIds: readonly string[];
  /** Edit and generate only; enhance and remix are pinned to 2K on the default model. */
  output: OutputChoice | 'pinned';
  numOutputImages: number;
  outputFormat?: OutputFormat;
  responseMode: 'bytes' | 'urls';
  async: boolean;
  callbackUrl?: string;
  clientRequestId?: string;
  /** Asynchronous only: the job is canceled (refunded) if it has not ended this many seconds after submit. */
  cancelAfterSeconds?: number;
  /** What the answer says of identity, and whether outputs missing an expected subject are made again. */
  identityCheck?: IdentityCheck;
}

/** Where the request came in: its download links are made on the same base URL. */
export interface RequestContext {
  baseUrl: string;
}

/** The job record a command creates: running at once when synchronous, pending for its workflow otherwise. */
export const newJob = (
  jobId: string,
  caller: Caller,
  command: ImageCommand,
  context: RequestContext,
  at: number,
  mode: JobMode,
  work: JobWork | null,
): Job => ({
  jobId,
  accountId: caller.accountId,
  operation: command.operation,
  mode,
  status: mode === 'sync' ? 'running' : 'pending',
  createdAt: at,
  startedAt: mode === 'sync' ? at : null,
  completedAt: null,
  expiresAt: null,
  result: null,
  error: null,
  responseMode: command.responseMode,
  callbackUrl: command.callbackUrl ?? null,
  clientRequestId: command.clientRequestId ?? null,
  baseUrl: context.baseUrl,
  cancelAt: command.cancelAfterSeconds === undefined ? null : at + command.cancelAfterSeconds * 1000,
  progress: null,
  progressAt: null,
  engineTickets: [],
  engineRun: null,
  charge: null,
  work,
});
