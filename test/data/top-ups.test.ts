/**
 * The top-ups' transactions against DynamoDB's semantics (the local store, or DynamoDB Local): a Stripe
 * event credits once however often and however concurrently it is applied; refunds debit the difference
 * of their cumulative amounts; a debit never takes the balance below zero (the rest is debt, which a
 * reservation may not have and a credit repays first); the entries always sum to the balance.
 */
import { DynamoAccounts } from '../../functions/adapters/dynamo/accounts-repository';
import { DynamoBillingSettings } from '../../functions/adapters/dynamo/billing-settings';
import { DynamoLedger, readFunds } from '../../functions/adapters/dynamo/ledger-repository';
import { DynamoTopUps } from '../../functions/adapters/dynamo/top-ups-repository';
import type { TopUp, TopUpAdjustment } from '../../functions/domain/billing/top-ups';
import { BalanceInDebtError, InsufficientBalanceError } from '../../functions/domain/errors';
import { failedAt } from '../../functions/domain/jobs/job';
import { newId } from '../../functions/domain/shared/ids';
import { aJob } from '../support/builders/jobs';
import { type DataBackend, startDataBackend } from '../support/data-backend';

let backend: DataBackend;
let ledger: DynamoLedger;
let accounts: DynamoAccounts;
let topUps: DynamoTopUps;

beforeAll(async () => {
  backend = await startDataBackend();
  ledger = new DynamoLedger(backend.table, newId);
  accounts = new DynamoAccounts(backend.table, newId);
  topUps = new DynamoTopUps(backend.table, newId);
});
afterAll(() => backend.close());

const openAccount = async (balanceMicros: number) => {
  const accountId = newId('acc');
  await accounts.create(
    { accountId, name: 'test', balanceMicros, defaultModelVersion: 'v2', createdAt: Date.now() },
    'opening credit',
  );
  return accountId;
};

const pendingTopUp = async (accountId: string, amountMicros = 25_000_000): Promise<TopUp> => {
  const topUp: TopUp = {
    topUpId: newId('tup'),
    accountId,
    amountMicros,
    status: 'pending',
    createdAt: Date.now(),
    checkoutSessionId: null,
    checkoutUrl: null,
    creditedMicros: null,
    paymentIntentId: null,
    completedAt: null,
    refundedMicros: 0,
    disputedMicros: 0,
  };
  await topUps.create(topUp);
  return topUp;
};

const entriesSum = async (accountId: string) =>
  (await ledger.allEntries(accountId)).reduce((sum, entry) => sum + entry.amountMicros, 0);

const credit = (topUp: TopUp, eventId: string, paymentIntentId = `pi_${topUp.topUpId}`) =>
  topUps.credit({
    eventId,
    accountId: topUp.accountId,
    topUpId: topUp.topUpId,
    amountMicros: topUp.amountMicros,
    paymentIntentId,
    at: Date.now(),
  });

/** Stripe's word, applied as the webhook applies it (top-ups.ts, adjustmentFor). */
const adjust = (topUp: TopUp, eventId: string, change: (current: TopUp) => TopUpAdjustment | undefined) =>
  topUps.adjust({
    eventId,
    accountId: topUp.accountId,
    topUpId: topUp.topUpId,
    change,
    note: 'stripe',
    at: Date.now(),
  });

const refund = (topUp: TopUp, eventId: string, cumulativeMicros: number) =>
  adjust(topUp, eventId, (current) =>
    cumulativeMicros > current.refundedMicros ? { refundedMicros: cumulativeMicros } : undefined,
  );

