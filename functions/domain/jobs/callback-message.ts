/**
 * The callback message of a job that has ended, one shape for every sender: the workflow's
 * QueueCallback (workflow/steps.ts), a cancel (cancel.ts) and a redelivery (deliveries.ts).
 */
import type { CallbackMessage } from '../callbacks/deliver';
import type { Job } from './job';
import { type LinkMaker, statusBody } from './status';

/** The callback of a job that has ended: the body a poll answers now, under the delivery id fixed by the job. */
export const callbackMessage = async (
  job: Job & { callbackUrl: string },
  link: LinkMaker,
): Promise<CallbackMessage> => ({
  deliveryId: `dlv_${job.jobId.replace(/^job_/, '')}`,
  accountId: job.accountId,
  jobId: job.jobId,
  callbackUrl: job.callbackUrl,
  body: JSON.stringify(await statusBody(job, link, job.completedAt ?? job.createdAt)),
});
