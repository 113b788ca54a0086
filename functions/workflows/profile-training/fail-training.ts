import { trainingStepDeps } from '../../composition/profiles/training';
import { Profiles } from '../../domain';
import { taskHandler } from '../../entry/task-handler';
import { FailStepSchema } from './steps';

/** FailTraining: ERROR with a message for the user, the charge released in one transaction. */
export const handler = taskHandler(FailStepSchema, trainingStepDeps, Profiles.failTraining);
