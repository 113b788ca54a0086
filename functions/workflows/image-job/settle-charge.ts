import { jobStepDeps } from '../../composition/workflows/job-steps';
import { Workflow } from '../../domain';
import { taskHandler } from '../../entry/task-handler';
import { SettleStepSchema } from './steps';

/** SettleCharge: the final price, with the job's success, in one guarded transaction. */
export const handler = taskHandler(SettleStepSchema, jobStepDeps, Workflow.settle);
