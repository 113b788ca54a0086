import type * as v from 'valibot';
import { profileReadDeps } from '../../composition/data';
import { Profiles } from '../../domain';
import { type ApiRequest, apiHandler } from '../../entry/http/api-handler';
import { ok } from '../../entry/http/responses';
import { ProfileParamsSchema } from '../schemas/profiles';

/** GET /v2/service/profiles/{profile_id}/status */
const lambdaHandler = async ({
  params,
  caller,
}: ApiRequest<undefined, undefined, v.InferOutput<typeof ProfileParamsSchema>>) =>
  ok(await Profiles.status(profileReadDeps(), caller, params.profile_id));

export const handler = apiHandler(lambdaHandler, { params: ProfileParamsSchema });
