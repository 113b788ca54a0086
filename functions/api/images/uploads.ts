import { uploadDeps } from '../../composition/images/uploads';
import { Images } from '../../domain';
import { type ApiRequest, apiHandler } from '../../entry/http/api-handler';
import { ok } from '../../entry/http/responses';
import { type CreateUploadRequest, CreateUploadRequestSchema } from '../schemas/uploads';

/** POST /v2/service/uploads: a presigned PUT for an input too large to send inline, and its `upload:` reference. */
const lambdaHandler = async ({ body, caller }: ApiRequest<CreateUploadRequest>) =>
  ok(await Images.createUpload(uploadDeps(), caller, { sizeBytes: body.size_bytes, contentType: body.content_type }));

export const handler = apiHandler(lambdaHandler, { body: CreateUploadRequestSchema });
