import { imageDeps } from '../../composition/images/images';
import { Images } from '../../domain';
import type { ApiRequest } from '../../entry/http/api-handler';
import { type RemixRequest, RemixRequestSchema } from '../schemas/images';
import { imageOperationHandler, submitAnswer } from '../support/image-route';
import { remixCommand } from './image-commands';

/** POST /v2/service/remix */
const lambdaHandler = async ({ body, caller, baseUrl }: ApiRequest<RemixRequest>) =>
  submitAnswer(await Images.submit(imageDeps(), caller, remixCommand(body), { baseUrl }));

export const handler = imageOperationHandler(lambdaHandler, RemixRequestSchema);
