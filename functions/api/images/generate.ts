import { imageDeps } from '../../composition/images/images';
import { Images } from '../../domain';
import type { ApiRequest } from '../../entry/http/api-handler';
import { type GenerateRequest, GenerateRequestSchema } from '../schemas/images';
import { imageOperationHandler, submitAnswer } from '../support/image-route';
import { generateCommand } from './image-commands';

/** POST /v2/service/generate */
const lambdaHandler = async ({ body, caller, baseUrl }: ApiRequest<GenerateRequest>) =>
  submitAnswer(await Images.submit(imageDeps(), caller, generateCommand(body), { baseUrl }));

export const handler = imageOperationHandler(lambdaHandler, GenerateRequestSchema);
