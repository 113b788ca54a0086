import * as v from 'valibot';
import { Profiles } from '../../domain';
import { trainingStepDeps } from '../../composition/training';
import { TrainingStepSchema } from './steps';

/** StartTraining: IN_PROGRESS, and how long the trainer takes. */
export const handler = async (input: unknown) => Profiles.startTraining(trainingStepDeps(), v.parse(TrainingStepSchema, input));
