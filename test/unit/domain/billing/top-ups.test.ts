/**
 * The top-up rules without the table: the amount a developer may ask (dollars, two decimals, the
 * operator's limits), cents converted exactly, and what each Stripe notice does (credits only a session
 * this service opened, in USD, with the amount Stripe reports; refunds of a payment not credited yet are
 * sent back to be delivered again).
 */
import {
  applyStripeNotice,
  createTopUp,
  fromCents,
  type StripeNotice,
  type TopUp,
  type TopUpsRepository,
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
    debit: async (input) => {
      debits.push(input);
      return 'applied';
    },
  };
  return { repo, credits, debits, closed, topUps };
};

const log = { info: jest.fn(), warn: jest.fn() };
const savedCards: unknown[] = [];
const deps = (repo: TopUpsRepository) => ({
  topUps: repo,
  clock: () => 1_000,
  log,
  saveCard: async (accountId: string, card: unknown) => void savedCards.push({ accountId, card }),
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
    expect(savedCards).toEqual([{ accountId: 'acc_1', card: { customerId: 'cus_1', paymentIntentId: 'pi_1' } }]);
  });

  it('credits a session whose id was not recorded yet (the event won the race with the answer)', async () => {
    const { repo, credits } = repository([aTopUp({ checkoutSessionId: null })]);
    expect(await applyStripeNotice(deps(repo), paid())).toBe('credited');
    expect(credits).toHaveLength(1);
  });

  it('credits nothing in another currency', async () => {
    const { repo, credits } = repository();
    expect(await applyStripeNotice(deps(repo), paid({ currency: 'eur' }))).toBe('ignored');
    expect(credits).toEqual([]);
  });

  it('reports a credit already applied as a duplicate', async () => {
    const { repo } = repository();
    repo.credit = async () => 'already-applied';
    expect(await applyStripeNotice(deps(repo), paid())).toBe('duplicate');
  });

  it('debits a refund by its cumulative amount, for the top-up its payment credited', async () => {
    const { repo, debits } = repository([aTopUp()], { pi_1: { accountId: 'acc_1', topUpId: 'tup_1' } });
    const notice: StripeNotice = {
      kind: 'refunded',
      eventId: 'evt_2',
      paymentIntentId: 'pi_1',
      amountRefundedCents: 1000,
      currency: 'usd',
      ref: null,
    };
    expect(await applyStripeNotice(deps(repo), notice)).toBe('debited');
    expect(debits).toEqual([
      expect.objectContaining({ field: 'refundedMicros', cumulativeMicros: 10_000_000, topUpId: 'tup_1' }),
    ]);
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

  it('debits a lost dispute by the disputed amount', async () => {
    const { repo, debits } = repository([aTopUp()], { pi_1: { accountId: 'acc_1', topUpId: 'tup_1' } });
    const notice: StripeNotice = {
      kind: 'dispute-lost',
      eventId: 'evt_4',
      paymentIntentId: 'pi_1',
      amountCents: 2500,
      currency: 'usd',
    };
    expect(await applyStripeNotice(deps(repo), notice)).toBe('debited');
    expect(debits).toEqual([expect.objectContaining({ field: 'disputedMicros', cumulativeMicros: 25_000_000 })]);
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
