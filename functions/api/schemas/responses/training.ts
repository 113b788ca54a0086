/** The answer to a training backend's event on the trainer-callback route (responses/index.ts). */
import * as v from 'valibot';

export const TrainerEventAcceptedSchema = v.pipe(
  v.strictObject({ accepted: v.literal(true), event: v.picklist(['heartbeat', 'succeeded', 'failed']) }),
  v.title('TrainerEventAccepted'),
);

/** The fal webhook's answer: the report recorded, a duplicate of one recorded, and whether it resumed the job. */
export const ProviderReportAcceptedSchema = v.pipe(
  v.strictObject({
    // false: a report nobody waits for (the job ended or is gone, a request it does not hold), logged and ignored.
    accepted: v.boolean(),
    duplicate: v.boolean(),
    resumed: v.boolean(),
  }),
  v.title('ProviderReportAccepted'),
);
