import type * as v from 'valibot';
import { jobStatusDeps } from '../../composition/jobs/links';
import { Jobs } from '../../domain';
import { type ApiRequest, apiHandler } from '../../entry/http/api-handler';
import { ok } from '../../entry/http/responses';
import { JobParamsSchema } from '../schemas/jobs';

/** GET /v2/service/jobs/{job_id}: one read (the key lookup is cached). */
const lambdaHandler = async ({
  params,
  caller,
}: ApiRequest<undefined, undefined, v.InferOutput<typeof JobParamsSchema>>) =>
  ok(await Jobs.status(jobStatusDeps(), caller, params.job_id));

export const handler = apiHandler(lambdaHandler, { params: JobParamsSchema });
