import { jobStatusDeps } from '../../composition/jobs/links';
import { Jobs } from '../../domain';
import { type ApiRequest, apiHandler } from '../../entry/http/api-handler';
import { ok } from '../../entry/http/responses';
import { type ListJobsQuery, ListJobsQuerySchema } from '../schemas/jobs';

/** GET /v2/service/jobs: the account's jobs, newest first, one Query per page. */
const lambdaHandler = async ({ query, caller }: ApiRequest<undefined, ListJobsQuery>) =>
  ok(
    await Jobs.list(jobStatusDeps(), caller, {
      limit: query.limit,
      cursor: query.cursor,
      status: query.status,
      operation: query.operation,
      createdAfter: query.created_after,
    }),
  );

export const handler = apiHandler(lambdaHandler, { query: ListJobsQuerySchema });
