/**
 * Stopping a job's work at a queued provider, from any function that ends a job: the cancel route, the
 * workflow's RunEngine and ReleaseCharge steps, the sweep of abandoned work. Through the ticket's own
 * provider (its `engine`, with the URLs the ticket holds) whatever the routes say now; only fal queues,
 * and its cancel needs no image work (fal/queue.ts ships without sharp). A ticket of another kind, or of a
 * provider this deployment has no key for, is left to end on its own.
 */
import { cancelFalTicket, FAL_ENGINE } from '../adapters/engine/providers/fal/queue';
import type { EngineQueue, EngineTicket } from '../domain/engine/engine';
import { cancelEngineWork } from '../domain/workflow/rounds';
import { once, settings } from './core';
import { providerKey } from './secrets';

const falKey = once(() => providerKey('fal', 'the fal API key'));

const ticketCanceller = once(
  (): Pick<EngineQueue, 'cancel'> => ({
    cancel: async (ticket, signal) => {
      if (ticket.engine !== FAL_ENGINE) return;
      const { key, keySecretArn } = settings().providers.fal;
      if (key === '' && keySecretArn === undefined) return;
      await cancelFalTicket(ticket, { apiKey: falKey(), queueUrl: settings().providers.fal.baseUrl }, signal);
    },
  }),
);

/** Asks the ticket's provider to stop its work; never throws (the job's outcome stands either way). */
export const cancelTicketWork = (ticket: EngineTicket | null): Promise<void> =>
  cancelEngineWork(ticketCanceller(), ticket);
