/**
 * Read first: money in (docs/billing.md).
 *
 * A developer asks for a top-up; the service records it `pending` and opens a Stripe Checkout Session
 * for it (mode `payment`, USD, the amount in cents). Only Stripe's signed word moves money: the redirect
 * back to the portal never credits. A `checkout.session.completed` with `payment_status: paid` (or a
 * later `checkout.session.async_payment_succeeded`) credits the amount Stripe reports, once: the adapter
 * claims the event id and moves the top-up `pending` → `completed` in the same transaction as the ledger
 * entry and the balance (adapters/dynamo/top-ups-repository.ts), so a duplicate, a replay or a second
 * event for the same session finds a condition false and moves nothing.
 *
 * Refunds and disputes take back what Stripe says was returned. The top-up records Stripe's word (the
 * cumulative amount refunded, the refunds that failed, the disputed amount and whether the dispute is
 * closed) and the money moved is always the difference of `takenBack` before and after: refunds net of
 * failed ones, plus the disputed amount, never more than the top-up credited. So a dispute debits when it
 * is opened and credits back when it is won, a failed refund credits back, and a refund plus a lost
 * dispute of one payment take it back once. The balance never reads below zero: what a debit cannot take
 * from the balance is recorded as the account's debt; while an account owes, new work is refused (402
 * BALANCE_IN_DEBT) and money given back (credits, releases) repays the debt first (ledger-repository.ts).
 * An event in another currency than USD is recorded and counted for the operator (alarmed), never dropped.
 *
 * Statuses: `pending` (Checkout open), `completed` (credited), `expired` (the session expired unpaid),
 * `failed` (Stripe could not open the session, or an asynchronous payment failed).
 */
import type { Caller } from '../accounts/accounts';
import { NotFoundError, ServiceUnavailableError } from '../errors';
import { type Clock, toIso } from '../shared/clock';
import type { IdSource } from '../shared/ids';
import { MICROS_PER_USD, type MoneyBody, moneyBody, usdAmountMicros, usdDecimal } from '../shared/money';

export const TOP_UP_STATUSES = ['pending', 'completed', 'expired', 'failed'] as const;
export type TopUpStatus = (typeof TOP_UP_STATUSES)[number];

/** Stripe counts USD in cents: one cent is this many micro-USD (exact). */
export const MICROS_PER_CENT = MICROS_PER_USD / 100;

export interface TopUp {
  topUpId: string;
  accountId: string;
  amountMicros: number;
  status: TopUpStatus;
  createdAt: number;
  checkoutSessionId: string | null;
  checkoutUrl: string | null;
  /** What Stripe reported paid and was credited, once completed. */
  creditedMicros: number | null;
  paymentIntentId: string | null;
  completedAt: number | null;
  /** Refunded so far, cumulative as Stripe reports it on the charge (`amount_refunded`). */
  refundedMicros: number;
  /** Refunds that failed (Stripe gave the money back), each counted once by its refund id. */
  refundFailedMicros?: number;
  failedRefundIds?: string[];
  /** The amount of the payment's dispute while it is open or lost; 0 once won. */
  disputedMicros: number;
  /** The dispute's end is known: a late `charge.dispute.created` moves nothing. */
  disputeClosed?: boolean;
  /** Counts the top-up's refund and dispute changes; each is guarded by the one it was computed from. */
  revision?: number;
  /** The developer consented to keep the card for auto-recharge (auto-billing.ts). */
  saveCard?: boolean;
  /** An automatic charge: the saved card it charges (the same card on every retry of the charge). */
  rechargeCard?: { customerId: string; paymentIntentId: string } | null;
}

/** A top-up as it starts, before any payment: pending, nothing credited, refunded or disputed. */
export const pendingTopUp = (
  start: Pick<TopUp, 'topUpId' | 'accountId' | 'amountMicros' | 'createdAt'> & Pick<TopUp, 'saveCard' | 'rechargeCard'>,
): TopUp => ({
  status: 'pending',
  checkoutSessionId: null,
  checkoutUrl: null,
  creditedMicros: null,
  paymentIntentId: null,
  completedAt: null,
  refundedMicros: 0,
  disputedMicros: 0,
  ...start,
});

/** What refunds and disputes have taken back from a top-up: never more than it credited. */
export const takenBack = (topUp: TopUp): number =>
  Math.min(
    topUp.creditedMicros ?? 0,
    Math.max(0, topUp.refundedMicros - (topUp.refundFailedMicros ?? 0)) + topUp.disputedMicros,
  );

