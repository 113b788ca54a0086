import * as v from 'valibot';
import { Profiles } from '../../domain';
import { trainingStepDeps } from '../../composition/training';
import { AcceptStepSchema } from './steps';

/** AcceptTraining (remote trainer): the signature the backend reported, READY and the charge settled in one transaction. */
export const handler = async (input: unknown): Promise<void> => Profiles.acceptTraining(trainingStepDeps(), v.parse(AcceptStepSchema, input));
