import { Profiles } from '../../domain';
import { trainingStepDeps } from '../../composition/training';
import { FailStepSchema } from './steps';
import { taskHandler } from '../../shared/workflow/task-handler';

/** FailTraining: ERROR with a message for the user, the charge released in one transaction. */
export const handler = taskHandler(FailStepSchema, trainingStepDeps, Profiles.failTraining);
