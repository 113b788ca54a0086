/**
 * What acts on a job once it was submitted: a cancel stops its execution (Step Functions) and queues its
 * callback, a redelivery queues its terminal event again (SQS). Apart from links.ts so that the poll,
 * which only reads, ships neither client.
 */

import { clock, newId, once } from '../core';
import { jobs, ledger, outboundLimit } from '../data';
import { cancelTicketWork } from '../providers/provider-work';
import { enqueueCallback } from '../queues';
import { stopImageJob } from '../state-machines';
import { link } from './links';

/** A redelivery of a job's terminal event: a fresh delivery id, the body a poll answers now. */
export const redeliveryDeps = once(() => ({ jobs: jobs(), clock, link, newId, enqueueCallback, ...outboundLimit() }));

/** What a cancel needs: the job and its money, the execution to stop, the provider work to stop, the callback to queue. */
export const jobCancelDeps = once(() => ({
  jobs: jobs(),
  ledger: ledger(),
  clock,
  link,
  stopImageJob,
  cancelEngineWork: cancelTicketWork,
  enqueueCallback,
}));
