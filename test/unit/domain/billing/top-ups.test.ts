/**
 * The top-up rules without the table: the amount a developer may ask (dollars, two decimals, the
 * operator's limits), cents converted exactly, and what each Stripe notice does (credits only a session
 * this service opened, in USD, with the amount Stripe reports; refunds of a payment not credited yet are
 * sent back to be delivered again).
 */
import {
  adjustmentFor,
  applyStripeNotice,
  createTopUp,
  fromCents,
  type StripeNotice,
  type TopUp,
  type TopUpsRepository,
  takenBack,
  toCents,
  topUpAmount,
} from '../../../../functions/domain/billing/top-ups';
import { ServiceUnavailableError } from '../../../../functions/domain/errors';

const LIMITS = { minMicros: 5_000_000, maxMicros: 2_000_000_000 };

describe('topUpAmount', () => {
  it.each([
    ['25.00', 25_000_000],
    ['25', 25_000_000],
    ['5.5', 5_500_000],
    ['5.00', 5_000_000],
    ['2000.00', 2_000_000_000],
  ])('reads %s as %i micro-USD', (text, micros) => {
    expect(topUpAmount(text, LIMITS)).toEqual({ micros });
  });

  it.each(['25.001', '25,00', '-5', '+5', ' 25', '1e3', '', '.50', '25.'])(
    'refuses %j: not dollars with two decimals',
    (text) => {
      expect(topUpAmount(text, LIMITS)).toEqual({ problem: expect.stringMatching(/at most two decimals/) });
    },
  );

  it('refuses amounts outside the limits, naming them', () => {
    expect(topUpAmount('4.99', LIMITS)).toEqual({ problem: 'amount must be from 5.00 to 2000.00 USD.' });
    expect(topUpAmount('2000.01', LIMITS)).toEqual({ problem: 'amount must be from 5.00 to 2000.00 USD.' });
  });
});

describe('cents', () => {
  it('converts exactly both ways', () => {
    expect(toCents(25_000_000)).toBe(2500);
    expect(toCents(10_000)).toBe(1);
    expect(fromCents(2500)).toBe(25_000_000);
    expect(fromCents(1)).toBe(10_000);
  });

  it('refuses what is not a whole number of cents', () => {
    expect(() => toCents(25_000_001)).toThrow(/not a whole number of cents/);
    expect(() => fromCents(2.5)).toThrow();
    expect(() => fromCents(-1)).toThrow();
  });
});

const aTopUp = (overrides: Partial<TopUp> = {}): TopUp => ({
  topUpId: 'tup_1',
  accountId: 'acc_1',
  amountMicros: 25_000_000,
  status: 'pending',
  createdAt: 0,
  checkoutSessionId: 'cs_1',
  checkoutUrl: 'https://checkout.example/cs_1',
  creditedMicros: null,
  paymentIntentId: null,
  completedAt: null,
  refundedMicros: 0,
  disputedMicros: 0,
  ...overrides,
});

/** A repository that keeps what it is told and records the credits and debits asked of it. */
const repository = (
  topUps: TopUp[] = [aTopUp()],
  payments: Record<string, { accountId: string; topUpId: string }> = {},
) => {
  const credits: unknown[] = [];
  const debits: unknown[] = [];
  const closed: string[] = [];
  const unhandled: string[] = [];
  const repo: TopUpsRepository = {
    create: async (topUp) => void topUps.push(topUp),
    attachSession: async (_account, id, session) => {
      const found = topUps.find((t) => t.topUpId === id);
      if (found) Object.assign(found, { checkoutSessionId: session.sessionId, checkoutUrl: session.url });
    },
    close: async (_account, id, status) => {
      closed.push(`${id}:${status}`);
      return true;
    },
    get: async (accountId, id) => topUps.find((t) => t.accountId === accountId && t.topUpId === id),
    list: async () => ({ topUps }),
    credit: async (input) => {
      credits.push(input);
      return 'applied';
    },
    findByPayment: async (id) => payments[id],
    adjust: async (input) => {
      const topUp = topUps.find((t) => t.topUpId === input.topUpId);
      const change = topUp && input.change(topUp);
      debits.push({ topUpId: input.topUpId, note: input.note, change });
      if (!topUp || !change) return 'already-applied';
      Object.assign(topUp, change);
      return 'applied';
    },
    attachPayment: async () => undefined,
    recordUnhandled: async (eventId, reason) => void unhandled.push(`${eventId}:${reason}`),
  };
  return { repo, credits, debits, closed, topUps, unhandled };
};

