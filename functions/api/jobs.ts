import { jobStatusDeps } from '../composition/links';
import * as v from 'valibot';
import { Jobs } from '../domain';
import { apiHandler, type ApiRequest } from '../shared/http/api-handler';
import { ok } from '../shared/http/responses';

const Params = v.object({ job_id: v.pipe(v.string(), v.minLength(1), v.maxLength(64)) });

/** GET /v2/service/jobs/{job_id}: one read (the key lookup is cached). */
const lambdaHandler = async ({ params, caller }: ApiRequest<undefined, undefined, v.InferOutput<typeof Params>>) =>
  ok(await Jobs.jobStatus(jobStatusDeps(), caller, params.job_id));

export const handler = apiHandler(lambdaHandler, { params: Params });
