/**
 * After a job's settle, in both runtimes: the low-balance notice (one signed `balance.low` event per
 * crossing, Standard Webhooks with the account's secret) and auto-recharge (the card saved at a consenting
 * top-up charged off-session through the official library and the Stripe double, at most once per window;
 * a decline turns it off and tells the developer). What charges a card with no person present is agreed to
 * only in the portal's session: with an API key auto-recharge may only be lowered or turned off.
 */
import { Webhook } from 'standardwebhooks';
import { type PortalPerson, signedInPerson } from '../support/portal-session';
import { startReceiver } from '../support/receiver';
import { useStripeRuntime } from '../support/stripe-runtime';
import { until } from '../support/wait';

jest.setTimeout(120_000);

const world = useStripeRuntime({ CALLBACK_RETRY_SCALE: '0' });

// biome-ignore lint/suspicious/noExplicitAny: answers are read by path in assertions; their shape is checked against the OpenAPI schema
type Json = Record<string, any>;

const call = async (apiKey: string, method: string, route: string, body?: unknown) => {
  const response = await world.runtime.call(method, route, { apiKey, body });
  return { status: response.status, body: (await response.json()) as Json };
};
const balanceOf = async (apiKey: string) =>
  (await call(apiKey, 'GET', '/v2/service/account')).body.balance.micro_usd as number;
