import { trainingStepDeps } from '../../composition/profiles/training';
import { Profiles } from '../../domain';
import { taskHandler } from '../../entry/task-handler';
import { TrainingStepSchema } from './steps';

/** StartTraining: IN_PROGRESS, and how long the trainer takes. */
export const handler = taskHandler(TrainingStepSchema, trainingStepDeps, Profiles.startTraining);
