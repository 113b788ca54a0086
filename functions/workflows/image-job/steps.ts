/** The image-job workflow's inputs, parsed at every step (the state is JSON from Step Functions). */
import * as v from 'valibot';
import { RunOutcomeSchema, SettleBasisSchema } from '../../adapters/run-outcome';

export const JobStepSchema = v.object({ accountId: v.string(), jobId: v.string() });

/** MarkRunning gets the execution's state: the job, and the account's cap the submit handed on (absent in executions started before it). */
/** QueueCallback gets whether the job has a callback_url (absent in executions started before it: then the job says). */
export const CallbackStepSchema = v.object({ ...JobStepSchema.entries, hasCallback: v.optional(v.boolean()) });

export const AdmissionStepSchema = v.object({
  ...JobStepSchema.entries,
  maxRunning: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
  runUntil: v.optional(v.number()),
});

/** SettleCharge gets RunEngine's success, with the job's settle basis (absent in executions started before it: then the job is read). */
export const SettleStepSchema = v.object({
  ...JobStepSchema.entries,
  run: v.intersect([RunOutcomeSchema, v.object({ settleBasis: v.optional(SettleBasisSchema) })]),
});

export const ReleaseStepSchema = v.object({
  ...JobStepSchema.entries,
  // `waiting` when a queued provider's check failed on a later round.
  run: v.optional(v.union([RunOutcomeSchema, v.object({ outcome: v.literal('waiting') })])),
  failure: v.optional(v.object({ Error: v.optional(v.string()), Cause: v.optional(v.string()) })),
});
