/**
 * The local Stripe double against what the official `stripe` library knows of Stripe's API: the
 * library's types are generated from Stripe's published OpenAPI description, so the objects the double
 * answers and signs must carry every property those declarations require (read from the library's
 * .d.ts files here, at test time: a field the library starts requiring fails this test), and the double
 * refuses what Stripe refuses, in Stripe's error shape, as the library reads it.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { stripeCheckout, stripeClient, stripeOffSession } from '../../../functions/adapters/stripe/checkout';
import { type StripeDouble, startStripeDouble } from '../../support/stripe-double';
import FIXTURE_FILE from '../../support/stripe-fixtures3.json';
import { declaredProperties, requiredProperties } from '../../support/stripe-types';

/** A webhook receiver on loopback that keeps each delivery's raw body and Stripe-Signature header. */
const startReceiver = async () => {
  const deliveries: Array<{ body: string; signature: string }> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      deliveries.push({
        body: Buffer.concat(chunks).toString('utf8'),
        signature: String(req.headers['stripe-signature'] ?? ''),
      });
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"received":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook`,
    deliveries,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

/** The library's declarations of each object the double answers or sends: file and interface. */
const declarations = {
  session: ['Checkout/Sessions.d.ts', 'Session'],
  customer: ['Customers.d.ts', 'Customer'],
  paymentIntent: ['PaymentIntents.d.ts', 'PaymentIntent'],
  charge: ['Charges.d.ts', 'Charge'],
  refund: ['Refunds.d.ts', 'Refund'],
  dispute: ['Disputes.d.ts', 'Dispute'],
  event: ['Events.d.ts', 'EventBase'],
} as const;

/**
 * `object` (as it crossed the wire, JSON) has every property the declaration requires, and none it does
 * not declare. The answer names what is wrong, so a failure reads as the field to add or remove.
 */
const conformance = (object: object, [file, name]: readonly [string, string]) => {
  const keys = Object.keys(object);
  const declared = new Set(declaredProperties(file, name).map((property) => property.name));
  return {
    missing: requiredProperties(file, name).filter((key) => !keys.includes(key)),
    undeclared: keys.filter((key) => !declared.has(key)),
  };
};
const conforms = { missing: [], undeclared: [] };

let stripe: StripeDouble;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let client: Stripe;

beforeAll(async () => {
  receiver = await startReceiver();
  stripe = await startStripeDouble({ webhookUrl: receiver.url });
  client = stripeClient(stripe.secretKey, new URL(stripe.url));
});
afterAll(async () => {
  await stripe.close();
  await receiver.close();
});

/** Opens a top-up's session as the service does (one session per top-up id, by its Idempotency-Key). */
const openSession = (topUpId = 'tup_double1') =>
  stripeCheckout(async () => client).createSession({
    topUpId,
    accountId: 'acct_double1',
    amountCents: 2500,
    saveCard: true,
    successUrl: `http://127.0.0.1:1/portal/billing?top_up=${topUpId}`,
    cancelUrl: 'http://127.0.0.1:1/portal/billing',
  });

/** The params the service sends for a top-up, as a plain object (to add what the library's types would refuse). */
const sessionParams = () => ({
  mode: 'payment',
  line_items: [
    {
      quantity: 1,
      price_data: { currency: 'usd', unit_amount: 2500, product_data: { name: 'Prepaid balance top-up' } },
    },
  ],
  success_url: 'http://127.0.0.1:1/back',
});

/**
 * Stripe's own example objects (stripe/openapi's fixtures3.json, the file beside its OpenAPI description; the
 * description itself is not reachable from here), trimmed to the resources the service uses: source and
 * licence in the file's `_source`.
 */
const FIXTURES = FIXTURE_FILE as unknown as { resources: Record<string, Record<string, unknown>> };