const log = { info: jest.fn(), warn: jest.fn() };
const savedCards: unknown[] = [];
const declines: string[] = [];
const announced: string[] = [];
const alarms: string[] = [];
const deps = (repo: TopUpsRepository) => ({
  topUps: repo,
  clock: () => 1_000,
  log,
  saveCard: async (accountId: string, card: unknown) => void savedCards.push({ accountId, card }),
  declined: async (topUp: TopUp, reason: string) => void declines.push(`${topUp.topUpId}:${reason}`),
  charged: async (topUp: TopUp, charge: { amountCents: number }) =>
    void announced.push(`${topUp.topUpId}:${charge.amountCents}`),
  alarm: { unhandled: (kind: string) => void alarms.push(kind) },
});

const paid = (overrides: Partial<Extract<StripeNotice, { kind: 'checkout-paid' }>> = {}): StripeNotice => ({
  kind: 'checkout-paid',
  eventId: 'evt_1',
  sessionId: 'cs_1',
  ref: { accountId: 'acc_1', topUpId: 'tup_1' },
  amountCents: 2500,
  currency: 'usd',
  paymentIntentId: 'pi_1',
  customerId: 'cus_1',
  ...overrides,
});

describe('applyStripeNotice', () => {
  it('credits a paid session of one of its top-ups with the amount Stripe reports', async () => {
    const { repo, credits } = repository();
    expect(await applyStripeNotice(deps(repo), paid({ amountCents: 2499 }))).toBe('credited');
    expect(credits).toEqual([
      {
        eventId: 'evt_1',
        accountId: 'acc_1',
        topUpId: 'tup_1',
        amountMicros: 24_990_000,
        paymentIntentId: 'pi_1',
        at: 1_000,
      },
    ]);
  });

  it.each([
    ['no metadata', paid({ ref: null })],
    ['an unknown top-up', paid({ ref: { accountId: 'acc_1', topUpId: 'tup_other' } })],
    ['another account', paid({ ref: { accountId: 'acc_2', topUpId: 'tup_1' } })],
    ['another session than the top-up’s', paid({ sessionId: 'cs_2' })],
  ])('credits nothing for a session it did not open (%s)', async (_case, notice) => {
    const { repo, credits } = repository();
    expect(await applyStripeNotice(deps(repo), notice)).toBe('foreign');
    expect(credits).toEqual([]);
  });

  it('keeps the card of a top-up paid with consent, and of no other', async () => {
    savedCards.length = 0;
    const { repo } = repository([aTopUp({ saveCard: true }), aTopUp({ topUpId: 'tup_2', checkoutSessionId: 'cs_2' })]);
    await applyStripeNotice(deps(repo), paid());
    await applyStripeNotice(
      deps(repo),
      paid({ eventId: 'evt_2', sessionId: 'cs_2', ref: { accountId: 'acc_1', topUpId: 'tup_2' } }),
    );
    expect(savedCards).toEqual([
      { accountId: 'acc_1', card: { customerId: 'cus_1', paymentIntentId: 'pi_1', consentedAt: 0 } },
    ]);
  });

  it('saves the card again on a redelivery whose credit is already in (a save that failed is retried)', async () => {
    savedCards.length = 0;
    const { repo } = repository([aTopUp({ saveCard: true })]);
    repo.credit = async () => 'duplicate-event';
    expect(await applyStripeNotice(deps(repo), paid())).toBe('duplicate');
    expect(savedCards).toHaveLength(1);
  });

  it('credits a session whose id was not recorded yet (the event won the race with the answer)', async () => {
    const { repo, credits } = repository([aTopUp({ checkoutSessionId: null })]);
    expect(await applyStripeNotice(deps(repo), paid())).toBe('credited');
    expect(credits).toHaveLength(1);
  });

  it('credits nothing in another currency, and records and alarms the event', async () => {
    alarms.length = 0;
    const { repo, credits, unhandled } = repository();
    expect(await applyStripeNotice(deps(repo), paid({ currency: 'eur' }))).toBe('recorded');
    expect(credits).toEqual([]);
    expect(unhandled).toEqual(['evt_1:currency eur']);
    expect(alarms).toEqual(['currency']);
  });

  it('reports a credit already applied as a duplicate', async () => {
    const { repo } = repository();
    repo.credit = async () => 'already-applied';
    expect(await applyStripeNotice(deps(repo), paid())).toBe('duplicate');
  });

  it('adjusts a top-up by a refund’s cumulative amount, for the top-up its payment credited', async () => {
    const { repo, debits, topUps } = repository([aTopUp({ status: 'completed', creditedMicros: 25_000_000 })], {
      pi_1: { accountId: 'acc_1', topUpId: 'tup_1' },
    });
    const notice: StripeNotice = {
      kind: 'refunded',
      eventId: 'evt_2',
      paymentIntentId: 'pi_1',
      amountRefundedCents: 1000,
      currency: 'usd',
      ref: null,
    };
    expect(await applyStripeNotice(deps(repo), notice)).toBe('adjusted');
    expect(debits).toEqual([expect.objectContaining({ topUpId: 'tup_1', change: { refundedMicros: 10_000_000 } })]);
    expect(takenBack(topUps[0] as TopUp)).toBe(10_000_000);
  });

  it('records a refund or a dispute in another currency and alarms it, moving nothing', async () => {
    alarms.length = 0;
    const { repo, debits, unhandled } = repository([aTopUp()], { pi_1: { accountId: 'acc_1', topUpId: 'tup_1' } });
    const notice: StripeNotice = {
      kind: 'dispute',
      eventId: 'evt_eur',
      paymentIntentId: 'pi_1',
      amountCents: 2500,
      currency: 'eur',
      stage: 'opened',
    };
    expect(await applyStripeNotice(deps(repo), notice)).toBe('recorded');
    expect(debits).toEqual([]);
    expect(unhandled).toEqual(['evt_eur:currency eur']);
    expect(alarms).toEqual(['currency']);
  });

  it('credits an automatic charge from payment_intent.succeeded and announces it, and records its decline from payment_failed once', async () => {
    declines.length = 0;
    announced.length = 0;
    const auto = (topUpId: string) =>
      aTopUp({ topUpId, checkoutSessionId: null, rechargeCard: { customerId: 'cus_1', paymentIntentId: 'pi_c' } });
    const { repo, credits } = repository([auto('tup_a'), auto('tup_b')]);
    const ref = (topUpId: string) => ({ accountId: 'acc_1', topUpId });
    expect(
      await applyStripeNotice(deps(repo), {
        kind: 'payment-succeeded',
        eventId: 'evt_s',
        paymentIntentId: 'pi_a',
        ref: ref('tup_a'),
        amountCents: 2000,
        currency: 'usd',
      }),
    ).toBe('credited');
    expect(credits).toEqual([expect.objectContaining({ topUpId: 'tup_a', amountMicros: 20_000_000 })]);
    expect(announced).toEqual(['tup_a:2000']);
    const failed: StripeNotice = {
      kind: 'payment-failed',
      eventId: 'evt_f',
      paymentIntentId: 'pi_b',
      ref: ref('tup_b'),
      reason: 'card_declined',
      detail: 'Your card was declined.',
    };
    expect(await applyStripeNotice(deps(repo), failed)).toBe('declined');
    repo.close = async () => false;
    expect(await applyStripeNotice(deps(repo), failed)).toBe('duplicate');
    expect(declines).toEqual(['tup_b:card_declined']);
  });

  it('asks for a refund of its own payment not credited yet to be delivered again, and ignores another’s', async () => {
    const { repo } = repository();
    const refund = (ref: { accountId: string; topUpId: string } | null): StripeNotice => ({
      kind: 'refunded',
      eventId: 'evt_3',
      paymentIntentId: 'pi_9',
      amountRefundedCents: 100,
      currency: 'usd',
      ref,
    });
    await expect(applyStripeNotice(deps(repo), refund({ accountId: 'acc_1', topUpId: 'tup_1' }))).rejects.toThrow(
      ServiceUnavailableError,
    );
    expect(await applyStripeNotice(deps(repo), refund(null))).toBe('foreign');
  });

  it('closes an expired session’s top-up, and ignores events it does not act on', async () => {
    const { repo, closed } = repository();
    const expired: StripeNotice = {
      kind: 'checkout-closed',
      eventId: 'e',
      sessionId: 'cs_1',
      ref: { accountId: 'acc_1', topUpId: 'tup_1' },
      status: 'expired',
    };
    expect(await applyStripeNotice(deps(repo), expired)).toBe('closed');
    expect(closed).toEqual(['tup_1:expired']);
    expect(await applyStripeNotice(deps(repo), { kind: 'ignored', eventId: 'e', type: 'customer.created' })).toBe(
      'ignored',
    );
  });
});

