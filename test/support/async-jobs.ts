/**
 * Asynchronous jobs in the black-box tests: submitting an enhance, reading the job as a client polls it,
 * waiting for a status, and the account's places under its cap of running jobs, written as jobs running
 * elsewhere would hold them.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { services } from '../../bin/local-aws/services';
import { keys } from '../../functions/adapters/dynamo/table';
import type { TestRuntime } from './runtime';

export interface JobBody {
  job_id: string;
  status: string;
  error: { code: string; message: string } | null;
}

/** Submits an asynchronous enhance of `image` (base64) with `extra` fields; answers the job id of its 202. */
export const submitEnhance = async (
  runtime: TestRuntime,
  apiKey: string,
  image: string,
  extra: Record<string, unknown> = {},
): Promise<string> => {
  const response = await runtime.call('POST', '/v2/service/enhance', {
    apiKey,
    body: { image, async: true, ...extra },
  });
  expect(response.status).toBe(202);
  return ((await response.json()) as { job_id: string }).job_id;
};

/** The job as GET /v2/service/jobs/{id} answers it. */
export const pollJob = async (runtime: TestRuntime, apiKey: string, jobId: string): Promise<JobBody> =>
  (await (await runtime.call('GET', `/v2/service/jobs/${jobId}`, { apiKey })).json()) as JobBody;

/** Polls every `everyMs` until `wanted` holds for the job, and answers it; fails after `timeoutMs`. */
export const waitForJob = async (
  runtime: TestRuntime,
  apiKey: string,
  jobId: string,
  wanted: (job: JobBody) => boolean,
  { timeoutMs = 30_000, everyMs = 25 } = {},
): Promise<JobBody> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = await pollJob(runtime, apiKey, jobId);
    if (wanted(job)) return job;
    if (Date.now() > deadline) throw new Error(`job ${jobId} still ${job.status}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
};

export const ended = (job: JobBody): boolean => job.status === 'succeeded' || job.status === 'failed';

/** As jobs running elsewhere would: the account's places under its cap of running jobs taken. */
export const holdPlaces = (accountId: string, running: number) =>
  services().table.doc.send(
    new PutCommand({
      TableName: services().table.name,
      Item: { ...keys.runningJobs(accountId), type: 'runningJobs', running },
    }),
  );

/** The account's places taken under its cap, read consistently. */
export const placesOf = async (accountId: string): Promise<number> =>
  ((
    await services().table.doc.send(
      new GetCommand({ TableName: services().table.name, Key: keys.runningJobs(accountId), ConsistentRead: true }),
    )
  ).Item?.running as number | undefined) ?? 0;
