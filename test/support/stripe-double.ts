/**
 * A local Stripe on loopback, for the official `stripe` library pointed at it (STRIPE_API_BASE): the
 * endpoints this service uses, in Stripe's wire format (form-encoded requests in its bracket notation,
 * JSON answers, `Authorization: Bearer <secret key>`, `Idempotency-Key` replays, its error shape):
 *
 * - POST /v1/checkout/sessions, GET /v1/checkout/sessions/{id}
 * - POST /v1/customers, POST /v1/payment_intents (`confirm`, `off_session`), GET /v1/payment_intents/{id}, POST /v1/refunds
 *
 * and Checkout's hosted page: GET /checkout/pay/{id} shows the amount and a Pay button, whose POST
 * completes the session (a customer, a succeeded PaymentIntent and its charge), sends the signed
 * `checkout.session.completed` event to the service's webhook, and redirects to the session's
 * success_url, as Stripe does. Events are signed with the library's own `webhooks.generateTestHeaderString`.
 *
 * Requests that break the rules the published API states for these endpoints (required parameters,
 * mode, currency, amounts) are answered 400 as Stripe would and recorded in `violations`.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

type Json = Record<string, unknown>;

export interface StripeDouble {
  url: string;
  secretKey: string;
  webhookSecret: string;
  /** Where events are sent (the service's POST /v2/service/billing/stripe/webhook). */
  webhookUrl: string;
  sessions: Map<string, Json>;
  paymentIntents: Map<string, Json>;
  customers: Map<string, Json>;
  requests: Array<{ method: string; path: string; body: Json }>;
  violations: string[];
  /** The next off-session PaymentIntents fail this way (then succeed again). */
  declineNext(code: 'card_declined' | 'authentication_required'): void;
  /** Pays a session as the hosted page's button does: completes it, sends the webhook, answers the event and the webhook's status. */
  pay(sessionId: string): Promise<{ event: Json; status: number }>;
  /** An event of `type` about `object`, as Stripe sends it. */
  event(type: string, object: Json): Json;
  /** Sends an event to the webhook signed (or with the given signature header, or none), answering the service's status and body. */
  send(
    event: Json,
    options?: { signature?: string | null; secret?: string },
  ): Promise<{ status: number; body: string }>;
  /** The charge of a paid session's PaymentIntent, with `amount_refunded` cumulative, after a refund of `cents`. */
  refund(paymentIntentId: string, cents: number): Json;
  close(): Promise<void>;
}

const id = (prefix: string) => `${prefix}_test_${randomBytes(12).toString('hex')}`;

/** Stripe's form encoding: `a[b][0][c]=x` → { a: { b: [{ c: 'x' }] } }. */
export const decodeForm = (text: string): Json => {
  const root: Json = {};
  for (const [name, value] of new URLSearchParams(text)) {
    const path = name.replace(/\]/g, '').split('[');
    let node: Record<string, unknown> | unknown[] = root;
    path.forEach((segment, index) => {
      const last = index === path.length - 1;
      const nextIsIndex = !last && /^\d+$/.test(path[index + 1] ?? '');
      const container = node as Record<string, unknown>;
      if (last) container[segment] = value;
      else {
        container[segment] ??= nextIsIndex ? [] : {};
        node = container[segment] as Record<string, unknown>;
      }
    });
  }
  return root;
};

const stripeError = (status: number, type: string, message: string, extra: Json = {}) => ({
  status,
  body: { error: { type, message, ...extra } },
});

