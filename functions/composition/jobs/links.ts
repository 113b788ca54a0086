/**
 * Download links are signed with our own key (no S3 here), for job results and polls; and what reads a
 * job needs: a poll, the list, the delivery log. Only the table and the link key: the poll is the route
 * clients call most, so what acts on a job (its Step Functions and SQS clients) is in job-actions.ts.
 */

import { listCallbackAttempts } from '../../adapters/dynamo/callback-attempts';
import { signDownloadToken } from '../../domain/jobs/download-token';
import type { LinkMaker } from '../../domain/jobs/result';
import { clock, once } from '../core';
import { jobs, table } from '../data';
import { downloadSecret } from '../secrets';

/** The public download link for a grant, on the API's base URL. */
export const link: LinkMaker = async (baseUrl, grant) =>
  `${baseUrl}/v2/service/downloads/${signDownloadToken(grant, await downloadSecret()())}`;

/** What a poll of a job needs. */
export const jobStatusDeps = once(() => ({ jobs: jobs(), clock, link }));

/** A job's delivery log. */
export const deliveryLogDeps = once(() => ({ jobs: jobs(), clock, attempts: listCallbackAttempts(table()) }));
