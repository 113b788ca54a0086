import { trainingStepDeps } from '../../composition/profiles/training';
import { Profiles } from '../../domain';
import { taskHandler } from '../../entry/task-handler';
import { TrainingStepSchema } from './steps';

/** CompleteTraining: READY (the face template is already built) and the charge settled in one transaction. */
export const handler = taskHandler(TrainingStepSchema, trainingStepDeps, Profiles.completeTraining);
