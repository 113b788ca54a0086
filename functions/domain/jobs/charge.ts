/**
 * Read first: where an image job's money moves. Every reservation, settlement and release of a job goes
 * through these three functions; the transaction itself (balance, ledger entry and the job's terminal
 * state in one, guarded by the job's charge state so that a second close moves nothing) is the ledger
 * adapter's: functions/adapters/dynamo/ledger-repository.ts.
 *
 * - reserved with the job record (and its client_request_id claim): a synchronous call
 *   (images/run-sync.ts) and an asynchronous submit (images/submit-async.ts);
 * - settled once the outputs are stored: a synchronous call (images/run-sync.ts) and the workflow's
 *   SettleCharge (workflow/steps.ts, `settle`);
 * - released by
 *   - a synchronous call refused, failed, timed out, or unable to store or settle (images/run-sync.ts);
 *   - an asynchronous submit whose workflow could not be started (images/submit-async.ts);
 *   - the workflow's ReleaseCharge, where the state machine routes every failure of an asynchronous job
 *     (workflow/steps.ts, `release`);
 *   - a repeat of a synchronous call whose original request died (images/idempotency.ts);
 *   - a cancel of an asynchronous job (cancel.ts), which the workflow's settlement then finds closed;
 *   - the sweep of work whose execution was lost (workflow/abandoned.ts).
 */
import type {
  ChargeOutcome,
  ClientRequestIdClaim,
  KnownReservation,
  LedgerEntry,
  LedgerPort,
  SettlementNote,
} from '../billing/ledger';
import type { Settlement } from '../catalog/pricing';
import { InsufficientBalanceError } from '../errors';
import { failedAt, type Job, type JobError, type JobResult, succeededAt } from './job';

export interface JobRef {
  accountId: string;
  jobId: string;
}

/**
 * The ceiling held (the most the job can cost: pricing.ts), the job created and its client_request_id
 * claimed, in one transaction. A balance below the ceiling is a 402 that names the ceiling.
 */
export const reserveJobCharge = async (
  ledger: Pick<LedgerPort, 'reserve'>,
  job: Job,
  amountMicros: number,
  claim?: ClientRequestIdClaim,
): Promise<LedgerEntry> => {
  try {
    return await ledger.reserve({
      accountId: job.accountId,
      amountMicros,
      creates: { kind: 'job', job },
      claim,
      at: job.createdAt,
    });
  } catch (error) {
    if (error instanceof InsufficientBalanceError && error.basis !== 'ceiling')
      throw new InsufficientBalanceError(error.requiredMicros, error.availableMicros, 'ceiling');
    throw error;
  }
};

/**
 * `succeeded` with its result, and the settlement's charge (never above the reservation) taken, in one
 * transaction; what the price could not charge goes with it as a note, for the operator.
 */
export const settleJobCharge = (
  ledger: Pick<LedgerPort, 'settle'>,
  job: JobRef,
  charge: Settlement,
  result: JobResult,
  at: number,
  known?: KnownReservation,
): Promise<ChargeOutcome> =>
  ledger.settle({
    accountId: job.accountId,
    finalMicros: charge.chargedMicros,
    ends: { kind: 'job', id: job.jobId, end: succeededAt(at, result) },
    at,
    known,
    note: noteOf(charge, result),
    ...(result.identityRetries?.outputs && { retriedOutputs: result.identityRetries.outputs }),
  });

const noteOf = (charge: Settlement, result: JobResult): SettlementNote | undefined =>
  charge.unbilledMicros > 0 || charge.usageMissing
    ? {
        unbilledMicros: charge.unbilledMicros,
        usageMissing: charge.usageMissing,
        pricedMicros: charge.pricedMicros,
        ...(result.providerCostMicros !== undefined && { providerCostMicros: result.providerCostMicros }),
      }
    : undefined;

/** `failed` with its error, and the reservation refunded, in one transaction. */
export const releaseJobCharge = (
  ledger: Pick<LedgerPort, 'release'>,
  job: JobRef,
  error: JobError,
  at: number,
  known?: KnownReservation,
): Promise<ChargeOutcome> =>
  ledger.release({
    accountId: job.accountId,
    ends: { kind: 'job', id: job.jobId, end: failedAt(at, error) },
    at,
    known,
  });
