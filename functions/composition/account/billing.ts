/**
 * Money in (functions/domain/billing/top-ups.ts): the top-ups' table adapter and Stripe, whose keys are
 * read by value (local) or from Secrets Manager (AWS). Without a secret key there is no checkout (503).
 */
import type Stripe from 'stripe';
import { readFunds } from '../../adapters/dynamo/ledger-repository';
import { DynamoTopUps } from '../../adapters/dynamo/top-ups-repository';
import { stripeCheckout, stripeClient, stripeOffSession } from '../../adapters/stripe/checkout';
import { STRIPE_ENV } from '../../deployment/env-names';
import type { RechargeDeps } from '../../domain/billing/auto-billing';
import type { TopUpDeps } from '../../domain/billing/top-ups';
import { isLoopbackUrl } from '../../domain/shared/loopback';
import { clock, log, newId, once, settings } from '../core';
import { table } from '../data';
import { enqueueCallback } from '../queues';
import { secretIfSet } from '../secrets';
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

const stripeSecretKey = once(() =>
  secretIfSet(settings()[STRIPE_ENV.secretKey], settings()[STRIPE_ENV.secretKeySecretArn], STRIPE_ENV.secretKey),
);

/** The webhook endpoint's signing secret, or undefined when none is configured (the webhook answers 503). */
export const stripeWebhookSecret = once(() =>
  secretIfSet(
    settings()[STRIPE_ENV.webhookSecret],
    settings()[STRIPE_ENV.webhookSecretSecretArn],
    STRIPE_ENV.webhookSecret,
  ),
);

const stripe = once(() => {
  const key = stripeSecretKey();
  if (!key) return undefined;
  const base = stripeApiBase(settings()[STRIPE_ENV.apiBase], settings().ALLOW_LOOPBACK_URLS);
  let client: Stripe | undefined;
  return async () => {
    client ??= stripeClient(await key(), base);
    return client;
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

/** The webhook's dependencies: the top-ups, and where a consenting top-up's card is kept. */
export const stripeWebhookDeps = once(() => ({
  ...topUpDeps(),
  saveCard: (accountId: string, card: { customerId: string; paymentIntentId: string }) =>
    billingSettingsRepository().saveCard(accountId, card),
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
