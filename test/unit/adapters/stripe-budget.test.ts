/** The Stripe calls of the functions that charge fit inside those functions' timeouts, with a margin. */
import {
  RECHARGE_STRIPE_CALLS,
  STRIPE_CALL_WORST_CASE_MS,
  STRIPE_CALLER_MARGIN_MS,
} from '../../../functions/adapters/stripe/budget';
import { CALLBACK_QUEUE } from '../../../functions/callbacks/definitions';

describe('the Stripe call budget', () => {
  it("fits an automatic charge's calls, each at its worst, inside the deliverer's timeout with a margin", () => {
    expect(RECHARGE_STRIPE_CALLS * STRIPE_CALL_WORST_CASE_MS + STRIPE_CALLER_MARGIN_MS).toBeLessThanOrEqual(
      CALLBACK_QUEUE.delivererTimeoutSeconds * 1000,
    );
  });

  it("fits a top-up's one call inside API Gateway's 29 s integration timeout with a margin", () => {
    expect(STRIPE_CALL_WORST_CASE_MS + 3_000).toBeLessThanOrEqual(29_000);
  });

  it('keeps the queue visibility at six times the deliverer timeout, as AWS advises', () => {
    expect(CALLBACK_QUEUE.visibilityTimeoutSeconds).toBeGreaterThanOrEqual(6 * CALLBACK_QUEUE.delivererTimeoutSeconds);
  });
});
