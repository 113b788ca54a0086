import * as v from 'valibot';
import { Profiles } from '../../domain';
import { services } from '../../shared/services';
import { ValidateStepSchema } from './steps';

/** ValidatePhotos: fetch, decode and prepare every photo; choose the picture; VALIDATING → QUEUING. */
export const handler = async (input: unknown) => Profiles.validatePhotos(services().training, v.parse(ValidateStepSchema, input));
