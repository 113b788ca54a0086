import {
  decodeCursor,
  encodeCursor,
  ledgerEntryBody,
  spendByDay,
} from '../../../../functions/domain/accounts/statement';
import { MAX_CALLBACK_ATTEMPTS } from '../../../../functions/domain/callbacks/retry-schedule';
import { attemptBody } from '../../../../functions/domain/jobs/deliveries';
import { moneyBody, usdDecimal } from '../../../../functions/domain/shared/money';

describe('money on the wire', () => {
  it.each([
    [0, '0.00'],
    [1_490_000, '1.49'],
    [120_000, '0.12'],
    [232, '0.000232'],
    [-60_000, '-0.06'],
    [12_345_678, '12.345678'],
    [100_000_000, '100.00'],
  ])('%i micro-USD is "%s"', (micros, usd) => {
    expect(usdDecimal(micros)).toBe(usd);
    expect(moneyBody(micros)).toEqual({ usd, micro_usd: micros });
  });
});

describe('statement cursors', () => {
  it('round-trips the last entry shown and the balance before it', () => {
    const position = { entryId: 'led_01m85x04vrhejq8d98qt80qsz7', balanceBeforeMicros: -12_000 };
    expect(decodeCursor(encodeCursor(position))).toEqual(position);
  });

  it.each([
    ['not base64 JSON', 'bm90IGEgY3Vyc29y'],
    ['another shape', Buffer.from(JSON.stringify({ entryId: 'led_1' })).toString('base64url')],
    ['another key space', Buffer.from(JSON.stringify(['job_1', 0])).toString('base64url')],
    ['a fractional balance', Buffer.from(JSON.stringify(['led_1', 0.5])).toString('base64url')],
    ['a padded encoding', `${encodeCursor({ entryId: 'led_1', balanceBeforeMicros: 1 })}=`],
  ])('refuses %s as a cursor it did not hand out', (_name, cursor) => {
    expect(() => decodeCursor(cursor)).toThrow(expect.objectContaining({ code: 'INVALID_REQUEST' }));
  });

  it('shows an entry with its owner and both amounts', () => {
    expect(
      ledgerEntryBody({
        entryId: 'led_1',
        accountId: 'acc_1',
        kind: 'reserve',
        amountMicros: -120_000,
        owner: { kind: 'job', id: 'job_1' },
        note: null,
        createdAt: Date.parse('2026-11-24T00:00:00Z'),
        balanceAfterMicros: 9_880_000,
      }),
    ).toEqual({
      entry_id: 'led_1',
      created_at: '2026-11-24T00:00:00.000Z',
      kind: 'reserve',
      amount: { usd: '-0.12', micro_usd: -120_000 },
      balance_after: { usd: '9.88', micro_usd: 9_880_000 },
      job_id: 'job_1',
      profile_id: null,
      note: null,
    });
  });
});

describe('a delivery attempt as the log shows it', () => {
  const attempt = (result: number | 'timeout' | 'network', n = 1) =>
    attemptBody({
      deliveryId: 'dlv_1',
      accountId: 'acc_1',
      jobId: 'job_1',
      attempt: n,
      result,
      latencyMs: 12.6,
      at: Date.parse('2026-11-24T00:00:00Z'),
    });

  it('is the last of its delivery once delivered or refused with 410, or when the retries are spent', () => {
    expect(attempt(200).last).toBe(true);
    expect(attempt(204).last).toBe(true);
    expect(attempt(410).last).toBe(true);
    expect(attempt(500).last).toBe(false);
    expect(attempt('timeout').last).toBe(false);
    expect(attempt(500, MAX_CALLBACK_ATTEMPTS).last).toBe(true);
  });

  it('carries the status, or the reason there was none, and whole milliseconds', () => {
    expect(attempt(503)).toMatchObject({ response_status: 503, error: null, latency_ms: 13 });
    expect(attempt('network')).toMatchObject({ response_status: null, error: 'network' });
  });
});

describe('spend per day', () => {
  const now = Date.parse('2026-11-24T10:00:00Z');
  const entry = (kind: 'credit' | 'reserve' | 'settle' | 'release', amountMicros: number, at: string) => ({
    entryId: `led_${at}`,
    accountId: 'acc_1',
    kind,
    amountMicros,
    owner: null,
    note: null,
    createdAt: Date.parse(at),
  });
  const statements = (entries: ReturnType<typeof entry>[], truncated = false) => ({
    balance: async () => 0,
    statement: async () => ({ entries: [], next: null }),
    entriesSince: async (_accountId: string, since: number) => ({
      entries: entries.filter((e) => e.createdAt >= since),
      truncated,
    }),
  });

  it('sums each UTC day, today included: work net of refunds as spent, credits apart', async () => {
    const body = await spendByDay(
      {
        statements: statements([
          entry('credit', 10_000_000, '2026-11-20T09:00:00Z'),
          entry('reserve', -1_000_000, '2026-11-22T23:59:59Z'),
          entry('release', 1_000_000, '2026-11-23T00:00:01Z'),
          entry('reserve', -120_000, '2026-11-24T08:00:00Z'),
          entry('settle', 20_000, '2026-11-24T08:00:01Z'),
        ]),
      },
      { accountId: 'acc_1', keyId: 'key_1' },
      { days: 3, now },
    );
    expect(body).toEqual({
      days: [
        { date: '2026-11-22', spent: moneyBody(1_000_000), credited: moneyBody(0) },
        { date: '2026-11-23', spent: moneyBody(-1_000_000), credited: moneyBody(0) },
        { date: '2026-11-24', spent: moneyBody(100_000), credited: moneyBody(0) },
      ],
      truncated: false,
    });
  });

  it('reads at most 90 days and says when the entries were too many to sum', async () => {
    const body = await spendByDay(
      { statements: statements([], true) },
      { accountId: 'acc_1', keyId: 'key_1' },
      { days: 400, now },
    );
    expect(body.days).toHaveLength(90);
    expect(body.days.at(-1)!.date).toBe('2026-11-24');
    expect(body.truncated).toBe(true);
  });
});
