/** The profile-training workflow's inputs, parsed at every step. */
import * as v from 'valibot';

export const TrainingStepSchema = v.object({ accountId: v.string(), profileId: v.string() });

export const RequestStepSchema = v.object({
  ...TrainingStepSchema.entries,
  taskToken: v.pipe(v.string(), v.minLength(1)),
});

/** `trained` is the output the trainer callback sent with SendTaskSuccess. */
export const AcceptStepSchema = v.object({
  ...TrainingStepSchema.entries,
  trained: v.object({ signature: v.pipe(v.string(), v.minLength(1)) }),
});

export const ValidateStepSchema = v.object({ ...TrainingStepSchema.entries, imageUrls: v.array(v.string()) });

export const FailStepSchema = v.object({
  ...TrainingStepSchema.entries,
  validation: v.optional(
    v.variant('ok', [
      v.object({ ok: v.literal(true), photoCount: v.number() }),
      v.object({ ok: v.literal(false), message: v.string() }),
    ]),
  ),
  failure: v.optional(v.object({ Error: v.optional(v.string()), Cause: v.optional(v.string()) })),
  /** CheckLoraTraining's outcome (TRAINER=fal): a failure is the message for the user. */
  lora: v.optional(v.object({ done: v.boolean(), failure: v.optional(v.string()) })),
});

export const LoraSubmitStepSchema = v.object({
  ...TrainingStepSchema.entries,
  apiBaseUrl: v.pipe(v.string(), v.url()),
});