/** A change of a top-up's refunds and dispute, as Stripe reported it. */
export type TopUpAdjustment = Partial<
  Pick<TopUp, 'refundedMicros' | 'refundFailedMicros' | 'failedRefundIds' | 'disputedMicros' | 'disputeClosed'>
>;

export interface TopUpLimits {
  minMicros: number;
  maxMicros: number;
}

/** The amount of a top-up request in micro-USD, or the reason it is refused (a 422 on `amount`). */
export const topUpAmount = (text: string, limits: TopUpLimits): { micros: number } | { problem: string } => {
  const micros = usdAmountMicros(text);
  if (micros === undefined) return { problem: 'amount must be US dollars with at most two decimals, e.g. "25.00".' };
  if (micros < limits.minMicros || micros > limits.maxMicros)
    return {
      problem: `amount must be from ${usdDecimal(limits.minMicros)} to ${usdDecimal(limits.maxMicros)} USD.`,
    };
  return { micros };
};

/** Micro-USD → Stripe's cents; only whole cents are ever asked for (USD_AMOUNT_PATTERN). */
export const toCents = (micros: number): number => {
  if (!Number.isSafeInteger(micros) || micros % MICROS_PER_CENT !== 0)
    throw new Error(`${micros} micro-USD is not a whole number of cents`);
  return micros / MICROS_PER_CENT;
};

export const fromCents = (cents: number): number => {
  if (!Number.isSafeInteger(cents) || cents < 0) throw new Error(`${cents} is not an amount in cents`);
  return cents * MICROS_PER_CENT;
};

/** Opens hosted Checkout pages (adapters/stripe/checkout.ts); absent when Stripe is not configured. */
export interface CheckoutPort {
  createSession(input: {
    topUpId: string;
    accountId: string;
    amountCents: number;
    /** Keep the card for later off-session charges (Stripe's setup_future_usage). */
    saveCard: boolean;
    successUrl: string;
    cancelUrl: string;
  }): Promise<{ sessionId: string; url: string }>;
}

export interface TopUpPage {
  topUps: TopUp[];
  cursor?: string;
}

/** What a credit or debit from Stripe's word did: applied, or found already done (nothing moved). */
export type StripeApplyOutcome = 'applied' | 'duplicate-event' | 'already-applied';

export interface TopUpsRepository {
  create(topUp: TopUp): Promise<void>;
  /** Records the session Stripe opened for a pending top-up. */
  attachSession(accountId: string, topUpId: string, session: { sessionId: string; url: string }): Promise<void>;
  /** Moves a top-up from `pending` to `expired` or `failed`; false when it was not pending. */
  close(accountId: string, topUpId: string, status: 'expired' | 'failed', at: number): Promise<boolean>;
  get(accountId: string, topUpId: string): Promise<TopUp | undefined>;
  list(accountId: string, page: { limit: number; cursor?: string }): Promise<TopUpPage>;
  /**
   * Claims the event, completes the top-up (from any status but `completed`), records which payment it
   * was, and credits the balance, in one transaction.
   */
  credit(input: {
    eventId: string;
    accountId: string;
    topUpId: string;
    amountMicros: number;
    paymentIntentId: string;
    at: number;
  }): Promise<StripeApplyOutcome>;
  /** The top-up a Stripe payment credited (found by its PaymentIntent), once it was credited. */
  findByPayment(paymentIntentId: string): Promise<{ accountId: string; topUpId: string } | undefined>;
  /**
   * Claims the event and applies `change` to the top-up as read (undefined: nothing to do), moving the
   * difference of `takenBack` before and after: a debit never below a zero balance (the rest becomes the
   * account's debt), a credit back repaying a debt first. Guarded by the top-up's revision: a change that
   * lost a race is computed again from the top-up read again.
   */
  adjust(input: {
    eventId: string;
    accountId: string;
    topUpId: string;
    change: (topUp: TopUp) => TopUpAdjustment | undefined;
    note: string;
    at: number;
  }): Promise<StripeApplyOutcome>;
  /** An automatic charge Stripe left `processing`: its PaymentIntent, so that it is looked up, not made again. */
  attachPayment(accountId: string, topUpId: string, paymentIntentId: string): Promise<void>;
  /** A Stripe event this service could not act on (another currency): kept, with why, for the operator. */
  recordUnhandled(eventId: string, reason: string, at: number): Promise<void>;
}

