/**
 * Money in, over HTTP in both runtimes: a top-up opens a Checkout Session with the official `stripe`
 * library (pointed at the local Stripe double), and only Stripe's signed events move money, each once:
 * duplicates, replays, events out of order and a race of deliveries credit a top-up once; refunds and
 * disputes debit when opened and give back when won, a failed refund gives back, never more than was
 * credited and never below zero (the rest is a debt that stops new work).
 */
import type Stripe from 'stripe';
import type { SendableType } from '../support/stripe-double';

import { useStripeRuntime } from '../support/stripe-runtime';

jest.setTimeout(120_000);

const world = useStripeRuntime({ TOP_UP_MIN_USD: '5.00', TOP_UP_MAX_USD: '2000.00' });

// biome-ignore lint/suspicious/noExplicitAny: answers are read by path in assertions; their shape is checked against the OpenAPI schema
type Json = Record<string, any>;

const topUp = async (apiKey: string, body: unknown) => {
  const response = await world.runtime.call('POST', '/v2/service/account/top-ups', { apiKey, body });
  return { status: response.status, body: (await response.json()) as Json };
};

const balanceOf = async (apiKey: string): Promise<number> => {
  const response = await world.runtime.call('GET', '/v2/service/account', { apiKey });
  return ((await response.json()) as Json).balance.micro_usd as number;
};

const ledgerOf = async (apiKey: string): Promise<Json[]> => {
  const response = await world.runtime.call('GET', '/v2/service/account/ledger?limit=100', { apiKey });
  return ((await response.json()) as Json).entries as Json[];
};

const topUpsOf = async (apiKey: string, query = ''): Promise<Json> => {
  const response = await world.runtime.call('GET', `/v2/service/account/top-ups${query}`, { apiKey });
  expect(response.status).toBe(200);
  return (await response.json()) as Json;
};

/** A new account with a pending top-up of `amount` and its Checkout session. */
const pendingTopUp = async (amount = '25.00', creditMicros = 1_000_000) => {
  const account = await world.runtime.newAccount(creditMicros);
  const { status, body } = await topUp(account.apiKey, { amount });
  expect(status).toBe(201);
  const sessionId = new URL(body.checkout_url).pathname.split('/').pop() as string;
  return { account, topUpId: body.top_up_id as string, sessionId };
};

/** An event about the double's session as it is now, with some of its fields as Stripe would report them later. */
const sessionEvent = (
  sessionId: string,
  type: Extract<SendableType, `checkout.session.${string}`> = 'checkout.session.completed',
  overrides: Partial<Stripe.Checkout.Session> = {},
) => {
  const session = world.stripe.sessions.get(sessionId);
  if (!session) throw new Error(`the Stripe double has no session ${sessionId}`);
  return world.stripe.event(type, { ...session, ...overrides });
};

