/** The answer to a training backend's event on the trainer-callback route (responses/index.ts). */
import * as v from 'valibot';

export const TrainerEventAcceptedSchema = v.pipe(
  v.strictObject({ accepted: v.literal(true), event: v.picklist(['heartbeat', 'succeeded', 'failed']) }),
  v.title('TrainerEventAccepted'),
);
