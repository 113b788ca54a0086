/**
 * Read first: what happens after a job's settle (docs/billing.md, auto-recharge and the low-balance notice).
 *
 * An account may set, with GET/PUT /account/billing, a `low_balance_threshold`, a `webhook_url` for its
 * account events, and `auto_recharge` (`enabled`, `threshold`, `amount`). After a settle leaves the balance
 * below a threshold:
 *
 * - the low-balance notice: one signed `balance.low` event to `webhook_url`, through the callback queue and
 *   its deliverer (Standard Webhooks, the account's signing secret). A flag on the settings, set by a
 *   conditional write, makes it one per crossing; the first settle that finds the balance back at or above
 *   the threshold clears it.
 * - auto-recharge: the card saved at a top-up the developer consented on (`save_card`) is charged
 *   off-session for `amount`, at most once per window (AUTO_RECHARGE_WINDOW_SECONDS, an hour) and within
 *   the account's daily cap (AUTO_RECHARGE_DAILY_MAX_USD): one conditional transaction claims the window
 *   and counts the amount on the day's item before a message asks the deliverer to charge
 *   (recharge-rules.ts). Each charge credited sends `billing.auto_recharge.charged` to `webhook_url`; a
 *   decline, or a bank that asks for authentication, turns auto-recharge off and sends
 *   `auto_recharge.failed`. Job and training settles both run it.
 *
 * A started charge is finished whatever the settings say now: the top-up it becomes is written (with the
 * card) before Stripe is asked, and a redelivered message, or the sweep that finds it later (a message in
 * the dead-letter queue), finishes that top-up: the same card, the same amount, and Stripe's idempotency
 * key derived from the recharge, so a retry never charges twice. A PaymentIntent Stripe answers
 * `processing` stays pending until `payment_intent.succeeded` credits it or `payment_intent.payment_failed`
 * records the decline (top-ups.ts, from the webhook).
 *
 * Nothing here may fail a settle: the caller logs what throws and goes on.
 */
import type { Caller } from '../accounts/accounts';
import { InvalidRequestError } from '../errors';
import { type Clock, toIso } from '../shared/clock';
import type { IdSource } from '../shared/ids';
import { type MoneyBody, moneyBody, usdDecimal } from '../shared/money';
import {
  assertAgreedTo,
  type BillingActor,
  type RechargeLimits,
  rechargeDayStart,
  rechargeProblems,
} from './recharge-rules';
import type { StripeAlarm, TopUp, TopUpsRepository } from './top-ups';
import { fromCents, pendingTopUp, toCents } from './top-ups';

/** By default at most one automatic charge per account in this long (AUTO_RECHARGE_WINDOW_SECONDS). */
export const AUTO_RECHARGE_WINDOW_MS = 60 * 60 * 1000;

/** What one automatic charge claims, in one conditional transaction (billing-settings.ts). */
export interface RechargeClaim {
  now: number;
  /** No other charge may have been claimed within this long before `now`. */
  windowMs: number;
  amountMicros: number;
  /** The day the amount counts against (recharge-rules.ts rechargeDayStart) and its cap. */
  dayStart: number;
  dailyMaxMicros: number;
}

export interface SavedCard {
  /** Stripe's customer the consenting Checkout created. */
  customerId: string;
  /** The payment the developer consented on; its payment method is the card charged later. */
  paymentIntentId: string;
  /** When the consenting top-up was made: a newer consent replaces the card, an older one never does. */
  consentedAt?: number;
}

/** Stripe keeps an idempotency key for 24 hours; past that, a charge is looked up, never made again. */
export const IDEMPOTENCY_KEY_LIFE_MS = 23 * 3600 * 1000;

/** Stripe's idempotency key of an automatic charge: derived from the recharge, so every retry is the same charge. */
export const rechargeIdempotencyKey = (rechargeId: string) => `auto-recharge-${rechargeId}`;

export interface BillingSettings {
  autoRecharge: { enabled: boolean; thresholdMicros: number; amountMicros: number } | null;
  lowBalanceThresholdMicros: number | null;
  webhookUrl: string | null;
  card: SavedCard | null;
  lastRechargeAt: number | null;
  lowNotified: boolean;
  /** Why auto-recharge was turned off by the service (a decline), until the developer turns it on again. */
  disabledReason: string | null;
}

export const NO_SETTINGS: BillingSettings = {
  autoRecharge: null,
  lowBalanceThresholdMicros: null,
  webhookUrl: null,
  card: null,
  lastRechargeAt: null,
  lowNotified: false,
  disabledReason: null,
};

