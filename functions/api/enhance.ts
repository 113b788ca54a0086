import { imageDeps } from '../composition/images';
import { Images } from '../domain';
import type { ApiRequest } from '../shared/http/api-handler';
import { imageOperationHandler, submitAnswer } from '../shared/http/image-route';
import { enhanceCommand } from './image-commands';
import { type EnhanceRequest, EnhanceRequestSchema } from './schemas/images';

/** POST /v2/service/enhance */
const lambdaHandler = async ({ body, caller, baseUrl }: ApiRequest<EnhanceRequest>) =>
  submitAnswer(await Images.submit(imageDeps(), caller, enhanceCommand(body), { baseUrl }));

export const handler = imageOperationHandler(lambdaHandler, EnhanceRequestSchema);