describe('the Stripe double, through the official library', () => {
  it('reads the library’s declarations: required and optional properties apart, and a missing interface loudly', () => {
    const session = requiredProperties(...declarations.session);
    expect(session).toEqual(expect.arrayContaining(['id', 'object', 'amount_total', 'payment_status', 'url']));
    expect(session).not.toContain('line_items'); // `line_items?:` is optional (expandable) on a session
    expect(declaredProperties(...declarations.session).map((property) => property.name)).toContain('line_items');
    expect(() => requiredProperties('Checkout/Sessions.d.ts', 'NoSuchInterface')).toThrow(/no interface/);
  });

  it('round-trips the session the service opens: the fields the service relies on, as created and as retrieved', async () => {
    const opened = await openSession();
    expect(opened.url).toBe(`${stripe.url}/checkout/pay/${opened.sessionId}`);
    const session = await client.checkout.sessions.retrieve(opened.sessionId);
    expect(session).toMatchObject({
      id: opened.sessionId,
      object: 'checkout.session',
      mode: 'payment',
      status: 'open',
      payment_status: 'unpaid',
      amount_total: 2500,
      currency: 'usd',
      client_reference_id: 'tup_double1',
      customer_creation: 'always',
      metadata: { top_up_id: 'tup_double1', account_id: 'acct_double1' },
      payment_intent: null,
      url: opened.url,
    });
    expect(conformance(session, declarations.session)).toEqual(conforms);
    expect(stripe.requests.find((request) => request.path === '/v1/checkout/sessions')?.body).toMatchObject({
      payment_intent_data: { setup_future_usage: 'off_session', metadata: { top_up_id: 'tup_double1' } },
    });
    // The same top-up opens the same session (Idempotency-Key), as Stripe replays it.
    expect((await openSession()).sessionId).toBe(opened.sessionId);
    expect(stripe.violations).toEqual([]);
  });

  it('refuses a parameter Stripe does not have, at the top or nested, with 400 parameter_unknown as Stripe does', async () => {
    const refusals = [
      await client.rawRequest('POST', '/v1/checkout/sessions', { ...sessionParams(), colour: 'blue' }).catch((e) => e),
      await client
        .rawRequest('POST', '/v1/checkout/sessions', {
          ...sessionParams(),
          line_items: [{ quantity: 1, colour: 'blue', price_data: sessionParams().line_items[0]?.price_data }],
        })
        .catch((e) => e),
    ];
    expect(refusals.map((error) => error instanceof Stripe.errors.StripeInvalidRequestError)).toEqual([true, true]);
    expect(refusals.map((error: Stripe.errors.StripeError) => [error.statusCode, error.code, error.param])).toEqual([
      [400, 'parameter_unknown', 'colour'],
      [400, 'parameter_unknown', 'line_items[0][colour]'],
    ]);
    expect(refusals[0].raw).toMatchObject({
      type: 'invalid_request_error',
      message: 'Received unknown parameter: colour',
    });
    expect(stripe.violations.splice(0)).toHaveLength(2);
  });

  it('refuses a parameter of the wrong kind, and one Stripe has that the double does not serve, naming it', async () => {
    const wrongKind = await client
      .rawRequest('POST', '/v1/payment_intents', { amount: 'ten', currency: 'usd' })
      .catch((e) => e);
    expect([wrongKind.statusCode, wrongKind.code, wrongKind.param]).toEqual([
      400,
      'parameter_invalid_integer',
      'amount',
    ]);
    const unserved = await client
      .rawRequest('POST', '/v1/checkout/sessions', { ...sessionParams(), locale: 'fr' })
      .catch((e) => e);
    expect([unserved.statusCode, unserved.param]).toEqual([400, 'locale']);
    expect(unserved.message).toMatch(/does not serve the parameter locale/);
    expect(stripe.violations.splice(0)).toHaveLength(2);
  });

  it('signs events that the library’s constructEvent accepts, whose objects carry every required field of their type', async () => {
    const { sessionId } = await openSession('tup_double2');
    receiver.deliveries.length = 0;
    const { status } = await stripe.pay(sessionId);
    expect(status).toBe(200);
    const paymentIntentId = String(stripe.sessions.get(sessionId)?.payment_intent);
    await stripe.send(stripe.event('charge.refunded', stripe.refund(paymentIntentId, 500)));
    await stripe.send(stripe.event('charge.dispute.closed', stripe.dispute(paymentIntentId, 'lost')));
    await stripe.send(stripe.event('customer.created', stripe.customer({ email: 'dev@example.com' })));
    const received = receiver.deliveries.map((delivery) =>
      Stripe.webhooks.constructEvent(delivery.body, delivery.signature, stripe.webhookSecret),
    );
    expect(received.map((event) => event.type)).toEqual([
      'checkout.session.completed',
      'charge.refunded',
      'charge.dispute.closed',
      'customer.created',
    ]);
    const [completed, refunded, disputed, customer] = received;
    for (const event of received) expect(conformance(event, declarations.event)).toEqual(conforms);
    expect(conformance(completed?.data.object ?? {}, declarations.session)).toEqual(conforms);
    expect(conformance(refunded?.data.object ?? {}, declarations.charge)).toEqual(conforms);
    expect(conformance(disputed?.data.object ?? {}, declarations.dispute)).toEqual(conforms);
    expect(conformance(customer?.data.object ?? {}, declarations.customer)).toEqual(conforms);
    expect(completed?.data.object).toMatchObject({
      status: 'complete',
      payment_status: 'paid',
      payment_intent: paymentIntentId,
    });
    expect(refunded?.data.object).toMatchObject({
      amount: 2500,
      amount_refunded: 500,
      payment_intent: paymentIntentId,
    });
    // A body changed after signing is refused by the same library.
    const first = receiver.deliveries[0];
    expect(() =>
      Stripe.webhooks.constructEvent(
        (first?.body ?? '').replace('"amount_total":2500', '"amount_total":250000'),
        first?.signature ?? '',
        stripe.webhookSecret,
      ),
    ).toThrow(Stripe.errors.StripeSignatureVerificationError);
  });

  it('answers PaymentIntents, refunds and a card decline in the library’s types and Stripe’s error shape', async () => {
    const { sessionId } = await openSession('tup_double3');
    await stripe.pay(sessionId);
    const paid = String(stripe.sessions.get(sessionId)?.payment_intent);
    const intent = await client.paymentIntents.retrieve(paid);
    expect(conformance(intent, declarations.paymentIntent)).toEqual(conforms);
    const refund = await client.refunds.create({ payment_intent: paid, amount: 100 });
    expect(conformance(refund, declarations.refund)).toEqual(conforms);
    expect(refund).toMatchObject({ object: 'refund', amount: 100, payment_intent: paid, status: 'succeeded' });

    const customer = String(intent.customer);
    const charger = stripeOffSession(async () => client);
    const card = { paymentIntentId: paid, customerId: customer };
    const charged = await charger.charge({ card, amountCents: 1000, idempotencyKey: 'auto-1', metadata: {} });
    expect(charged).toMatchObject({ kind: 'succeeded', amountCents: 1000 });

    // `processing`, then charged: the charger says so, and finds it ended once Stripe ends it.
    stripe.processingNext();
    const slow = await charger.charge({ card, amountCents: 1000, idempotencyKey: 'auto-2', metadata: {} });
    expect(slow).toMatchObject({ kind: 'processing' });
    const slowId = slow.kind === 'processing' ? slow.paymentIntentId : '';
    const ended = stripe.settle(slowId, 'succeeded');
    expect(conformance(JSON.parse(JSON.stringify(ended)), declarations.paymentIntent)).toEqual(conforms);
    expect(await charger.find(slowId)).toEqual({ kind: 'succeeded', paymentIntentId: slowId, amountCents: 1000 });
    const event = stripe.event('payment_intent.succeeded', ended);
    const payload = JSON.stringify(event);
    const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: stripe.webhookSecret });
    expect(Stripe.webhooks.constructEvent(payload, header, stripe.webhookSecret).type).toBe('payment_intent.succeeded');
    expect(conformance(JSON.parse(JSON.stringify(stripe.failedRefund(slowId, 500))), declarations.refund)).toEqual(
      conforms,
    );

    stripe.declineNext('card_declined');
    const declined = await client.paymentIntents
      .create({
        amount: 1000,
        currency: 'usd',
        customer,
        payment_method: String(intent.payment_method),
        off_session: true,
        confirm: true,
      })
      .catch((e) => e);
    expect(declined).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect([declined.statusCode, declined.code, declined.decline_code]).toEqual([
      402,
      'card_declined',
      'generic_decline',
    ]);
    expect(declined.payment_intent).toMatchObject({
      status: 'requires_payment_method',
      last_payment_error: { code: 'card_declined' },
    });
    expect(conformance(declined.payment_intent, declarations.paymentIntent)).toEqual(conforms);
    expect(stripe.violations).toEqual([]);
  });
  it("answers only fields Stripe's fixtures or the library's types name, each of the fixture's kind where both have it", async () => {
    const { sessionId } = await openSession('tup_double4');
    receiver.deliveries.length = 0;
    await stripe.pay(sessionId);
    const paid = String(stripe.sessions.get(sessionId)?.payment_intent);
    await stripe.send(stripe.event('charge.refunded', stripe.refund(paid, 500)));
    await stripe.send(stripe.event('charge.dispute.closed', stripe.dispute(paid, 'lost')));
    await stripe.send(stripe.event('customer.created', stripe.customer({ email: 'dev@example.com' })));
    const events = receiver.deliveries.map((delivery) => JSON.parse(delivery.body) as Record<string, unknown>);
    const objectOf = (event: Record<string, unknown> | undefined) =>
      ((event?.data as { object?: Record<string, unknown> } | undefined)?.object ?? {}) as Record<string, unknown>;
    const answered: [string, keyof typeof declarations, Record<string, unknown>][] = [
      ['event', 'event', events[0] ?? {}],
      ['checkout.session', 'session', objectOf(events[0])],
      ['charge', 'charge', objectOf(events[1])],
      ['dispute', 'dispute', objectOf(events[2])],
      ['customer', 'customer', objectOf(events[3])],
      [
        'payment_intent',
        'paymentIntent',
        JSON.parse(JSON.stringify(await client.paymentIntents.retrieve(paid))) as Record<string, unknown>,
      ],
      [
        'refund',
        'refund',
        JSON.parse(JSON.stringify(await client.refunds.create({ payment_intent: paid, amount: 100 }))) as Record<
          string,
          unknown
        >,
      ],
    ];
    const kind = (value: unknown) => (Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value);
    for (const [resource, declaration, object] of answered) {
      const fixture = FIXTURES.resources[resource];
      if (!fixture) throw new Error(`no fixture for ${resource}`);
      // The fixtures follow Stripe's newest API version, the library's types its own: a field either names is Stripe's.
      const [file, name] = declarations[declaration];
      const declared = new Set(declaredProperties(file, name).map((property) => property.name));
      const foreign = Object.keys(object).filter(
        (key) => key !== 'lastResponse' && !(key in fixture) && !declared.has(key),
      );
      const mistyped = Object.entries(object).filter(
        ([key, value]) =>
          key in fixture && value !== null && fixture[key] !== null && kind(value) !== kind(fixture[key]),
      );
      expect([resource, foreign, mistyped.map(([key]) => key)]).toEqual([resource, [], []]);
    }
  });
});