export interface BillingSettingsRepository {
  get(accountId: string): Promise<BillingSettings>;
  /** Sets what the developer chose; turning auto-recharge on clears a disabled reason. */
  update(
    accountId: string,
    patch: Partial<Pick<BillingSettings, 'autoRecharge' | 'lowBalanceThresholdMicros' | 'webhookUrl'>>,
  ): Promise<void>;
  /** Keeps the card of the newest consenting top-up (by `consentedAt`); saving the same card again is a no-op. */
  saveCard(accountId: string, card: SavedCard): Promise<void>;
  /** false when the notice was already sent for this crossing. */
  claimLowNotice(accountId: string): Promise<boolean>;
  clearLowNotice(accountId: string): Promise<void>;
  /** false when a charge was made (or is being made) within the window, or the amount would pass the day's cap. */
  claimRecharge(accountId: string, claim: RechargeClaim): Promise<boolean>;
  /** What automatic charges claimed on the day starting at `dayStart` (0 before the first). */
  rechargedOn(accountId: string, dayStart: number): Promise<number>;
  disableAutoRecharge(accountId: string, reason: string): Promise<void>;
}

/** A signed event to the account's webhook_url, as the callback queue carries it (callbacks/deliver.ts, CallbackMessage). */
export interface AccountEventMessage {
  deliveryId: string;
  accountId: string;
  jobId: string;
  callbackUrl: string;
  body: string;
}

export interface AutoRechargeMessage {
  kind: 'auto-recharge';
  accountId: string;
  /** The top-up the charge becomes; Stripe's idempotency key, so a redelivered message charges once. */
  rechargeId: string;
  /** What the claim counted against the daily cap: the charge is never more (absent in messages queued before the cap). */
  amountMicros?: number;
}

/** What a settle's watcher needs. */
export interface BalanceWatchDeps {
  settings: Pick<BillingSettingsRepository, 'get' | 'claimLowNotice' | 'clearLowNotice' | 'claimRecharge'>;
  /** AUTO_RECHARGE_WINDOW_SECONDS and AUTO_RECHARGE_DAILY_MAX_USD (settings.ts). */
  rechargeLimits: { windowMs: number; dailyMaxMicros: number };
  balance(accountId: string): Promise<number>;
  enqueueCallback(message: AccountEventMessage): Promise<void>;
  enqueueRecharge(message: AutoRechargeMessage): Promise<void>;
  clock: Clock;
  newId: IdSource;
}

/** The pseudo job id account events are recorded under in the callback attempts (they belong to no job). */
export const ACCOUNT_EVENTS = 'account-events';

const accountEvent = (
  deps: Pick<BalanceWatchDeps, 'newId'>,
  accountId: string,
  url: string,
  body: object,
): AccountEventMessage => {
  const deliveryId = deps.newId('dlv');
  return {
    deliveryId,
    accountId,
    jobId: ACCOUNT_EVENTS,
    callbackUrl: url,
    body: JSON.stringify({ id: deliveryId, ...body }),
  };
};

/**
 * After a job's settle: the low-balance notice and auto-recharge, each once (the module's header).
 * `settingsRead`: the account's settings, when their read was started already (while the settle ran: they
 * do not depend on it), so that a settle waits for one round trip to the table instead of two.
 */
export const afterSettle = async (
  deps: BalanceWatchDeps,
  accountId: string,
  settingsRead?: Promise<BillingSettings>,
): Promise<string[]> => {
  const settings = await (settingsRead ?? deps.settings.get(accountId));
  const done: string[] = [];
  const low = settings.lowBalanceThresholdMicros;
  const watchesLow = low !== null && settings.webhookUrl !== null;
  const recharges = Boolean(settings.autoRecharge?.enabled && settings.card !== null);
  // An account that watches nothing (the default) costs its settles one read, not two.
  if (!watchesLow && !recharges) return done;
  const balanceMicros = await deps.balance(accountId);
  if (low !== null && settings.webhookUrl !== null) {
    if (balanceMicros < low) {
      if (await deps.settings.claimLowNotice(accountId)) {
        await deps.enqueueCallback(
          accountEvent(deps, accountId, settings.webhookUrl, {
            type: 'balance.low',
            account_id: accountId,
            balance: moneyBody(balanceMicros),
            threshold: moneyBody(low),
            created_at: toIso(deps.clock()),
          }),
        );
        done.push('balance.low');
      }
    } else if (settings.lowNotified) await deps.settings.clearLowNotice(accountId);
  }
  const recharge = settings.autoRecharge;
  const now = deps.clock();
  if (
    recharge?.enabled &&
    settings.card !== null &&
    balanceMicros < recharge.thresholdMicros &&
    (await deps.settings.claimRecharge(accountId, {
      now,
      windowMs: deps.rechargeLimits.windowMs,
      amountMicros: recharge.amountMicros,
      dayStart: rechargeDayStart(now),
      dailyMaxMicros: deps.rechargeLimits.dailyMaxMicros,
    }))
  ) {
    await deps.enqueueRecharge({
      kind: 'auto-recharge',
      accountId,
      rechargeId: deps.newId('tup'),
      amountMicros: recharge.amountMicros,
    });
    done.push('auto-recharge');
  }
  return done;
};

