import { Profiles } from '../../domain';
import { trainingStepDeps } from '../../composition/training';
import { AcceptStepSchema } from './steps';
import { taskHandler } from '../../shared/workflow/task-handler';

/** AcceptTraining (remote trainer): the signature the backend reported, READY and the charge settled in one transaction. */
export const handler = taskHandler(AcceptStepSchema, trainingStepDeps, Profiles.acceptTraining);
