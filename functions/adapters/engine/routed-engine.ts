/**
 * One engine per base model: the route table's (domain/catalog/model-routes.ts) providers for the models it names, the
 * default engine (sandbox or HTTP) for the rest. A queued provider's tickets go back to the engine that
 * made them (EngineTicket.engine).
 */
import type { EngineQueue, ImageEngine } from '../../domain/engine/engine';

export const routedEngine = (byModel: ReadonlyMap<string, ImageEngine>, fallback: ImageEngine): ImageEngine => {
  const engineOf = (baseModel: string): ImageEngine => byModel.get(baseModel) ?? fallback;
  const queues = [...byModel.values(), fallback].flatMap((engine) => (engine.queue ? [engine.queue] : []));
  const queue: EngineQueue | undefined =
    queues.length === 0
      ? undefined
      : {
          kind: 'routed',
          accepts: (request) => engineOf(request.baseModel).queue?.accepts(request) ?? false,
          submit: (request, signal) => {
            const own = engineOf(request.baseModel).queue;
            if (!own) throw new Error(`base model ${request.baseModel} is not served by a queue`);
            return own.submit(request, signal);
          },
          check: (ticket, request, signal) => {
            const own = engineOf(request.baseModel).queue;
            if (!own) throw new Error(`base model ${request.baseModel} is not served by a queue`);
            return own.check(ticket, request, signal);
          },
          // Any engine of the ticket's kind can reach its requests (the ticket holds their URLs).
          cancel: async (ticket, signal) => {
            const own = queues.find((candidate) => candidate.kind === ticket.engine);
            if (!own) throw new Error(`no engine here can cancel a ${ticket.engine} ticket`);
            await own.cancel(ticket, signal);
          },
        };
  return {
    run: (request, signal, progress) => engineOf(request.baseModel).run(request, signal, progress),
    ...(queue ? { queue } : {}),
  };
};
