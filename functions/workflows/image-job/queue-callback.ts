import * as v from 'valibot';
import { Jobs } from '../../domain';
import { jobStepDeps } from '../../composition/job-steps';
import { JobStepSchema } from './steps';

/** QueueCallback: the job-status body, as a poll would answer it, onto the callback queue. */
export const handler = async (input: unknown): Promise<void> => Jobs.queueCallback(jobStepDeps(), v.parse(JobStepSchema, input));
