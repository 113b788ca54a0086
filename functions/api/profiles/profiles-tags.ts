import { tagDeps } from '../../composition/data';
import { Profiles } from '../../domain';
import { type ApiRequest, apiHandler } from '../../entry/http/api-handler';
import { ok } from '../../entry/http/responses';
import { type TagProfilesRequest, TagProfilesRequestSchema } from '../schemas/profiles';

/** POST /v2/service/profiles/tags: set tags where none is set; every entry reported in one bucket. */
const lambdaHandler = async ({ body, caller }: ApiRequest<TagProfilesRequest>) =>
  ok(await Profiles.backfillTags(tagDeps(), caller, body.tags));

export const handler = apiHandler(lambdaHandler, { body: TagProfilesRequestSchema });
