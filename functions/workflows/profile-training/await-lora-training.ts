import { loraTrainingDeps } from '../../composition/profiles/lora-training';
import { Profiles } from '../../domain';
import { taskHandler } from '../../entry/task-handler';
import { RequestStepSchema } from './steps';

/**
 * AwaitLoraTraining (a `lambda:invoke.waitForTaskToken` Task): stores the token fal's webhook resumes; ends at
 * once with `NothingToAwait` when the webhook came first (domain/profiles/lora-training.ts).
 */
export const handler = taskHandler(RequestStepSchema, loraTrainingDeps, Profiles.awaitLoraTraining);
