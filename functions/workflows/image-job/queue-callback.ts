import { jobStepDeps } from '../../composition/workflows/job-steps';
import { Workflow } from '../../domain';
import { taskHandler } from '../../entry/task-handler';
import { CallbackStepSchema } from './steps';

/** QueueCallback: the job-status body, as a poll would answer it, onto the callback queue. */
export const handler = taskHandler(CallbackStepSchema, jobStepDeps, Workflow.queueCallback);
