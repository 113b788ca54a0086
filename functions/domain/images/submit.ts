/**
 * Read first: every image operation (edit, generate, enhance, remix) enters here.
 *
 * - prepare.ts: checks and decoding, nothing created or charged (400/404 answers);
 * - run-sync.ts: a synchronous call, reserved, run, stored, settled or released, answered;
 * - submit-async.ts: an asynchronous submit, reserved with its job and handed to the image-job workflow
 *   (../workflow/steps.ts runs it);
 * - idempotency.ts: a repeated client_request_id answers the original and creates and charges nothing;
 * - ../jobs/result.ts: the result, built once for every answer;
 * - ../jobs/charge.ts: every reservation, settlement and release of a job.
 */
import type { Caller } from '../accounts/accounts';
import { ClientRequestIdTakenError } from '../errors';
import type { ImageResult } from '../jobs/result';
import { METRICS } from '../shared/meter';
import type { ImageCommand, RequestContext } from './command';
import type { ImageDeps } from './deps';
import { claimWinner, earlierJob, replayOf } from './idempotency';
import { runSync } from './run-sync';
import { submitAsync } from './submit-async';

/** What a submit answers: a result (synchronous) or an accepted job (asynchronous), possibly replayed. */
export type SubmitOutcome =
  | { kind: 'result'; result: ImageResult; replayed: boolean }
  | { kind: 'accepted'; jobId: string; replayed: boolean };

export const submit = async (
  deps: ImageDeps,
  caller: Caller,
  command: ImageCommand,
  context: RequestContext,
): Promise<SubmitOutcome> => {
  deps.meter.count(METRICS.submits, { operation: command.operation, mode: command.async ? 'async' : 'sync' });
  const clientRequestId = command.clientRequestId;
  if (clientRequestId) {
    const jobId = await earlierJob(deps, caller, command, clientRequestId);
    if (jobId) return { ...(await replayOf(deps, caller, jobId)), replayed: true };
  }
  try {
    return command.async
      ? { kind: 'accepted', jobId: await submitAsync(deps, caller, command, context), replayed: false }
      : { kind: 'result', result: await runSync(deps, caller, command, context), replayed: false };
  } catch (error) {
    if (!(error instanceof ClientRequestIdTakenError) || !clientRequestId) throw error;
    const jobId = await claimWinner(deps, caller, command, clientRequestId);
    if (!jobId) throw error;
    return { ...(await replayOf(deps, caller, jobId)), replayed: true };
  }
};
