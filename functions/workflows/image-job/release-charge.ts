import { Jobs } from '../../domain';
import { jobStepDeps } from '../../composition/job-steps';
import { ReleaseStepSchema } from './steps';
import { taskHandler } from '../../shared/workflow/task-handler';

/** ReleaseCharge: the refund, with the job's failure and its error, in one guarded transaction. */
export const handler = taskHandler(ReleaseStepSchema, jobStepDeps, Jobs.releaseJob);
