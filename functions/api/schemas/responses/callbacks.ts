/** Response bodies of the webhook endpoints (responses/index.ts): the signing secret, deliveries, redelivery, the test event. */
import * as v from 'valibot';
import { IsoDateTime } from './common';

export const WebhookSecretSchema = v.pipe(
  v.strictObject({
    webhook_signing_secret: v.pipe(v.string(), v.description('The HMAC key of callback signatures (both schemes).')),
    previous_secret_expires_at: v.optional(
      v.pipe(IsoDateTime, v.description('After a rotation: until when the previous secret also signs deliveries.')),
    ),
  }),
  v.title('WebhookSecret'),
);

const DeliveryAnswer = {
  response_status: v.pipe(
    v.nullable(v.pipe(v.number(), v.integer())),
    v.description('The receiver’s HTTP status; null when there was no answer.'),
  ),
  error: v.pipe(
    v.nullable(v.picklist(['timeout', 'network'])),
    v.description('Why there was no answer: `timeout` (10 s) or `network` (refused, reset, TLS, a blocked address).'),
  ),
  latency_ms: v.pipe(v.number(), v.integer(), v.minValue(0)),
};

export const JobDeliveriesSchema = v.pipe(
  v.strictObject({
    job_id: v.string(),
    callback_url: v.nullable(v.string()),
    attempts: v.array(
      v.pipe(
        v.strictObject({
          delivery_id: v.pipe(
            v.string(),
            v.description('The `webhook-id` / `X-Service-Delivery-Id` the attempt carried; a redelivery has its own.'),
          ),
          attempt: v.pipe(v.number(), v.integer(), v.minValue(1)),
          at: IsoDateTime,
          ...DeliveryAnswer,
          last: v.pipe(
            v.boolean(),
            v.description(
              'No further attempt of this delivery follows: delivered (2xx), refused with 410, or the retries spent.',
            ),
          ),
        }),
        v.title('DeliveryAttempt'),
      ),
    ),
  }),
  v.title('JobDeliveries'),
);

export const RedeliverySchema = v.pipe(
  v.strictObject({ job_id: v.string(), delivery_id: v.string(), callback_url: v.string() }),
  v.title('Redelivery'),
);

export const WebhookTestResultSchema = v.pipe(
  v.strictObject({
    delivery_id: v.string(),
    url: v.string(),
    delivered: v.pipe(v.boolean(), v.description('The receiver answered 2xx.')),
    ...DeliveryAnswer,
  }),
  v.title('WebhookTestResult'),
);