export interface StripeLog {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
}

/** Counts what needs a person (METRICS.stripeUnhandled, alarmed). */
export interface StripeAlarm {
  unhandled(kind: 'currency' | 'recharge-unfinished', fields: Record<string, unknown>): void;
}

export interface TopUpDeps {
  topUps: TopUpsRepository;
  /** Undefined when the operator has not configured Stripe: top-ups answer 503. */
  checkout: CheckoutPort | undefined;
  clock: Clock;
  newId: IdSource;
  log: StripeLog;
}

export interface TopUpBody {
  top_up_id: string;
  status: TopUpStatus;
  amount: string;
  checkout_url: string | null;
  created_at: string;
  completed_at: string | null;
  credited: MoneyBody | null;
  refunded: MoneyBody;
}

export const topUpBody = (topUp: TopUp): TopUpBody => ({
  top_up_id: topUp.topUpId,
  status: topUp.status,
  amount: usdDecimal(topUp.amountMicros),
  checkout_url: topUp.status === 'pending' ? topUp.checkoutUrl : null,
  created_at: toIso(topUp.createdAt),
  completed_at: topUp.completedAt === null ? null : toIso(topUp.completedAt),
  credited: topUp.creditedMicros === null ? null : moneyBody(topUp.creditedMicros),
  refunded: moneyBody(takenBack(topUp)),
});

export const STRIPE_NOT_CONFIGURED =
  'Top-ups are not available: this service has no Stripe account configured (STRIPE_SECRET_KEY). Ask the operator to credit the balance.';

/**
 * POST /account/top-ups: a pending top-up and the Checkout page to pay it on. The record is written
 * before Stripe is asked, so a session Stripe opened always names a top-up this service knows; a session
 * Stripe refused leaves the top-up `failed`.
 */
export const createTopUp = async (
  deps: TopUpDeps,
  caller: Caller,
  input: { amountMicros: number; returnUrl: string; saveCard?: boolean },
): Promise<{ top_up_id: string; checkout_url: string; amount: string; status: 'pending' }> => {
  const checkout = deps.checkout;
  if (!checkout) throw new ServiceUnavailableError(STRIPE_NOT_CONFIGURED);
  const topUpId = deps.newId('tup');
  const now = deps.clock();
  await deps.topUps.create(
    pendingTopUp({
      topUpId,
      accountId: caller.accountId,
      amountMicros: input.amountMicros,
      createdAt: now,
      saveCard: input.saveCard === true,
    }),
  );
  const back = (outcome: string) =>
    `${input.returnUrl}${input.returnUrl.includes('?') ? '&' : '?'}top_up=${topUpId}&checkout=${outcome}`;
  let session: { sessionId: string; url: string };
  try {
    session = await checkout.createSession({
      topUpId,
      accountId: caller.accountId,
      amountCents: toCents(input.amountMicros),
      saveCard: input.saveCard === true,
      successUrl: back('returned'),
      cancelUrl: back('canceled'),
    });
  } catch (error) {
    await deps.topUps.close(caller.accountId, topUpId, 'failed', deps.clock());
    deps.log.warn('stripe refused the checkout session', { top_up_id: topUpId, error: String(error) });
    throw new ServiceUnavailableError('Stripe did not open a Checkout page for this top-up; try again.');
  }
  await deps.topUps.attachSession(caller.accountId, topUpId, session);
  return { top_up_id: topUpId, checkout_url: session.url, amount: usdDecimal(input.amountMicros), status: 'pending' };
};

export const getTopUp = async (
  deps: Pick<TopUpDeps, 'topUps'>,
  caller: Caller,
  topUpId: string,
): Promise<TopUpBody> => {
  const topUp = await deps.topUps.get(caller.accountId, topUpId);
  if (!topUp) throw new NotFoundError(`Top-up ${topUpId} not found.`);
  return topUpBody(topUp);
};

/** GET /account/top-ups: newest first, a page at a time. */
export const listTopUps = async (
  deps: Pick<TopUpDeps, 'topUps'>,
  caller: Caller,
  query: { limit: number; cursor?: string },
): Promise<{ top_ups: TopUpBody[]; next_cursor: string | null }> => {
  const page = await deps.topUps.list(caller.accountId, query);
  return { top_ups: page.topUps.map(topUpBody), next_cursor: page.cursor ?? null };
};

