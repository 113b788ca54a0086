import * as v from 'valibot';
import { Jobs } from '../../domain';
import { jobStepDeps } from '../../composition/job-steps';
import { ReleaseStepSchema } from './steps';

/** ReleaseCharge: the refund, with the job's failure and its error, in one guarded transaction. */
export const handler = async (input: unknown): Promise<void> => Jobs.releaseJob(jobStepDeps(), v.parse(ReleaseStepSchema, input));
