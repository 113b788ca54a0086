import * as v from 'valibot';
import { Profiles } from '../../domain';
import { services } from '../../shared/services';
import { TrainingStepSchema } from './steps';

/** StartTraining: IN_PROGRESS, and how long the trainer takes. */
export const handler = async (input: unknown) => Profiles.startTraining(services().training, v.parse(TrainingStepSchema, input));