/** What the portal's Billing page shows: the money, whether top-ups are possible, and their presets and limits. */
export interface BillingPageBody {
  balance: MoneyBody;
  /** What refunds or lost disputes took beyond the balance; new work is refused while it is above zero. */
  debt: MoneyBody;
  top_ups_enabled: boolean;
  presets: string[];
  min_amount: string;
  max_amount: string;
  /** The account's low-balance threshold (auto-billing.ts): below it the page shows a banner. */
  low_balance_threshold: MoneyBody | null;
  auto_recharge: boolean;
}

export const billingPage = async (
  deps: {
    funds: (accountId: string) => Promise<{ balanceMicros: number; debtMicros: number }>;
    settings: (accountId: string) => Promise<{
      lowBalanceThresholdMicros: number | null;
      autoRecharge: { enabled: boolean } | null;
    }>;
    checkout: CheckoutPort | undefined;
    limits: TopUpLimits;
    presetsMicros: readonly number[];
  },
  caller: Caller,
): Promise<BillingPageBody> => {
  const [funds, settings] = await Promise.all([deps.funds(caller.accountId), deps.settings(caller.accountId)]);
  return {
    low_balance_threshold:
      settings.lowBalanceThresholdMicros === null ? null : moneyBody(settings.lowBalanceThresholdMicros),
    auto_recharge: settings.autoRecharge?.enabled ?? false,
    balance: moneyBody(funds.balanceMicros),
    debt: moneyBody(funds.debtMicros),
    top_ups_enabled: deps.checkout !== undefined,
    presets: deps.presetsMicros.map(usdDecimal),
    min_amount: usdDecimal(deps.limits.minMicros),
    max_amount: usdDecimal(deps.limits.maxMicros),
  };
};

/** Which top-up a Stripe object names (the metadata written when its session was opened). */
export interface TopUpRef {
  accountId: string;
  topUpId: string;
}

/** The Stripe events this service acts on, as the adapter reads them from a verified event. */
export type StripeNotice =
  | {
      kind: 'checkout-paid';
      eventId: string;
      sessionId: string;
      ref: TopUpRef | null;
      amountCents: number;
      currency: string;
      paymentIntentId: string;
      customerId: string | null;
    }
  | { kind: 'checkout-unpaid'; eventId: string; sessionId: string; ref: TopUpRef | null }
  | { kind: 'checkout-closed'; eventId: string; sessionId: string; ref: TopUpRef | null; status: 'expired' | 'failed' }
  | {
      /** An automatic charge's PaymentIntent succeeded (`payment_intent.succeeded`; it may have been `processing`). */
      kind: 'payment-succeeded';
      eventId: string;
      paymentIntentId: string;
      ref: TopUpRef;
      amountCents: number;
      currency: string;
    }
  | {
      /** An automatic charge's PaymentIntent failed (`payment_intent.payment_failed`). */
      kind: 'payment-failed';
      eventId: string;
      paymentIntentId: string;
      ref: TopUpRef;
      reason: string;
      detail: string;
    }
  | {
      kind: 'refunded';
      eventId: string;
      paymentIntentId: string | null;
      /** Cumulative, as Stripe reports it on the charge. */
      amountRefundedCents: number;
      currency: string;
      ref: TopUpRef | null;
    }
  | {
      /** A refund Stripe could not complete: its money is back (`refund.failed`, `charge.refund.updated`). */
      kind: 'refund-failed';
      eventId: string;
      refundId: string;
      paymentIntentId: string | null;
      amountCents: number;
      currency: string;
    }
  | {
      /** `charge.dispute.created` (opened) or `charge.dispute.closed` (won or lost). */
      kind: 'dispute';
      eventId: string;
      paymentIntentId: string | null;
      amountCents: number;
      currency: string;
      stage: 'opened' | 'won' | 'lost';
    }
  | { kind: 'ignored'; eventId: string; type: string };

/**
 * What a verified event did: `credited`, `adjusted` (a refund's or a dispute's money moved), `closed` (a
 * session expired or failed), `declined` (an automatic charge failed), `duplicate` (done already),
 * `ignored`, `foreign` (not this service's), `recorded` (another currency: kept for the operator).
 */
export const STRIPE_OUTCOMES = [
  'credited',
  'adjusted',
  'closed',
  'declined',
  'duplicate',
  'ignored',
  'foreign',
  'recorded',
] as const;
export type StripeOutcome = (typeof STRIPE_OUTCOMES)[number];

