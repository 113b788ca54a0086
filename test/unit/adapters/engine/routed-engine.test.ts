/**
 * One engine per base model (functions/adapters/engine/routed-engine.ts): runs and queued work go to the
 * model's engine or the default one, and a ticket's check and cancel go back to the kind of queue that
 * made it.
 */
import { routedEngine } from '../../../../functions/adapters/engine/routed-engine';
import type {
  EngineOutcome,
  EngineQueue,
  EngineRequest,
  EngineTicket,
  ImageEngine,
} from '../../../../functions/domain/engine/engine';

const outcomeOf = (name: string): EngineOutcome => ({ kind: 'no_image', message: `from ${name}` });

/** An engine that says its name in its outcome; with `queueKind`, a queue that records what it was asked. */
const namedEngine = (name: string, queueKind?: string) => {
  const calls: string[] = [];
  const queue: EngineQueue | undefined = queueKind
    ? {
        kind: queueKind,
        accepts: (request) => request.baseModel !== 'base-a-2-pro',
        submit: async (request) => {
          calls.push(`submit ${request.baseModel}`);
          return { engine: queueKind, requests: [{ id: `${name}_req` }], submittedAt: 0 };
        },
        check: async (ticket) => {
          calls.push(`check ${ticket.requests[0]?.id}`);
          return { state: 'done', outcome: outcomeOf(name) };
        },
        cancel: async (ticket) => void calls.push(`cancel ${ticket.requests[0]?.id}`),
      }
    : undefined;
  const engine: ImageEngine = {
    run: async () => outcomeOf(name),
    ...(queue ? { queue } : {}),
  };
  return { engine, calls };
};

const request = (baseModel: string): EngineRequest => ({
  operation: 'generate',
  prompt: 'a cat',
  images: [],
  width: 1024,
  height: 1024,
  outputFormat: 'png',
  numOutputImages: 1,
  baseModel,
  candidates: [],
  namedInPrompt: [],
  workKey: 'job_1',
  accountId: 'acc_1',
});

const ticket = (engine: string, id = 'req_9'): EngineTicket => ({ engine, requests: [{ id }], submittedAt: 0 });
const live = () => new AbortController().signal;

describe('running', () => {
  it('runs a routed model on its engine and any other on the default one', async () => {
    const openai = namedEngine('openai');
    const sandbox = namedEngine('sandbox');
    const routed = routedEngine(new Map([['base-b-2', openai.engine]]), sandbox.engine);
    expect(await routed.run(request('base-b-2'), live())).toEqual(outcomeOf('openai'));
    expect(await routed.run(request('base-c-2'), live())).toEqual(outcomeOf('sandbox'));
  });

  it("hands a run's keepTicket to the model's engine", async () => {
    const kept: unknown[] = [];
    const fal: ImageEngine = {
      run: async (_request, _signal, _progress, keepTicket) => {
        kept.push(keepTicket);
        return outcomeOf('fal');
      },
    };
    const keepTicket = async () => undefined;
    const routed = routedEngine(new Map([['base-a-2', fal]]), namedEngine('sandbox').engine);
    expect(await routed.run(request('base-a-2'), live(), undefined, keepTicket)).toEqual(outcomeOf('fal'));
    expect(kept).toEqual([keepTicket]);
  });
});

