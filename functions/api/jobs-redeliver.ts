import type * as v from 'valibot';
import { redeliveryDeps } from '../composition/job-actions';
import { Callbacks } from '../domain';
import { type ApiRequest, apiHandler } from '../shared/http/api-handler';
import { assertCallbackUrlReachable } from '../shared/http/callback-url';
import { accepted } from '../shared/http/responses';
import { type RedeliverRequest, RedeliverRequestSchema } from './schemas/callbacks';
import { JobParamsSchema } from './schemas/jobs';

/**
 * POST /v2/service/jobs/{job_id}/deliveries/redeliver: queues a fresh delivery of an ended job's event
 * (202), to the job's callback_url or the one in the body (400 when neither); 409 JOB_NOT_FINISHED before it has ended.
 */
const lambdaHandler = async ({
  body,
  params,
  caller,
}: ApiRequest<RedeliverRequest, undefined, v.InferOutput<typeof JobParamsSchema>>) => {
  assertCallbackUrlReachable(body);
  return accepted(await Callbacks.redeliver(redeliveryDeps(), caller, params.job_id, body.callback_url));
};

export const handler = apiHandler(lambdaHandler, {
  body: RedeliverRequestSchema,
  bodyOptional: true,
  params: JobParamsSchema,
});
