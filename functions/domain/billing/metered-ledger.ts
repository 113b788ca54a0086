/**
 * The ledger, counted: money reserved, settled and refunded, and how each charge ended (jobs by their
 * error code, trainings by outcome), emitted only when a transition was applied, so a retried step
 * counts nothing twice.
 */
import { METRICS, type Meter } from '../shared/meter';
import type { LedgerPort } from './ledger';

export const meteredLedger = <L extends LedgerPort>(ledger: L, meter: Meter): L =>
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
