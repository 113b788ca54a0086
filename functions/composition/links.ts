/** Download links are signed with our own key (no S3 here), for job results and polls. */
import type { LinkMaker } from '../domain/images/result';
import { signDownloadToken } from '../domain/images/download-token';
import { clock, once, settings } from './core';
import { jobs, ledger } from './data';
import { enqueueCallback } from './queues';
import { stopImageJob } from './workflows';
import { secret } from './secrets';

export const downloadSecret = once(() => secret(settings().DOWNLOAD_TOKEN_SECRET, settings().DOWNLOAD_TOKEN_SECRET_ARN, 'the download token secret'));

/** The public download link for a grant, on the API's base URL. */
export const link: LinkMaker = async (baseUrl, grant) => `${baseUrl}/v2/service/downloads/${signDownloadToken(grant, await downloadSecret()())}`;

/** What a poll of a job needs. */
export const jobStatusDeps = once(() => ({ jobs: jobs(), clock, link }));

/** What a cancel needs: the job and its money, the execution to stop, the callback to queue. */
export const jobCancelDeps = once(() => ({ jobs: jobs(), ledger: ledger(), clock, link, stopImageJob, enqueueCallback }));
