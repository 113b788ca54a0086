import * as v from 'valibot';
import { Jobs } from '../../domain';
import { jobStepDeps } from '../../composition/job-steps';
import { JobStepSchema } from './steps';

/** MarkRunning: pending → running (a retried step finds the job past pending and changes nothing). */
export const handler = async (input: unknown): Promise<void> => Jobs.markRunning(jobStepDeps(), v.parse(JobStepSchema, input));
