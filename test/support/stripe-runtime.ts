/**
 * One local runtime per test file, wired to a Stripe double (the official library pointed at it, its
 * webhooks delivered to the runtime's route), closed after the file; no test may leave the double with a
 * request it refused as Stripe would.
 */
import { startTestRuntime, type TestRuntime } from './runtime';
import { type StripeDouble, startStripeDouble } from './stripe-double';

export interface StripeWorld {
  runtime: TestRuntime;
  stripe: StripeDouble;
}

export const useStripeRuntime = (env: Record<string, string> = {}): StripeWorld => {
  const world = {} as StripeWorld;
  beforeAll(async () => {
    world.stripe = await startStripeDouble();
    world.runtime = await startTestRuntime({
      env: {
        STRIPE_SECRET_KEY: world.stripe.secretKey,
        STRIPE_WEBHOOK_SECRET: world.stripe.webhookSecret,
        STRIPE_API_BASE: world.stripe.url,
        ...env,
      },
    });
    world.stripe.webhookUrl = `${world.runtime.url}/v2/service/billing/stripe/webhook`;
  });
  afterAll(async () => {
    await world.runtime?.close();
    await world.stripe?.close();
  });
  afterEach(() => {
    expect(world.stripe.violations).toEqual([]);
  });
  return world;
};
