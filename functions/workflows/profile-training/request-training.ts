import * as v from 'valibot';
import { Profiles } from '../../domain';
import { trainingStepDeps } from '../../composition/training';
import { RequestStepSchema } from './steps';

/** RequestTraining (remote trainer): IN_PROGRESS, and the backend asked to train and call back with the task token. */
export const handler = async (input: unknown): Promise<void> => Profiles.requestTraining(trainingStepDeps(), v.parse(RequestStepSchema, input));
