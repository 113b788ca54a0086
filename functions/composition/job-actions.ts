/**
 * What acts on a job once it was submitted: a cancel stops its execution (Step Functions) and queues its
 * callback, a redelivery queues its terminal event again (SQS). Apart from links.ts so that the poll,
 * which only reads, ships neither client.
 */

import { cancelFalTicket, FAL_ENGINE } from '../adapters/engine/providers/fal/queue';
import type { EngineQueue, EngineTicket } from '../domain/engine/engine';
import { cancelEngineWork } from '../domain/workflow/rounds';
import { clock, newId, once, settings } from './core';
import { jobs, ledger, outboundLimit } from './data';
import { link } from './links';
import { enqueueCallback } from './queues';
import { providerKey } from './secrets';
import { stopImageJob } from './workflows';

/** A redelivery of a job's terminal event: a fresh delivery id, the body a poll answers now. */
export const redeliveryDeps = once(() => ({ jobs: jobs(), clock, link, newId, enqueueCallback, ...outboundLimit() }));

const falKey = once(() => providerKey('fal', 'the fal API key'));

/**
 * Stops a queued provider's work from the cancel route: only fal queues, and its cancel needs no image
 * work (fal/queue.ts ships without sharp). A ticket of another kind is left to end on its own.
 */
const providerQueues = once(
  (): Pick<EngineQueue, 'cancel'> => ({
    cancel: async (ticket, signal) => {
      if (ticket.engine !== FAL_ENGINE) return;
      await cancelFalTicket(ticket, { apiKey: falKey(), queueUrl: settings().providers.fal.baseUrl }, signal);
    },
  }),
);

/** What a cancel needs: the job and its money, the execution to stop, the provider work to stop, the callback to queue. */
export const jobCancelDeps = once(() => ({
  jobs: jobs(),
  ledger: ledger(),
  clock,
  link,
  stopImageJob,
  cancelEngineWork: (ticket: EngineTicket | null) => cancelEngineWork(providerQueues(), ticket),
  enqueueCallback,
}));