describe('POST /v2/service/account/top-ups', () => {
  it('answers 201 with a pending top-up and Stripe’s Checkout page for the amount in cents', async () => {
    const account = await world.runtime.newAccount(0);
    const { status, body } = await topUp(account.apiKey, { amount: '25.00', currency: 'usd' });
    expect(status).toBe(201);
    expect(body).toEqual({
      top_up_id: expect.stringMatching(/^tup_/),
      checkout_url: expect.stringMatching(new RegExp(`^${world.stripe.url}/checkout/pay/cs_test_`)),
      amount: '25.00',
      status: 'pending',
    });
    const request = world.stripe.requests.at(-1) as Json;
    expect(request.path).toBe('/v1/checkout/sessions');
    expect(request.body).toMatchObject({
      mode: 'payment',
      line_items: [{ quantity: '1', price_data: { currency: 'usd', unit_amount: '2500' } }],
      client_reference_id: body.top_up_id,
      metadata: { top_up_id: body.top_up_id, account_id: account.accountId },
      payment_intent_data: { metadata: { top_up_id: body.top_up_id, account_id: account.accountId } },
    });
    expect(request.body.success_url).toMatch(
      new RegExp(`/portal#/billing\\?top_up=${body.top_up_id}&checkout=returned$`),
    );
    const listed = await topUpsOf(account.apiKey);
    expect(listed.top_ups).toEqual([
      expect.objectContaining({ top_up_id: body.top_up_id, status: 'pending', amount: '25.00', credited: null }),
    ]);
    expect(await balanceOf(account.apiKey)).toBe(0);
  });

  it.each([
    ['three decimals', { amount: '25.001' }],
    ['a comma', { amount: '25,00' }],
    ['a number instead of a string', { amount: 25 }],
    ['a negative amount', { amount: '-5.00' }],
    ['below TOP_UP_MIN_USD', { amount: '4.99' }],
    ['above TOP_UP_MAX_USD', { amount: '2000.01' }],
    ['a currency other than usd', { amount: '25.00', currency: 'eur' }],
    ['no amount', {}],
  ])('refuses %s with 422 and asks Stripe for nothing', async (_case, body) => {
    const account = await world.runtime.newAccount(0);
    const before = world.stripe.requests.length;
    const answer = await topUp(account.apiKey, body);
    expect(answer.status).toBe(422);
    expect(answer.body.detail[0].loc[0]).toBe('body');
    expect(world.stripe.requests.length).toBe(before);
  });

  it('lists top-ups newest first, a page at a time', async () => {
    const account = await world.runtime.newAccount(0);
    const ids: string[] = [];
    for (const amount of ['5.00', '6.00', '7.00']) ids.push((await topUp(account.apiKey, { amount })).body.top_up_id);
    const first = await topUpsOf(account.apiKey, '?limit=2');
    expect(first.top_ups.map((t: Json) => t.top_up_id)).toEqual([ids[2], ids[1]]);
    const second = await topUpsOf(account.apiKey, `?limit=2&cursor=${first.next_cursor}`);
    expect(second.top_ups.map((t: Json) => t.top_up_id)).toEqual([ids[0]]);
    const bad = await world.runtime.call('GET', '/v2/service/account/top-ups?cursor=bm9wZQ', {
      apiKey: account.apiKey,
    });
    expect(bad.status).toBe(400);
  });
});

