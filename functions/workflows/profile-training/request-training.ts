import { trainingStepDeps } from '../../composition/profiles/training';
import { Profiles } from '../../domain';
import { taskHandler } from '../../entry/task-handler';
import { RequestStepSchema } from './steps';

/** RequestTraining (remote trainer): IN_PROGRESS, and the backend asked to train and call back with the task token. */
export const handler = taskHandler(RequestStepSchema, trainingStepDeps, Profiles.requestTraining);
