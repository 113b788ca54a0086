import type * as v from 'valibot';
import { profileDeps } from '../../composition/profiles/profiles';
import { Profiles } from '../../domain';
import { type ApiRequest, apiHandler } from '../../entry/http/api-handler';
import { ok } from '../../entry/http/responses';
import { ProfileParamsSchema } from '../schemas/profiles';

/** DELETE /v2/service/profiles/{profile_id}: the profile and all its data, permanently. */
const lambdaHandler = async ({
  params,
  caller,
}: ApiRequest<undefined, undefined, v.InferOutput<typeof ProfileParamsSchema>>) =>
  ok(await Profiles.remove(profileDeps(), caller, params.profile_id));

export const handler = apiHandler(lambdaHandler, { params: ProfileParamsSchema });
