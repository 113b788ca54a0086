/**
 * The engine's wrappers (functions/domain/engine/engine.ts) hand a run everything it was given: a
 * synchronous call's `keepTicket` dropped by one of them would leave a queued provider's ticket unstored,
 * and the work of a call lost with its process running unseen (and billed).
 */
import {
  type EngineOutcome,
  type ImageEngine,
  type KeepTicket,
  meteredEngine,
  reportingLostWork,
} from '../../../../functions/domain/engine/engine';
import type { Meter } from '../../../../functions/domain/shared/meter';

const outcome: EngineOutcome = { kind: 'no_image', message: 'nothing' };
const meter: Meter = { count: () => undefined, milliseconds: () => undefined };

const WRAPPERS: { name: string; wrap: (engine: ImageEngine) => ImageEngine }[] = [
  { name: 'reportingLostWork', wrap: (engine) => reportingLostWork(engine, () => undefined) },
  { name: 'meteredEngine', wrap: (engine) => meteredEngine(engine, meter) },
];

describe.each(WRAPPERS)('$name', ({ wrap }) => {
  it("hands a run's progress and keepTicket to the engine it wraps", async () => {
    const seen: unknown[] = [];
    const progress = () => undefined;
    const keepTicket: KeepTicket = async () => undefined;
    const wrapped = wrap({
      run: async (_request, _signal, givenProgress, givenKeep) => {
        seen.push(givenProgress, givenKeep);
        return outcome;
      },
    });
    expect(
      await wrapped.run({ operation: 'generate' } as never, new AbortController().signal, progress, keepTicket),
    ).toBe(outcome);
    expect(seen).toEqual([progress, keepTicket]);
  });
});