describe('a top-up’s credit', () => {
  it('is applied once: the same event, and another event for the same top-up, find it done', async () => {
    const accountId = await openAccount(0);
    const topUp = await pendingTopUp(accountId);
    expect(await credit(topUp, 'evt_a')).toBe('applied');
    expect(await credit(topUp, 'evt_a')).toBe('duplicate-event');
    expect(await credit(topUp, 'evt_b')).toBe('already-applied');
    expect(await ledger.balance(accountId)).toBe(25_000_000);
    expect(await topUps.get(accountId, topUp.topUpId)).toMatchObject({
      status: 'completed',
      creditedMicros: 25_000_000,
    });
    expect(await topUps.findByPayment(`pi_${topUp.topUpId}`)).toEqual({ accountId, topUpId: topUp.topUpId });
  });

  it('is applied once when twenty deliveries race, while reservations move the balance', async () => {
    const accountId = await openAccount(10_000_000);
    const topUp = await pendingTopUp(accountId);
    const outcomes = await Promise.all([
      ...Array.from({ length: 10 }, () => credit(topUp, 'evt_same')),
      ...Array.from({ length: 10 }, (_, i) => credit(topUp, `evt_${i}`)),
      ...Array.from({ length: 3 }, () =>
        ledger.reserve({
          accountId,
          amountMicros: 1_000_000,
          creates: { kind: 'job', job: aJob(accountId) },
          at: Date.now(),
        }),
      ),
    ]);
    expect(outcomes.filter((outcome) => outcome === 'applied')).toHaveLength(1);
    expect(await ledger.balance(accountId)).toBe(10_000_000 + 25_000_000 - 3_000_000);
    expect(await entriesSum(accountId)).toBe(await ledger.balance(accountId));
  });
});

describe('a refund’s debit', () => {
  it('takes the difference of the cumulative amounts, once, whatever order they arrive in', async () => {
    const accountId = await openAccount(0);
    const topUp = await pendingTopUp(accountId);
    await credit(topUp, 'evt_c');
    expect(await refund(topUp, 'evt_r2', 15_000_000)).toBe('applied');
    expect(await refund(topUp, 'evt_r1', 10_000_000)).toBe('already-applied');
    // The same event again: its amount is already recorded, so it is not even claimed.
    expect(await refund(topUp, 'evt_r2', 15_000_000)).toBe('already-applied');
    expect(await ledger.balance(accountId)).toBe(10_000_000);
    const racing = await Promise.all(Array.from({ length: 8 }, (_, i) => refund(topUp, `evt_r3_${i}`, 20_000_000)));
    expect(racing.filter((outcome) => outcome === 'applied')).toHaveLength(1);
    expect(await ledger.balance(accountId)).toBe(5_000_000);
    expect(await entriesSum(accountId)).toBe(5_000_000);
  });

  it('never takes the balance below zero: the rest is debt, which refuses reservations and the next credit repays', async () => {
    const accountId = await openAccount(0);
    const topUp = await pendingTopUp(accountId, 20_000_000);
    await credit(topUp, 'evt_d');
    await ledger.reserve({
      accountId,
      amountMicros: 15_000_000,
      creates: { kind: 'job', job: aJob(accountId) },
      at: Date.now(),
    });
    expect(await refund(topUp, 'evt_full', 20_000_000)).toBe('applied');
    expect(await readFunds(backend.table, accountId)).toEqual({ balanceMicros: 0, debtMicros: 15_000_000 });
    const reserve = ledger.reserve({
      accountId,
      amountMicros: 0,
      creates: { kind: 'job', job: aJob(accountId) },
      at: Date.now(),
    });
    await expect(reserve).rejects.toThrow(BalanceInDebtError);
    await expect(reserve).rejects.toMatchObject({ code: 'BALANCE_IN_DEBT', debtMicros: 15_000_000 });
    // An operator's credit repays first, too: 10 of the 15 owed.
    await ledger.credit({ accountId, amountMicros: 10_000_000, note: 'admin credit', at: Date.now() });
    expect(await readFunds(backend.table, accountId)).toEqual({ balanceMicros: 0, debtMicros: 5_000_000 });
    await ledger.credit({ accountId, amountMicros: 8_000_000, note: 'admin credit', at: Date.now() });
    expect(await readFunds(backend.table, accountId)).toEqual({ balanceMicros: 3_000_000, debtMicros: 0 });
    expect(await entriesSum(accountId)).toBe(3_000_000);
    await expect(
      ledger.reserve({
        accountId,
        amountMicros: 4_000_000,
        creates: { kind: 'job', job: aJob(accountId) },
        at: Date.now(),
      }),
    ).rejects.toThrow(InsufficientBalanceError);
    await ledger.reserve({
      accountId,
      amountMicros: 3_000_000,
      creates: { kind: 'job', job: aJob(accountId) },
      at: Date.now(),
    });
    expect(await ledger.balance(accountId)).toBe(0);
  });
});