describe('POST /v2/service/billing/stripe/webhook', () => {
  it('credits the amount Stripe reports once the session is paid, with a ledger line naming the top-up and the payment', async () => {
    const { account, topUpId, sessionId } = await pendingTopUp('25.00', 1_000_000);
    const { status } = await world.stripe.pay(sessionId);
    expect(status).toBe(200);
    expect(await balanceOf(account.apiKey)).toBe(26_000_000);
    const paymentIntent = world.stripe.sessions.get(sessionId)?.payment_intent as string;
    const [entry] = await ledgerOf(account.apiKey);
    expect(entry).toMatchObject({
      kind: 'credit',
      amount: { usd: '25.00', micro_usd: 25_000_000 },
      balance_after: { micro_usd: 26_000_000 },
      note: `top-up ${topUpId} (Stripe payment ${paymentIntent})`,
    });
    const [listed] = (await topUpsOf(account.apiKey)).top_ups;
    expect(listed).toMatchObject({
      top_up_id: topUpId,
      status: 'completed',
      credited: { usd: '25.00' },
      checkout_url: null,
    });
  });

  it('refuses a missing, a wrong and a stale signature, and a body that was changed, with 400; nothing is credited', async () => {
    const { account, sessionId } = await pendingTopUp();
    world.stripe.sessions.get(sessionId)!.payment_status = 'paid';
    world.stripe.sessions.get(sessionId)!.payment_intent = 'pi_test_forged';
    const event = sessionEvent(sessionId);
    const payload = JSON.stringify(event);
    const stale = (await import('stripe')).default.webhooks.generateTestHeaderString({
      payload,
      secret: world.stripe.webhookSecret,
      timestamp: Math.floor(Date.now() / 1000) - 3600,
    });
    const answers = [
      await world.stripe.send(event, { signature: null }),
      await world.stripe.send(event, { secret: 'whsec_somebodyelse' }),
      await world.stripe.send(event, { signature: 't=1,v1=00' }),
      await world.stripe.send(event, { signature: stale }),
    ];
    const forged = await world.runtime.call('POST', '/v2/service/billing/stripe/webhook', {
      rawBody: payload.replace('"amount_total":2500', '"amount_total":250000'),
      headers: {
        'Content-Type': 'application/json',
        'Stripe-Signature': (await import('stripe')).default.webhooks.generateTestHeaderString({
          payload,
          secret: world.stripe.webhookSecret,
        }),
      },
    });
    for (const answer of [...answers, { status: forged.status, body: await forged.text() }]) {
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body)).toMatchObject({
        detail: expect.stringMatching(/Stripe-Signature/),
        code: 'INVALID_REQUEST',
      });
    }
    expect(await balanceOf(account.apiKey)).toBe(1_000_000);
  });

  it('answers an event type it does not act on 200 and ignores it', async () => {
    const answer = await world.stripe.send(world.stripe.event('customer.created', world.stripe.customer()));
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ received: true, outcome: 'ignored' });
  });

  it('credits nothing for a session this service did not open (200, logged)', async () => {
    const { account, topUpId, sessionId } = await pendingTopUp();
    const paid = { payment_status: 'paid', payment_intent: 'pi_test_other', status: 'complete' };
    const withoutMetadata = sessionEvent(sessionId, 'checkout.session.completed', {
      ...paid,
      id: 'cs_test_other',
      metadata: {},
    });
    const otherSession = sessionEvent(sessionId, 'checkout.session.completed', { ...paid, id: 'cs_test_other' });
    const unknownTopUp = sessionEvent(sessionId, 'checkout.session.completed', {
      ...paid,
      metadata: { top_up_id: 'tup_unknown', account_id: account.accountId },
    });
    for (const event of [withoutMetadata, otherSession, unknownTopUp]) {
      const answer = await world.stripe.send(event);
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body).outcome).toBe('foreign');
    }
    expect(await balanceOf(account.apiKey)).toBe(1_000_000);
    expect((await topUpsOf(account.apiKey)).top_ups[0]).toMatchObject({ top_up_id: topUpId, status: 'pending' });
  });

  it('does not credit a completed session that is not paid yet, and credits when its asynchronous payment succeeds', async () => {
    const { account, sessionId } = await pendingTopUp('10.00', 0);
    const unpaid = await world.stripe.send(
      sessionEvent(sessionId, 'checkout.session.completed', { status: 'complete' }),
    );
    expect(JSON.parse(unpaid.body).outcome).toBe('ignored');
    expect(await balanceOf(account.apiKey)).toBe(0);
    const paid = { status: 'complete', payment_status: 'paid', payment_intent: `pi_test_async_${sessionId.slice(-6)}` };
    const succeeded = await world.stripe.send(
      sessionEvent(sessionId, 'checkout.session.async_payment_succeeded', paid),
    );
    expect(JSON.parse(succeeded.body).outcome).toBe('credited');
    expect(await balanceOf(account.apiKey)).toBe(10_000_000);
  });

  it('credits once whatever is delivered again: the same event, a replay, and the other event of the same payment', async () => {
    const { account, sessionId } = await pendingTopUp('25.00', 0);
    const { event } = await world.stripe.pay(sessionId);
    const again = await world.stripe.send(event);
    expect(JSON.parse(again.body).outcome).toBe('duplicate');
    // A replay (Stripe's "resend", or an attacker with an old delivery) is signed anew: the top-up's own state decides.
    const replay = await world.stripe.send({ ...event, id: 'evt_test_replayed' });
    expect(JSON.parse(replay.body).outcome).toBe('duplicate');
    const other = await world.stripe.send(sessionEvent(sessionId, 'checkout.session.async_payment_succeeded'));
    expect(JSON.parse(other.body).outcome).toBe('duplicate');
    expect(await balanceOf(account.apiKey)).toBe(25_000_000);
    expect(
      (await ledgerOf(account.apiKey)).filter((entry) => entry.kind === 'credit' && entry.amount.micro_usd > 0),
    ).toHaveLength(1);
  });

  it('credits once when the events arrive out of order: succeeded before completed, expired after paid', async () => {
    const { account, sessionId } = await pendingTopUp('12.50', 0);
    const paid = { status: 'complete', payment_status: 'paid', payment_intent: `pi_test_ooo_${sessionId.slice(-6)}` };
    const later = sessionEvent(sessionId, 'checkout.session.completed', paid);
    const earlier = sessionEvent(sessionId, 'checkout.session.async_payment_succeeded', paid);
    expect(JSON.parse((await world.stripe.send(earlier)).body).outcome).toBe('credited');
    expect(JSON.parse((await world.stripe.send(later)).body).outcome).toBe('duplicate');
    const expired = await world.stripe.send(sessionEvent(sessionId, 'checkout.session.expired', { status: 'expired' }));
    expect(JSON.parse(expired.body).outcome).toBe('duplicate');
    expect(await balanceOf(account.apiKey)).toBe(12_500_000);
    expect((await topUpsOf(account.apiKey)).top_ups[0].status).toBe('completed');
  });

  it('marks an unpaid session that expired, and credits it if Stripe later reports it paid', async () => {
    const { account, sessionId } = await pendingTopUp('5.00', 0);
    expect(
      JSON.parse((await world.stripe.send(sessionEvent(sessionId, 'checkout.session.expired'))).body).outcome,
    ).toBe('closed');
    expect((await topUpsOf(account.apiKey)).top_ups[0]).toMatchObject({ status: 'expired', checkout_url: null });
    const { status } = await world.stripe.pay(sessionId);
    expect(status).toBe(200);
    expect(await balanceOf(account.apiKey)).toBe(5_000_000);
  });

  it('credits once when the same payment’s events race each other', async () => {
    const { account, sessionId } = await pendingTopUp('50.00', 0);
    const session = world.stripe.sessions.get(sessionId) as Json;
    Object.assign(session, {
      status: 'complete',
      payment_status: 'paid',
      payment_intent: `pi_test_race_${sessionId.slice(-6)}`,
    });
    const event = sessionEvent(sessionId);
    const deliveries = [
      ...Array.from({ length: 6 }, () => world.stripe.send(event)),
      ...Array.from({ length: 4 }, (_, i) => world.stripe.send({ ...event, id: `${String(event.id)}_${i}` })),
      world.stripe.send(sessionEvent(sessionId, 'checkout.session.async_payment_succeeded')),
    ];
    const outcomes = (await Promise.all(deliveries)).map((answer) => {
      expect(answer.status).toBe(200);
      return JSON.parse(answer.body).outcome as string;
    });
    expect(outcomes.filter((outcome) => outcome === 'credited')).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome === 'duplicate')).toHaveLength(deliveries.length - 1);
    expect(await balanceOf(account.apiKey)).toBe(50_000_000);
  });
});

