import * as v from 'valibot';
import { Jobs } from '../../domain';
import { services } from '../../shared/services';
import { ReleaseStepSchema } from './steps';

/** ReleaseCharge: the refund, with the job's failure and its error, in one guarded transaction. */
export const handler = async (input: unknown): Promise<void> => Jobs.releaseJob(services().workflow, v.parse(ReleaseStepSchema, input));
