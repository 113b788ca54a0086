/** Download links are signed with our own key (no S3 here), for job results and polls. */

import { listCallbackAttempts } from '../adapters/dynamo/callback-attempts';
import { signDownloadToken } from '../domain/images/download-token';
import type { LinkMaker } from '../domain/images/result';
import { clock, newId, once, settings } from './core';
import { jobs, ledger, outboundLimit, table } from './data';
import { enqueueCallback } from './queues';
import { secret } from './secrets';
import { stopImageJob } from './workflows';

export const downloadSecret = once(() =>
  secret(settings().DOWNLOAD_TOKEN_SECRET, settings().DOWNLOAD_TOKEN_SECRET_ARN, 'the download token secret'),
);

/** The public download link for a grant, on the API's base URL. */
export const link: LinkMaker = async (baseUrl, grant) =>
  `${baseUrl}/v2/service/downloads/${signDownloadToken(grant, await downloadSecret()())}`;

/** What a poll of a job needs. */
export const jobStatusDeps = once(() => ({ jobs: jobs(), clock, link }));

/** A job's delivery log, and a redelivery of its terminal event (a fresh delivery id, the body a poll answers now). */
export const deliveryLogDeps = once(() => ({ jobs: jobs(), clock, attempts: listCallbackAttempts(table()) }));
export const redeliveryDeps = once(() => ({ jobs: jobs(), clock, link, newId, enqueueCallback, ...outboundLimit() }));

/** What a cancel needs: the job and its money, the execution to stop, the callback to queue. */
export const jobCancelDeps = once(() => ({
  jobs: jobs(),
  ledger: ledger(),
  clock,
  link,
  stopImageJob,
  enqueueCallback,
}));
