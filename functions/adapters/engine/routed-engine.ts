/**
 * One engine per base model: the route table's (domain/catalog/model-routes.ts) providers for the models it names, the
 * default engine (sandbox or HTTP) for the rest. A queued provider's tickets go back to the engine that
 * made them (EngineTicket.engine and .model, through `ticketQueue`), whatever the routes say now; a ticket
 * that names no model (made before tickets carried it) goes to its request's model's queue.
 */
import type { EngineQueue, EngineTicket, ImageEngine } from '../../domain/engine/engine';

export const routedEngine = (
  byModel: ReadonlyMap<string, ImageEngine>,
  fallback: ImageEngine,
  /** The queue of the engine that made a ticket (its provider and model), if this deployment can reach it. */
  ticketQueue: (ticket: EngineTicket) => EngineQueue | undefined = () => undefined,
): ImageEngine => {
  const engineOf = (baseModel: string): ImageEngine => byModel.get(baseModel) ?? fallback;
  const queues = [...byModel.values(), fallback].flatMap((engine) => (engine.queue ? [engine.queue] : []));
  const queue: EngineQueue = {
    kind: 'routed',
    accepts: (request) => engineOf(request.baseModel).queue?.accepts(request) ?? false,
    kindOf: (request) => {
      const own = engineOf(request.baseModel).queue;
      return own?.kindOf?.(request) ?? own?.kind ?? 'routed';
    },
    submit: (request, signal, webhookUrl) => {
      const own = engineOf(request.baseModel).queue;
      if (!own) throw new Error(`base model ${request.baseModel} is not served by a queue`);
      return own.submit(request, signal, webhookUrl);
    },
    check: (ticket, request, signal) => {
      const own = ticketQueue(ticket) ?? engineOf(request.baseModel).queue;
      if (!own) throw new Error(`base model ${request.baseModel} is not served by a queue`);
      return own.check(ticket, request, signal);
    },
    // The ticket's own engine, else any engine of the ticket's kind (the ticket holds its requests' URLs).
    cancel: async (ticket, signal) => {
      const own = ticketQueue(ticket) ?? queues.find((candidate) => candidate.kind === ticket.engine);
      if (!own) throw new Error(`no engine here can cancel a ${ticket.engine} ticket`);
      await own.cancel(ticket, signal);
    },
  };
  return {
    run: (request, signal, progress, keepTicket) =>
      engineOf(request.baseModel).run(request, signal, progress, keepTicket),
    queue,
    startsOnce: (request) => engineOf(request.baseModel).startsOnce?.(request) ?? false,
  };
};
