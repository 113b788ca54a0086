/**
 * Stripe through its official library: Checkout Sessions for top-ups, and the verification of its
 * webhook events (events.ts). The library is pointed at `apiBase` when given (development: the local
 * Stripe double), otherwise at api.stripe.com.
 */
import Stripe from 'stripe';
import type { ChargeResult, OffSessionCharger } from '../../domain/billing/auto-billing';
import type { CheckoutPort } from '../../domain/billing/top-ups';
import { STRIPE_MAX_NETWORK_RETRIES, STRIPE_TIMEOUT_MS } from './budget';

export const stripeClient = (secretKey: string, apiBase?: URL): Stripe =>
  new Stripe(secretKey, {
    // Sized so that the functions that charge finish their calls inside their own timeout (budget.ts).
    maxNetworkRetries: STRIPE_MAX_NETWORK_RETRIES,
    timeout: STRIPE_TIMEOUT_MS,
    ...(apiBase && {
      host: apiBase.hostname,
      port: Number(apiBase.port || (apiBase.protocol === 'http:' ? 80 : 443)),
      protocol: apiBase.protocol === 'http:' ? 'http' : 'https',
    }),
  });

/** What a top-up's Stripe objects carry, so that Stripe's events name the top-up (events.ts reads it back). */
export const topUpMetadata = (input: { topUpId: string; accountId: string }) => ({
  top_up_id: input.topUpId,
  account_id: input.accountId,
});

export const stripeCheckout = (client: () => Promise<Stripe>): CheckoutPort => ({
  async createSession(input) {
    const stripe = await client();
    const metadata = topUpMetadata(input);
    const session = await stripe.checkout.sessions.create(
      {
        mode: 'payment',
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: 'usd',
              unit_amount: input.amountCents,
              product_data: { name: 'Prepaid balance top-up' },
            },
          },
        ],
        client_reference_id: input.topUpId,
        metadata,
        // The payment, its charge and its refunds name the top-up too; with consent, the card is kept.
        payment_intent_data: { metadata, ...(input.saveCard && { setup_future_usage: 'off_session' as const }) },
        customer_creation: 'always',
        success_url: input.successUrl,
        cancel_url: input.cancelUrl,
      },
      // One session per top-up, however often this call is retried.
      { idempotencyKey: `top-up-${input.topUpId}` },
    );
    if (!session.url) throw new Error(`Stripe opened checkout session ${session.id} without a URL`);
    return { sessionId: session.id, url: session.url };
  },
});

/** What a PaymentIntent's status says of an automatic charge. */
const resultOf = (intent: Stripe.PaymentIntent): ChargeResult => {
  if (intent.status === 'succeeded')
    return { kind: 'succeeded', paymentIntentId: intent.id, amountCents: intent.amount_received };
  if (intent.status === 'processing') return { kind: 'processing', paymentIntentId: intent.id };
  const error = intent.last_payment_error;
  return {
    kind: 'declined',
    reason:
      intent.status === 'requires_action' ? 'authentication_required' : (error?.code ?? intent.status ?? 'declined'),
    detail: error?.message ?? `The card's payment is ${intent.status}.`,
  };
};

/**
 * Auto-recharge's charge: the card of the payment the developer consented on, charged off-session and
 * confirmed at once. A decline or a bank asking for authentication is Stripe's card error (402): an
 * answer, not a failure of ours. `processing` is neither: the webhook's payment_intent events end it.
 */
export const stripeOffSession = (client: () => Promise<Stripe>): OffSessionCharger => ({
  async charge(input) {
    const stripe = await client();
    const consented = await stripe.paymentIntents.retrieve(input.card.paymentIntentId);
    const method = consented.payment_method;
    const paymentMethod = typeof method === 'string' ? method : method?.id;
    if (!paymentMethod) return { kind: 'declined', reason: 'no_saved_card', detail: 'The saved payment has no card.' };
    try {
      return resultOf(
        await stripe.paymentIntents.create(
          {
            amount: input.amountCents,
            currency: 'usd',
            customer: input.card.customerId,
            payment_method: paymentMethod,
            off_session: true,
            confirm: true,
            metadata: input.metadata,
          },
          { idempotencyKey: input.idempotencyKey },
        ),
      );
    } catch (error) {
      if (error instanceof Stripe.errors.StripeCardError)
        return { kind: 'declined', reason: error.code ?? 'card_declined', detail: error.message };
      throw error;
    }
  },
  async find(paymentIntentId) {
    const stripe = await client();
    return resultOf(await stripe.paymentIntents.retrieve(paymentIntentId));
  },
});
