/** Request shapes of the callback endpoints, and the one rule for a URL the service will POST to. */
import * as v from 'valibot';

const isHttps = (url: string): boolean => URL.canParse(url) && new URL(url).protocol === 'https:';

/** Where a callback goes: an absolute https URL (its address is checked again when it is sent). */
export const CallbackUrlSchema = v.pipe(v.string(), v.check(isHttps, 'callback_url must be an absolute https URL.'));

export const RedeliverRequestSchema = v.object({
  callback_url: v.optional(
    v.pipe(CallbackUrlSchema, v.description('Where to send this delivery; default: the job’s own `callback_url`.')),
  ),
});
export type RedeliverRequest = v.InferOutput<typeof RedeliverRequestSchema>;

export const WebhookTestRequestSchema = v.object({
  url: v.pipe(
    v.string(),
    v.check(isHttps, 'url must be an absolute https URL.'),
    v.description('The receiver to send a signed test event to.'),
  ),
});
export type WebhookTestRequest = v.InferOutput<typeof WebhookTestRequestSchema>;
