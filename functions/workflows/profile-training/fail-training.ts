import * as v from 'valibot';
import { Profiles } from '../../domain';
import { trainingStepDeps } from '../../composition/training';
import { FailStepSchema } from './steps';

/** FailTraining: ERROR with a message for the user, the charge released in one transaction. */
export const handler = async (input: unknown): Promise<void> => Profiles.failTraining(trainingStepDeps(), v.parse(FailStepSchema, input));
