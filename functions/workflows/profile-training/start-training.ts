import { Profiles } from '../../domain';
import { trainingStepDeps } from '../../composition/training';
import { TrainingStepSchema } from './steps';
import { taskHandler } from '../../shared/workflow/task-handler';

/** StartTraining: IN_PROGRESS, and how long the trainer takes. */
export const handler = taskHandler(TrainingStepSchema, trainingStepDeps, Profiles.startTraining);
