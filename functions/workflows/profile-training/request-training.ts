import { Profiles } from '../../domain';
import { trainingStepDeps } from '../../composition/training';
import { RequestStepSchema } from './steps';
import { taskHandler } from '../../shared/workflow/task-handler';

/** RequestTraining (remote trainer): IN_PROGRESS, and the backend asked to train and call back with the task token. */
export const handler = taskHandler(RequestStepSchema, trainingStepDeps, Profiles.requestTraining);
