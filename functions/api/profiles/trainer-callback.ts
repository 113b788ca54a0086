import { trainerCallbackDeps } from '../../composition/profiles/training';
import { Profiles } from '../../domain';
import { type ApiRequest, apiHandler } from '../../entry/http/api-handler';
import { ok } from '../../entry/http/responses';
import { TrainerCallbackSchema } from '../schemas/training';

/**
 * POST /v2/service/internal/trainer-callback: a training backend's heartbeat or outcome, forwarded to the
 * workflow waiting on the task token. Authenticated by the shared trainer token, not an API key.
 */
const lambdaHandler = async ({ body, headers }: ApiRequest<Profiles.TrainerEvent>) =>
  ok(await Profiles.acceptTrainerEvent(trainerCallbackDeps(), headers.authorization, body));

export const handler = apiHandler(lambdaHandler, { body: TrainerCallbackSchema, auth: 'none' });
