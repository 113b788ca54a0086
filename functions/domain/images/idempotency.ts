/**
 * Read first: client_request_id. A repeat of a request returns the original's answer and creates and
 * charges nothing. The id is claimed in the transaction that creates the job (ledger reserve), so of
 * concurrent repeats exactly one creates the job; the others lose the claim (ClientRequestIdTakenError)
 * and answer with its job. A repeat with another body is refused (IDEMPOTENCY_KEY_REUSED). A claim holds
 * as long as its job can be asked about; past the job's expiry the id is free again.
 */
import { createHash } from 'node:crypto';
import type { Caller } from '../accounts/accounts';
import type { ClientRequestIdClaim } from '../billing/ledger';
import { DomainError, IdempotencyKeyReusedError, RequestTimeoutError } from '../errors';
import { releaseJobCharge } from '../jobs/charge';
import { cancelOpenTickets, isTerminal, JOB_RETENTION_MS, type Job, jobErrorOf } from '../jobs/job';
import { type ImageResult, resultOf } from '../jobs/result';
import type { ImageCommand } from './command';
import type { ImageDeps } from './deps';

/**
 * What makes two requests the same request: the command without its client_request_id (the schema has
 * filled in defaults and the command's fields are in a fixed order, so field order and omitted defaults
 * in the body do not count).
 */
export const requestFingerprint = (command: ImageCommand): string => {
  const { clientRequestId: _key, ...request } = command;
  return createHash('sha256').update(JSON.stringify(request)).digest('base64url');
};

/** The claim a new job makes on its client_request_id, kept as long as the job can live and be polled. */
export const clientRequestIdClaim = (
  command: ImageCommand,
  job: Pick<Job, 'jobId' | 'createdAt'>,
  settings: ImageDeps['settings'],
): ClientRequestIdClaim | undefined =>
  command.clientRequestId === undefined
    ? undefined
    : {
        clientRequestId: command.clientRequestId,
        jobId: job.jobId,
        fingerprint: requestFingerprint(command),
        keepUntil: job.createdAt + Math.max(settings.syncBudgetMs, settings.asyncBudgetMs) + JOB_RETENTION_MS,
      };

/** What a repeat answers: the original's result (synchronous) or its job (asynchronous). */
export type Replay = { kind: 'result'; result: ImageResult } | { kind: 'accepted'; jobId: string };

/** A synchronous job still unfinished this long past its budget was abandoned by its request. */
export const ABANDONED_AFTER_MS = 60_000;

/** The answer the original request got (or will get, waiting up to the synchronous budget for it). */
export const replayOf = async (deps: ImageDeps, caller: Caller, jobId: string): Promise<Replay> => {
  const deadline = deps.clock() + deps.settings.syncBudgetMs;
  for (;;) {
    const job = await deps.jobs.get(caller.accountId, jobId);
    if (!job) throw new Error(`idempotency record names job ${jobId}, which does not exist`);
    if (job.mode === 'async') return { kind: 'accepted', jobId };
    if (isTerminal(job.status)) {
      if (job.status === 'failed' || !job.result)
        throw new DomainError(
          job.error?.code ?? 'INTERNAL_ERROR',
          job.error?.message ?? 'The original request failed.',
        );
      return { kind: 'result', result: await resultOf(deps.outputs, { ...job, result: job.result }) };
    }
    if (job.createdAt + deps.settings.syncBudgetMs + ABANDONED_AFTER_MS < deps.clock()) {
      // The original request died with its function (e.g. out of memory) before it could finish:
      // release its reservation so that neither the money nor the client_request_id stays held, and stop
      // what it left running at a queued provider (its first attempt's and its identity retries' tickets).
      const released = await releaseJobCharge(deps.ledger, job, jobErrorOf(new Error('abandoned')), deps.clock());
      if (released.applied) await cancelOpenTickets(deps.cancelEngineWork, job);
      continue;
    }
    if (deps.clock() >= deadline) throw new RequestTimeoutError(Math.round(deps.settings.syncBudgetMs / 1000));
    await deps.sleep(deps.settings.replayPollMs);
  }
};

/** The job a repeated client_request_id names, provided the request is the same one. */
const sameRequestJob = (
  command: ImageCommand,
  clientRequestId: string,
  found: { jobId: string; fingerprint: string | null },
): string => {
  if (found.fingerprint !== null && found.fingerprint !== requestFingerprint(command))
    throw new IdempotencyKeyReusedError(clientRequestId);
  return found.jobId;
};

/** The job a client_request_id still names (its claim is freed once the job has expired), if any. */
export const earlierJob = async (
  deps: ImageDeps,
  caller: Caller,
  command: ImageCommand,
  clientRequestId: string,
): Promise<string | undefined> => {
  const found = await deps.jobs.findByClientRequestId(caller.accountId, clientRequestId);
  if (!found) return undefined;
  const job = await deps.jobs.get(caller.accountId, found.jobId);
  // A job past its expiry (or already cleaned up by TTL) no longer holds its client_request_id.
  if (!job || (job.expiresAt !== null && deps.clock() >= job.expiresAt)) {
    await deps.jobs.forgetClientRequestId(caller.accountId, clientRequestId, found.jobId);
    return undefined;
  }
  return sameRequestJob(command, clientRequestId, found);
};

/** After a lost claim: the winner's job (the same request), to be replayed. */
export const claimWinner = async (
  deps: ImageDeps,
  caller: Caller,
  command: ImageCommand,
  clientRequestId: string,
): Promise<string | undefined> => {
  const found = await deps.jobs.findByClientRequestId(caller.accountId, clientRequestId);
  return found ? sameRequestJob(command, clientRequestId, found) : undefined;
};
