import * as v from 'valibot';
import { callbackDeps } from '../composition/callbacks';
import { settings } from '../composition/core';
import { retryCallbackLater } from '../composition/queues';
import { deliverCallback } from '../domain/callbacks/deliver';
import { queueHandler } from '../entry/queue-handler';

const CallbackMessageSchema = v.object({
  deliveryId: v.string(),
  accountId: v.string(),
  jobId: v.string(),
  callbackUrl: v.string(),
  body: v.string(),
});

/** The SQS-fed deliverer: one signed POST per receive; backoff through the message's visibility. */
export const handler = queueHandler(
  CallbackMessageSchema,
  async (message, _record, log) => {
    const decision = await deliverCallback(callbackDeps(), message);
    log.info('callback attempt', { job_id: message.jobId, delivery_id: message.deliveryId, decision });
    return decision.kind === 'done'
      ? { kind: 'done' }
      : { kind: 'retry', delaySeconds: decision.delaySeconds * settings().CALLBACK_RETRY_SCALE };
  },
  { retryLater: retryCallbackLater },
);