describe('createTopUp', () => {
  const caller = { accountId: 'acc_1', keyId: 'key_1' };
  const base = { clock: () => 5, newId: () => 'tup_new', log };

  it('answers 503 without Stripe configured, recording nothing', async () => {
    const { repo, topUps } = repository([]);
    await expect(
      createTopUp({ ...base, topUps: repo, checkout: undefined }, caller, {
        amountMicros: 5_000_000,
        returnUrl: 'https://x/portal#/billing',
      }),
    ).rejects.toThrow(/no Stripe account configured/);
    expect(topUps).toEqual([]);
  });

  it('records the top-up before asking Stripe, and marks it failed when Stripe refuses', async () => {
    const { repo, topUps, closed } = repository([]);
    const checkout = {
      createSession: jest.fn(async () => {
        expect(topUps).toHaveLength(1);
        throw new Error('stripe is down');
      }),
    };
    await expect(
      createTopUp({ ...base, topUps: repo, checkout }, caller, {
        amountMicros: 5_000_000,
        returnUrl: 'https://x/portal#/billing',
      }),
    ).rejects.toThrow(ServiceUnavailableError);
    expect(closed).toEqual(['tup_new:failed']);
  });

  it('asks for the amount in cents and returns to the Billing page with the top-up named', async () => {
    const { repo, topUps } = repository([]);
    const checkout = {
      createSession: jest.fn(async () => ({ sessionId: 'cs_9', url: 'https://checkout.example/cs_9' })),
    };
    const answer = await createTopUp({ ...base, topUps: repo, checkout }, caller, {
      amountMicros: 12_340_000,
      returnUrl: 'https://x/portal#/billing',
    });
    expect(answer).toEqual({
      top_up_id: 'tup_new',
      checkout_url: 'https://checkout.example/cs_9',
      amount: '12.34',
      status: 'pending',
    });
    expect(checkout.createSession).toHaveBeenCalledWith({
      topUpId: 'tup_new',
      accountId: 'acc_1',
      amountCents: 1234,
      saveCard: false,
      successUrl: 'https://x/portal#/billing?top_up=tup_new&checkout=returned',
      cancelUrl: 'https://x/portal#/billing?top_up=tup_new&checkout=canceled',
    });
    expect(topUps[0]).toMatchObject({ checkoutSessionId: 'cs_9', status: 'pending' });
  });
});