export const startStripeDouble = async (options: { webhookUrl?: string } = {}): Promise<StripeDouble> => {
  const secretKey = `sk_test_${randomBytes(16).toString('hex')}`;
  const webhookSecret = `whsec_${randomBytes(24).toString('base64')}`;
  const sessions = new Map<string, Json>();
  const paymentIntents = new Map<string, Json>();
  const customers = new Map<string, Json>();
  const charges = new Map<string, Json>();
  const idempotent = new Map<string, { status: number; body: unknown }>();
  const requests: StripeDouble['requests'] = [];
  const violations: string[] = [];
  const declines: Array<'card_declined' | 'authentication_required'> = [];
  /** Cards kept for off-session use (a Checkout with setup_future_usage), by payment method: their customer. */
  const savedCards = new Map<string, string>();
  const now = () => Math.floor(Date.now() / 1000);
  let url = '';

  const refuse = (path: string, message: string, param?: string) => {
    violations.push(`${path}: ${message}`);
    return stripeError(400, 'invalid_request_error', message, param ? { param } : {});
  };

  const createCustomer = (body: Json): Json => {
    const customer = {
      id: id('cus'),
      object: 'customer',
      created: now(),
      livemode: false,
      metadata: body.metadata ?? {},
      email: body.email ?? null,
    };
    customers.set(customer.id, customer);
    return customer;
  };

  const createSession = (path: string, body: Json) => {
    if (body.mode !== 'payment') return refuse(path, 'mode must be payment for a one-off top-up', 'mode');
    if (typeof body.success_url !== 'string')
      return refuse(path, 'Missing required param: success_url.', 'success_url');
    const items = body.line_items as Json[] | undefined;
    const item = items?.[0];
    const price = item?.price_data as Json | undefined;
    if (items?.length !== 1 || !item || !price)
      return refuse(path, 'line_items[0][price_data] is required', 'line_items');
    if (price.currency !== 'usd')
      return refuse(path, 'this account sells in usd only', 'line_items[0][price_data][currency]');
    const unitAmount = Number(price.unit_amount);
    const quantity = Number(item.quantity ?? 1);
    if (!Number.isSafeInteger(unitAmount) || unitAmount < 50)
      return refuse(
        path,
        'unit_amount must be a whole number of cents, at least 50',
        'line_items[0][price_data][unit_amount]',
      );
    if (!(price.product_data as Json | undefined)?.name) return refuse(path, 'product_data[name] is required');
    const sessionId = id('cs');
    const session: Json = {
      id: sessionId,
      object: 'checkout.session',
      amount_subtotal: unitAmount * quantity,
      amount_total: unitAmount * quantity,
      cancel_url: body.cancel_url ?? null,
      client_reference_id: body.client_reference_id ?? null,
      created: now(),
      currency: 'usd',
      customer: null,
      customer_creation: body.customer_creation ?? 'if_required',
      expires_at: now() + 24 * 3600,
      livemode: false,
      metadata: body.metadata ?? {},
      mode: 'payment',
      payment_intent: null,
      payment_status: 'unpaid',
      status: 'open',
      success_url: body.success_url,
      url: `${url}/checkout/pay/${sessionId}`,
    };
    sessions.set(sessionId, { ...session, _paymentIntentData: body.payment_intent_data ?? {} });
    return { status: 200, body: session };
  };

  const publicSession = (session: Json): Json => {
    const { _paymentIntentData: _hidden, ...rest } = session;
    return rest;
  };

  const createPaymentIntent = (path: string, body: Json) => {
    const amount = Number(body.amount);
    if (!Number.isSafeInteger(amount) || amount < 50) return refuse(path, 'amount must be at least 50 cents', 'amount');
    if (body.currency !== 'usd') return refuse(path, 'currency must be usd', 'currency');
    if (body.off_session === 'true' && body.confirm !== 'true')
      return refuse(path, 'off_session is only valid with confirm=true', 'off_session');
    if (body.confirm === 'true' && (!body.customer || !body.payment_method))
      return refuse(path, 'a confirmed off-session payment needs customer and payment_method');
    if (body.off_session === 'true' && savedCards.get(body.payment_method as string) !== body.customer)
      return refuse(path, 'the PaymentMethod was not saved for this customer (setup_future_usage)', 'payment_method');
    const declined = declines.shift();
    const intentId = id('pi');
    if (declined) {
      const intent = {
        id: intentId,
        object: 'payment_intent',
        amount,
        currency: 'usd',
        status: 'requires_payment_method',
      };
      return stripeError(
        402,
        'card_error',
        declined === 'card_declined' ? 'Your card was declined.' : 'This payment requires authentication.',
        {
          code: declined,
          decline_code: declined === 'card_declined' ? 'generic_decline' : undefined,
          payment_intent: intent,
        },
      );
    }
    const chargeId = id('ch');
    const intent: Json = {
      id: intentId,
      object: 'payment_intent',
      amount,
      amount_received: amount,
      currency: 'usd',
      customer: body.customer ?? null,
      payment_method: body.payment_method ?? null,
      latest_charge: chargeId,
      metadata: body.metadata ?? {},
      status: 'succeeded',
      created: now(),
      livemode: false,
    };
    paymentIntents.set(intentId, intent);
    charges.set(chargeId, {
      id: chargeId,
      object: 'charge',
      amount,
      amount_refunded: 0,
      currency: 'usd',
      payment_intent: intentId,
      metadata: body.metadata ?? {},
      refunded: false,
      paid: true,
      status: 'succeeded',
      created: now(),
      livemode: false,
    });
    return { status: 200, body: intent };
  };

  const chargeOf = (paymentIntentId: string): Json => {
    const intent = paymentIntents.get(paymentIntentId);
    const charge = intent && charges.get(intent.latest_charge as string);
    if (!charge) throw new Error(`the Stripe double has no payment ${paymentIntentId}`);
    return charge;
  };

  const refund = (paymentIntentId: string, cents: number): Json => {
    const charge = chargeOf(paymentIntentId);
    const refunded = (charge.amount_refunded as number) + cents;
    if (refunded > (charge.amount as number)) throw new Error('refund larger than the charge');
    Object.assign(charge, { amount_refunded: refunded, refunded: refunded === charge.amount });
    return { ...charge };
  };

  const event = (type: string, object: Json): Json => ({
    id: id('evt'),
    object: 'event',
    api_version: Stripe.API_VERSION,
    created: now(),
    data: { object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  });

  const double: StripeDouble = {
    url: '',
    secretKey,
    webhookSecret,
    webhookUrl: options.webhookUrl ?? '',
    sessions,
    paymentIntents,
    customers,
    requests,
    violations,
    declineNext: (code) => declines.push(code),
    event,
    refund,
    async send(evt, sendOptions = {}) {
      const payload = JSON.stringify(evt);
      const signature =
        sendOptions.signature === undefined
          ? Stripe.webhooks.generateTestHeaderString({ payload, secret: sendOptions.secret ?? webhookSecret })
          : sendOptions.signature;
      const response = await fetch(double.webhookUrl, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json; charset=utf-8',
          ...(signature !== null && { 'Stripe-Signature': signature }),
        },
        body: payload,
      });
      return { status: response.status, body: await response.text() };
    },
    async pay(sessionId) {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`the Stripe double has no session ${sessionId}`);
      if (session.status !== 'open') throw new Error(`session ${sessionId} is ${String(session.status)}`);
      const customer = createCustomer({});
      const paymentMethodId = id('pm');
      const intentData = session._paymentIntentData as Json;
      const created = createPaymentIntent('/checkout/pay', {
        amount: String(session.amount_total),
        currency: 'usd',
        customer: customer.id,
        payment_method: paymentMethodId,
        metadata: intentData.metadata ?? {},
      });
      const intent = created.body as Json;
      if (intentData.setup_future_usage === 'off_session') savedCards.set(paymentMethodId, String(customer.id));
      Object.assign(session, {
        status: 'complete',
        payment_status: 'paid',
        customer: customer.id,
        payment_intent: intent.id,
      });
      const evt = event('checkout.session.completed', publicSession(session));
      const { status } = await double.send(evt);
      return { event: evt, status };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };

  const answerApi = (method: string, path: string, body: Json): { status: number; body: unknown } => {
    if (method === 'POST' && path === '/v1/checkout/sessions') return createSession(path, body);
    const sessionMatch = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path);
    if (method === 'GET' && sessionMatch) {
      const session = sessions.get(sessionMatch[1] ?? '');
      return session
        ? { status: 200, body: publicSession(session) }
        : stripeError(404, 'invalid_request_error', `No such checkout.session: '${sessionMatch[1]}'`, {
            code: 'resource_missing',
          });
    }
    if (method === 'POST' && path === '/v1/customers') return { status: 200, body: createCustomer(body) };
    if (method === 'POST' && path === '/v1/payment_intents') return createPaymentIntent(path, body);
    const intentMatch = /^\/v1\/payment_intents\/([^/]+)$/.exec(path);
    if (method === 'GET' && intentMatch) {
      const intent = paymentIntents.get(intentMatch[1] ?? '');
      return intent
        ? { status: 200, body: intent }
        : stripeError(404, 'invalid_request_error', `No such payment_intent: '${intentMatch[1]}'`, {
            code: 'resource_missing',
          });
    }
    if (method === 'POST' && path === '/v1/refunds') {
      const intentId = body.payment_intent as string | undefined;
      if (!intentId || !paymentIntents.has(intentId))
        return refuse(path, 'payment_intent must name a payment', 'payment_intent');
      const charge = chargeOf(intentId);
      const cents =
        body.amount === undefined
          ? (charge.amount as number) - (charge.amount_refunded as number)
          : Number(body.amount);
      refund(intentId, cents);
      return {
        status: 200,
        body: {
          id: id('re'),
          object: 'refund',
          amount: cents,
          currency: 'usd',
          charge: charge.id,
          payment_intent: intentId,
          status: 'succeeded',
          created: now(),
        },
      };
    }
    return stripeError(404, 'invalid_request_error', `Unrecognized request URL (${method}: ${path}).`);
  };

  const page = (session: Json) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Checkout (Stripe double)</title></head>
