import type * as v from 'valibot';
import { pictureDeps } from '../../composition/storage';
import { Profiles } from '../../domain';
import { type ApiRequest, apiHandler } from '../../entry/http/api-handler';
import { binary } from '../../entry/http/responses';
import { streamingOnAws } from '../../entry/http/streaming';
import { ProfileParamsSchema } from '../schemas/profiles';

/** GET /v2/service/profiles/{profile_id}/profile_picture: raw JPEG bytes. */
const lambdaHandler = async ({
  params,
  caller,
}: ApiRequest<undefined, undefined, v.InferOutput<typeof ProfileParamsSchema>>) =>
  binary(await Profiles.picture(pictureDeps(), caller, params.profile_id), 'image/jpeg');

export const handler = streamingOnAws(apiHandler(lambdaHandler, { params: ProfileParamsSchema }));
