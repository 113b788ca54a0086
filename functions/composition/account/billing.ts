/**
 * Money in (functions/domain/billing/top-ups.ts): the top-ups' table adapter and Stripe, whose keys are
 * read by value (local) or from Secrets Manager (AWS). Without a secret key there is no checkout (503).
 */
import type Stripe from 'stripe';
import { readFunds } from '../../adapters/dynamo/ledger-repository';
import { DynamoTopUps } from '../../adapters/dynamo/top-ups-repository';
import { stripeCheckout, stripeClient, stripeOffSession } from '../../adapters/stripe/checkout';
import { STRIPE_ENV } from '../../deployment/env-names';
import { announceCharge, type RechargeDeps, recordDecline, type SavedCard } from '../../domain/billing/auto-billing';
import type { StripeAlarm, TopUp, TopUpDeps } from '../../domain/billing/top-ups';
import { isLoopbackUrl } from '../../domain/shared/loopback';
import { METRICS } from '../../domain/shared/meter';
import { clock, log, meter, newId, once, settings } from '../core';
import { table } from '../data';
import { enqueueCallback } from '../queues';
import { keyCacheMs, secretIfSet } from '../secrets';
import { billingSettingsRepository } from './balance-watch';

/** STRIPE_API_BASE is for development: a loopback http(s) origin, and only with ALLOW_LOOPBACK_URLS. */
export const stripeApiBase = (text: string | undefined, allowLoopback: boolean): URL | undefined => {
  if (text === undefined) return undefined;
  const url = new URL(text);
  if (!allowLoopback || !isLoopbackUrl(url))
    throw new Error(
      `${STRIPE_ENV.apiBase} is for development only: a loopback address, with ALLOW_LOOPBACK_URLS=true (got ${text})`,
    );
  return url;
};

// Both are read again after the providers' key TTL (PROVIDER_KEY_CACHE_SECONDS), so that a rotated key or
// signing secret is taken up without a cold start.
const stripeSecretKey = once(() =>
  secretIfSet(
    settings()[STRIPE_ENV.secretKey],
    settings()[STRIPE_ENV.secretKeySecretArn],
    STRIPE_ENV.secretKey,
    keyCacheMs(),
  ),
);

/**
 * The webhook endpoint's signing secret, or undefined when none is configured (the webhook answers 503).
 * Stripe keeps signing with the old secret too for a while after a roll (up to 24 h, as the Dashboard
 * offers), longer than the TTL, and redelivers what was refused meanwhile.
 */
export const stripeWebhookSecret = once(() =>
  secretIfSet(
    settings()[STRIPE_ENV.webhookSecret],
    settings()[STRIPE_ENV.webhookSecretSecretArn],
    STRIPE_ENV.webhookSecret,
    keyCacheMs(),
  ),
);

const stripe = once(() => {
  const key = stripeSecretKey();
  if (!key) return undefined;
  const base = stripeApiBase(settings()[STRIPE_ENV.apiBase], settings().ALLOW_LOOPBACK_URLS);
  // One client per key: a new key (after the TTL) makes a new client.
  let client: { key: string; stripe: Stripe } | undefined;
  return async () => {
    const current = await key();
    if (client?.key !== current) client = { key: current, stripe: stripeClient(current, base) };
    return client.stripe;
  };
});

export const topUps = once(() => new DynamoTopUps(table(), newId));

export const topUpDeps = once((): TopUpDeps => {
  const client = stripe();
  return { topUps: topUps(), checkout: client && stripeCheckout(client), clock, newId, log: log() };
});

export const topUpLimits = () => ({
  minMicros: settings()[STRIPE_ENV.topUpMinUsd],
  maxMicros: settings()[STRIPE_ENV.topUpMaxUsd],
});

/** What the portal's Billing page reads (functions/domain/billing/top-ups.ts, billingPage). */
export const billingPageDeps = once(() => ({
  funds: (accountId: string) => readFunds(table(), accountId),
  settings: (accountId: string) => billingSettingsRepository().get(accountId),
  checkout: topUpDeps().checkout,
  limits: topUpLimits(),
  presetsMicros: settings()[STRIPE_ENV.topUpPresetsUsd],
}));

export { billingSettingsRepository };

/** Counts Stripe money that needs a person (METRICS.stripeUnhandled, alarmed) and logs what it is. */
export const stripeAlarm = once(
  (): StripeAlarm => ({
    unhandled: (kind, fields) => {
      meter().count(METRICS.stripeUnhandled, { kind });
      log().error('stripe money needs a person', { kind, ...fields });
    },
  }),
);

/** The webhook's dependencies: the top-ups, where a consenting top-up's card is kept, and what a decline does. */
export const stripeWebhookDeps = once(() => ({
  ...topUpDeps(),
  saveCard: (accountId: string, card: SavedCard) => billingSettingsRepository().saveCard(accountId, card),
  declined: (topUp: TopUp, reason: string, detail: string) =>
    recordDecline({ settings: billingSettingsRepository(), enqueueCallback, clock, newId }, topUp, reason, detail),
  charged: (topUp: TopUp, charge: { amountCents: number; paymentIntentId: string }) =>
    announceCharge({ settings: billingSettingsRepository(), enqueueCallback, clock, newId }, topUp, charge),
  alarm: stripeAlarm(),
}));

/** What auto-recharge may be (domain/billing/recharge-rules.ts): the top-up limits and the daily cap. */
export const rechargeLimits = () => ({
  ...topUpLimits(),
  dailyMaxMicros: settings()[STRIPE_ENV.autoRechargeDailyMaxUsd],
});

export const billingSettingsDeps = once(() => ({
  settings: billingSettingsRepository(),
  funds: (accountId: string) => readFunds(table(), accountId),
  limits: rechargeLimits(),
  clock,
}));

/** What the deliverer needs to run an automatic charge (auto-billing.ts, runAutoRecharge). */
export const rechargeDeps = once((): RechargeDeps => {
  const client = stripe();
  return {
    settings: billingSettingsRepository(),
    topUps: topUps(),
    charger: client && stripeOffSession(client),
    enqueueCallback,
    clock,
    newId,
  };
});

/** The sweep's: an automatic charge's dependencies, the alarm, and the log. */
export const rechargeSweepDeps = once(() => ({ ...rechargeDeps(), alarm: stripeAlarm(), log: log() }));
