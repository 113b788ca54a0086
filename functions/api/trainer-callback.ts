import { trainerCallbackDeps } from '../composition/training';
import * as v from 'valibot';
import { Profiles } from '../domain';
import { apiHandler, type ApiRequest } from '../shared/http/api-handler';
import { ok } from '../shared/http/responses';

/** Step Functions task tokens are at most 1024 characters. */
const TaskToken = v.pipe(v.string(), v.minLength(1), v.maxLength(1024));

/** What a training backend reports (docs/trainer-contract.md). */
export const TrainerCallbackSchema = v.pipe(
  v.variant('event', [
    v.object({ task_token: TaskToken, event: v.literal('heartbeat') }),
    v.object({ task_token: TaskToken, event: v.literal('succeeded'), signature: v.pipe(v.string(), v.minLength(1), v.maxLength(16_384)) }),
    v.object({ task_token: TaskToken, event: v.literal('failed'), message: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(1000)) }),
  ]),
  v.transform(({ task_token, ...report }): Profiles.TrainerEvent => ({ taskToken: task_token, ...report })),
);

/**
 * POST /v2/service/internal/trainer-callback: a training backend's heartbeat or outcome, forwarded to the
 * workflow waiting on the task token. Authenticated by the shared trainer token, not an API key.
 */
const lambdaHandler = async ({ body, headers }: ApiRequest<Profiles.TrainerEvent>) =>
  ok(await Profiles.acceptTrainerEvent(trainerCallbackDeps(), headers['authorization'], body));

export const handler = apiHandler(lambdaHandler, { body: TrainerCallbackSchema, auth: 'none' });
