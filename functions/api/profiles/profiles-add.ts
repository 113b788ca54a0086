import { profileDeps } from '../../composition/profiles/profiles';
import { Profiles } from '../../domain';
import { type ApiRequest, apiHandler } from '../../entry/http/api-handler';
import { ok } from '../../entry/http/responses';
import { type AddProfileRequest, AddProfileRequestSchema } from '../schemas/profiles';
import { assertCallbackUrlReachable } from '../support/callback-url';
import { assertUploadsFound } from '../support/upload-references';

/** POST /v2/service/profiles/add: the tier's price reserved, training started, the id returned at once. */
const lambdaHandler = async ({ body, caller, baseUrl }: ApiRequest<AddProfileRequest>) => {
  assertCallbackUrlReachable(body);
  await assertUploadsFound(caller.accountId, 'image_urls', body.image_urls);
  return ok(
    await Profiles.add(profileDeps(), caller, {
      imageUrls: body.image_urls,
      trainingTier: body.training_tier,
      tag: body.tag,
      modelVersion: body.model_version,
      callbackUrl: body.callback_url,
      apiBaseUrl: baseUrl,
    }),
  );
};

export const handler = apiHandler(lambdaHandler, { body: AddProfileRequestSchema });
