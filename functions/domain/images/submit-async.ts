/**
 * An asynchronous submit: the same checks and decoding as a synchronous call, then the inputs kept for
 * the workflow, the ceiling (the most it can cost) reserved in the transaction that creates the job, and the image-job workflow
 * started (execution name = job id). If the workflow cannot be started the reservation is released at once.
 */
import type { Caller } from '../accounts/accounts';
import { ServiceUnavailableError } from '../errors';
import { releaseJobCharge, reserveJobCharge } from '../jobs/charge';
import { jobErrorOf, runUntil } from '../jobs/job';
import { type ImageCommand, newJob, type RequestContext } from './command';
import type { ImageDeps } from './deps';
import { clientRequestIdClaim } from './idempotency';
import { prepare } from './prepare';

/** Returns the new job's id; the job is `pending` until its workflow marks it running. */
export const submitAsync = async (
  deps: ImageDeps,
  caller: Caller,
  command: ImageCommand,
  context: RequestContext,
): Promise<string> => {
  const prepared = await prepare(deps, caller, command, new AbortController().signal);
  const jobId = deps.newId('job');
  const inputs = await deps.inputs.save(caller.accountId, jobId, prepared.engineRequest.images);
  const { images: _decoded, candidates, ...engine } = prepared.engineRequest;
  const job = newJob(jobId, caller, command, context, deps.clock(), 'async', {
    engine: {
      ...engine,
      candidates: candidates.map(({ profileId, inputPose }) => ({ profileId, ...(inputPose && { inputPose }) })),
    },
    inputs,
    priced: prepared.priced,
    identityCheck: prepared.identityCheck,
  });
  try {
    await reserveJobCharge(
      deps.ledger,
      job,
      prepared.reservedMicros,
      clientRequestIdClaim(command, job, deps.settings),
    );
  } catch (error) {
    // No job was created (402, or a lost idempotency race): its inputs go too.
    await deps.inputs.remove(caller.accountId, jobId);
    throw error;
  }
  try {
    await deps.workflows.startImageJob({
      accountId: caller.accountId,
      jobId,
      hasCallback: command.callbackUrl !== undefined,
      maxRunning: caller.runningJobs ?? deps.settings.maxRunningJobs,
      runUntil: runUntil(job, deps.settings.asyncBudgetMs),
    });
  } catch (error) {
    const unavailable = new ServiceUnavailableError('The job could not be started; nothing was charged. Please retry.');
    await releaseJobCharge(deps.ledger, job, jobErrorOf(unavailable), deps.clock());
    throw Object.assign(unavailable, { cause: error });
  }
  return jobId;
};