describe('refunds and disputes', () => {
  const paidTopUp = async (amount: string, creditMicros: number) => {
    const pending = await pendingTopUp(amount, creditMicros);
    expect((await world.stripe.pay(pending.sessionId)).status).toBe(200);
    return { ...pending, paymentIntent: world.stripe.sessions.get(pending.sessionId)?.payment_intent as string };
  };

  it('debits what a refund returned, once, and only the difference of a later partial refund', async () => {
    const { account, paymentIntent, topUpId } = await paidTopUp('25.00', 0);
    const first = world.stripe.event('charge.refunded', world.stripe.refund(paymentIntent, 1000));
    expect(JSON.parse((await world.stripe.send(first)).body).outcome).toBe('adjusted');
    expect(JSON.parse((await world.stripe.send(first)).body).outcome).toBe('duplicate');
    expect(await balanceOf(account.apiKey)).toBe(15_000_000);
    const second = world.stripe.event('charge.refunded', world.stripe.refund(paymentIntent, 500));
    expect(JSON.parse((await world.stripe.send(second)).body).outcome).toBe('adjusted');
    // The first one again, under another id (a resend): it reports less than is already debited.
    expect(JSON.parse((await world.stripe.send({ ...first, id: 'evt_test_old_refund' })).body).outcome).toBe(
      'duplicate',
    );
    expect(await balanceOf(account.apiKey)).toBe(10_000_000);
    const [latest] = await ledgerOf(account.apiKey);
    expect(latest).toMatchObject({
      kind: 'credit',
      amount: { micro_usd: -5_000_000 },
      note: expect.stringContaining(`refund of top-up ${topUpId}`),
    });
    expect((await topUpsOf(account.apiKey)).top_ups[0].refunded).toEqual({ usd: '15.00', micro_usd: 15_000_000 });
  });

  it('never takes the balance below zero: the rest is a debt that stops new work with 402 BALANCE_IN_DEBT until repaid', async () => {
    const { account, paymentIntent } = await paidTopUp('20.00', 0);
    const generate = () =>
      world.runtime.call('POST', '/v2/service/generate', {
        apiKey: account.apiKey,
        body: { prompt: 'a lighthouse at dawn' },
      });
    expect((await generate()).status).toBe(200);
    const spent = 20_000_000 - (await balanceOf(account.apiKey));
    expect(spent).toBeGreaterThan(0);
    const refund = world.stripe.event('charge.refunded', world.stripe.refund(paymentIntent, 2000));
    expect(JSON.parse((await world.stripe.send(refund)).body).outcome).toBe('adjusted');
    expect(await balanceOf(account.apiKey)).toBe(0);
    const [debit] = await ledgerOf(account.apiKey);
    expect(debit).toMatchObject({ amount: { micro_usd: -(20_000_000 - spent) }, balance_after: { micro_usd: 0 } });
    expect(debit.note).toMatch(/more owed$/);
    const refused = await generate();
    expect(refused.status).toBe(402);
    expect(await refused.json()).toMatchObject({ code: 'BALANCE_IN_DEBT', detail: expect.stringMatching(/owes/) });
    // The next top-up repays the debt first: what is left is the balance, and the entries still sum to it.
    const again = await topUp(account.apiKey, { amount: '25.00' });
    const sessionId = new URL(again.body.checkout_url).pathname.split('/').pop() as string;
    expect((await world.stripe.pay(sessionId)).status).toBe(200);
    expect(await balanceOf(account.apiKey)).toBe(25_000_000 - spent);
    const entries = await ledgerOf(account.apiKey);
    // One transaction: the credit whole, and the repaid part beside it.
    expect(entries.slice(0, 2)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          kind: 'credit',
          amount: { usd: expect.any(String), micro_usd: -spent },
          note: expect.stringMatching(/repays the debt/),
        }),
        expect.objectContaining({ kind: 'credit', amount: { usd: '25.00', micro_usd: 25_000_000 } }),
      ]),
    );
    expect(entries.reduce((total, entry) => total + (entry.amount.micro_usd as number), 0)).toBe(25_000_000 - spent);
    expect((await generate()).status).toBe(200);
  });

  it('debits a dispute at once when it is opened, and gives it back when it is won', async () => {
    const { account, paymentIntent, topUpId } = await paidTopUp('30.00', 0);
    const opened = world.stripe.event('charge.dispute.created', world.stripe.dispute(paymentIntent, 'needs_response'));
    expect(JSON.parse((await world.stripe.send(opened)).body).outcome).toBe('adjusted');
    expect(await balanceOf(account.apiKey)).toBe(0);
    expect(JSON.parse((await world.stripe.send(opened)).body).outcome).toBe('duplicate');
    const won = world.stripe.event('charge.dispute.closed', world.stripe.dispute(paymentIntent, 'won'));
    expect(JSON.parse((await world.stripe.send(won)).body).outcome).toBe('adjusted');
    expect(await balanceOf(account.apiKey)).toBe(30_000_000);
    const [givenBack] = await ledgerOf(account.apiKey);
    expect(givenBack).toMatchObject({
      amount: { micro_usd: 30_000_000 },
      note: expect.stringContaining(`dispute won: given back of top-up ${topUpId}`),
    });
    // Its opening delivered again after the end moves nothing.
    expect(JSON.parse((await world.stripe.send({ ...opened, id: 'evt_test_late_open' })).body).outcome).toBe(
      'duplicate',
    );
    expect(await balanceOf(account.apiKey)).toBe(30_000_000);
  });

  it('takes a refund and a lost dispute of one payment back once: never more than it credited', async () => {
    const { account, paymentIntent } = await paidTopUp('30.00', 0);
    const refund = world.stripe.event('charge.refunded', world.stripe.refund(paymentIntent, 1000));
    expect(JSON.parse((await world.stripe.send(refund)).body).outcome).toBe('adjusted');
    expect(await balanceOf(account.apiKey)).toBe(20_000_000);
    const lost = world.stripe.event('charge.dispute.closed', world.stripe.dispute(paymentIntent, 'lost'));
    expect(JSON.parse((await world.stripe.send(lost)).body).outcome).toBe('adjusted');
    const billing = await world.runtime.call('GET', '/v2/service/account/billing', { apiKey: account.apiKey });
    expect(await billing.json()).toMatchObject({ balance: { micro_usd: 0 }, debt: { micro_usd: 0 } });
    expect((await topUpsOf(account.apiKey)).top_ups[0].refunded).toEqual({ usd: '30.00', micro_usd: 30_000_000 });
  });

  it('gives a failed refund back once, however Stripe names the failure', async () => {
    const { account, paymentIntent } = await paidTopUp('25.00', 0);
    const refund = world.stripe.event('charge.refunded', world.stripe.refund(paymentIntent, 1000));
    expect(JSON.parse((await world.stripe.send(refund)).body).outcome).toBe('adjusted');
    const failed = world.stripe.failedRefund(paymentIntent, 1000);
    expect(JSON.parse((await world.stripe.send(world.stripe.event('refund.failed', failed))).body).outcome).toBe(
      'adjusted',
    );
    expect(
      JSON.parse((await world.stripe.send(world.stripe.event('charge.refund.updated', failed))).body).outcome,
    ).toBe('duplicate');
    expect(await balanceOf(account.apiKey)).toBe(25_000_000);
  });

  it('records and alarms a dispute in another currency, moving nothing (200)', async () => {
    const { account, paymentIntent } = await paidTopUp('25.00', 0);
    const dispute = { ...world.stripe.dispute(paymentIntent, 'needs_response'), currency: 'eur' };
    const answer = await world.stripe.send(world.stripe.event('charge.dispute.created', dispute));
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body).outcome).toBe('recorded');
    expect(await balanceOf(account.apiKey)).toBe(25_000_000);
  });

  it('asks Stripe to deliver a refund again (503) while the payment it is for is not credited yet', async () => {
    const { account, sessionId, topUpId } = await pendingTopUp('8.00', 0);
    const charge = world.stripe.charge({
      paymentIntentId: 'pi_test_not_yet',
      cents: 800,
      refundedCents: 800,
      metadata: { top_up_id: topUpId, account_id: account.accountId },
    });
    const early = world.stripe.event('charge.refunded', charge);
    expect((await world.stripe.send(early)).status).toBe(503);
    const paid = { status: 'complete', payment_status: 'paid', payment_intent: 'pi_test_not_yet' };
    expect(
      JSON.parse((await world.stripe.send(sessionEvent(sessionId, 'checkout.session.completed', paid))).body).outcome,
    ).toBe('credited');
    expect(JSON.parse((await world.stripe.send(early)).body).outcome).toBe('adjusted');
    expect(await balanceOf(account.apiKey)).toBe(0);
  });
});
