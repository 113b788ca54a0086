/**
 * The engine's wrappers (functions/domain/engine/engine.ts) hand a run everything it was given: a
 * synchronous call's `keepTicket` dropped by one of them would leave a queued provider's ticket unstored,
 * and the work of a call lost with its process running unseen (and billed).
 */
import {
  abortableRun,
  ENGINE_STOP_WAIT_MS,
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

describe('abortableRun', () => {
  afterEach(() => jest.useRealTimers());

  /** An engine that ends `stopMs` after the abort (its cancel on the way), or never with Infinity. */
  const stoppingEngine = (stopMs: number) => {
    const events: string[] = [];
    const engine: ImageEngine = {
      run: (_request, signal, _progress, keepTicket) =>
        new Promise<EngineOutcome>((_resolve, reject) => {
          void keepTicket?.({ engine: 'fal', requests: [{ id: 'req_1' }] } as never);
          signal.addEventListener('abort', () => {
            if (Number.isFinite(stopMs))
              setTimeout(() => {
                events.push('stopped');
                reject(new Error('aborted by the client'));
              }, stopMs);
          });
        }),
    };
    return { engine, events };
  };

  it('after an abort, answers with its reason only once the engine has stopped (its cancel sent)', async () => {
    jest.useFakeTimers();
    const { engine, events } = stoppingEngine(300);
    const controller = new AbortController();
    const tickets: string[] = [];
    const running = abortableRun(engine, {} as never, controller.signal, undefined, async (ticket) => {
      tickets.push(ticket.requests[0]?.id ?? '');
    });
    const settled = running.then(
      () => 'resolved',
      (error: Error) => events.push(`rejected: ${error.message}`),
    );
    controller.abort(new Error('deadline'));
    await jest.advanceTimersByTimeAsync(299);
    expect(events).toEqual([]);
    await jest.advanceTimersByTimeAsync(1);
    await settled;
    expect(events).toEqual(['stopped', 'rejected: deadline']);
    expect(tickets).toEqual(['req_1']);
  });

  it('leaves behind an engine that ignores the abort after ENGINE_STOP_WAIT_MS', async () => {
    jest.useFakeTimers();
    const { engine } = stoppingEngine(Number.POSITIVE_INFINITY);
    const controller = new AbortController();
    const running = abortableRun(engine, {} as never, controller.signal);
    const outcome = running.catch((error: Error) => error.message);
    controller.abort(new Error('canceled'));
    await jest.advanceTimersByTimeAsync(ENGINE_STOP_WAIT_MS);
    await expect(outcome).resolves.toBe('canceled');
  });

  it("answers with the engine's outcome when no abort came", async () => {
    await expect(abortableRun({ run: async () => outcome }, {} as never, new AbortController().signal)).resolves.toBe(
      outcome,
    );
  });
});
