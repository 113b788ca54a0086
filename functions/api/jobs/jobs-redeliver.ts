import type * as v from 'valibot';
import { redeliveryDeps } from '../../composition/jobs/job-actions';
import { Callbacks } from '../../domain';
import { type ApiRequest, apiHandler } from '../../entry/http/api-handler';
import { accepted } from '../../entry/http/responses';
import { type RedeliverRequest, RedeliverRequestSchema } from '../schemas/callbacks';
import { JobParamsSchema } from '../schemas/jobs';
import { assertCallbackUrlReachable } from '../support/callback-url';

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
