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
 * Conformance to Stripe's published API: the official library's types are generated from Stripe's
 * OpenAPI description, so every object answered or sent here is built by a function typed as the
 * library's object (`Stripe.Checkout.Session`, `Stripe.Charge`, …): the compiler refuses a missing or
 * mistyped field. Requests are decoded from Stripe's form encoding and checked against the library's
 * parameter types: a top-level parameter the `*CreateParams` declaration does not have is answered 400
 * `parameter_unknown`, as Stripe does; the parameters the service sends are checked by a list whose
 * shape the compiler derives from those types (`Checks<Stripe.Checkout.SessionCreateParams>`).
 *
 * Requests that break the rules the published API states for these endpoints (required parameters,
 * mode, currency, amounts) are answered 400 as Stripe would and recorded in `violations`.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import Stripe from 'stripe';
import { declaredProperties } from './stripe-types';

/** A request body in Stripe's form encoding, decoded: strings, nested objects and lists. */
export type FormValue = string | FormObject | FormValue[];
export interface FormObject {
  [name: string]: FormValue;
}

/** Stripe's error body (`Stripe.errors` reads it): `{ error: { type, message, code?, param?, decline_code?, payment_intent? } }`. */
export interface StripeErrorBody {
  error: Stripe.StripeRawError & { type: Stripe.RawErrorType; message: string };
}

/** The events this double sends, and the object each carries (the library's event union says which). */
export interface Sendable {
  'checkout.session.completed': Stripe.Checkout.Session;
  'checkout.session.async_payment_succeeded': Stripe.Checkout.Session;
  'checkout.session.async_payment_failed': Stripe.Checkout.Session;
  'checkout.session.expired': Stripe.Checkout.Session;
  'charge.refunded': Stripe.Charge;
  'charge.dispute.created': Stripe.Dispute;
  'charge.dispute.closed': Stripe.Dispute;
  'charge.refund.updated': Stripe.Refund;
  'refund.failed': Stripe.Refund;
  'payment_intent.succeeded': Stripe.PaymentIntent;
  'payment_intent.payment_failed': Stripe.PaymentIntent;
  'customer.created': Stripe.Customer;
}
export type SendableType = keyof Sendable;
export type EventOf<T extends SendableType> = Extract<Stripe.Event, { type: T }>;

export interface StripeDouble {
  url: string;
  secretKey: string;
  webhookSecret: string;
  /** Where events are sent (the service's POST /v2/service/billing/stripe/webhook). */
  webhookUrl: string;
  sessions: Map<string, Stripe.Checkout.Session>;
  paymentIntents: Map<string, Stripe.PaymentIntent>;
  customers: Map<string, Stripe.Customer>;
  requests: Array<{ method: string; path: string; body: FormObject }>;
  violations: string[];
  /** The next off-session PaymentIntents fail this way (then succeed again). */
  declineNext(code: 'card_declined' | 'authentication_required'): void;
  /** The next off-session PaymentIntent is answered `processing` (as a bank debit or a slow network is), charged later by `settle`. */
  processingNext(): void;
  /** Ends a `processing` PaymentIntent as Stripe would, answering it for the event `payment_intent.succeeded` or `payment_intent.payment_failed`. */
  settle(paymentIntentId: string, outcome: 'succeeded' | 'failed'): Stripe.PaymentIntent;
  /** A refund of a paid PaymentIntent that failed (its money back to the merchant), as `refund.failed` carries it. */
  failedRefund(paymentIntentId: string, cents: number): Stripe.Refund;
  /** Pays a session as the hosted page's button does: completes it, sends the webhook, answers the event and the webhook's status. */
  pay(sessionId: string): Promise<{ event: EventOf<'checkout.session.completed'>; status: number }>;
  /** An event of `type` about `object`, as Stripe sends it. */
  event<T extends SendableType>(type: T, object: Sendable[T]): EventOf<T>;
  /** A dispute of a paid PaymentIntent's charge (all of it unless `cents`), as Stripe reports it (`needs_response` when opened, `won`/`lost` when closed). */
  dispute(paymentIntentId: string, status: Stripe.Dispute.Status, cents?: number): Stripe.Dispute;
  /** A customer as Stripe answers it. */
  customer(fields?: { email?: string | null; metadata?: Stripe.Metadata }): Stripe.Customer;
  /** A charge of `cents` for a PaymentIntent, as Stripe answers it (for events about payments the double did not take). */
  charge(fields: {
    paymentIntentId: string;
    cents: number;
    refundedCents?: number;
    metadata?: Stripe.Metadata;
  }): Stripe.Charge;
  /** Sends an event to the webhook signed (or with the given signature header, or none), answering the service's status and body. */
  send(
    event: Stripe.Event,
    options?: { signature?: string | null; secret?: string },
  ): Promise<{ status: number; body: string }>;
  /** The charge of a paid session's PaymentIntent, with `amount_refunded` cumulative, after a refund of `cents`. */
  refund(paymentIntentId: string, cents: number): Stripe.Charge;
  close(): Promise<void>;
}

