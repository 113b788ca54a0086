import { trainingStepDeps } from '../../composition/profiles/training';
import { Profiles } from '../../domain';
import { taskHandler } from '../../entry/task-handler';
import { AcceptStepSchema } from './steps';

/** AcceptTraining (remote trainer): the signature the backend reported, READY and the charge settled in one transaction. */
export const handler = taskHandler(AcceptStepSchema, trainingStepDeps, Profiles.acceptTraining);
