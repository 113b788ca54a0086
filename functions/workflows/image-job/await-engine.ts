import * as v from 'valibot';
import { awaitDeps } from '../../composition/providers/provider-reports';
import { awaitProviderReport } from '../../domain/workflow/reports';
import { taskHandler } from '../../entry/task-handler';
import { JobStepSchema } from './steps';

/**
 * AwaitEngine (a `lambda:invoke.waitForTaskToken` Task): stores the task token the provider's webhook
 * resumes; in a later wait state (`check`: the heartbeat passed without a report) checks the provider's status
 * first. Ends at once with `NothingToAwait` when there is nothing to wait for (domain/workflow/reports.ts).
 */
export const handler = taskHandler(
  v.object({
    ...JobStepSchema.entries,
    taskToken: v.pipe(v.string(), v.minLength(1)),
    check: v.optional(v.boolean(), false),
    reported: v.optional(v.boolean(), false),
  }),
  awaitDeps,
  awaitProviderReport,
);
