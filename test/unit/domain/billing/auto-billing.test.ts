/**
 * What follows a job's settle, without the table: the low-balance notice once per crossing, auto-recharge
 * only with a saved card, below its threshold and inside a free window; a charge credited once, a decline
 * turning auto-recharge off and telling the developer.
 */
import {
  AUTO_RECHARGE_WINDOW_MS,
  type AutoRechargeMessage,
  afterSettle,
  type BillingSettings,
  type ChargeResult,
  finishRecharge,
  finishStartedRecharges,
  NO_SETTINGS,
  RECHARGE_SWEEP_GRACE_MS,
  type RechargeClaim,
  runAutoRecharge,
} from '../../../../functions/domain/billing/auto-billing';
import type { TopUp } from '../../../../functions/domain/billing/top-ups';

const CARD = { customerId: 'cus_1', paymentIntentId: 'pi_consent' };

/** Settings kept in memory, with the claims' conditions as the table adapter writes them. */
const memory = (initial: Partial<BillingSettings>, balanceMicros: number) => {
  let settings: BillingSettings = { ...NO_SETTINGS, ...initial };
  const sent: Array<{ body: string; callbackUrl: string }> = [];
  const recharges: AutoRechargeMessage[] = [];
  const days = new Map<number, number>();
  let now = 1_000_000;
  let ids = 0;
  const deps = {
    settings: {
      get: async () => settings,
      claimLowNotice: async () => {
        if (settings.lowNotified) return false;
        settings = { ...settings, lowNotified: true };
        return true;
      },
      clearLowNotice: async () => {
        settings = { ...settings, lowNotified: false };
      },
      claimRecharge: async (_account: string, claim: RechargeClaim) => {
        if (settings.lastRechargeAt !== null && settings.lastRechargeAt > claim.now - claim.windowMs) return false;
        const charged = days.get(claim.dayStart) ?? 0;
        if (charged + claim.amountMicros > claim.dailyMaxMicros) return false;
        days.set(claim.dayStart, charged + claim.amountMicros);
        settings = { ...settings, lastRechargeAt: claim.now };
        return true;
      },
    },
    rechargeLimits: { windowMs: AUTO_RECHARGE_WINDOW_MS, dailyMaxMicros: 500_000_000 },
    balance: async () => balanceMicros,
    enqueueCallback: async (message: { body: string; callbackUrl: string }) => void sent.push(message),
    enqueueRecharge: async (message: AutoRechargeMessage) => void recharges.push(message),
    clock: () => now,
    newId: (prefix: string) => {
      ids += 1;
      return `${prefix}_${ids}`;
    },
  };
  return {
    deps,
    sent,
    recharges,
    setBalance: (micros: number) => {
      balanceMicros = micros;
    },
    advance: (ms: number) => {
      now += ms;
    },
  };
};

