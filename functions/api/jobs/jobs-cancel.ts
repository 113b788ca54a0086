import type * as v from 'valibot';
import { jobCancelDeps } from '../../composition/jobs/job-actions';
import { Jobs } from '../../domain';
import { type ApiRequest, apiHandler } from '../../entry/http/api-handler';
import { ok } from '../../entry/http/responses';
import { JobParamsSchema } from '../schemas/jobs';

/** POST /v2/service/jobs/{job_id}/cancel: a pending or running asynchronous job ends CANCELED, refunded; 409 once it has ended. */
const lambdaHandler = async ({
  params,
  caller,
}: ApiRequest<undefined, undefined, v.InferOutput<typeof JobParamsSchema>>) =>
  ok(await Jobs.cancel(jobCancelDeps(), caller, params.job_id));

export const handler = apiHandler(lambdaHandler, { params: JobParamsSchema });
