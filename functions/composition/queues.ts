/** The callback queue: jobs post their callbacks to it; the deliverer puts failed ones back with a delay. */

import { delayRedelivery, sendJson, sqsClient } from '../adapters/sqs/queues';
import type { CallbackMessage } from '../domain/callbacks/deliver';
import { once, settings } from './core';

export const sqs = once(() => sqsClient(settings().AWS_REGION, settings().SQS_ENDPOINT));

export const enqueueCallback = (message: CallbackMessage) => sendJson(sqs(), settings().CALLBACK_QUEUE_URL, message);

export const retryCallbackLater = (receiptHandle: string, delaySeconds: number) =>
  delayRedelivery(sqs(), settings().CALLBACK_QUEUE_URL, receiptHandle, delaySeconds);