/** What Stripe said of an automatic charge. */
export type ChargeResult =
  | { kind: 'succeeded'; paymentIntentId: string; amountCents: number }
  | { kind: 'processing'; paymentIntentId: string }
  | { kind: 'declined'; reason: string; detail: string };

/** Charges a saved card without the developer present (adapters/stripe/checkout.ts). */
export interface OffSessionCharger {
  charge(input: {
    card: SavedCard;
    amountCents: number;
    idempotencyKey: string;
    metadata: Record<string, string>;
  }): Promise<ChargeResult>;
  /** The state of a charge already made (one answered `processing`). */
  find(paymentIntentId: string): Promise<ChargeResult>;
}

export interface RechargeDeps {
  settings: Pick<BillingSettingsRepository, 'get' | 'disableAutoRecharge'>;
  topUps: Pick<TopUpsRepository, 'get' | 'create' | 'credit' | 'close' | 'attachPayment'>;
  charger: OffSessionCharger | undefined;
  enqueueCallback(message: AccountEventMessage): Promise<void>;
  clock: Clock;
  newId: IdSource;
}

export type RechargeOutcome = 'credited' | 'duplicate' | 'off' | 'disabled' | 'processing' | 'expired-key';

/** A decline: auto-recharge off, and the developer told (by the deliverer, or the webhook that learns it later). */
export const recordDecline = async (
  deps: Pick<RechargeDeps, 'settings' | 'enqueueCallback' | 'clock' | 'newId'>,
  topUp: TopUp,
  reason: string,
  detail: string,
): Promise<void> => {
  await deps.settings.disableAutoRecharge(topUp.accountId, reason);
  const settings = await deps.settings.get(topUp.accountId);
  if (settings.webhookUrl !== null)
    await deps.enqueueCallback(
      accountEvent(deps, topUp.accountId, settings.webhookUrl, {
        type: 'auto_recharge.failed',
        account_id: topUp.accountId,
        reason,
        detail: `${detail} Auto-recharge is now off; turn it on again in the portal or with PUT /v2/service/account/billing.`,
        amount: moneyBody(topUp.amountMicros),
        created_at: toIso(deps.clock()),
      }),
    );
};

/**
 * Finishes a started automatic charge (a pending top-up with its card), whatever the settings say now:
 * the charge under its idempotency key (Stripe answers a retry with the first answer), or, once Stripe
 * answered `processing`, a look at that PaymentIntent. Past the idempotency key's life with no
 * PaymentIntent known, nothing is charged again: `expired-key`, for a person (the sweep alarms it).
 */
export const finishRecharge = async (deps: RechargeDeps, topUp: TopUp): Promise<RechargeOutcome> => {
  const card = topUp.rechargeCard;
  if (topUp.status !== 'pending' || !card) return 'duplicate';
  // Not configured any more: thrown, so that the message is retried and the sweep finds the charge later.
  if (!deps.charger) throw new Error(`automatic charge ${topUp.topUpId} cannot be finished: Stripe is not configured`);
  let result: ChargeResult;
  if (topUp.paymentIntentId !== null) result = await deps.charger.find(topUp.paymentIntentId);
  else if (deps.clock() - topUp.createdAt > IDEMPOTENCY_KEY_LIFE_MS) return 'expired-key';
  else
    result = await deps.charger.charge({
      card,
      amountCents: toCents(topUp.amountMicros),
      idempotencyKey: rechargeIdempotencyKey(topUp.topUpId),
      metadata: { top_up_id: topUp.topUpId, account_id: topUp.accountId, auto_recharge: 'true' },
    });
  switch (result.kind) {
    case 'succeeded': {
      const applied = await deps.topUps.credit({
        eventId: `auto-recharge:${topUp.topUpId}`,
        accountId: topUp.accountId,
        topUpId: topUp.topUpId,
        amountMicros: fromCents(result.amountCents),
        paymentIntentId: result.paymentIntentId,
        at: deps.clock(),
      });
      if (applied !== 'applied') return 'duplicate';
      await announceCharge(deps, topUp, result);
      return 'credited';
    }
    case 'processing':
      await deps.topUps.attachPayment(topUp.accountId, topUp.topUpId, result.paymentIntentId);
      return 'processing';
    case 'declined':
      // The webhook's payment_intent.payment_failed may have recorded it first: one notice either way.
      if (!(await deps.topUps.close(topUp.accountId, topUp.topUpId, 'failed', deps.clock()))) return 'duplicate';
      await recordDecline(deps, topUp, result.reason, result.detail);
      return 'disabled';
  }
};