describe('afterSettle', () => {
  it('sends balance.low once per crossing, and again after the balance came back above', async () => {
    const m = memory({ lowBalanceThresholdMicros: 5_000_000, webhookUrl: 'https://example.com/h' }, 4_000_000);
    expect(await afterSettle(m.deps, 'acc_1')).toEqual(['balance.low']);
    expect(await afterSettle(m.deps, 'acc_1')).toEqual([]);
    expect(JSON.parse(m.sent[0]?.body ?? '{}')).toMatchObject({
      type: 'balance.low',
      account_id: 'acc_1',
      balance: { usd: '4.00' },
      threshold: { usd: '5.00' },
    });
    m.setBalance(6_000_000);
    expect(await afterSettle(m.deps, 'acc_1')).toEqual([]);
    m.setBalance(1_000_000);
    expect(await afterSettle(m.deps, 'acc_1')).toEqual(['balance.low']);
    expect(m.sent).toHaveLength(2);
  });

  it('sends nothing without a webhook_url, or above the threshold', async () => {
    const noUrl = memory({ lowBalanceThresholdMicros: 5_000_000 }, 1);
    expect(await afterSettle(noUrl.deps, 'acc_1')).toEqual([]);
    const above = memory({ lowBalanceThresholdMicros: 5_000_000, webhookUrl: 'https://example.com/h' }, 5_000_000);
    expect(await afterSettle(above.deps, 'acc_1')).toEqual([]);
  });

  it('queues one charge per window, only with a saved card and below the threshold', async () => {
    const recharge = { enabled: true, thresholdMicros: 5_000_000, amountMicros: 20_000_000 };
    const noCard = memory({ autoRecharge: recharge }, 1);
    expect(await afterSettle(noCard.deps, 'acc_1')).toEqual([]);
    const off = memory({ autoRecharge: { ...recharge, enabled: false }, card: CARD }, 1);
    expect(await afterSettle(off.deps, 'acc_1')).toEqual([]);
    const above = memory({ autoRecharge: recharge, card: CARD }, 5_000_000);
    expect(await afterSettle(above.deps, 'acc_1')).toEqual([]);

    const m = memory({ autoRecharge: recharge, card: CARD }, 4_999_999);
    expect(await afterSettle(m.deps, 'acc_1')).toEqual(['auto-recharge']);
    expect(await afterSettle(m.deps, 'acc_1')).toEqual([]);
    m.advance(AUTO_RECHARGE_WINDOW_MS - 1);
    expect(await afterSettle(m.deps, 'acc_1')).toEqual([]);
    m.advance(1);
    expect(await afterSettle(m.deps, 'acc_1')).toEqual(['auto-recharge']);
    expect(m.recharges).toEqual([
      { kind: 'auto-recharge', accountId: 'acc_1', rechargeId: 'tup_1', amountMicros: 20_000_000 },
      { kind: 'auto-recharge', accountId: 'acc_1', rechargeId: 'tup_2', amountMicros: 20_000_000 },
    ]);
  });

  it('stops automatic charges at the daily cap, and starts again the next UTC day', async () => {
    const m = memory(
      { autoRecharge: { enabled: true, thresholdMicros: 5_000_000, amountMicros: 200_000_000 }, card: CARD },
      1,
    );
    const deps = { ...m.deps, rechargeLimits: { windowMs: 0, dailyMaxMicros: 500_000_000 } };
    const day = 86_400_000;
    m.advance(day - (1_000_000 % day));
    const outcomes = [];
    for (let settle = 0; settle < 4; settle += 1) outcomes.push(await afterSettle(deps, 'acc_1'));
    expect(outcomes).toEqual([['auto-recharge'], ['auto-recharge'], [], []]);
    m.advance(day);
    expect(await afterSettle(deps, 'acc_1')).toEqual(['auto-recharge']);
  });

  it('decides on the settings read alongside the settle when given them, without reading them again', async () => {
    const m = memory({}, 4_000_000);
    let settingsReads = 0;
    const deps = {
      ...m.deps,
      settings: {
        ...m.deps.settings,
        get: async () => {
          settingsReads += 1;
          return NO_SETTINGS;
        },
      },
    };
    const watching = { ...NO_SETTINGS, lowBalanceThresholdMicros: 5_000_000, webhookUrl: 'https://example.com/h' };
    expect(await afterSettle(deps, 'acc_1', Promise.resolve(watching))).toEqual(['balance.low']);
    expect(settingsReads).toBe(0);
    await expect(afterSettle(deps, 'acc_1', Promise.reject(new Error('table unreachable')))).rejects.toThrow(
      'table unreachable',
    );
  });
});

