import { imageDeps } from '../../composition/images/images';
import { Images } from '../../domain';
import type { ApiRequest } from '../../entry/http/api-handler';
import { type EditRequest, EditRequestSchema } from '../schemas/images';
import { imageOperationHandler, submitAnswer } from '../support/image-route';
import { editCommand } from './image-commands';

/** POST /v2/service/edit */
const lambdaHandler = async ({ body, caller, baseUrl }: ApiRequest<EditRequest>) =>
  submitAnswer(await Images.submit(imageDeps(), caller, editCommand(body), { baseUrl }));

export const handler = imageOperationHandler(lambdaHandler, EditRequestSchema);
