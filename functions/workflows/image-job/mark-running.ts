import { Jobs } from '../../domain';
import { jobStepDeps } from '../../composition/job-steps';
import { JobStepSchema } from './steps';
import { taskHandler } from '../../shared/workflow/task-handler';

/** MarkRunning: pending → running (a retried step finds the job past pending and changes nothing). */
export const handler = taskHandler(JobStepSchema, jobStepDeps, Jobs.markRunning);
