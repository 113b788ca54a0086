/**
 * A service whose operator configured no Stripe account: top-ups answer 503 with a clear message, the
 * Stripe webhook answers 503 (there is nothing to verify with), and an operator's credit still works.
 */
import { services } from '../../bin/local-aws/services';
import * as Accounts from '../../functions/domain/accounts/accounts';
import { startTestRuntime, type TestRuntime } from '../support/runtime';

let runtime: TestRuntime;

beforeAll(async () => {
  runtime = await startTestRuntime();
});
afterAll(() => runtime.close());

describe('without Stripe configured', () => {
  it('answers a top-up 503 and says Stripe is not configured', async () => {
    const account = await runtime.newAccount(0);
    const response = await runtime.call('POST', '/v2/service/account/top-ups', {
      apiKey: account.apiKey,
      body: { amount: '25.00' },
    });
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({
      detail: expect.stringMatching(/no Stripe account configured.*STRIPE_SECRET_KEY/),
      code: 'SERVICE_UNAVAILABLE',
    });
  });

  it('answers a signed Stripe event 503 (no signing secret to verify it with), and an unsigned request 400', async () => {
    const signed = await runtime.call('POST', '/v2/service/billing/stripe/webhook', {
      rawBody: '{"id":"evt_1","type":"checkout.session.completed"}',
      headers: { 'Content-Type': 'application/json', 'Stripe-Signature': 't=1,v1=00' },
    });
    expect(signed.status).toBe(503);
    expect(await signed.json()).toMatchObject({ detail: expect.stringMatching(/STRIPE_WEBHOOK_SECRET/) });
    const unsigned = await runtime.call('POST', '/v2/service/billing/stripe/webhook', { rawBody: '{}' });
    expect(unsigned.status).toBe(400);
  });

  it('still lets the operator credit the balance', async () => {
    const account = await runtime.newAccount(0);
    // What `npm run admin -- credit` does.
    await Accounts.creditBalance(services(), {
      accountId: account.accountId,
      amountMicros: 7_000_000,
      note: 'invoice 12',
    });
    const response = await runtime.call('GET', '/v2/service/account', { apiKey: account.apiKey });
    expect(((await response.json()) as { balance: { usd: string } }).balance.usd).toBe('7.00');
  });
});
