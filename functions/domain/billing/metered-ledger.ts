/**
 * The ledger, counted: money reserved, settled and refunded, and how each charge ended (jobs by their
 * error code, trainings by outcome), emitted only when a transition was applied, so a retried step
 * counts nothing twice. A settle's note (ledger.ts, SettlementNote) is logged as a warning and counted:
 * the price above the reservation that was not charged (UnbilledMicros, the operator's loss, alarmed in
 * lib/constructs/alarms.ts) and a token-metered run settled at its reservation because its provider
 * reported no usage (UsageMissing).
 */
import { METRICS, type Meter } from '../shared/meter';
import type { LedgerPort } from './ledger';

/** Where a settle's note is written: the process logger's warn. */
export interface LedgerLog {
  warn(message: string, fields?: Record<string, unknown>): void;
}

const silent: LedgerLog = { warn: () => undefined };

export const meteredLedger = <L extends LedgerPort>(ledger: L, meter: Meter, log: LedgerLog = silent): L =>
  Object.assign(Object.create(ledger) as L, {
    reserve: async (input: Parameters<LedgerPort['reserve']>[0]) => {
      const entry = await ledger.reserve(input);
      meter.count(METRICS.reservedMicros, { kind: input.creates.kind }, input.amountMicros);
      return entry;
    },
    settle: async (input: Parameters<LedgerPort['settle']>[0]) => {
      const outcome = await ledger.settle(input);
      if (outcome.applied) {
        meter.count(METRICS.settledMicros, { kind: input.ends.kind }, outcome.amountMicros ?? input.finalMicros);
        meter.count(input.ends.kind === 'job' ? METRICS.jobsSucceeded : METRICS.trainingsReady);
        const { note } = input;
        const fields = { accountId: input.accountId, [`${input.ends.kind}Id`]: input.ends.id, ...note };
        if (note && note.unbilledMicros > 0) {
          meter.count(METRICS.unbilledMicros, { kind: input.ends.kind }, note.unbilledMicros);
          log.warn('The price of the work exceeded its reservation: the rest is not charged (operator loss).', {
            ...fields,
            chargedMicros: outcome.amountMicros,
          });
        }
        if (note?.usageMissing) {
          meter.count(METRICS.usageMissing, { kind: input.ends.kind });
          log.warn('The provider reported no token usage: settled at the reservation (fail closed).', {
            ...fields,
            chargedMicros: outcome.amountMicros,
          });
        }
      }
      return outcome;
    },
    release: async (input: Parameters<LedgerPort['release']>[0]) => {
      const outcome = await ledger.release(input);
      if (outcome.applied) {
        meter.count(METRICS.releasedMicros, { kind: input.ends.kind }, outcome.amountMicros ?? 0);
        if (input.ends.kind === 'job') meter.count(METRICS.jobsFailed, { code: input.ends.end.error.code });
        else meter.count(METRICS.trainingsFailed);
      }
      return outcome;
    },
  });
