/**
 * The daily cap of automatic charges, over the wire in both runtimes, under a race of settles: with no
 * window between charges (AUTO_RECHARGE_WINDOW_SECONDS=0) every settle that finds the balance below the
 * threshold tries to start a charge, and only the cap (AUTO_RECHARGE_DAILY_MAX_USD, counted by the claim's
 * own conditional transaction) stops them.
 */
import { signedInPerson } from '../support/portal-session';
import { useStripeRuntime } from '../support/stripe-runtime';
import { until } from '../support/wait';

jest.setTimeout(180_000);

const world = useStripeRuntime({
  CALLBACK_RETRY_SCALE: '0',
  AUTO_RECHARGE_WINDOW_SECONDS: '0',
  AUTO_RECHARGE_DAILY_MAX_USD: '15.00',
});

// biome-ignore lint/suspicious/noExplicitAny: answers are read by path in assertions; their shape is checked against the OpenAPI schema
type Json = Record<string, any>;

const offSessionCharges = () => world.stripe.requests.filter((request) => request.path === '/v1/payment_intents');

it('charges at most the daily cap however many settles race below the threshold', async () => {
  const person = await signedInPerson(world.runtime);
  const created = await person.portal('POST', 'top-ups', { amount: '5.00', save_card: true });
  const sessionId = new URL(created.body.checkout_url).pathname.split('/').pop() as string;
  expect((await world.stripe.pay(sessionId)).status).toBe(200);
  const overCap = await person.portal('PUT', 'billing/settings', {
    auto_recharge: { enabled: true, threshold: '9.99', amount: '15.01' },
  });
  expect(overCap.status).toBe(422);
  const agreed = await person.portal('PUT', 'billing/settings', {
    auto_recharge: { enabled: true, threshold: '9.99', amount: '10.00' },
  });
  expect(agreed.body.auto_recharge).toMatchObject({ enabled: true, daily_max: '15.00', charged_today: '0.00' });

  const before = offSessionCharges().length;
  const settles = await Promise.all(
    Array.from({ length: 6 }, () =>
      world.runtime.call('POST', '/v2/service/generate', {
        apiKey: person.apiKey,
        body: { prompt: 'a lighthouse at dawn' },
      }),
    ),
  );
  expect(settles.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 200]);
  await until(async () => offSessionCharges().length > before, 20_000);
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  // 10.00 fits under the 15.00 cap once; a second would pass it.
  expect(offSessionCharges().length - before).toBe(1);
  const settings = (await person.portal('GET', 'billing/settings')).body as Json;
  expect(settings.auto_recharge.charged_today).toBe('10.00');
});
