/**
 * Stripe through its official library: Checkout Sessions for top-ups, and the verification of its
 * webhook events (events.ts). The library is pointed at `apiBase` when given (development: the local
 * Stripe double), otherwise at api.stripe.com.
 */
import Stripe from 'stripe';
import type { CheckoutPort } from '../../domain/billing/top-ups';

export const stripeClient = (secretKey: string, apiBase?: URL): Stripe =>
  new Stripe(secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
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
        // The payment, its charge and its refunds name the top-up too.
        payment_intent_data: { metadata },
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
