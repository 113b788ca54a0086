import { downloadDeps } from '../composition/downloads';
import * as v from 'valibot';
import { Images } from '../domain';
import { apiHandler, type ApiRequest } from '../shared/http/api-handler';
import { redirect } from '../shared/http/responses';

const Params = v.object({ token: v.pipe(v.string(), v.minLength(1)) });

/** GET /v2/service/downloads/{token}: the link is the credential; answered with a fresh presigned URL. */
const lambdaHandler = async ({ params }: ApiRequest<undefined, undefined, v.InferOutput<typeof Params>>) =>
  redirect(await Images.presignDownload(downloadDeps(), params.token));

export const handler = apiHandler(lambdaHandler, { params: Params, auth: 'none' });
