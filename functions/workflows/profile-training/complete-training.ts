import * as v from 'valibot';
import { Profiles } from '../../domain';
import { services } from '../../shared/services';
import { TrainingStepSchema } from './steps';

/** CompleteTraining: the identity signature, READY and the charge settled in one transaction. */
export const handler = async (input: unknown): Promise<void> => Profiles.completeTraining(services().training, v.parse(TrainingStepSchema, input));