describe('runAutoRecharge', () => {
  const settingsWith = (overrides: Partial<BillingSettings> = {}): BillingSettings => ({
    ...NO_SETTINGS,
    autoRecharge: { enabled: true, thresholdMicros: 5_000_000, amountMicros: 20_000_000 },
    card: CARD,
    webhookUrl: 'https://example.com/h',
    ...overrides,
  });
  /** A table in memory whose credit and close are guarded as the adapter's are (status), and a charger answering `outcomes` in turn. */
  const setup = (initial: BillingSettings, outcomes: ChargeResult[], now = 5) => {
    let settings = initial;
    const topUps = new Map<string, TopUp>();
    const credits: unknown[] = [];
    const disabled: string[] = [];
    const sent: string[] = [];
    const charges: unknown[] = [];
    const finds: string[] = [];
    const answer = () => {
      const next = outcomes.length > 1 ? outcomes.shift() : outcomes[0];
      if (!next) throw new Error('no answer');
      return next;
    };
    const deps = {
      settings: {
        get: async () => settings,
        disableAutoRecharge: async (_a: string, reason: string) => {
          disabled.push(reason);
          settings = {
            ...settings,
            autoRecharge: settings.autoRecharge && { ...settings.autoRecharge, enabled: false },
          };
        },
      },
      topUps: {
        get: async (_a: string, id: string) => topUps.get(id),
        create: async (topUp: TopUp) => {
          if (topUps.has(topUp.topUpId)) throw new Error('exists');
          topUps.set(topUp.topUpId, { ...topUp });
        },
        credit: async (input: { topUpId: string; paymentIntentId: string }) => {
          const topUp = topUps.get(input.topUpId);
          if (!topUp || topUp.status === 'completed') return 'already-applied' as const;
          credits.push(input);
          Object.assign(topUp, { status: 'completed', paymentIntentId: input.paymentIntentId });
          return 'applied' as const;
        },
        close: async (_a: string, id: string, status: 'expired' | 'failed') => {
          const topUp = topUps.get(id);
          if (topUp?.status !== 'pending') return false;
          topUp.status = status;
          return true;
        },
        attachPayment: async (_a: string, id: string, paymentIntentId: string) => {
          const topUp = topUps.get(id);
          if (topUp) topUp.paymentIntentId = paymentIntentId;
        },
      },
      charger: {
        charge: async (input: unknown) => {
          charges.push(input);
          return answer();
        },
        find: async (paymentIntentId: string) => {
          finds.push(paymentIntentId);
          return answer();
        },
      },
      enqueueCallback: async (message: { body: string }) => void sent.push(message.body),
      clock: () => now,
      newId: () => 'dlv_1',
    };
    return {
      deps,
      topUps,
      credits,
      disabled,
      sent,
      charges,
      finds,
      turnOff: () => {
        settings = { ...settings, autoRecharge: null, card: null };
      },
    };
  };
  const message: AutoRechargeMessage = { kind: 'auto-recharge', accountId: 'acc_1', rechargeId: 'tup_r' };
  const succeeded: ChargeResult = { kind: 'succeeded', paymentIntentId: 'pi_auto', amountCents: 2000 };

  it('charges the saved card for the amount, with a key derived from the recharge, and credits once however often the message comes', async () => {
    const s = setup(settingsWith(), [succeeded]);
    expect(await runAutoRecharge(s.deps, message)).toBe('credited');
    expect(await runAutoRecharge(s.deps, message)).toBe('duplicate');
    expect(s.charges).toEqual([
      {
        card: CARD,
        amountCents: 2000,
        idempotencyKey: 'auto-recharge-tup_r',
        metadata: { top_up_id: 'tup_r', account_id: 'acc_1', auto_recharge: 'true' },
      },
    ]);
    expect(s.credits).toEqual([expect.objectContaining({ topUpId: 'tup_r', amountMicros: 20_000_000 })]);
    expect(s.topUps.get('tup_r')).toMatchObject({ amountMicros: 20_000_000, rechargeCard: CARD });
    expect(s.sent.map((body) => JSON.parse(body))).toEqual([
      {
        id: 'dlv_1',
        type: 'billing.auto_recharge.charged',
        account_id: 'acc_1',
        top_up_id: 'tup_r',
        amount: { usd: '20.00', micro_usd: 20_000_000 },
        payment_intent_id: 'pi_auto',
        created_at: new Date(5).toISOString(),
      },
    ]);
  });

  it('never charges more than the claim counted against the daily cap, nor than the amount set now', async () => {
    const claimedLess = setup(settingsWith(), [{ kind: 'succeeded', paymentIntentId: 'pi_a', amountCents: 1000 }]);
    await runAutoRecharge(claimedLess.deps, { ...message, amountMicros: 10_000_000 });
    expect(claimedLess.charges[0]).toMatchObject({ amountCents: 1000 });
    const loweredSince = setup(settingsWith(), [{ kind: 'succeeded', paymentIntentId: 'pi_b', amountCents: 2000 }]);
    await runAutoRecharge(loweredSince.deps, { ...message, amountMicros: 50_000_000 });
    expect(loweredSince.charges[0]).toMatchObject({ amountCents: 2000 });
  });

  it('finishes a started charge after auto-recharge was turned off and the card removed meanwhile', async () => {
    const s = setup(settingsWith(), []);
    s.deps.charger.charge = async () => {
      throw new Error('Stripe timed out');
    };
    await expect(runAutoRecharge(s.deps, message)).rejects.toThrow('Stripe timed out');
    s.turnOff();
    s.deps.charger.charge = async (input: unknown) => {
      s.charges.push(input);
      return succeeded;
    };
    expect(await runAutoRecharge(s.deps, message)).toBe('credited');
    expect(s.charges).toEqual([expect.objectContaining({ card: CARD, idempotencyKey: 'auto-recharge-tup_r' })]);
  });

  it('charges nothing when auto-recharge was turned off before the charge started', async () => {
    const s = setup(settingsWith({ autoRecharge: { enabled: false, thresholdMicros: 1, amountMicros: 20_000_000 } }), [
      succeeded,
    ]);
    expect(await runAutoRecharge(s.deps, message)).toBe('off');
    expect(s.charges).toEqual([]);
    expect(s.topUps.size).toBe(0);
  });

  it('leaves a processing charge pending, credits nothing, and later looks it up instead of charging again', async () => {
    const s = setup(settingsWith(), [{ kind: 'processing', paymentIntentId: 'pi_slow' }]);
    expect(await runAutoRecharge(s.deps, message)).toBe('processing');
    expect(s.credits).toEqual([]);
    expect(s.disabled).toEqual([]);
    expect(s.topUps.get('tup_r')).toMatchObject({ status: 'pending', paymentIntentId: 'pi_slow' });
    expect(await runAutoRecharge(s.deps, message)).toBe('processing');
    expect(s.charges).toHaveLength(1);
    expect(s.finds).toEqual(['pi_slow']);
  });

  it('turns auto-recharge off after a decline and tells the developer, once', async () => {
    const s = setup(settingsWith(), [{ kind: 'declined', reason: 'card_declined', detail: 'Your card was declined.' }]);
    expect(await runAutoRecharge(s.deps, message)).toBe('disabled');
    expect(await runAutoRecharge(s.deps, message)).toBe('duplicate');
    expect(s.disabled).toEqual(['card_declined']);
    expect(s.credits).toEqual([]);
    expect(s.sent).toHaveLength(1);
    expect(JSON.parse(s.sent[0] ?? '{}')).toMatchObject({
      type: 'auto_recharge.failed',
      reason: 'card_declined',
      amount: { usd: '20.00' },
    });
  });

  it('never makes a charge again once its idempotency key may have expired at Stripe', async () => {
    const s = setup(settingsWith(), [succeeded], 24 * 3600 * 1000);
    s.topUps.set('tup_r', {
      topUpId: 'tup_r',
      accountId: 'acc_1',
      amountMicros: 20_000_000,
      status: 'pending',
      createdAt: 0,
      checkoutSessionId: null,
      checkoutUrl: null,
      creditedMicros: null,
      paymentIntentId: null,
      completedAt: null,
      refundedMicros: 0,
      disputedMicros: 0,
      rechargeCard: CARD,
    });
    expect(await finishRecharge(s.deps, s.topUps.get('tup_r') as TopUp)).toBe('expired-key');
    expect(s.charges).toEqual([]);
  });
});