describe('a dispute and a failed refund', () => {
  it('debit when the dispute opens, give back when it is won or the refund fails, never beyond the credit', async () => {
    const accountId = await openAccount(0);
    const topUp = await pendingTopUp(accountId, 20_000_000);
    await credit(topUp, 'evt_dc');
    expect(await adjust(topUp, 'evt_open', () => ({ disputedMicros: 20_000_000 }))).toBe('applied');
    expect(await readFunds(backend.table, accountId)).toEqual({ balanceMicros: 0, debtMicros: 0 });
    expect(await adjust(topUp, 'evt_open', () => ({ disputedMicros: 20_000_000 }))).toBe('duplicate-event');
    // A refund within what the dispute already took: Stripe's word is kept, no money moves.
    expect(await refund(topUp, 'evt_ref', 5_000_000)).toBe('applied');
    expect(await ledger.balance(accountId)).toBe(0);
    expect(await adjust(topUp, 'evt_won', () => ({ disputedMicros: 0, disputeClosed: true }))).toBe('applied');
    expect(await ledger.balance(accountId)).toBe(15_000_000);
    expect(
      await adjust(topUp, 'evt_refund_failed', () => ({ refundFailedMicros: 5_000_000, failedRefundIds: ['re_1'] })),
    ).toBe('applied');
    expect(await ledger.balance(accountId)).toBe(20_000_000);
    expect(await topUps.get(accountId, topUp.topUpId)).toMatchObject({
      disputeClosed: true,
      failedRefundIds: ['re_1'],
      revision: 4,
    });
    expect(await entriesSum(accountId)).toBe(20_000_000);
  });

  it('apply racing changes each once, each computed from the top-up as the last one left it', async () => {
    const accountId = await openAccount(0);
    const topUp = await pendingTopUp(accountId, 20_000_000);
    await credit(topUp, 'evt_rc');
    const outcomes = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        adjust(topUp, `evt_race_${i}`, (current) => ({ refundedMicros: current.refundedMicros + 1_000_000 })),
      ),
    );
    expect(outcomes.filter((outcome) => outcome === 'applied')).toHaveLength(6);
    expect(await ledger.balance(accountId)).toBe(14_000_000);
    expect(await entriesSum(accountId)).toBe(14_000_000);
  });
});

describe('a debt', () => {
  it('is repaid first by a release, so a balance never sits beside a debt', async () => {
    const accountId = await openAccount(0);
    const topUp = await pendingTopUp(accountId, 20_000_000);
    await credit(topUp, 'evt_debt_credit');
    const job = aJob(accountId);
    await ledger.reserve({ accountId, amountMicros: 15_000_000, creates: { kind: 'job', job }, at: Date.now() });
    await refund(topUp, 'evt_debt_refund', 20_000_000);
    expect(await readFunds(backend.table, accountId)).toEqual({ balanceMicros: 0, debtMicros: 15_000_000 });
    const released = await ledger.release({
      accountId,
      ends: { kind: 'job', id: job.jobId, end: failedAt(Date.now(), { code: 'TIMEOUT', message: 'too slow' }) },
      at: Date.now(),
      known: { reservedMicros: 15_000_000 },
    });
    expect(released).toMatchObject({ applied: true, chargeState: 'released' });
    expect(await readFunds(backend.table, accountId)).toEqual({ balanceMicros: 0, debtMicros: 0 });
    expect(await entriesSum(accountId)).toBe(0);
  });

  it('is repaid by a release only up to what it owes; the rest is the balance', async () => {
    const accountId = await openAccount(0);
    const topUp = await pendingTopUp(accountId, 10_000_000);
    await credit(topUp, 'evt_debt2_credit');
    const job = aJob(accountId);
    await ledger.reserve({ accountId, amountMicros: 8_000_000, creates: { kind: 'job', job }, at: Date.now() });
    await refund(topUp, 'evt_debt2_refund', 5_000_000);
    expect(await readFunds(backend.table, accountId)).toEqual({ balanceMicros: 0, debtMicros: 3_000_000 });
    await ledger.release({
      accountId,
      ends: { kind: 'job', id: job.jobId, end: failedAt(Date.now(), { code: 'TIMEOUT', message: 'too slow' }) },
      at: Date.now(),
    });
    expect(await readFunds(backend.table, accountId)).toEqual({ balanceMicros: 5_000_000, debtMicros: 0 });
    expect(await entriesSum(accountId)).toBe(5_000_000);
  });
});

