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
    case 'charge.dispute.closed': {
      const dispute = v.parse(Dispute, object);
      if (dispute.status !== 'lost') return { kind: 'ignored', eventId, type: `${event.type}:${dispute.status}` };
      return {
        kind: 'dispute-lost',
        eventId,
        paymentIntentId: id(dispute.payment_intent),
        amountCents: dispute.amount,
        currency: dispute.currency.toLowerCase(),
      };
    }
    default:
      return { kind: 'ignored', eventId, type: event.type };
  }
};
