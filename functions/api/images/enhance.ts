import { imageDeps } from '../../composition/images/images';
import { Images } from '../../domain';
import type { ApiRequest } from '../../entry/http/api-handler';
import { type EnhanceRequest, EnhanceRequestSchema } from '../schemas/images';
import { imageOperationHandler, submitAnswer } from '../support/image-route';
import { enhanceCommand } from './image-commands';

/** POST /v2/service/enhance */
const lambdaHandler = async ({ body, caller, baseUrl }: ApiRequest<EnhanceRequest>) =>
  submitAnswer(await Images.submit(imageDeps(), caller, enhanceCommand(body), { baseUrl }));

export const handler = imageOperationHandler(lambdaHandler, EnhanceRequestSchema);
