import { Images } from '../domain';
import type { ApiRequest } from '../shared/http/api-handler';
import { imageOperationHandler } from '../shared/http/image-route';
import { ok } from '../shared/http/responses';
import { editCommand } from './image-commands';
import { EditRequestSchema, type EditRequest } from './schemas/images';

/** POST /v2/service/edit */
const lambdaHandler = async ({ body, caller, services, baseUrl }: ApiRequest<EditRequest>) =>
  ok(await Images.runSync(services.images, caller, editCommand(body), { baseUrl }));

export const handler = imageOperationHandler(lambdaHandler, EditRequestSchema);
