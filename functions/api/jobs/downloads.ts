import type * as v from 'valibot';
import { downloadDeps } from '../../composition/jobs/downloads';
import { Images } from '../../domain';
import { type ApiRequest, apiHandler } from '../../entry/http/api-handler';
import { redirect } from '../../entry/http/responses';
import { DownloadParamsSchema } from '../schemas/jobs';

/** GET /v2/service/downloads/{token}: the link is the credential; answered with a fresh presigned URL. */
const lambdaHandler = async ({
  params,
}: ApiRequest<undefined, undefined, v.InferOutput<typeof DownloadParamsSchema>>) =>
  redirect(await Images.presignDownload(downloadDeps(), params.token));

export const handler = apiHandler(lambdaHandler, { params: DownloadParamsSchema, auth: 'none' });
