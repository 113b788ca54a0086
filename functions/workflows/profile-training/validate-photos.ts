import * as v from 'valibot';
import { Profiles } from '../../domain';
import { photoTrainingDeps } from '../../composition/photo-training';
import { ValidateStepSchema } from './steps';

/** ValidatePhotos: fetch, decode and prepare every photo; choose the picture; VALIDATING → QUEUING. */
export const handler = async (input: unknown) => Profiles.validatePhotos(photoTrainingDeps(), v.parse(ValidateStepSchema, input));