const id = (prefix: string) => `${prefix}_test_${randomBytes(12).toString('hex')}`;
const now = () => Math.floor(Date.now() / 1000);

/** Stripe's form encoding: `a[b][0][c]=x` → { a: { b: [{ c: 'x' }] } }. */
export const decodeForm = (text: string): FormObject => {
  const root: FormObject = {};
  for (const [name, value] of new URLSearchParams(text)) {
    const path = name.replace(/\]/g, '').split('[');
    let node: FormObject | FormValue[] = root;
    for (const [index, segment] of path.entries()) {
      const next = path[index + 1];
      const existing: FormValue | undefined = Array.isArray(node) ? node[Number(segment)] : node[segment];
      const child: FormValue = next === undefined ? value : (existing ?? (/^\d+$/.test(next) ? [] : {}));
      if (Array.isArray(node)) node[Number(segment)] = child;
      else node[segment] = child;
      // A name that goes on below a plain value (`a=1&a[b]=2`) keeps the value, as the first one set it.
      if (typeof child === 'string') break;
      node = child;
    }
  }
  return root;
};

// ---- The parameters' shapes, derived from the library's parameter types ----

type Wire<T> = T extends boolean ? `${T}` : T;
/** The named values of a string union, without the library's open-ended `OtherString` member. */
type Named<T> = T extends string ? (string extends T ? never : T) : T;
/** `Emptyable<X>` (X or '' to unset it) is checked as X: the service never unsets. */
type Solid<T> = [Exclude<T, ''>] extends [never] ? T : Exclude<T, ''>;
/**
 * How one parameter of type T is checked on the wire: the compiler derives the allowed form of each
 * entry from the library's type, so a check list that names a parameter the type lacks, or gives it the
 * wrong kind (an integer as a string, an enum value Stripe does not define), does not compile.
 */
export type Check<T> = CheckOf<Solid<NonNullable<T>>>;
type CheckOf<T> = [T] extends [number]
  ? 'integer'
  : [T] extends [string | boolean]
    ? [Named<T>] extends [never]
      ? 'string'
      : { enum: ReadonlyArray<Wire<Named<T>>> }
    : [T] extends [ReadonlyArray<infer U>]
      ? { array: Check<U> }
      : string extends keyof T
        ? 'metadata'
        : { object: Checks<T> };
export type Checks<T> = { [K in keyof T]?: Check<T[K]> };

type AnyCheck =
  | 'integer'
  | 'string'
  | 'metadata'
  | { enum: readonly string[] }
  | { array: AnyCheck }
  | { object: AnyChecks };
interface AnyChecks {
  [name: string]: AnyCheck | undefined;
}

/** The parameters this service sends to each endpoint, and the ones the double's own callers use. */
const sessionCreate: Checks<Stripe.Checkout.SessionCreateParams> = {
  mode: { enum: ['payment', 'setup', 'subscription'] },
  line_items: {
    array: {
      object: {
        quantity: 'integer',
        price_data: {
          object: { currency: 'string', unit_amount: 'integer', product_data: { object: { name: 'string' } } },
        },
      },
    },
  },
  client_reference_id: 'string',
  metadata: 'metadata',
  payment_intent_data: {
    object: { metadata: 'metadata', setup_future_usage: { enum: ['off_session', 'on_session'] } },
  },
  customer_creation: { enum: ['always', 'if_required'] },
  success_url: 'string',
  cancel_url: 'string',
};
const customerCreate: Checks<Stripe.CustomerCreateParams> = { email: 'string', metadata: 'metadata' };
const paymentIntentCreate: Checks<Stripe.PaymentIntentCreateParams> = {
  amount: 'integer',
  currency: 'string',
  customer: 'string',
  payment_method: 'string',
  off_session: { enum: ['true', 'false', 'one_off', 'recurring'] },
  confirm: { enum: ['true', 'false'] },
  metadata: 'metadata',
};
const refundCreate: Checks<Stripe.RefundCreateParams> = {
  payment_intent: 'string',
  amount: 'integer',
  metadata: 'metadata',
  reason: { enum: ['duplicate', 'fraudulent', 'requested_by_customer'] },
};

