import { imageDeps } from '../composition/images';
import { Images } from '../domain';
import type { ApiRequest } from '../shared/http/api-handler';
import { imageOperationHandler, submitAnswer } from '../shared/http/image-route';
import { editCommand } from './image-commands';
import { type EditRequest, EditRequestSchema } from './schemas/images';

/** POST /v2/service/edit */
const lambdaHandler = async ({ body, caller, baseUrl }: ApiRequest<EditRequest>) =>
  submitAnswer(await Images.submit(imageDeps(), caller, editCommand(body), { baseUrl }));

export const handler = imageOperationHandler(lambdaHandler, EditRequestSchema);
