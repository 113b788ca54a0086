import { imageDeps } from '../composition/images';
import { Images } from '../domain';
import type { ApiRequest } from '../shared/http/api-handler';
import { imageOperationHandler, submitAnswer } from '../shared/http/image-route';
import { remixCommand } from './image-commands';
import { type RemixRequest, RemixRequestSchema } from './schemas/images';

/** POST /v2/service/remix */
const lambdaHandler = async ({ body, caller, baseUrl }: ApiRequest<RemixRequest>) =>
  submitAnswer(await Images.submit(imageDeps(), caller, remixCommand(body), { baseUrl }));

export const handler = imageOperationHandler(lambdaHandler, RemixRequestSchema);
