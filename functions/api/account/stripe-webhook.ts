import { noticeOf, StripeSignatureError, verifyStripeEvent } from '../../adapters/stripe/events';
import { stripeWebhookDeps, stripeWebhookSecret } from '../../composition/account/billing';
import { applyStripeNotice } from '../../domain/billing/top-ups';
import { InvalidRequestError, ServiceUnavailableError } from '../../domain/errors';
import { type ApiRequest, apiHandler } from '../../entry/http/api-handler';
import { ok } from '../../entry/http/responses';

/**
 * POST /v2/service/billing/stripe/webhook: Stripe's events, authenticated by their Stripe-Signature over
 * the raw body (no API key). A bad or missing signature is a 400 and nothing happens; every event that
 * verifies is answered 200 once acted on (or ignored), so that Stripe stops delivering it.
 */
const lambdaHandler = async ({ rawBody, headers, log }: ApiRequest) => {
  const signature = headers['stripe-signature'];
  // Not Stripe's request at all: refused as such, configured or not.
  if (!signature) throw new InvalidRequestError('The Stripe-Signature header is missing.');
  const secret = stripeWebhookSecret();
  if (!secret)
    throw new ServiceUnavailableError(
      'Stripe events are not accepted: this service has no webhook signing secret configured (STRIPE_WEBHOOK_SECRET).',
    );
  let event: ReturnType<typeof verifyStripeEvent>;
  try {
    event = verifyStripeEvent(rawBody, signature, await secret());
  } catch (error) {
    if (error instanceof StripeSignatureError) throw new InvalidRequestError(error.message);
    throw error;
  }
  const notice = noticeOf(event);
  const outcome = await applyStripeNotice(stripeWebhookDeps(), notice);
  log.info('stripe event', { event_id: event.id, type: event.type, outcome });
  return ok({ received: true, outcome });
};

export const handler = apiHandler(lambdaHandler, { auth: 'none' });
