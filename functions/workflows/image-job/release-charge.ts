import { jobStepDeps } from '../../composition/workflows/job-steps';
import { Workflow } from '../../domain';
import { taskHandler } from '../../entry/task-handler';
import { ReleaseStepSchema } from './steps';

/** ReleaseCharge: the refund, with the job's failure and its error, in one guarded transaction. */
export const handler = taskHandler(ReleaseStepSchema, jobStepDeps, Workflow.release);
