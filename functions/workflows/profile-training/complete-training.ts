import * as v from 'valibot';
import { Profiles } from '../../domain';
import { photoTrainingDeps } from '../../composition/photo-training';
import { TrainingStepSchema } from './steps';

/** CompleteTraining: the identity signature, READY and the charge settled in one transaction. */
export const handler = async (input: unknown): Promise<void> => Profiles.completeTraining(photoTrainingDeps(), v.parse(TrainingStepSchema, input));