describe('the queue', () => {
  it('accepts nothing when no engine queues work, and still reaches a ticket’s own engine', async () => {
    const fal = namedEngine('fal', 'fal');
    const routed = routedEngine(
      new Map([['base-a-2', namedEngine('openai').engine]]),
      namedEngine('sandbox').engine,
      (t) => (t.engine === 'fal' && t.model === 'fal-ai/flux-2' ? fal.engine.queue : undefined),
    );
    expect(routed.queue?.accepts(request('base-a-2'))).toBe(false);
    // A route change mid-job: base-a-2 is on another provider now, its fal ticket is still checked and canceled by fal.
    const made = { ...ticket('fal'), model: 'fal-ai/flux-2' };
    await routed.queue?.check(made, request('base-a-2'), live());
    await routed.queue?.cancel(made, live());
    expect(fal.calls).toEqual(['check req_9', 'cancel req_9']);
  });

  it('is present when a routed engine queues work', () => {
    const routed = routedEngine(
      new Map([['base-a-2', namedEngine('fal', 'fal').engine]]),
      namedEngine('sandbox').engine,
    );
    expect(routed.queue?.accepts(request('base-a-2'))).toBe(true);
  });

  it('is present when only the default engine queues work', () => {
    const routed = routedEngine(new Map(), namedEngine('fal', 'fal').engine);
    expect(routed.queue?.accepts(request('base-c-2'))).toBe(true);
  });

  it('accepts what the model’s own queue accepts, and nothing of a model without a queue', () => {
    const fal = namedEngine('fal', 'fal');
    const routed = routedEngine(
      new Map([
        ['base-a-2', fal.engine],
        ['base-a-2-pro', fal.engine],
      ]),
      namedEngine('sandbox').engine,
    );
    expect(routed.queue?.accepts(request('base-a-2'))).toBe(true);
    expect(routed.queue?.accepts(request('base-a-2-pro'))).toBe(false);
    expect(routed.queue?.accepts(request('base-c-2'))).toBe(false);
  });

  it('names the kind of ticket the model’s own queue makes: the provider whose webhook is told', () => {
    const routed = routedEngine(
      new Map([
        ['base-a-2', namedEngine('fal', 'fal').engine],
        ['base-d-2', namedEngine('other', 'other').engine],
      ]),
      namedEngine('sandbox').engine,
    );
    expect(routed.queue?.kindOf?.(request('base-a-2'))).toBe('fal');
    expect(routed.queue?.kindOf?.(request('base-d-2'))).toBe('other');
  });

  it('submits to and checks with the model’s own queue', async () => {
    const fal = namedEngine('fal', 'fal');
    const other = namedEngine('other', 'other');
    const routed = routedEngine(
      new Map([
        ['base-a-2', fal.engine],
        ['base-d-2', other.engine],
      ]),
      namedEngine('sandbox').engine,
    );
    const submitted = await routed.queue?.submit(request('base-a-2'), live());
    expect(submitted).toEqual(ticket('fal', 'fal_req'));
    expect(await routed.queue?.check(ticket('fal', 'fal_req'), request('base-a-2'), live())).toEqual({
      state: 'done',
      outcome: outcomeOf('fal'),
    });
    expect(fal.calls).toEqual(['submit base-a-2', 'check fal_req']);
    expect(other.calls).toEqual([]);
  });

  it('refuses to submit or check a model whose engine has no queue', async () => {
    const routed = routedEngine(
      new Map([['base-a-2', namedEngine('fal', 'fal').engine]]),
      namedEngine('sandbox').engine,
    );
    const queue = routed.queue;
    await expect(async () => queue?.submit(request('base-c-2'), live())).rejects.toThrow(
      'base model base-c-2 is not served by a queue',
    );
    await expect(async () => queue?.check(ticket('fal'), request('base-c-2'), live())).rejects.toThrow(
      'base model base-c-2 is not served by a queue',
    );
  });

  it('cancels with a queue of the ticket’s kind, whichever model it served', async () => {
    const fal = namedEngine('fal', 'fal');
    const other = namedEngine('other', 'other');
    const routed = routedEngine(new Map([['base-d-2', other.engine]]), fal.engine);
    await routed.queue?.cancel(ticket('fal', 'req_7'), live());
    await routed.queue?.cancel(ticket('other', 'req_8'), live());
    expect(fal.calls).toEqual(['cancel req_7']);
    expect(other.calls).toEqual(['cancel req_8']);
  });

  it('says so when no queue here can cancel a ticket', async () => {
    const routed = routedEngine(new Map(), namedEngine('fal', 'fal').engine);
    await expect(routed.queue?.cancel(ticket('replicate'), live())).rejects.toThrow(
      'no engine here can cancel a replicate ticket',
    );
  });
});
