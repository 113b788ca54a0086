/**
 * What follows a job's settle (functions/domain/billing/auto-billing.ts, afterSettle): the billing settings,
 * the balance and the callback queue, and nothing of Stripe, so that the image functions and SettleCharge
 * that settle do not ship the Stripe library (the deliverer charges; billing.ts).
 */
import { DynamoBillingSettings } from '../../adapters/dynamo/billing-settings';
import { readFunds } from '../../adapters/dynamo/ledger-repository';
import { sendJson } from '../../adapters/sqs/queues';
import { STRIPE_ENV } from '../../deployment/env-names';
import { afterSettle, type BalanceWatchDeps } from '../../domain/billing/auto-billing';
import type { LedgerPort } from '../../domain/billing/ledger';
import { clock, log, newId, once, settings } from '../core';
import { table } from '../data';
import { enqueueCallback, sqs } from '../queues';

export const billingSettingsRepository = once(() => new DynamoBillingSettings(table()));

/**
 * The settles' watcher (auto-billing.ts, afterSettle): a job's or a training's settle that applied is followed by it;
 * what it throws is logged, never the settle's failure. The account's billing settings are read alongside
 * the settle's transaction (a settle that did not apply, a rare replay, reads them for nothing).
 */
export const watchedLedger = <L extends LedgerPort>(inner: L): L => {
  const deps = (): BalanceWatchDeps => ({
    settings: billingSettingsRepository(),
    balance: (accountId) => readFunds(table(), accountId).then((funds) => funds.balanceMicros),
    enqueueCallback,
    enqueueRecharge: (message) => sendJson(sqs(), settings().CALLBACK_QUEUE_URL, message),
    rechargeLimits: {
      windowMs: settings()[STRIPE_ENV.autoRechargeWindowSeconds] * 1000,
      dailyMaxMicros: settings()[STRIPE_ENV.autoRechargeDailyMaxUsd],
    },
    clock,
    newId,
  });
  return Object.assign(Object.create(inner) as L, {
    settle: async (input: Parameters<LedgerPort['settle']>[0]) => {
      const watch = deps();
      // Read while the settle's transaction runs; a failure of the read is afterSettle's, logged below.
      const settingsRead = watch.settings.get(input.accountId);
      settingsRead.catch(() => undefined);
      const outcome = await inner.settle(input);
      if (outcome.applied)
        await afterSettle(watch, input.accountId, settingsRead).catch((error: unknown) =>
          log().error('after-settle billing failed', { account_id: input.accountId, error: String(error) }),
        );
      return outcome;
    },
  });
};
