/**
 * Stripe's webhook events: verified by the library's own `webhooks.constructEvent` over the raw body
 * (default tolerance, five minutes), then read into the few notices the domain acts on
 * (functions/domain/billing/top-ups.ts, StripeNotice). Anything else is `ignored`.
 */
import Stripe from 'stripe';
import * as v from 'valibot';
import type { StripeNotice, TopUpRef } from '../../domain/billing/top-ups';

/** The signature did not verify (or was missing): the webhook answers 400 and nothing happens. */
export class StripeSignatureError extends Error {}

export const verifyStripeEvent = (
  rawBody: string | Buffer,
  signature: string | undefined,
  secret: string,
): Stripe.Event => {
  if (!signature) throw new StripeSignatureError('The Stripe-Signature header is missing.');
  try {
    return Stripe.webhooks.constructEvent(rawBody, signature, secret);
  } catch (error) {
    throw new StripeSignatureError(
      `The Stripe-Signature does not verify: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
};

const Metadata = v.optional(v.nullable(v.record(v.string(), v.string())));
const idOf = v.nullish(v.union([v.string(), v.object({ id: v.string() })]));
const id = (value: v.InferOutput<typeof idOf>): string | null =>
  value === null || value === undefined ? null : typeof value === 'string' ? value : value.id;

const refOf = (metadata: v.InferOutput<typeof Metadata>): TopUpRef | null =>
  metadata?.top_up_id && metadata.account_id ? { accountId: metadata.account_id, topUpId: metadata.top_up_id } : null;

const Session = v.object({
  id: v.string(),
  metadata: Metadata,
  payment_status: v.string(),
  amount_total: v.nullish(v.number()),
  currency: v.nullish(v.string()),
  payment_intent: idOf,
  customer: idOf,
});

const Charge = v.object({
  payment_intent: idOf,
  amount_refunded: v.number(),
  currency: v.string(),
  metadata: Metadata,
});

const Dispute = v.object({
  payment_intent: idOf,
  amount: v.number(),
  currency: v.string(),
  status: v.string(),
});

const PaymentIntent = v.object({
  id: v.string(),
  amount_received: v.number(),
  currency: v.string(),
  metadata: Metadata,
  last_payment_error: v.nullish(v.object({ code: v.nullish(v.string()), message: v.nullish(v.string()) })),
});

const Refund = v.object({
  id: v.string(),
  payment_intent: idOf,
  amount: v.number(),
  currency: v.string(),
  status: v.nullish(v.string()),
});

/** The notice a verified event carries for this service. */
export const noticeOf = (event: Stripe.Event): StripeNotice => {
  const eventId = event.id;
  const object: unknown = event.data.object;
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded': {
      const session = v.parse(Session, object);
      const ref = refOf(session.metadata);
      const paymentIntentId = id(session.payment_intent);
      if (session.payment_status !== 'paid' || paymentIntentId === null || session.amount_total == null)
        return { kind: 'checkout-unpaid', eventId, sessionId: session.id, ref };
      return {
        kind: 'checkout-paid',
        eventId,
        sessionId: session.id,
        ref,
        amountCents: session.amount_total,
        currency: (session.currency ?? '').toLowerCase(),
        paymentIntentId,
        customerId: id(session.customer),
      };
    }
    case 'checkout.session.expired':
    case 'checkout.session.async_payment_failed': {
      const session = v.parse(Session, object);
      return {
        kind: 'checkout-closed',
        eventId,
        sessionId: session.id,
        ref: refOf(session.metadata),
        status: event.type === 'checkout.session.expired' ? 'expired' : 'failed',
      };
    }
    case 'charge.refunded': {
      const charge = v.parse(Charge, object);
      return {
        kind: 'refunded',
        eventId,
        paymentIntentId: id(charge.payment_intent),
        amountRefundedCents: charge.amount_refunded,
        currency: charge.currency.toLowerCase(),
        ref: refOf(charge.metadata),
      };
    }
    case 'charge.dispute.created':
    case 'charge.dispute.closed': {
      const dispute = v.parse(Dispute, object);
      // An inquiry (`warning_*`) withdraws no funds; a closed inquiry gives nothing back.
      const stage =
        event.type === 'charge.dispute.created'
          ? dispute.status.startsWith('warning_')
            ? undefined
            : 'opened'
          : dispute.status === 'won' || dispute.status === 'lost'
            ? dispute.status
            : undefined;
      if (!stage) return { kind: 'ignored', eventId, type: `${event.type}:${dispute.status}` };
      return {
        kind: 'dispute',
        eventId,
        paymentIntentId: id(dispute.payment_intent),
        amountCents: dispute.amount,
        currency: dispute.currency.toLowerCase(),
        stage,
      };
    }
    case 'refund.failed':
    case 'charge.refund.updated': {
      const refund = v.parse(Refund, object);
      if (refund.status !== 'failed') return { kind: 'ignored', eventId, type: `${event.type}:${refund.status}` };
      return {
        kind: 'refund-failed',
        eventId,
        refundId: refund.id,
        paymentIntentId: id(refund.payment_intent),
        amountCents: refund.amount,
        currency: refund.currency.toLowerCase(),
      };
    }
    case 'payment_intent.succeeded':
    case 'payment_intent.payment_failed': {
      const intent = v.parse(PaymentIntent, object);
      const ref = refOf(intent.metadata);
      // Only automatic charges: a Checkout payment is credited from its session's events.
      if (!ref || intent.metadata?.auto_recharge !== 'true') return { kind: 'ignored', eventId, type: event.type };
      if (event.type === 'payment_intent.succeeded')
        return {
          kind: 'payment-succeeded',
          eventId,
          paymentIntentId: intent.id,
          ref,
          amountCents: intent.amount_received,
          currency: intent.currency.toLowerCase(),
        };
      return {
        kind: 'payment-failed',
        eventId,
        paymentIntentId: intent.id,
        ref,
        reason: intent.last_payment_error?.code ?? 'payment_failed',
        detail: intent.last_payment_error?.message ?? 'The card payment failed.',
      };
    }
    default:
      return { kind: 'ignored', eventId, type: event.type };
  }
};