/** The first value `find` answers, polled until it does. */
const found = async <T>(find: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> => {
  let value: T | undefined;
  await until(async () => {
    value = await find();
    return value !== undefined;
  }, timeoutMs);
  return value as T;
};
const generate = (apiKey: string) => call(apiKey, 'POST', '/v2/service/generate', { prompt: 'a lighthouse at dawn' });

/** A person's account with a paid 10.00 top-up whose card they consented, in the portal, to keep. */
const accountWithCard = async (): Promise<PortalPerson> => {
  const account = await signedInPerson(world.runtime);
  const created = await account.portal('POST', 'top-ups', { amount: '10.00', save_card: true });
  expect(created.status).toBe(201);
  expect(world.stripe.requests.at(-1)?.body.payment_intent_data).toMatchObject({ setup_future_usage: 'off_session' });
  const sessionId = new URL(created.body.checkout_url).pathname.split('/').pop() as string;
  expect((await world.stripe.pay(sessionId)).status).toBe(200);
  return account;
};

describe('GET/PUT /v2/service/account/billing', () => {
  it('refuses auto-recharge without a saved card, and holds the settings it is given', async () => {
    const account = await signedInPerson(world.runtime);
    const refused = await account.portal('PUT', 'billing/settings', {
      auto_recharge: { enabled: true, threshold: '5.00', amount: '20.00' },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toMatch(/Keep this card/);
    const set = await call(account.apiKey, 'PUT', '/v2/service/account/billing', {
      low_balance_threshold: '3.50',
      webhook_url: 'https://example.com/hook',
    });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({
      auto_recharge: {
        enabled: false,
        threshold: null,
        amount: null,
        card_saved: false,
        disabled_reason: null,
        charged_today: '0.00',
        daily_max: '500.00',
      },
      low_balance_threshold: '3.50',
      webhook_url: 'https://example.com/hook',
      balance: { usd: '0.00', micro_usd: 0 },
      debt: { usd: '0.00', micro_usd: 0 },
    });
    expect((await call(account.apiKey, 'GET', '/v2/service/account/billing')).body).toEqual(set.body);
    const bad = await call(account.apiKey, 'PUT', '/v2/service/account/billing', { webhook_url: 'http://example.com' });
    expect(bad.status).toBe(422);
  });

  it('lets no API key save a card, turn auto-recharge on or raise it; it may lower it or turn it off', async () => {
    const account = await accountWithCard();
    const saveCard = await call(account.apiKey, 'POST', '/v2/service/account/top-ups', {
      amount: '10.00',
      save_card: true,
    });
    expect(saveCard).toMatchObject({ status: 403, body: { code: 'PERSON_REQUIRED' } });
    const put = (auto_recharge: Json) => call(account.apiKey, 'PUT', '/v2/service/account/billing', { auto_recharge });
    expect(await put({ enabled: true, threshold: '5.00', amount: '20.00' })).toMatchObject({
      status: 403,
      body: { code: 'PERSON_REQUIRED' },
    });
    const agreed = await account.portal('PUT', 'billing/settings', {
      auto_recharge: { enabled: true, threshold: '5.00', amount: '20.00' },
    });
    expect(agreed.status).toBe(200);
    for (const raise of [
      { enabled: true, threshold: '5.00', amount: '20.01' },
      { enabled: true, threshold: '5.01', amount: '20.00' },
      { enabled: false, threshold: '5.00', amount: '25.00' },
    ])
      expect(await put(raise)).toMatchObject({ status: 403, body: { code: 'PERSON_REQUIRED' } });
    const settingsNow = (await call(account.apiKey, 'GET', '/v2/service/account/billing')).body.auto_recharge;
    expect(settingsNow).toMatchObject({ enabled: true, threshold: '5.00', amount: '20.00' });

    const lowered = await put({ enabled: true, threshold: '4.00', amount: '15.00' });
    expect(lowered.body.auto_recharge).toMatchObject({ enabled: true, threshold: '4.00', amount: '15.00' });
    const off = await put({ enabled: false, threshold: '4.00', amount: '15.00' });
    expect(off.body.auto_recharge).toMatchObject({ enabled: false });
    expect(await put({ enabled: true, threshold: '4.00', amount: '15.00' })).toMatchObject({
      status: 403,
      body: { code: 'PERSON_REQUIRED' },
    });
  });

  it.each([
    ['an amount under the smallest top-up', { threshold: '1.00', amount: '4.99' }, 'amount'],
    ['an amount over the largest top-up', { threshold: '5.00', amount: '2000.01' }, 'amount'],
    ['an amount over the daily cap', { threshold: '5.00', amount: '500.01' }, 'amount'],
    ['the old limit', { threshold: '9999999.99', amount: '5000.00' }, 'amount'],
    ['a threshold at the amount', { threshold: '20.00', amount: '20.00' }, 'threshold'],
  ])('answers %s with a 422 on the field, in FastAPI’s shape, from the portal too', async (_case, values, field) => {
    const account = await accountWithCard();
    const answer = await account.portal('PUT', 'billing/settings', { auto_recharge: { enabled: true, ...values } });
    expect(answer.status).toBe(422);
    expect(answer.body.detail).toEqual(
      expect.arrayContaining([expect.objectContaining({ type: 'value_error', loc: ['body', 'auto_recharge', field] })]),
    );
    const stored = (await call(account.apiKey, 'GET', '/v2/service/account/billing')).body.auto_recharge;
    expect(stored).toMatchObject({ enabled: false, amount: null });
  });
});

describe('after a settle', () => {
  it('sends one signed balance.low per crossing and charges the saved card once per window', async () => {
    const receiver = await startReceiver([200]);
    try {
      const account = await accountWithCard();
      const settings = await account.portal('PUT', 'billing/settings', {
        auto_recharge: { enabled: true, threshold: '10.00', amount: '20.00' },
        low_balance_threshold: '10.00',
        webhook_url: receiver.url,
      });
      expect(settings.body.auto_recharge).toMatchObject({ enabled: true, card_saved: true });

      expect((await generate(account.apiKey)).status).toBe(200);
      const spent = 10_000_000 - (await balanceOf(account.apiKey).then((b) => (b >= 10_000_000 ? b - 20_000_000 : b)));
      await until(async () => (await balanceOf(account.apiKey)) === 30_000_000 - spent, 20_000);
      // The notice, and the charge's own event.
      await receiver.waitFor(2);
      const ledger = (await call(account.apiKey, 'GET', '/v2/service/account/ledger?limit=10')).body.entries as Json[];
      expect(ledger.filter((entry) => entry.kind === 'credit' && entry.amount.micro_usd === 20_000_000)).toHaveLength(
        1,
      );
      const offSession = world.stripe.requests.filter((request) => request.path === '/v1/payment_intents');
      expect(offSession).toHaveLength(1);
      expect(offSession[0]?.body).toMatchObject({
        amount: '2000',
        currency: 'usd',
        off_session: 'true',
        confirm: 'true',
      });

      const { webhook_signing_secret: secret } = (await call(account.apiKey, 'GET', '/v2/service/webhook-secret')).body;
      const events = receiver.received.map(
        (delivery) => new Webhook(secret).verify(delivery.body, delivery.headers as Record<string, string>) as Json,
      );
      expect(events.find((event) => event.type === 'balance.low')).toMatchObject({
        account_id: account.accountId,
        threshold: { usd: '10.00' },
        balance: { micro_usd: 10_000_000 - spent },
      });
      expect(events.find((event) => event.type === 'billing.auto_recharge.charged')).toMatchObject({
        account_id: account.accountId,
        amount: { usd: '20.00' },
      });
      expect((await account.portal('GET', 'billing/settings')).body.auto_recharge).toMatchObject({
        charged_today: '20.00',
        daily_max: '500.00',
      });

      // New thresholds just under the recharged balance: the next settle crosses both. A new threshold is a new
      // crossing (a second notice), but the window holds the card: no second charge within the hour.
      await account.portal('PUT', 'billing/settings', {
        low_balance_threshold: '29.99',
        auto_recharge: { enabled: true, threshold: '29.99', amount: '30.00' },
      });
      expect((await generate(account.apiKey)).status).toBe(200);
      await receiver.waitFor(3);
      expect((await generate(account.apiKey)).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(receiver.received).toHaveLength(3);
      expect(world.stripe.requests.filter((request) => request.path === '/v1/payment_intents')).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });

  it('leaves a charge Stripe answers processing pending, and credits it once when payment_intent.succeeded arrives', async () => {
    const account = await accountWithCard();
    // Turned on by the person, in the portal: no API key may.
    await account.portal('PUT', 'billing/settings', {
      auto_recharge: { enabled: true, threshold: '10.00', amount: '20.00' },
    });
    world.stripe.processingNext();
    const before = world.stripe.requests.filter((request) => request.path === '/v1/payment_intents').length;
    expect((await generate(account.apiKey)).status).toBe(200);
    const intent = await found(async () =>
      [...world.stripe.paymentIntents.values()].find(
        (candidate) => candidate.status === 'processing' && candidate.metadata.account_id === account.accountId,
      ),
    );
    const pending = await found(async () => {
      const [latest] = (await call(account.apiKey, 'GET', '/v2/service/account/top-ups')).body.top_ups as Json[];
      return latest?.top_up_id === intent.metadata.top_up_id ? latest : undefined;
    });
    expect(pending).toMatchObject({ status: 'pending', credited: null });
    const spentBalance = await balanceOf(account.apiKey);
    expect(spentBalance).toBeLessThan(10_000_000);
    // Turning auto-recharge off meanwhile does not strand the charge Stripe is already making.
    await call(account.apiKey, 'PUT', '/v2/service/account/billing', {
      auto_recharge: { enabled: false, threshold: '10.00', amount: '20.00' },
    });
    const succeeded = world.stripe.event('payment_intent.succeeded', world.stripe.settle(intent.id, 'succeeded'));
    expect(JSON.parse((await world.stripe.send(succeeded)).body).outcome).toBe('credited');
    expect(JSON.parse((await world.stripe.send(succeeded)).body).outcome).toBe('duplicate');
    expect(JSON.parse((await world.stripe.send({ ...succeeded, id: 'evt_test_resent' })).body).outcome).toBe(
      'duplicate',
    );
    expect(await balanceOf(account.apiKey)).toBe(spentBalance + 20_000_000);
    expect(world.stripe.requests.filter((request) => request.path === '/v1/payment_intents').length).toBe(before + 1);
    const [credited] = (await call(account.apiKey, 'GET', '/v2/service/account/top-ups')).body.top_ups as Json[];
    expect(credited).toMatchObject({ status: 'completed', credited: { usd: '20.00' } });
  });

  it.each(['card_declined', 'authentication_required'] as const)(
    'turns auto-recharge off after %s and tells the developer',
    async (code) => {
      const receiver = await startReceiver([200]);
      try {
        const account = await accountWithCard();
        await account.portal('PUT', 'billing/settings', {
          auto_recharge: { enabled: true, threshold: '10.00', amount: '20.00' },
          webhook_url: receiver.url,
        });
        world.stripe.declineNext(code);
        expect((await generate(account.apiKey)).status).toBe(200);
        await receiver.waitFor(1);
        const { webhook_signing_secret: secret } = (await call(account.apiKey, 'GET', '/v2/service/webhook-secret'))
          .body;
        const [notice] = receiver.received;
        const event = new Webhook(secret).verify(notice?.body ?? '', notice?.headers as Record<string, string>) as Json;
        expect(event).toMatchObject({ type: 'auto_recharge.failed', reason: code, amount: { usd: '20.00' } });
        const settings = (await call(account.apiKey, 'GET', '/v2/service/account/billing')).body;
        expect(settings.auto_recharge).toMatchObject({ enabled: false, disabled_reason: code, card_saved: true });
        expect(await balanceOf(account.apiKey)).toBeLessThan(10_000_000);
      } finally {
        await receiver.close();
      }
    },
  );
});
