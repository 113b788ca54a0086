import { preflightDeps } from '../../composition/profiles/preflight';
import { Profiles } from '../../domain';
import { type ApiRequest, apiHandler } from '../../entry/http/api-handler';
import { ok } from '../../entry/http/responses';
import { type PreflightRequest, PreflightRequestSchema } from '../schemas/profiles';
import { assertUploadsFound } from '../support/upload-references';

/** POST /v2/service/profiles/preflight: what training would make of these photos, free, nothing created. */
const lambdaHandler = async ({ body, caller }: ApiRequest<PreflightRequest>) => {
  await assertUploadsFound(caller.accountId, 'image_urls', body.image_urls);
  return ok(
    await Profiles.preflight(preflightDeps(), {
      accountId: caller.accountId,
      imageUrls: body.image_urls,
      trainingTier: body.training_tier,
    }),
  );
};

export const handler = apiHandler(lambdaHandler, { body: PreflightRequestSchema });
