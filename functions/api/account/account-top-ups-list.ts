import { topUps } from '../../composition/account/billing';
import { listTopUps } from '../../domain/billing/top-ups';
import { type ApiRequest, apiHandler } from '../../entry/http/api-handler';
import { ok } from '../../entry/http/responses';
import { type TopUpsQuery, TopUpsQuerySchema } from '../schemas/billing';

/** GET /v2/service/account/top-ups: the account's top-ups, newest first, one Query per page. */
const lambdaHandler = async ({ query, caller }: ApiRequest<undefined, TopUpsQuery>) =>
  ok(await listTopUps({ topUps: topUps() }, caller, { limit: query.limit, cursor: query.cursor }));

export const handler = apiHandler(lambdaHandler, { query: TopUpsQuerySchema });
