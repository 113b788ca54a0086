import { imageDeps } from '../composition/images';
import { Images } from '../domain';
import type { ApiRequest } from '../shared/http/api-handler';
import { imageOperationHandler, submitAnswer } from '../shared/http/image-route';
import { generateCommand } from './image-commands';
import { type GenerateRequest, GenerateRequestSchema } from './schemas/images';

/** POST /v2/service/generate */
const lambdaHandler = async ({ body, caller, baseUrl }: ApiRequest<GenerateRequest>) =>
  submitAnswer(await Images.submit(imageDeps(), caller, generateCommand(body), { baseUrl }));

export const handler = imageOperationHandler(lambdaHandler, GenerateRequestSchema);
