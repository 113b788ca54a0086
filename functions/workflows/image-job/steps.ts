/** The image-job workflow's inputs, parsed at every step (the state is JSON from Step Functions). */
import * as v from 'valibot';
import { ERROR_CODES } from '../../domain/errors';

export const JobStepSchema = v.object({ accountId: v.string(), jobId: v.string() });

/** MarkRunning gets the execution's state: the job, and the account's cap the submit handed on (absent in executions started before it). */
/** QueueCallback gets whether the job has a callback_url (absent in executions started before it: then the job says). */
export const CallbackStepSchema = v.object({ ...JobStepSchema.entries, hasCallback: v.optional(v.boolean()) });

export const AdmissionStepSchema = v.object({
  ...JobStepSchema.entries,
  maxRunning: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
  runUntil: v.optional(v.number()),
});

const RunOutcomeSchema = v.variant('outcome', [
  v.object({
    outcome: v.literal('succeeded'),
    outputKeys: v.array(v.string()),
    knownSubjects: v.record(v.string(), v.number()),
    usage: v.object({ outputTokens: v.number(), megapixels: v.number() }),
  }),
  v.object({ outcome: v.literal('failed'), error: v.object({ code: v.picklist(ERROR_CODES), message: v.string() }) }),
]);

export const SettleStepSchema = v.object({ ...JobStepSchema.entries, run: RunOutcomeSchema });

export const ReleaseStepSchema = v.object({
  ...JobStepSchema.entries,
  run: v.optional(RunOutcomeSchema),
  failure: v.optional(v.object({ Error: v.optional(v.string()), Cause: v.optional(v.string()) })),
});