describe('what refunds and disputes take back', () => {
  const credited = aTopUp({ status: 'completed', creditedMicros: 25_000_000 });
  type Adjusting = Parameters<typeof adjustmentFor>[0];
  const dispute = (stage: 'opened' | 'won' | 'lost', amountCents = 2500): Adjusting => ({
    kind: 'dispute',
    eventId: 'e',
    paymentIntentId: 'pi_1',
    amountCents,
    currency: 'usd',
    stage,
  });
  const refunded = (cents: number): Adjusting => ({
    kind: 'refunded',
    eventId: 'e',
    paymentIntentId: 'pi_1',
    amountRefundedCents: cents,
    currency: 'usd',
    ref: null,
  });
  const refundFailed = (refundId: string, cents: number): Adjusting => ({
    kind: 'refund-failed',
    eventId: 'e',
    refundId,
    paymentIntentId: 'pi_1',
    amountCents: cents,
    currency: 'usd',
  });
  /** Applies notices in order, as the repository does, and answers what is taken back after each. */
  const run = (...notices: Adjusting[]) => {
    let topUp = { ...credited };
    return notices.map((notice) => {
      topUp = { ...topUp, ...adjustmentFor(notice, topUp) };
      return takenBack(topUp);
    });
  };

  it('takes a dispute back when it is opened and gives it back when it is won', () => {
    expect(run(dispute('opened'), dispute('won'))).toEqual([25_000_000, 0]);
  });

  it('takes a lost dispute once, whether or not its opening came first', () => {
    expect(run(dispute('opened'), dispute('lost'))).toEqual([25_000_000, 25_000_000]);
    expect(run(dispute('lost'))).toEqual([25_000_000]);
  });

  it('lets a late opening move nothing once the dispute is closed', () => {
    expect(run(dispute('won'), dispute('opened'))).toEqual([0, 0]);
    expect(adjustmentFor(dispute('opened'), { ...credited, disputeClosed: true })).toBeUndefined();
  });

  it('never takes back more than the payment credited, a refund and a lost dispute together', () => {
    expect(run(refunded(1000), dispute('lost'))).toEqual([10_000_000, 25_000_000]);
    expect(run(dispute('opened', 2000), refunded(2500))).toEqual([20_000_000, 25_000_000]);
  });

  it('gives a failed refund back once, whichever event names it', () => {
    expect(run(refunded(1000), refundFailed('re_1', 1000), refundFailed('re_1', 1000))).toEqual([10_000_000, 0, 0]);
  });

  it('takes a refund by its cumulative amount: an older one after a newer one changes nothing', () => {
    expect(run(refunded(1500), refunded(1000))).toEqual([15_000_000, 15_000_000]);
    expect(adjustmentFor(refunded(1000), { ...credited, refundedMicros: 15_000_000 })).toBeUndefined();
  });
});
