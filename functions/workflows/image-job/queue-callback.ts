import { Jobs } from '../../domain';
import { jobStepDeps } from '../../composition/job-steps';
import { CallbackStepSchema } from './steps';
import { taskHandler } from '../../shared/workflow/task-handler';

/** QueueCallback: the job-status body, as a poll would answer it, onto the callback queue. */
export const handler = taskHandler(CallbackStepSchema, jobStepDeps, Jobs.queueCallback);