/** The top-up a Checkout event is for, if this service opened that session. */
const ownTopUp = async (
  deps: Pick<TopUpDeps, 'topUps' | 'log'>,
  notice: { eventId: string; sessionId: string; ref: TopUpRef | null },
): Promise<TopUp | undefined> => {
  const topUp = notice.ref ? await deps.topUps.get(notice.ref.accountId, notice.ref.topUpId) : undefined;
  // Written before the session was opened; its session id may not be recorded yet if the event won that race.
  if (!topUp || (topUp.checkoutSessionId !== null && topUp.checkoutSessionId !== notice.sessionId)) {
    deps.log.warn('stripe event for a checkout session this service did not open: nothing credited', {
      event_id: notice.eventId,
      session_id: notice.sessionId,
    });
    return undefined;
  }
  return topUp;
};

const outcomeOf = (applied: StripeApplyOutcome, done: StripeOutcome): StripeOutcome =>
  applied === 'applied' ? done : 'duplicate';

/** The new Stripe word on a top-up's refunds and dispute, or undefined when it changes nothing. */
export const adjustmentFor = (
  notice: Extract<StripeNotice, { kind: 'refunded' | 'refund-failed' | 'dispute' }>,
  topUp: TopUp,
): TopUpAdjustment | undefined => {
  switch (notice.kind) {
    case 'refunded': {
      // Cumulative: an older event delivered after a newer one reports less than is recorded.
      const refunded = fromCents(notice.amountRefundedCents);
      return refunded > topUp.refundedMicros ? { refundedMicros: refunded } : undefined;
    }
    case 'refund-failed': {
      const failed = topUp.failedRefundIds ?? [];
      if (failed.includes(notice.refundId)) return undefined;
      return {
        refundFailedMicros: (topUp.refundFailedMicros ?? 0) + fromCents(notice.amountCents),
        failedRefundIds: [...failed, notice.refundId],
      };
    }
    case 'dispute': {
      // A dispute's end is final: its opening delivered late moves nothing.
      if (topUp.disputeClosed) return undefined;
      const disputed = fromCents(notice.amountCents);
      if (notice.stage === 'opened')
        return topUp.disputedMicros === disputed ? undefined : { disputedMicros: disputed };
      return { disputedMicros: notice.stage === 'lost' ? disputed : 0, disputeClosed: true };
    }
  }
};

const adjustmentNote = (
  notice: Extract<StripeNotice, { kind: 'refunded' | 'refund-failed' | 'dispute' }>,
  topUpId: string,
): string => {
  const what =
    notice.kind === 'refunded'
      ? 'refund'
      : notice.kind === 'refund-failed'
        ? `failed refund ${notice.refundId} given back`
        : notice.stage === 'opened'
          ? 'dispute opened'
          : notice.stage === 'won'
            ? 'dispute won: given back'
            : 'lost dispute';
  return `${what} of top-up ${topUpId} (Stripe payment ${notice.paymentIntentId})`;
};

/** What an automatic charge's decline does (auto-billing.ts); the webhook learns of some declines first. */
export type RecordDecline = (topUp: TopUp, reason: string, detail: string) => Promise<void>;
/** Tells the developer an automatic charge was credited (the signed `billing.auto_recharge.charged` event). */
export type AnnounceCharge = (topUp: TopUp, charge: { amountCents: number; paymentIntentId: string }) => Promise<void>;

/**
 * What a verified Stripe event does. A refund for a payment not credited yet (its events crossed) is
 * answered 503, so that Stripe delivers it again after the credit; anything not ours is 200 and ignored;
 * an event of ours in another currency is recorded and alarmed.
 */
