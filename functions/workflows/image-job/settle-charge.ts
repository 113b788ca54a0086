import { Jobs } from '../../domain';
import { jobStepDeps } from '../../composition/job-steps';
import { SettleStepSchema } from './steps';
import { taskHandler } from '../../shared/workflow/task-handler';

/** SettleCharge: the final price, with the job's success, in one guarded transaction. */
export const handler = taskHandler(SettleStepSchema, jobStepDeps, Jobs.settleJob);