/** Each endpoint's check list and the library declaration of all its parameters (file, interface). */
const endpoints: Record<string, { checks: AnyChecks; declared: [string, string] }> = {
  '/v1/checkout/sessions': { checks: sessionCreate, declared: ['Checkout/Sessions.d.ts', 'SessionCreateParams'] },
  '/v1/customers': { checks: customerCreate, declared: ['Customers.d.ts', 'CustomerCreateParams'] },
  '/v1/payment_intents': {
    checks: paymentIntentCreate,
    declared: ['PaymentIntents.d.ts', 'PaymentIntentCreateParams'],
  },
  '/v1/refunds': { checks: refundCreate, declared: ['Refunds.d.ts', 'RefundCreateParams'] },
};

const isObject = (value: FormValue | undefined): value is FormObject =>
  typeof value === 'object' && !Array.isArray(value);

/** The first way `value` breaks `check` at `param` (Stripe's error fields), or undefined. */
const breach = (
  param: string,
  value: FormValue,
  check: AnyCheck,
): { param: string; message: string; code?: string } | undefined => {
  if (check === 'integer')
    return typeof value === 'string' && /^-?\d+$/.test(value)
      ? undefined
      : { param, code: 'parameter_invalid_integer', message: `Invalid integer: ${String(value)}` };
  if (check === 'string')
    return typeof value === 'string' ? undefined : { param, message: `Invalid string: ${JSON.stringify(value)}` };
  if (check === 'metadata')
    return isObject(value) && Object.values(value).every((entry) => typeof entry === 'string')
      ? undefined
      : { param, message: 'Invalid object: metadata is a map of strings' };
  if ('enum' in check)
    return typeof value === 'string' && check.enum.includes(value)
      ? undefined
      : { param, message: `Invalid ${param}: must be one of ${check.enum.join(', ')}` };
  if ('array' in check) {
    if (!Array.isArray(value)) return { param, message: `Invalid array: ${param}` };
    for (const [index, item] of value.entries()) {
      const found = breach(`${param}[${index}]`, item, check.array);
      if (found) return found;
    }
    return undefined;
  }
  if (!isObject(value)) return { param, message: `Invalid object: ${param}` };
  return unknownOrBreach(param, value, check.object, () => false);
};

/** A parameter no check names: unknown to Stripe, or known to Stripe but not served by the double. */
const unknownOrBreach = (
  prefix: string,
  body: FormObject,
  checks: AnyChecks,
  declared: (name: string) => boolean,
): { param: string; message: string; code?: string } | undefined => {
  for (const [name, value] of Object.entries(body)) {
    const param = prefix ? `${prefix}[${name}]` : name;
    const check = checks[name];
    if (check) {
      const found = breach(param, value, check);
      if (found) return found;
    } else if (declared(name))
      return { param, message: `The Stripe double does not serve the parameter ${param} (Stripe has it).` };
    else return { param, code: 'parameter_unknown', message: `Received unknown parameter: ${param}` };
  }
  return undefined;
};

// ---- Stripe's objects, typed as the library's ----

const stripeError = (status: number, error: StripeErrorBody['error']): { status: number; body: StripeErrorBody } => ({
  status,
  body: { error },
});

const customerObject = (fields: { email?: string | null; metadata?: Stripe.Metadata }): Stripe.Customer => ({
  id: id('cus'),
  object: 'customer',
  balance: 0,
  created: now(),
  default_source: null,
  description: null,
  email: fields.email ?? null,
  invoice_settings: { custom_fields: null, default_payment_method: null, footer: null, rendering_options: null },
  livemode: false,
  metadata: fields.metadata ?? {},
  shipping: null,
});

