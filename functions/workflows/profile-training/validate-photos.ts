import { photoTrainingDeps } from '../../composition/workflows/photo-training';
import { Profiles } from '../../domain';
import { taskHandler } from '../../entry/task-handler';
import { ValidateStepSchema } from './steps';

/** ValidatePhotos: fetch, decode and prepare every photo; choose the picture; VALIDATING → QUEUING. */
export const handler = taskHandler(ValidateStepSchema, photoTrainingDeps, Profiles.validatePhotos);