export const applyStripeNotice = async (
  deps: Pick<TopUpDeps, 'topUps' | 'clock' | 'log'> & {
    /** Keeps the card of a top-up the developer consented on (auto-billing.ts); a newer one replaces it. */
    saveCard(
      accountId: string,
      card: { customerId: string; paymentIntentId: string; consentedAt: number },
    ): Promise<void>;
    declined: RecordDecline;
    charged: AnnounceCharge;
    alarm: StripeAlarm;
  },
  notice: StripeNotice,
): Promise<StripeOutcome> => {
  const at = deps.clock();
  const otherCurrency = async (currency: string, fields: Record<string, unknown>): Promise<StripeOutcome> => {
    deps.log.warn('stripe event in another currency than USD: recorded for the operator, nothing moved', {
      event_id: notice.eventId,
      currency,
      ...fields,
    });
    await deps.topUps.recordUnhandled(notice.eventId, `currency ${currency}`, at);
    deps.alarm.unhandled('currency', { event_id: notice.eventId, currency, ...fields });
    return 'recorded';
  };
  switch (notice.kind) {
    case 'ignored':
      return 'ignored';
    case 'checkout-unpaid':
      // Paid later (async_payment_succeeded) or never (async_payment_failed, expired).
      return (await ownTopUp(deps, notice)) ? 'ignored' : 'foreign';
    case 'checkout-closed': {
      const topUp = await ownTopUp(deps, notice);
      if (!topUp) return 'foreign';
      return (await deps.topUps.close(topUp.accountId, topUp.topUpId, notice.status, at)) ? 'closed' : 'duplicate';
    }
    case 'checkout-paid': {
      const topUp = await ownTopUp(deps, notice);
      if (!topUp) return 'foreign';
      if (notice.currency !== 'usd') return otherCurrency(notice.currency, { top_up_id: topUp.topUpId });
      const amountMicros = fromCents(notice.amountCents);
      if (amountMicros !== topUp.amountMicros)
        deps.log.warn('stripe reported another amount than the top-up asked: crediting what Stripe reports', {
          top_up_id: topUp.topUpId,
          asked_micros: topUp.amountMicros,
          paid_micros: amountMicros,
        });
      const applied = await deps.topUps.credit({
        eventId: notice.eventId,
        accountId: topUp.accountId,
        topUpId: topUp.topUpId,
        amountMicros,
        paymentIntentId: notice.paymentIntentId,
        at,
      });
      // Whatever the credit found (a redelivery after a failed save finds it done), the card is kept: the
      // save is idempotent, and a newer consenting top-up's card replaces an older one, never the reverse.
      if (topUp.saveCard && notice.customerId !== null)
        await deps.saveCard(topUp.accountId, {
          customerId: notice.customerId,
          paymentIntentId: notice.paymentIntentId,
          consentedAt: topUp.createdAt,
        });
      return outcomeOf(applied, 'credited');
    }
    case 'payment-succeeded': {
      const topUp = await deps.topUps.get(notice.ref.accountId, notice.ref.topUpId);
      if (!topUp?.rechargeCard) return 'foreign';
      if (notice.currency !== 'usd') return otherCurrency(notice.currency, { top_up_id: topUp.topUpId });
      const applied = await deps.topUps.credit({
        eventId: notice.eventId,
        accountId: topUp.accountId,
        topUpId: topUp.topUpId,
        amountMicros: fromCents(notice.amountCents),
        paymentIntentId: notice.paymentIntentId,
        at,
      });
      // A charge Stripe first answered `processing` is announced when its credit lands, as one credited at once is.
      if (applied === 'applied')
        await deps.charged(topUp, { amountCents: notice.amountCents, paymentIntentId: notice.paymentIntentId });
      return outcomeOf(applied, 'credited');
    }
    case 'payment-failed': {
      const topUp = await deps.topUps.get(notice.ref.accountId, notice.ref.topUpId);
      if (!topUp?.rechargeCard) return 'foreign';
      if (!(await deps.topUps.close(topUp.accountId, topUp.topUpId, 'failed', at))) return 'duplicate';
      await deps.declined(topUp, notice.reason, notice.detail);
      return 'declined';
    }
    case 'refunded':
    case 'refund-failed':
    case 'dispute': {
      if (notice.paymentIntentId === null) return 'ignored';
      const credited = await deps.topUps.findByPayment(notice.paymentIntentId);
      if (!credited) {
        // Ours but not credited yet: Stripe redelivers on a non-2xx answer, by which time the credit is in.
        if (notice.kind === 'refunded' && notice.ref)
          throw new ServiceUnavailableError('The payment this refund is for is not credited yet; deliver it again.');
        deps.log.info('stripe event for a payment this service did not credit: ignored', { event_id: notice.eventId });
        return 'foreign';
      }
      if (notice.currency !== 'usd') return otherCurrency(notice.currency, { top_up_id: credited.topUpId });
      const applied = await deps.topUps.adjust({
        eventId: notice.eventId,
        accountId: credited.accountId,
        topUpId: credited.topUpId,
        change: (topUp) => adjustmentFor(notice, topUp),
        note: adjustmentNote(notice, credited.topUpId),
        at,
      });
      return outcomeOf(applied, 'adjusted');
    }
  }
};
