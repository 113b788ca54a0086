import { Profiles } from '../../domain';
import { photoTrainingDeps } from '../../composition/photo-training';
import { TrainingStepSchema } from './steps';
import { taskHandler } from '../../shared/workflow/task-handler';

/** CompleteTraining: the identity signature, READY and the charge settled in one transaction. */
export const handler = taskHandler(TrainingStepSchema, photoTrainingDeps, Profiles.completeTraining);
