import { photoTrainingDeps } from '../../composition/photo-training';
import { Profiles } from '../../domain';
import { taskHandler } from '../../shared/workflow/task-handler';
import { TrainingStepSchema } from './steps';

/** CompleteTraining: the identity signature, READY and the charge settled in one transaction. */
export const handler = taskHandler(TrainingStepSchema, photoTrainingDeps, Profiles.completeTraining);