const sessionObject = (fields: {
  url: string;
  cents: number;
  metadata: Stripe.Metadata;
  clientReferenceId: string | null;
  customerCreation: Stripe.Checkout.Session.CustomerCreation;
  successUrl: string;
  cancelUrl: string | null;
}): Stripe.Checkout.Session => {
  const sessionId = id('cs');
  return {
    id: sessionId,
    object: 'checkout.session',
    adaptive_pricing: { enabled: false },
    after_expiration: null,
    allow_promotion_codes: null,
    allowed_payment_method_types: null,
    amount_subtotal: fields.cents,
    amount_total: fields.cents,
    automatic_tax: { enabled: false, liability: null, provider: null, status: null },
    billing_address_collection: null,
    cancel_url: fields.cancelUrl,
    client_reference_id: fields.clientReferenceId,
    client_secret: null,
    collected_information: null,
    consent: null,
    consent_collection: null,
    created: now(),
    currency: 'usd',
    currency_conversion: null,
    custom_fields: [],
    custom_text: { after_submit: null, shipping_address: null, submit: null, terms_of_service_acceptance: null },
    customer: null,
    customer_account: null,
    customer_creation: fields.customerCreation,
    customer_details: null,
    customer_email: null,
    discounts: [],
    expires_at: now() + 24 * 3600,
    integration_identifier: null,
    invoice: null,
    invoice_creation: {
      enabled: false,
      invoice_data: {
        account_tax_ids: null,
        custom_fields: null,
        description: null,
        footer: null,
        issuer: null,
        metadata: {},
        rendering_options: null,
      },
    },
    livemode: false,
    locale: null,
    managed_payments: null,
    metadata: fields.metadata,
    mode: 'payment',
    origin_context: null,
    payment_intent: null,
    payment_link: null,
    payment_method_collection: 'if_required',
    payment_method_configuration_details: null,
    payment_method_options: {},
    payment_method_types: ['card'],
    payment_status: 'unpaid',
    permissions: null,
    recovered_from: null,
    saved_payment_method_options: null,
    setup_intent: null,
    shipping_address_collection: null,
    shipping_cost: null,
    shipping_options: [],
    status: 'open',
    submit_type: null,
    subscription: null,
    success_url: fields.successUrl,
    total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
    ui_mode: 'hosted',
    url: `${fields.url}/checkout/pay/${sessionId}`,
    wallet_options: null,
  };
};

const paymentIntentObject = (fields: {
  cents: number;
  status: Stripe.PaymentIntent.Status;
  customer: string | null;
  paymentMethod: string | null;
  latestCharge: string | null;
  metadata: Stripe.Metadata;
  setupFutureUsage: Stripe.PaymentIntent.SetupFutureUsage | null;
  lastPaymentError: Stripe.PaymentIntent.LastPaymentError | null;
}): Stripe.PaymentIntent => ({
  id: id('pi'),
  object: 'payment_intent',
  allowed_payment_method_types: null,
  amount: fields.cents,
  amount_capturable: 0,
  amount_received: fields.status === 'succeeded' ? fields.cents : 0,
  application: null,
  application_fee_amount: null,
  automatic_payment_methods: null,
  canceled_at: null,
  cancellation_reason: null,
  capture_method: 'automatic',
  client_secret: null,
  confirmation_method: 'automatic',
  created: now(),
  currency: 'usd',
  customer: fields.customer,
  customer_account: null,
  description: null,
  excluded_payment_method_types: null,
  last_payment_error: fields.lastPaymentError,
  latest_charge: fields.latestCharge,
  livemode: false,
  managed_payments: null,
  metadata: fields.metadata,
  next_action: null,
  on_behalf_of: null,
  payment_method: fields.paymentMethod,
  payment_method_configuration_details: null,
  payment_method_options: {
    card: { installments: null, mandate_options: null, network: null, request_three_d_secure: 'automatic' },
  },
  payment_method_types: ['card'],
  payment_record: null,
  processing: null,
  receipt_email: null,
  review: null,
  setup_future_usage: fields.setupFutureUsage,
  shipping: null,
  source: null,
  statement_descriptor: null,
  statement_descriptor_suffix: null,
  status: fields.status,
  transfer_group: null,
});

const chargeObject = (fields: {
  id?: string;
  paymentIntentId: string;
  cents: number;
  refundedCents?: number;
  customer?: string | null;
  paymentMethod?: string | null;
  metadata?: Stripe.Metadata;
}): Stripe.Charge => ({
  id: fields.id ?? id('ch'),
  object: 'charge',
  amount: fields.cents,
  amount_captured: fields.cents,
  amount_refunded: fields.refundedCents ?? 0,
  application: null,
  application_fee: null,
  application_fee_amount: null,
  balance_transaction: id('txn'),
  billing_details: { address: null, email: null, name: null, phone: null, tax_id: null },
  calculated_statement_descriptor: 'STRIPE DOUBLE',
  captured: true,
  created: now(),
  currency: 'usd',
  customer: fields.customer ?? null,
  description: null,
  disputed: false,
  failure_balance_transaction: null,
  failure_code: null,
  failure_message: null,
  fraud_details: {},
  livemode: false,
  metadata: fields.metadata ?? {},
  on_behalf_of: null,
  outcome: {
    advice_code: null,
    network_advice_code: null,
    network_decline_code: null,
    network_status: 'approved_by_network',
    reason: null,
    risk_level: 'normal',
    seller_message: 'Payment complete.',
    type: 'authorized',
  },
  paid: true,
  payment_intent: fields.paymentIntentId,
  payment_method: fields.paymentMethod ?? null,
  payment_method_details: null,
  receipt_email: null,
  receipt_number: null,
  receipt_url: null,
  refunded: (fields.refundedCents ?? 0) === fields.cents,
  review: null,
  shipping: null,
  source: null,
  source_transfer: null,
  statement_descriptor: null,
  statement_descriptor_suffix: null,
  status: 'succeeded',
  transfer_data: null,
  transfer_group: null,
});

