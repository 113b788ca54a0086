import { jobStepDeps } from '../../composition/workflows/job-steps';
import { Workflow } from '../../domain';
import { taskHandler } from '../../entry/task-handler';
import { AdmissionStepSchema } from './steps';

/** MarkRunning: pending → running when the account has a place under its cap (a retried step finds the job past pending and changes nothing). */
export const handler = taskHandler(AdmissionStepSchema, jobStepDeps, Workflow.markRunning);