/** The signed `billing.auto_recharge.charged` event, to the account's webhook when it has one. */
export const announceCharge = async (
  deps: Pick<RechargeDeps, 'settings' | 'enqueueCallback' | 'clock' | 'newId'>,
  topUp: TopUp,
  result: { amountCents: number; paymentIntentId: string },
): Promise<void> => {
  const settings = await deps.settings.get(topUp.accountId);
  if (settings.webhookUrl !== null)
    await deps.enqueueCallback(
      accountEvent(deps, topUp.accountId, settings.webhookUrl, {
        type: 'billing.auto_recharge.charged',
        account_id: topUp.accountId,
        top_up_id: topUp.topUpId,
        amount: moneyBody(fromCents(result.amountCents)),
        payment_intent_id: result.paymentIntentId,
        created_at: toIso(deps.clock()),
      }),
    );
};

/**
 * One automatic charge, as the deliverer runs it from the queue. Once started (its top-up written), it is
 * finished whatever the settings say now (finishRecharge); before that, auto-recharge turned off or the
 * card gone means no charge.
 */
export const runAutoRecharge = async (deps: RechargeDeps, message: AutoRechargeMessage): Promise<RechargeOutcome> => {
  const started = await deps.topUps.get(message.accountId, message.rechargeId);
  if (started) return finishRecharge(deps, started);
  const settings = await deps.settings.get(message.accountId);
  const recharge = settings.autoRecharge;
  if (!recharge?.enabled || settings.card === null || !deps.charger) return 'off';
  const topUp = pendingTopUp({
    topUpId: message.rechargeId,
    accountId: message.accountId,
    // Never more than the claim counted against the daily cap, nor than the amount set now (it may have been lowered).
    amountMicros: Math.min(message.amountMicros ?? recharge.amountMicros, recharge.amountMicros),
    createdAt: deps.clock(),
    rechargeCard: { customerId: settings.card.customerId, paymentIntentId: settings.card.paymentIntentId },
  });
  // A concurrent delivery of the same message may have written it first: finish what is there.
  await deps.topUps.create(topUp).catch(async (error: unknown) => {
    if (!(await deps.topUps.get(message.accountId, message.rechargeId))) throw error;
  });
  return finishRecharge(deps, (await deps.topUps.get(message.accountId, message.rechargeId)) ?? topUp);
};

/** A started charge younger than this is left to its message's own retries (the deliverer runs it). */
export const RECHARGE_SWEEP_GRACE_MS = 15 * 60_000;

/**
 * The sweep's part (functions/maintenance/): every automatic charge started and not finished after the
 * grace (its message lost, or in the dead-letter queue after its retries) is finished here like the
 * deliverer would, and counted for the operator (alarmed), unless Stripe still reports it `processing`.
 */
export const finishStartedRecharges = async (
  deps: RechargeDeps & { alarm: StripeAlarm; log: { error(message: string, fields?: Record<string, unknown>): void } },
  started: ReadonlyArray<{ accountId: string; topUpId: string }>,
): Promise<Record<string, RechargeOutcome | 'failed'>> => {
  const outcomes: Record<string, RechargeOutcome | 'failed'> = {};
  for (const { accountId, topUpId } of started) {
    const topUp = await deps.topUps.get(accountId, topUpId);
    if (topUp?.status !== 'pending' || !topUp.rechargeCard || deps.clock() - topUp.createdAt < RECHARGE_SWEEP_GRACE_MS)
      continue;
    let outcome: RechargeOutcome | 'failed';
    try {
      outcome = await finishRecharge(deps, topUp);
    } catch (error) {
      deps.log.error('an unfinished automatic charge could not be finished', {
        top_up_id: topUpId,
        error: String(error),
      });
      outcome = 'failed';
    }
    outcomes[topUpId] = outcome;
    if (outcome !== 'processing')
      deps.alarm.unhandled('recharge-unfinished', { account_id: accountId, top_up_id: topUpId, outcome });
  }
  return outcomes;
};