const refundObject = (charge: Stripe.Charge, cents: number, failed = false): Stripe.Refund => ({
  id: id('re'),
  object: 'refund',
  amount: cents,
  balance_transaction: id('txn'),
  charge: charge.id,
  created: now(),
  currency: 'usd',
  customer: charge.customer,
  customer_account: null,
  metadata: {},
  payment_intent: charge.payment_intent,
  payment_method: charge.payment_method,
  reason: null,
  receipt_number: null,
  source_transfer_reversal: null,
  status: failed ? 'failed' : 'succeeded',
  transfer_reversal: null,
  ...(failed && { failure_reason: 'expired_or_canceled_card' }),
});

const disputeObject = (fields: {
  chargeId: string;
  paymentIntentId: string;
  cents: number;
  status: Stripe.Dispute.Status;
}): Stripe.Dispute => ({
  id: id('dp'),
  object: 'dispute',
  amount: fields.cents,
  balance_transactions: [],
  charge: fields.chargeId,
  created: now(),
  currency: 'usd',
  enhanced_eligibility_types: [],
  evidence: {
    access_activity_log: null,
    billing_address: null,
    cancellation_policy: null,
    cancellation_policy_disclosure: null,
    cancellation_rebuttal: null,
    customer_communication: null,
    customer_email_address: null,
    customer_name: null,
    customer_purchase_ip: null,
    customer_signature: null,
    duplicate_charge_documentation: null,
    duplicate_charge_explanation: null,
    duplicate_charge_id: null,
    enhanced_evidence: {},
    product_description: null,
    receipt: null,
    refund_policy: null,
    refund_policy_disclosure: null,
    refund_refusal_explanation: null,
    service_date: null,
    service_documentation: null,
    shipping_address: null,
    shipping_carrier: null,
    shipping_date: null,
    shipping_documentation: null,
    shipping_tracking_number: null,
    uncategorized_file: null,
    uncategorized_text: null,
  },
  evidence_details: {
    due_by: null,
    enhanced_eligibility: {},
    has_evidence: false,
    past_due: false,
    submission_count: 0,
    submission_method: 'not_submitted',
  },
  intended_submission_method: null,
  is_charge_refundable: false,
  livemode: false,
  metadata: {},
  payment_intent: fields.paymentIntentId,
  reason: 'fraudulent',
  status: fields.status,
});

/** What every event carries besides its type and object. */
const envelope = () => ({
  id: id('evt'),
  object: 'event' as const,
  api_version: Stripe.API_VERSION,
  created: now(),
  livemode: false,
  pending_webhooks: 1,
  request: { id: null, idempotency_key: null },
});

/** One builder per event this double sends, each typed as the library's event of that type. */
const events: { [T in SendableType]: (object: Sendable[T]) => EventOf<T> } = {
  'checkout.session.completed': (object) => ({ ...envelope(), type: 'checkout.session.completed', data: { object } }),
  'checkout.session.async_payment_succeeded': (object) => ({
    ...envelope(),
    type: 'checkout.session.async_payment_succeeded',
    data: { object },
  }),
  'checkout.session.async_payment_failed': (object) => ({
    ...envelope(),
    type: 'checkout.session.async_payment_failed',
    data: { object },
  }),
  'checkout.session.expired': (object) => ({ ...envelope(), type: 'checkout.session.expired', data: { object } }),
  'charge.refunded': (object) => ({ ...envelope(), type: 'charge.refunded', data: { object } }),
  'charge.dispute.created': (object) => ({ ...envelope(), type: 'charge.dispute.created', data: { object } }),
  'charge.dispute.closed': (object) => ({ ...envelope(), type: 'charge.dispute.closed', data: { object } }),
  'charge.refund.updated': (object) => ({ ...envelope(), type: 'charge.refund.updated', data: { object } }),
  'refund.failed': (object) => ({ ...envelope(), type: 'refund.failed', data: { object } }),
  'payment_intent.succeeded': (object) => ({ ...envelope(), type: 'payment_intent.succeeded', data: { object } }),
  'payment_intent.payment_failed': (object) => ({
    ...envelope(),
    type: 'payment_intent.payment_failed',
    data: { object },
  }),
  'customer.created': (object) => ({ ...envelope(), type: 'customer.created', data: { object } }),
};