describe('the top-up list', () => {
  it('pages newest first and refuses a cursor it did not give out', async () => {
    const accountId = await openAccount(0);
    const made = [];
    for (let i = 0; i < 3; i += 1) made.push((await pendingTopUp(accountId)).topUpId);
    const first = await topUps.list(accountId, { limit: 2 });
    expect(first.topUps.map((t) => t.topUpId)).toEqual([made[2], made[1]]);
    const second = await topUps.list(accountId, { limit: 2, cursor: first.cursor });
    expect(second.topUps.map((t) => t.topUpId)).toEqual([made[0]]);
    await expect(
      topUps.list(accountId, { limit: 2, cursor: Buffer.from('JOB#x').toString('base64url') }),
    ).rejects.toThrow(/cursor/);
  });
});

describe('the billing settings’ claims', () => {
  it('let one of racing settles send the notice and one claim the window, until the window has passed', async () => {
    const settings = new DynamoBillingSettings(backend.table);
    const accountId = await openAccount(0);
    await settings.update(accountId, { lowBalanceThresholdMicros: 1_000_000, webhookUrl: 'https://example.com/h' });
    const notices = await Promise.all(Array.from({ length: 10 }, () => settings.claimLowNotice(accountId)));
    expect(notices.filter(Boolean)).toHaveLength(1);
    await settings.clearLowNotice(accountId);
    expect(await settings.claimLowNotice(accountId)).toBe(true);

    const claim = (now: number, windowMs = 3_600_000) =>
      settings.claimRecharge(accountId, {
        now,
        windowMs,
        amountMicros: 1_000_000,
        dayStart: 0,
        dailyMaxMicros: 500_000_000,
      });
    const windows = await Promise.all(Array.from({ length: 10 }, () => claim(10_000)));
    expect(windows.filter(Boolean)).toHaveLength(1);
    expect(await claim(10_000 + 3_599_999)).toBe(false);
    expect(await claim(10_000 + 3_600_000)).toBe(true);
  });

  it('holds the daily cap of automatic charges under a race of claims, per day', async () => {
    const settings = new DynamoBillingSettings(backend.table);
    const accountId = await openAccount(0);
    const claim = (dayStart: number) =>
      settings.claimRecharge(accountId, {
        now: dayStart + 1,
        windowMs: 0,
        amountMicros: 200_000_000,
        dayStart,
        dailyMaxMicros: 500_000_000,
      });
    const claims = await Promise.all(Array.from({ length: 12 }, () => claim(0)));
    expect(claims.filter(Boolean)).toHaveLength(2);
    expect(await settings.rechargedOn(accountId, 0)).toBe(400_000_000);
    expect(await claim(86_400_000)).toBe(true);
    expect(
      await settings.claimRecharge(accountId, {
        now: 86_400_002,
        windowMs: 0,
        amountMicros: 600_000_000,
        dayStart: 86_400_000,
        dailyMaxMicros: 500_000_000,
      }),
    ).toBe(false);
  });

  it('keeps the newest consenting card, and a decline turns auto-recharge off until it is turned on again', async () => {
    const settings = new DynamoBillingSettings(backend.table);
    const accountId = await openAccount(0);
    await settings.saveCard(accountId, { customerId: 'cus_0', paymentIntentId: 'pi_0', consentedAt: 1 });
    await settings.saveCard(accountId, { customerId: 'cus_1', paymentIntentId: 'pi_1', consentedAt: 2 });
    // An older consent delivered late (or replayed) keeps the newer card.
    await settings.saveCard(accountId, { customerId: 'cus_2', paymentIntentId: 'pi_2', consentedAt: 1 });
    await settings.update(accountId, { autoRecharge: { enabled: true, thresholdMicros: 1, amountMicros: 5_000_000 } });
    await settings.disableAutoRecharge(accountId, 'card_declined');
    expect(await settings.get(accountId)).toMatchObject({
      card: { customerId: 'cus_1', paymentIntentId: 'pi_1' },
      autoRecharge: { enabled: false, thresholdMicros: 1, amountMicros: 5_000_000 },
      disabledReason: 'card_declined',
    });
    await settings.update(accountId, { autoRecharge: { enabled: true, thresholdMicros: 1, amountMicros: 5_000_000 } });
    expect(await settings.get(accountId)).toMatchObject({ autoRecharge: { enabled: true }, disabledReason: null });
  });
});
