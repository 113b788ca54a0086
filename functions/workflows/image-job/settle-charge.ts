import * as v from 'valibot';
import { Jobs } from '../../domain';
import { jobStepDeps } from '../../composition/job-steps';
import { SettleStepSchema } from './steps';

/** SettleCharge: the final price, with the job's success, in one guarded transaction. */
export const handler = async (input: unknown): Promise<void> => Jobs.settleJob(jobStepDeps(), v.parse(SettleStepSchema, input));
