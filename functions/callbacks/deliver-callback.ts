import * as v from 'valibot';
import { rechargeDeps } from '../composition/account/billing';
import { settings } from '../composition/core';
import { callbackDeps } from '../composition/jobs/callbacks';
import { retryCallbackLater } from '../composition/queues';
import { runAutoRecharge } from '../domain/billing/auto-billing';
import { deliverCallback } from '../domain/callbacks/deliver';
import { queueHandler } from '../entry/queue-handler';

const CallbackMessageSchema = v.object({
  deliveryId: v.string(),
  accountId: v.string(),
  jobId: v.string(),
  callbackUrl: v.string(),
  body: v.string(),
});

/** Auto-recharge's charge, queued after a settle (functions/domain/billing/auto-billing.ts). */
const AutoRechargeMessageSchema = v.object({
  kind: v.literal('auto-recharge'),
  accountId: v.string(),
  rechargeId: v.string(),
});

/**
 * The SQS-fed deliverer: one signed POST per receive; backoff through the message's visibility. The same
 * queue carries auto-recharge's charges, run here once each (a failure is retried like a delivery).
 */
export const handler = queueHandler(
  v.union([AutoRechargeMessageSchema, CallbackMessageSchema]),
  async (message, _record, log) => {
    if ('kind' in message) {
      const outcome = await runAutoRecharge(rechargeDeps(), message);
      log.info('auto-recharge', { account_id: message.accountId, recharge_id: message.rechargeId, outcome });
      return { kind: 'done' };
    }
    const decision = await deliverCallback(callbackDeps(), message);
    log.info('callback attempt', { job_id: message.jobId, delivery_id: message.deliveryId, decision });
    return decision.kind === 'done'
      ? { kind: 'done' }
      : { kind: 'retry', delaySeconds: decision.delaySeconds * settings().CALLBACK_RETRY_SCALE };
  },
  { retryLater: retryCallbackLater },
);