<body><main><h1>Pay ${(Number(session.amount_total) / 100).toFixed(2)} USD</h1>
<form method="post" action="/checkout/pay/${String(session.id)}"><button type="submit" id="pay">Pay</button></form>
<a id="cancel" href="${String(session.cancel_url ?? '')}">Back</a></main></body></html>`;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const path = (req.url ?? '/').split('?')[0] ?? '/';
        const method = req.method ?? 'GET';
        const text = Buffer.concat(chunks).toString('utf8');
        const hosted = /^\/checkout\/pay\/([^/]+)$/.exec(path);
        if (hosted) {
          const session = sessions.get(hosted[1] ?? '');
          if (!session) return void res.writeHead(404).end('no such session');
          if (method === 'GET')
            return void res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(page(session));
          const { status } = await double.pay(session.id as string);
          if (status !== 200) violations.push(`the service answered the webhook ${status}`);
          const back = String(session.success_url).replace('{CHECKOUT_SESSION_ID}', String(session.id));
          return void res.writeHead(303, { Location: back }).end();
        }
        if (!path.startsWith('/v1/')) return void res.writeHead(404).end();
        if (req.headers.authorization !== `Bearer ${secretKey}`)
          return void res
            .writeHead(401, { 'Content-Type': 'application/json' })
            .end(JSON.stringify(stripeError(401, 'invalid_request_error', 'Invalid API Key provided.').body));
        const contentType = req.headers['content-type'] ?? '';
        if (method === 'POST' && !contentType.startsWith('application/x-www-form-urlencoded'))
          violations.push(`${path}: Content-Type ${contentType} is not form-encoded`);
        const body = decodeForm(text);
        requests.push({ method, path, body });
        const key = req.headers['idempotency-key'];
        const replayKey = typeof key === 'string' ? `${path}#${key}` : undefined;
        const answer = (replayKey && idempotent.get(replayKey)) || answerApi(method, path, body);
        if (replayKey) idempotent.set(replayKey, answer);
        res
          .writeHead(answer.status, {
            'Content-Type': 'application/json',
            'Request-Id': `req_${randomBytes(6).toString('hex')}`,
          })
          .end(JSON.stringify(answer.body));
      })().catch((error: unknown) => {
        violations.push(`the double failed: ${String(error)}`);
        res.writeHead(500).end();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  double.url = url;
  return double;
};
