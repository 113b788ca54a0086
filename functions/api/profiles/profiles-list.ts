import type * as v from 'valibot';
import { profileReadDeps } from '../../composition/data';
import { Profiles } from '../../domain';
import { type ApiRequest, apiHandler } from '../../entry/http/api-handler';
import { ok } from '../../entry/http/responses';
import { ListProfilesQuerySchema } from '../schemas/profiles';

/** GET /v2/service/profiles/ids[?tag=]: every profile of the account, all pages. */
const lambdaHandler = async ({ query, caller }: ApiRequest<undefined, v.InferOutput<typeof ListProfilesQuerySchema>>) =>
  ok(await Profiles.list(profileReadDeps(), caller, query.tag));

export const handler = apiHandler(lambdaHandler, { query: ListProfilesQuerySchema });
