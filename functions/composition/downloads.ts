/** Download links: signing them (for job results) and answering them (the downloads route). */
import type { LinkMaker } from '../domain/jobs/status';
import { signDownloadToken } from '../domain/images/download-token';
import { lazySecret } from '../adapters/secrets';
import { clock, once, settings } from './core';
import { jobs, objects } from './data';

export const downloadSecret = once(() =>
  lazySecret({
    value: settings().DOWNLOAD_TOKEN_SECRET,
    arn: settings().DOWNLOAD_TOKEN_SECRET_ARN,
    region: settings().AWS_REGION,
    endpoint: settings().SECRETS_MANAGER_ENDPOINT,
    name: 'the download token secret',
  }),
);

/** The public download link for a grant, on the API's base URL. */
export const link: LinkMaker = async (baseUrl, grant) => `${baseUrl}/v2/service/downloads/${signDownloadToken(grant, await downloadSecret()())}`;

export const downloadDeps = once(() => ({ clock, downloadSecret: downloadSecret(), objects: objects() }));

/** What a poll of a job needs. */
export const jobStatusDeps = once(() => ({ jobs: jobs(), clock, link }));
