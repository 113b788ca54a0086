import { Profiles } from '../../domain';
import { photoTrainingDeps } from '../../composition/photo-training';
import { ValidateStepSchema } from './steps';
import { taskHandler } from '../../shared/workflow/task-handler';

/** ValidatePhotos: fetch, decode and prepare every photo; choose the picture; VALIDATING → QUEUING. */
export const handler = taskHandler(ValidateStepSchema, photoTrainingDeps, Profiles.validatePhotos);