const metadataOf = (value: FormValue | undefined): Stripe.Metadata => {
  const metadata: Stripe.Metadata = {};
  if (isObject(value))
    for (const [key, entry] of Object.entries(value)) if (typeof entry === 'string') metadata[key] = entry;
  return metadata;
};
const text = (value: FormValue | undefined): string | undefined => (typeof value === 'string' ? value : undefined);

export const startStripeDouble = async (options: { webhookUrl?: string } = {}): Promise<StripeDouble> => {
  const secretKey = `sk_test_${randomBytes(16).toString('hex')}`;
  const webhookSecret = `whsec_${randomBytes(24).toString('base64')}`;
  const sessions = new Map<string, Stripe.Checkout.Session>();
  /** What each session's PaymentIntent will carry (Checkout's payment_intent_data; not part of the session object). */
  const intentData = new Map<string, { metadata: Stripe.Metadata; saveCard: boolean }>();
  const paymentIntents = new Map<string, Stripe.PaymentIntent>();
  const customers = new Map<string, Stripe.Customer>();
  const charges = new Map<string, Stripe.Charge>();
  const idempotent = new Map<string, { status: number; body: unknown }>();
  const requests: StripeDouble['requests'] = [];
  const violations: string[] = [];
  const declines: Array<'card_declined' | 'authentication_required'> = [];
  let processingNext = false;
  /** Cards kept for off-session use (a Checkout with setup_future_usage), by payment method: their customer. */
  const savedCards = new Map<string, string>();
  let url = '';

  const refuse = (path: string, message: string, param?: string, code?: string) => {
    violations.push(`${path}: ${message}`);
    return stripeError(400, {
      type: 'invalid_request_error',
      message,
      ...(param && { param }),
      ...(code && { code, doc_url: `https://stripe.com/docs/error-codes/${code.replace(/_/g, '-')}` }),
    });
  };

  const createCustomer = (body: FormObject): Stripe.Customer => {
    const customer = customerObject({ email: text(body.email) ?? null, metadata: metadataOf(body.metadata) });
    customers.set(customer.id, customer);
    return customer;
  };

  const createSession = (path: string, body: FormObject) => {
    if (body.mode !== 'payment') return refuse(path, 'mode must be payment for a one-off top-up', 'mode');
    const successUrl = text(body.success_url);
    if (successUrl === undefined)
      return refuse(path, 'Missing required param: success_url.', 'success_url', 'parameter_missing');
    const items = Array.isArray(body.line_items) ? body.line_items : undefined;
    const item = items?.[0];
    const price = isObject(item) ? item.price_data : undefined;
    if (items?.length !== 1 || !isObject(item) || !isObject(price))
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
    if (!isObject(price.product_data) || !price.product_data.name)
      return refuse(
        path,
        'Missing required param: line_items[0][price_data][product_data][name].',
        undefined,
        'parameter_missing',
      );
    const session = sessionObject({
      url,
      cents: unitAmount * quantity,
      metadata: metadataOf(body.metadata),
      clientReferenceId: text(body.client_reference_id) ?? null,
      customerCreation: body.customer_creation === 'always' ? 'always' : 'if_required',
      successUrl,
      cancelUrl: text(body.cancel_url) ?? null,
    });
    const paymentIntentData = isObject(body.payment_intent_data) ? body.payment_intent_data : {};
    sessions.set(session.id, session);
    intentData.set(session.id, {
      metadata: metadataOf(paymentIntentData.metadata),
      saveCard: paymentIntentData.setup_future_usage === 'off_session',
    });
    return { status: 200, body: session };
  };

  const createPaymentIntent = (path: string, body: FormObject) => {
    const amount = Number(body.amount);
    if (!Number.isSafeInteger(amount) || amount < 50) return refuse(path, 'amount must be at least 50 cents', 'amount');
    if (body.currency !== 'usd') return refuse(path, 'currency must be usd', 'currency');
    if (body.off_session === 'true' && body.confirm !== 'true')
      return refuse(path, 'off_session is only valid with confirm=true', 'off_session');
    const customer = text(body.customer);
    const paymentMethod = text(body.payment_method);
    if (body.confirm === 'true' && (!customer || !paymentMethod))
      return refuse(path, 'a confirmed off-session payment needs customer and payment_method');
    if (body.off_session === 'true' && savedCards.get(paymentMethod ?? '') !== customer)
      return refuse(path, 'the PaymentMethod was not saved for this customer (setup_future_usage)', 'payment_method');
    const metadata = metadataOf(body.metadata);
    const declined = declines.shift();
    if (declined) {
      const error: Stripe.PaymentIntent.LastPaymentError = {
        type: 'card_error',
        code: declined,
        message: declined === 'card_declined' ? 'Your card was declined.' : 'This payment requires authentication.',
        ...(declined === 'card_declined' && { decline_code: 'generic_decline' }),
      };
      const intent = paymentIntentObject({
        cents: amount,
        status: 'requires_payment_method',
        customer: customer ?? null,
        paymentMethod: null,
        latestCharge: null,
        metadata,
        setupFutureUsage: null,
        lastPaymentError: error,
      });
      paymentIntents.set(intent.id, intent);
      return stripeError(402, {
        type: 'card_error',
        message: error.message ?? '',
        code: declined,
        ...(error.decline_code && { decline_code: error.decline_code }),
        payment_intent: intent,
      });
    }
    if (body.off_session === 'true' && processingNext) {
      processingNext = false;
      // Confirmed, not yet charged: the charge exists once settle() ends it (Stripe's `processing`).
      const intent = paymentIntentObject({
        cents: amount,
        status: 'processing',
        customer: customer ?? null,
        paymentMethod: paymentMethod ?? null,
        latestCharge: null,
        metadata,
        setupFutureUsage: null,
        lastPaymentError: null,
      });
      paymentIntents.set(intent.id, intent);
      return { status: 200, body: intent };
    }
    const chargeId = id('ch');
    const intent = paymentIntentObject({
      cents: amount,
      status: 'succeeded',
      customer: customer ?? null,
      paymentMethod: paymentMethod ?? null,
      latestCharge: chargeId,
      metadata,
      setupFutureUsage: null,
      lastPaymentError: null,
    });
    paymentIntents.set(intent.id, intent);
    // Stripe copies the PaymentIntent's metadata to its charge.
    charges.set(
      chargeId,
      chargeObject({
        id: chargeId,
        paymentIntentId: intent.id,
        cents: amount,
        customer: customer ?? null,
        paymentMethod: paymentMethod ?? null,
        metadata,
      }),
    );
    return { status: 200, body: intent };
  };

  const chargeOf = (paymentIntentId: string): Stripe.Charge => {
    const latest = paymentIntents.get(paymentIntentId)?.latest_charge;
    const charge = typeof latest === 'string' ? charges.get(latest) : undefined;
    if (!charge) throw new Error(`the Stripe double has no payment ${paymentIntentId}`);
    return charge;
  };

  const refund = (paymentIntentId: string, cents: number): Stripe.Charge => {
    const charge = chargeOf(paymentIntentId);
    const refunded = charge.amount_refunded + cents;
    if (refunded > charge.amount) throw new Error('refund larger than the charge');
    Object.assign(charge, { amount_refunded: refunded, refunded: refunded === charge.amount });
    return { ...charge };
  };

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
    processingNext: () => {
      processingNext = true;
    },
    settle(paymentIntentId, outcome) {
      const intent = paymentIntents.get(paymentIntentId);
      if (intent?.status !== 'processing') throw new Error(`PaymentIntent ${paymentIntentId} is not processing`);
      if (outcome === 'failed')
        Object.assign(intent, {
          status: 'requires_payment_method',
          last_payment_error: { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' },
        });
      else {
        const chargeId = id('ch');
        charges.set(
          chargeId,
          chargeObject({
            id: chargeId,
            paymentIntentId,
            cents: intent.amount,
            customer: typeof intent.customer === 'string' ? intent.customer : null,
            paymentMethod: typeof intent.payment_method === 'string' ? intent.payment_method : null,
            metadata: intent.metadata,
          }),
        );
        Object.assign(intent, { status: 'succeeded', amount_received: intent.amount, latest_charge: chargeId });
      }
      return { ...intent };
    },
    failedRefund: (paymentIntentId, cents) => refundObject(chargeOf(paymentIntentId), cents, true),
    event: (type, object) => events[type](object),
    refund,
    customer: (fields = {}) => customerObject(fields),
    charge: (fields) => chargeObject(fields),
    dispute(paymentIntentId, status, cents) {
      const charge = chargeOf(paymentIntentId);
      return disputeObject({ chargeId: charge.id, paymentIntentId, cents: cents ?? charge.amount, status });
    },
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
      const data = intentData.get(sessionId) ?? { metadata: {}, saveCard: false };
      const customer = createCustomer({});
      const paymentMethodId = id('pm');
      const created = createPaymentIntent('/checkout/pay', {
        amount: String(session.amount_total),
        currency: 'usd',
        customer: customer.id,
        payment_method: paymentMethodId,
        metadata: data.metadata,
      });
      const intent = paymentIntents.get(String('id' in created.body ? created.body.id : ''));
      if (!intent) throw new Error(`the Stripe double could not pay session ${sessionId}`);
      if (data.saveCard) {
        savedCards.set(paymentMethodId, customer.id);
        intent.setup_future_usage = 'off_session';
      }
      session.status = 'complete';
      session.payment_status = 'paid';
      session.customer = customer.id;
      session.customer_details = {
        address: null,
        business_name: null,
        email: customer.email,
        individual_name: null,
        name: null,
        phone: null,
        tax_exempt: 'none',
        tax_ids: [],
      };
      session.payment_intent = intent.id;
      const evt = events['checkout.session.completed']({ ...session });
      const { status } = await double.send(evt);
      return { event: evt, status };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };

  const missing = (kind: string, name: string | undefined) =>
    stripeError(404, {
      type: 'invalid_request_error',
      code: 'resource_missing',
      message: `No such ${kind}: '${name ?? ''}'`,
    });

  const answerApi = (method: string, path: string, body: FormObject): { status: number; body: unknown } => {
    const endpoint = method === 'POST' ? endpoints[path] : undefined;
    if (endpoint) {
      const declared = new Set(declaredProperties(...endpoint.declared).map((property) => property.name));
      const found = unknownOrBreach('', body, endpoint.checks, (name) => declared.has(name));
      if (found) return refuse(path, found.message, found.param, found.code);
    }
    if (method === 'POST' && path === '/v1/checkout/sessions') return createSession(path, body);
    const sessionMatch = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path);
    if (method === 'GET' && sessionMatch) {
      const session = sessions.get(sessionMatch[1] ?? '');
      return session ? { status: 200, body: session } : missing('checkout.session', sessionMatch[1]);
    }
    if (method === 'POST' && path === '/v1/customers') return { status: 200, body: createCustomer(body) };
    if (method === 'POST' && path === '/v1/payment_intents') return createPaymentIntent(path, body);
    const intentMatch = /^\/v1\/payment_intents\/([^/]+)$/.exec(path);
    if (method === 'GET' && intentMatch) {
      const intent = paymentIntents.get(intentMatch[1] ?? '');
      return intent ? { status: 200, body: intent } : missing('payment_intent', intentMatch[1]);
    }
    if (method === 'POST' && path === '/v1/refunds') {
      const intentId = text(body.payment_intent);
      if (!intentId || !paymentIntents.has(intentId))
        return refuse(path, 'payment_intent must name a payment', 'payment_intent');
      const charge = chargeOf(intentId);
      const cents = body.amount === undefined ? charge.amount - charge.amount_refunded : Number(body.amount);
      return { status: 200, body: refundObject(refund(intentId, cents), cents) };
    }
    return stripeError(404, {
      type: 'invalid_request_error',
      message: `Unrecognized request URL (${method}: ${path}).`,
    });
  };

  const page = (session: Stripe.Checkout.Session) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Checkout (Stripe double)</title></head>
