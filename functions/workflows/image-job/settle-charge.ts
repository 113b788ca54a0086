import * as v from 'valibot';
import { Jobs } from '../../domain';
import { services } from '../../shared/services';
import { SettleStepSchema } from './steps';

/** SettleCharge: the final price, with the job's success, in one guarded transaction. */
export const handler = async (input: unknown): Promise<void> => Jobs.settleJob(services().workflow, v.parse(SettleStepSchema, input));