describe('finishStartedRecharges (the sweep)', () => {
  const started = (overrides: Partial<TopUp>): TopUp => ({
    topUpId: 'tup_s',
    accountId: 'acc_1',
    amountMicros: 20_000_000,
    status: 'pending',
    createdAt: 0,
    checkoutSessionId: null,
    checkoutUrl: null,
    creditedMicros: null,
    paymentIntentId: null,
    completedAt: null,
    refundedMicros: 0,
    disputedMicros: 0,
    rechargeCard: CARD,
    ...overrides,
  });

  it('finishes a charge left unfinished past the grace and alarms it; leaves a young one to its message', async () => {
    const table = new Map<string, TopUp>([
      ['tup_old', started({ topUpId: 'tup_old', createdAt: 0 })],
      ['tup_young', started({ topUpId: 'tup_young', createdAt: RECHARGE_SWEEP_GRACE_MS })],
    ]);
    const alarms: string[] = [];
    const credits: string[] = [];
    const charges: string[] = [];
    const deps = {
      settings: { get: async () => NO_SETTINGS, disableAutoRecharge: async () => undefined },
      topUps: {
        get: async (_a: string, id: string) => table.get(id),
        create: async () => undefined,
        credit: async (input: { topUpId: string }) => {
          credits.push(input.topUpId);
          return 'applied' as const;
        },
        close: async () => true,
        attachPayment: async () => undefined,
      },
      charger: {
        charge: async (input: { idempotencyKey: string }): Promise<ChargeResult> => {
          charges.push(input.idempotencyKey);
          return { kind: 'succeeded', paymentIntentId: 'pi_1', amountCents: 2000 };
        },
        find: async (): Promise<ChargeResult> => ({ kind: 'processing', paymentIntentId: 'pi_1' }),
      },
      enqueueCallback: async () => undefined,
      clock: () => RECHARGE_SWEEP_GRACE_MS + 1,
      newId: () => 'dlv_1',
      alarm: { unhandled: (kind: string) => void alarms.push(kind) },
      log: { error: () => undefined },
    };
    const outcomes = await finishStartedRecharges(deps, [
      { accountId: 'acc_1', topUpId: 'tup_old' },
      { accountId: 'acc_1', topUpId: 'tup_young' },
    ]);
    expect(outcomes).toEqual({ tup_old: 'credited' });
    expect(charges).toEqual(['auto-recharge-tup_old']);
    expect(credits).toEqual(['tup_old']);
    expect(alarms).toEqual(['recharge-unfinished']);
  });
});

describe('afterSettle on an account that watches nothing', () => {
  it('reads the settings and not the balance', async () => {
    const m = memory({}, 0);
    let balanceReads = 0;
    const deps = {
      ...m.deps,
      balance: async () => {
        balanceReads += 1;
        return 0;
      },
    };
    expect(await afterSettle(deps, 'acc_1')).toEqual([]);
    expect(balanceReads).toBe(0);
  });
});