<body><main><h1>Pay ${(Number(session.amount_total) / 100).toFixed(2)} USD</h1>
<form method="post" action="/checkout/pay/${session.id}"><button type="submit" id="pay">Pay</button></form>
<a id="cancel" href="${session.cancel_url ?? ''}">Back</a></main></body></html>`;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const path = (req.url ?? '/').split('?')[0] ?? '/';
        const method = req.method ?? 'GET';
        const raw = Buffer.concat(chunks).toString('utf8');
        const hosted = /^\/checkout\/pay\/([^/]+)$/.exec(path);
        if (hosted) {
          const session = sessions.get(hosted[1] ?? '');
          if (!session) return void res.writeHead(404).end('no such session');
          if (method === 'GET')
            return void res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(page(session));
          const { status } = await double.pay(session.id);
          if (status !== 200) violations.push(`the service answered the webhook ${status}`);
          const back = String(session.success_url).replace('{CHECKOUT_SESSION_ID}', session.id);
          return void res.writeHead(303, { Location: back }).end();
        }
        if (!path.startsWith('/v1/')) return void res.writeHead(404).end();
        if (req.headers.authorization !== `Bearer ${secretKey}`)
          return void res
            .writeHead(401, { 'Content-Type': 'application/json' })
            .end(
              JSON.stringify(
                stripeError(401, { type: 'invalid_request_error', message: 'Invalid API Key provided.' }).body,
              ),
            );
        const contentType = req.headers['content-type'] ?? '';
        if (method === 'POST' && !contentType.startsWith('application/x-www-form-urlencoded'))
          violations.push(`${path}: Content-Type ${contentType} is not form-encoded`);
        const body = decodeForm(raw);
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
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the Stripe double is not listening on a port');
  url = `http://127.0.0.1:${address.port}`;
  double.url = url;
  return double;
};