export interface BillingSettingsBody {
  auto_recharge: {
    enabled: boolean;
    threshold: string | null;
    amount: string | null;
    card_saved: boolean;
    disabled_reason: string | null;
    /** What automatic charges claimed today (UTC), and the daily cap they stop at. */
    charged_today: string;
    daily_max: string;
  };
  low_balance_threshold: string | null;
  webhook_url: string | null;
  balance: MoneyBody;
  debt: MoneyBody;
}

export const billingSettingsBody = (
  settings: BillingSettings,
  funds: { balanceMicros: number; debtMicros: number },
  today: { chargedMicros: number; dailyMaxMicros: number },
): BillingSettingsBody => ({
  auto_recharge: {
    enabled: settings.autoRecharge?.enabled ?? false,
    threshold: settings.autoRecharge ? usdDecimal(settings.autoRecharge.thresholdMicros) : null,
    amount: settings.autoRecharge ? usdDecimal(settings.autoRecharge.amountMicros) : null,
    card_saved: settings.card !== null,
    disabled_reason: settings.disabledReason,
    charged_today: usdDecimal(today.chargedMicros),
    daily_max: usdDecimal(today.dailyMaxMicros),
  },
  low_balance_threshold:
    settings.lowBalanceThresholdMicros === null ? null : usdDecimal(settings.lowBalanceThresholdMicros),
  webhook_url: settings.webhookUrl,
  balance: moneyBody(funds.balanceMicros),
  debt: moneyBody(funds.debtMicros),
});

export interface BillingSettingsDeps {
  settings: Pick<BillingSettingsRepository, 'get' | 'update' | 'rechargedOn'>;
  funds(accountId: string): Promise<{ balanceMicros: number; debtMicros: number }>;
  /** The top-up limits and the daily cap (recharge-rules.ts). */
  limits: RechargeLimits;
  clock: Clock;
}

export const billingSettings = async (deps: BillingSettingsDeps, caller: Caller): Promise<BillingSettingsBody> => {
  const [settings, funds, chargedMicros] = await Promise.all([
    deps.settings.get(caller.accountId),
    deps.funds(caller.accountId),
    deps.settings.rechargedOn(caller.accountId, rechargeDayStart(deps.clock())),
  ]);
  return billingSettingsBody(settings, funds, { chargedMicros, dailyMaxMicros: deps.limits.dailyMaxMicros });
};

/**
 * PUT /account/billing and the portal's Billing page: what is given replaces what was set (null clears it).
 * Auto-recharge can be on only with a saved card, within the limits (recharge-rules.ts; the API answers
 * their breach as a 422 before calling this), and only a person (`actor`) turns it on or raises it.
 */
export const updateBillingSettings = async (
  deps: BillingSettingsDeps,
  caller: Caller,
  input: {
    autoRecharge?: { enabled: boolean; thresholdMicros: number; amountMicros: number };
    lowBalanceThresholdMicros?: number | null;
    webhookUrl?: string | null;
  },
  actor: BillingActor,
): Promise<BillingSettingsBody> => {
  if (input.autoRecharge) {
    const current = await deps.settings.get(caller.accountId);
    assertAgreedTo(actor, current.autoRecharge, input.autoRecharge);
    const [problem] = rechargeProblems(input.autoRecharge, deps.limits);
    if (problem) throw new InvalidRequestError(problem.message);
    if (input.autoRecharge.enabled && current.card === null)
      throw new InvalidRequestError(
        'Auto-recharge needs a saved card: make a top-up in the portal with "Keep this card" first, and pay it.',
      );
  }
  await deps.settings.update(caller.accountId, {
    ...(input.autoRecharge && { autoRecharge: input.autoRecharge }),
    ...(input.lowBalanceThresholdMicros !== undefined && {
      lowBalanceThresholdMicros: input.lowBalanceThresholdMicros,
    }),
    ...(input.webhookUrl !== undefined && { webhookUrl: input.webhookUrl }),
  });
  return billingSettings(deps, caller);
};
