import type * as v from 'valibot';
import { deliveryLogDeps } from '../../composition/jobs/links';
import { Callbacks } from '../../domain';
import { type ApiRequest, apiHandler } from '../../entry/http/api-handler';
import { ok } from '../../entry/http/responses';
import { JobParamsSchema } from '../schemas/jobs';

/** GET /v2/service/jobs/{job_id}/deliveries: every attempt of the job's callbacks, oldest first. */
const lambdaHandler = async ({
  params,
  caller,
}: ApiRequest<undefined, undefined, v.InferOutput<typeof JobParamsSchema>>) =>
  ok(await Callbacks.jobDeliveries(deliveryLogDeps(), caller, params.job_id));

export const handler = apiHandler(lambdaHandler, { params: JobParamsSchema });
