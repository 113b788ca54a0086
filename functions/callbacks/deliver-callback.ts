import * as v from 'valibot';
import { deliverCallback } from '../domain/callbacks/deliver';
import { queueHandler } from '../shared/queue/queue-handler';

const CallbackMessageSchema = v.object({
  deliveryId: v.string(),
  accountId: v.string(),
  jobId: v.string(),
  callbackUrl: v.string(),
  body: v.string(),
});

/**
 * The SQS-fed deliverer: one signed POST per message and receive. The receive count is the attempt
 * number; an exhausted delivery is released at once so that SQS's redrive moves it to the DLQ.
 */
export const handler = queueHandler(CallbackMessageSchema, async (message, record, deps) => {
  const attempt = Number(record.attributes.ApproximateReceiveCount);
  const decision = await deliverCallback(deps.callbacks, message, attempt);
  deps.log.info('callback attempt', { job_id: message.jobId, delivery_id: message.deliveryId, attempt, decision: decision.kind });
  switch (decision.kind) {
    case 'done':
      return { kind: 'done' };
    case 'retry':
      return { kind: 'retry', delaySeconds: decision.delaySeconds * deps.config.CALLBACK_RETRY_SCALE };
    case 'exhausted':
      return { kind: 'retry', delaySeconds: 0 };
  }
});
