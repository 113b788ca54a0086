/**
 * How long a Stripe call may take, at worst, with the library set as stripeClient sets it (checkout.ts):
 * every attempt timing out, and the library's wait between attempts (Stripe's node library: at most its
 * MAX_NETWORK_RETRY_DELAY_SEC, 5 s). The functions that call Stripe are sized from it: the deliverer
 * (auto-recharge, two calls), the sweep, and the API's top-up route (one call, under API Gateway's 29 s).
 * No imports, so that the stack's definitions can read it without shipping the library.
 */
export const STRIPE_TIMEOUT_MS = 8_000;
export const STRIPE_MAX_NETWORK_RETRIES = 1;
const STRIPE_MAX_RETRY_WAIT_MS = 5_000;

export const STRIPE_CALL_WORST_CASE_MS =
  (STRIPE_MAX_NETWORK_RETRIES + 1) * STRIPE_TIMEOUT_MS + STRIPE_MAX_NETWORK_RETRIES * STRIPE_MAX_RETRY_WAIT_MS;

/** The Stripe calls one automatic charge makes at most: read the consented payment, create the charge. */
export const RECHARGE_STRIPE_CALLS = 2;

/** What a function that charges keeps beside its Stripe calls: the table's reads and writes, a cold start. */
export const STRIPE_CALLER_MARGIN_MS = 15_000;
