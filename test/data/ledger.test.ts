import { GetCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoAccounts } from '../../functions/adapters/dynamo/accounts-repository';
import { DynamoJobs } from '../../functions/adapters/dynamo/jobs-repository';
import { DynamoLedger } from '../../functions/adapters/dynamo/ledger-repository';
import { cancellationReasons, keys, TTL_GRACE_MS } from '../../functions/adapters/dynamo/table';
import type { ClientRequestIdClaim } from '../../functions/domain/billing/ledger';
import {
  AlreadyExistsError,
  ClientRequestIdTakenError,
  InsufficientBalanceError,
  NotFoundError,
  ServiceUnavailableError,
} from '../../functions/domain/errors';
import { failedAt, JOB_RETENTION_MS, succeededAt } from '../../functions/domain/jobs/job';
import { newId } from '../../functions/domain/shared/ids';
import { aJob } from '../support/builders/jobs';
import { type DataBackend, startDataBackend } from '../support/data-backend';

let backend: DataBackend;
let ledger: DynamoLedger;
let accounts: DynamoAccounts;

beforeAll(async () => {
  backend = await startDataBackend();
  ledger = new DynamoLedger(backend.table, newId);
  accounts = new DynamoAccounts(backend.table, newId);
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

type Owner = { kind: 'job'; id: string };

/** Reserves for a new job of the account (or the job `owner` names) and returns the owner. */
const reserve = (
  accountId: string,
  amountMicros: number,
  owner?: Owner,
  claim?: ClientRequestIdClaim,
): Promise<Owner> => {
  const job = aJob(accountId, owner ? { jobId: owner.id } : {});
  return ledger
    .reserve({ accountId, amountMicros, creates: { kind: 'job', job }, claim, at: Date.now() })
    .then(() => ({ kind: 'job', id: job.jobId }));
};

const succeeded = (owner: Owner, at = Date.now()) =>
  ({
    ...owner,
    end: succeededAt(at, { outputKeys: ['outputs/x.jpg'], outputFormat: 'jpg', knownSubjects: {} }),
  }) as const;
const failed = (owner: Owner, at = Date.now()) =>
  ({ ...owner, end: failedAt(at, { code: 'TIMEOUT', message: 'too slow' }) }) as const;

const expectLedgerMatchesBalance = async (accountId: string) => {
  const entries = await ledger.allEntries(accountId);
  expect(entries.reduce((sum, entry) => sum + entry.amountMicros, 0)).toBe(await ledger.balance(accountId));
};

describe('ledger', () => {
  it('opens an account with its credit recorded as the first entry', async () => {
    const accountId = await openAccount(5_000_000);
    expect(await ledger.balance(accountId)).toBe(5_000_000);
    const [entry] = await ledger.recentEntries(accountId, 10);
    expect(entry).toMatchObject({ kind: 'credit', amountMicros: 5_000_000, note: 'opening credit' });
  });

  it('lets exactly 50 of 100 concurrent reservations through against credit for 50', async () => {
    const accountId = await openAccount(50 * 120_000);
    const outcomes = await Promise.allSettled(Array.from({ length: 100 }, () => reserve(accountId, 120_000)));
    const refused = outcomes.filter((o) => o.status === 'rejected');
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(50);
    expect(refused).toHaveLength(50);
    for (const outcome of refused)
      expect((outcome as PromiseRejectedResult).reason).toBeInstanceOf(InsufficientBalanceError);
    expect(await ledger.balance(accountId)).toBe(0);
    await expectLedgerMatchesBalance(accountId);
  });

  it('refuses a reservation that does not fit and moves nothing', async () => {
    const accountId = await openAccount(100_000);
    await expect(reserve(accountId, 120_000)).rejects.toBeInstanceOf(InsufficientBalanceError);
    expect(await ledger.balance(accountId)).toBe(100_000);
    expect(await ledger.recentEntries(accountId, 10)).toHaveLength(1);
  });

  it('settles to the final amount once; a retried settle is a no-op', async () => {
    const accountId = await openAccount(1_000_000);
    const owner = await reserve(accountId, 300_000);
    const settle = () => ledger.settle({ accountId, finalMicros: 200_000, ends: succeeded(owner), at: Date.now() });
    expect(await settle()).toEqual({ applied: true, chargeState: 'settled', amountMicros: 200_000 });
    expect(await settle()).toEqual({ applied: false, chargeState: 'settled' });
    expect(await ledger.balance(accountId)).toBe(800_000);
    const kinds = (await ledger.allEntries(accountId)).map((entry) => entry.kind);
    expect(kinds.filter((kind) => kind === 'settle')).toHaveLength(1);
    await expectLedgerMatchesBalance(accountId);
  });

  it('names the identity retries a settle charged on its entry', async () => {
    const accountId = await openAccount(1_000_000);
    const owner = await reserve(accountId, 480_000);
    await ledger.settle({ accountId, finalMicros: 360_000, ends: succeeded(owner), at: Date.now(), retriedOutputs: 2 });
    const settled = (await ledger.allEntries(accountId)).find((entry) => entry.kind === 'settle');
    expect(settled).toMatchObject({ retriedOutputs: 2, note: expect.stringContaining('2 outputs made again') });
  });

  it('releases a reservation once; a retried release is a no-op', async () => {
    const accountId = await openAccount(1_000_000);
    const owner = await reserve(accountId, 300_000);
    const release = () => ledger.release({ accountId, ends: failed(owner), at: Date.now() });
    expect((await release()).applied).toBe(true);
    expect((await release()).applied).toBe(false);
    expect(await ledger.balance(accountId)).toBe(1_000_000);
    await expectLedgerMatchesBalance(accountId);
  });

  it('closes a charge its caller reserved without reading it first, and still moves nothing when something else closed it', async () => {
    const accountId = await openAccount(1_000_000);
    const owner = await reserve(accountId, 300_000);
    const known = { reservedMicros: 300_000 };
    expect(
      await ledger.settle({ accountId, finalMicros: 250_000, ends: succeeded(owner), at: Date.now(), known }),
    ).toEqual({ applied: true, chargeState: 'settled', amountMicros: 250_000 });
    expect(await ledger.release({ accountId, ends: failed(owner), at: Date.now(), known })).toEqual({
      applied: false,
      chargeState: 'settled',
    });
    expect(await ledger.balance(accountId)).toBe(750_000);

    // A caller wrong about the amount moves nothing on its word: the close reads the charge and uses it.
    const other = await reserve(accountId, 100_000);
    expect(
      await ledger.release({ accountId, ends: failed(other), at: Date.now(), known: { reservedMicros: 99_999 } }),
    ).toMatchObject({ applied: true, chargeState: 'released' });
    expect(await ledger.balance(accountId)).toBe(750_000);
    await expectLedgerMatchesBalance(accountId);
  });

  it('never both settles and releases one charge, even when both race', async () => {
    const accountId = await openAccount(1_000_000);
    const owner = await reserve(accountId, 300_000);
    const outcomes = await Promise.all([
      ledger.settle({ accountId, finalMicros: 300_000, ends: succeeded(owner), at: Date.now() }),
      ledger.release({ accountId, ends: failed(owner), at: Date.now() }),
      ledger.settle({ accountId, finalMicros: 300_000, ends: succeeded(owner), at: Date.now() }),
    ]);
    expect(outcomes.filter((outcome) => outcome.applied)).toHaveLength(1);
    const balance = await ledger.balance(accountId);
    expect([700_000, 1_000_000]).toContain(balance);
    await expectLedgerMatchesBalance(accountId);
  });

  it('never settles above the reservation: a larger final is charged as the reservation, the balance stays ≥ 0', async () => {
    const accountId = await openAccount(300_000);
    const owner = await reserve(accountId, 300_000);
    const outcome = await ledger.settle({ accountId, finalMicros: 450_000, ends: succeeded(owner), at: Date.now() });
    expect(outcome).toMatchObject({ applied: true, amountMicros: 300_000 });
    expect(await ledger.balance(accountId)).toBe(0);
    const [settle] = await ledger.recentEntries(accountId, 1);
    expect(settle).toMatchObject({ kind: 'settle', amountMicros: 0, owner });
    await expectLedgerMatchesBalance(accountId);
  });

  it('writes the owner record with its terminal state in the same transaction as the money, and its clean-up time', async () => {
    const accountId = await openAccount(1_000_000);
    const owner = await reserve(accountId, 300_000);
    const at = Date.parse('2026-11-23T12:00:00Z');
    await ledger.settle({ accountId, finalMicros: 250_000, ends: succeeded(owner, at), at });
    const { Item } = await backend.table.doc.send(
      new GetCommand({ TableName: backend.table.name, Key: keys.job(accountId, owner.id) }),
    );
    expect(Item).toMatchObject({
      type: 'job',
      status: 'succeeded',
      result: { outputKeys: ['outputs/x.jpg'] },
      completedAt: at,
      expiresAt: at + JOB_RETENTION_MS,
      ttl: Math.floor((at + JOB_RETENTION_MS + TTL_GRACE_MS) / 1000),
      chargeState: 'settled',
      reservedMicros: 300_000,
      finalMicros: 250_000,
    });
    expect(await new DynamoJobs(backend.table).get(accountId, owner.id)).toMatchObject({
      status: 'succeeded',
      completedAt: at,
    });
  });

  it('refuses to reserve twice for one owner and moves nothing the second time', async () => {
    const accountId = await openAccount(1_000_000);
    const owner = await reserve(accountId, 100_000);
    await expect(reserve(accountId, 100_000, owner)).rejects.toBeInstanceOf(AlreadyExistsError);
    expect(await ledger.balance(accountId)).toBe(900_000);
  });

  it('names a lost client_request_id claim, before any balance check, and moves nothing', async () => {
    const accountId = await openAccount(1_000_000);
    const claim = (jobId: string): ClientRequestIdClaim => ({
      clientRequestId: 'abc',
      jobId,
      fingerprint: 'f',
      keepUntil: Date.now() + 1000,
    });
    const first = await reserve(accountId, 100_000, undefined, claim('job_first'));
    const broke = await openAccount(0);
    await expect(reserve(accountId, 100_000, undefined, claim('job_second'))).rejects.toEqual(
      new ClientRequestIdTakenError('abc'),
    );
    expect(await ledger.balance(accountId)).toBe(900_000);
    expect(await new DynamoJobs(backend.table).findByClientRequestId(accountId, 'abc')).toEqual({
      jobId: 'job_first',
      fingerprint: 'f',
    });
    expect(first.id).toMatch(/^job_/);
    // The claim is per account: another account may use the same id (here refused only for its balance).
    await expect(reserve(broke, 100_000, undefined, claim('job_third'))).rejects.toBeInstanceOf(
      InsufficientBalanceError,
    );
  });

  it("gives a running asynchronous job's place back when its charge closes, and only then", async () => {
    const accountId = await openAccount(1_000_000);
    const jobs = new DynamoJobs(backend.table);
    const place = async () =>
      ((
        await backend.table.doc.send(
          new GetCommand({ TableName: backend.table.name, Key: keys.runningJobs(accountId), ConsistentRead: true }),
        )
      ).Item?.running as number | undefined) ?? 0;
    const running = await reserve(accountId, 100_000);
    const pending = await reserve(accountId, 100_000);
    expect(await jobs.markRunning(accountId, running.id, Date.now(), 1)).toBe('started');
    expect(await jobs.markRunning(accountId, pending.id, Date.now(), 1)).toBe('full');
    expect(await jobs.markRunning(accountId, running.id, Date.now(), 1)).toBe('started');
    expect(await place()).toBe(1);
    await ledger.release({ accountId, ends: failed(pending), at: Date.now() });
    expect(await place()).toBe(1);
    await ledger.settle({ accountId, finalMicros: 100_000, ends: succeeded(running), at: Date.now() });
    await ledger.settle({ accountId, finalMicros: 100_000, ends: succeeded(running), at: Date.now() });
    expect(await place()).toBe(0);
    await expectLedgerMatchesBalance(accountId);
  });

  it("closes an asynchronous job's charge on the status its caller read, and reads again when the status moved since", async () => {
    const accountId = await openAccount(1_000_000);
    const jobs = new DynamoJobs(backend.table);
    const place = async () =>
      ((
        await backend.table.doc.send(
          new GetCommand({ TableName: backend.table.name, Key: keys.runningJobs(accountId), ConsistentRead: true }),
        )
      ).Item?.running as number | undefined) ?? 0;
    const first = await reserve(accountId, 100_000);
    await jobs.markRunning(accountId, first.id, Date.now(), 5);
    const known = { reservedMicros: 100_000, asyncJobStatus: 'running' };
    expect(
      await ledger.settle({ accountId, finalMicros: 100_000, ends: succeeded(first), at: Date.now(), known }),
    ).toEqual({ applied: true, chargeState: 'settled', amountMicros: 100_000 });
    expect(await place()).toBe(0);

    // Read while pending, running by the close: the guard refuses the stale status, the close reads again.
    const second = await reserve(accountId, 100_000);
    await jobs.markRunning(accountId, second.id, Date.now(), 5);
    const stale = { reservedMicros: 100_000, asyncJobStatus: 'pending' };
    expect(
      await ledger.settle({ accountId, finalMicros: 60_000, ends: succeeded(second), at: Date.now(), known: stale }),
    ).toEqual({ applied: true, chargeState: 'settled', amountMicros: 60_000 });
    expect(await place()).toBe(0);
    expect(await ledger.balance(accountId)).toBe(840_000);
    await expectLedgerMatchesBalance(accountId);
  });

  it("records a running job's progress only forward, and never once it has ended", async () => {
    const accountId = await openAccount(1_000_000);
    const jobs = new DynamoJobs(backend.table);
    const owner = await reserve(accountId, 100_000);
    const progressOf = async () => (await jobs.get(accountId, owner.id))!.progress;
    await jobs.recordProgress(accountId, owner.id, 0.3, Date.now());
    expect(await progressOf()).toBeNull();
    await jobs.markRunning(accountId, owner.id, Date.now(), 10);
    await jobs.recordProgress(accountId, owner.id, 0.3, Date.now());
    await jobs.recordProgress(accountId, owner.id, 0.2, Date.now());
    expect(await progressOf()).toBe(0.3);
    await ledger.settle({ accountId, finalMicros: 100_000, ends: succeeded(owner), at: Date.now() });
    await jobs.recordProgress(accountId, owner.id, 0.9, Date.now());
    expect(await progressOf()).toBe(0.3);
  });

  it('refuses to credit or reserve on an unknown account', async () => {
    await expect(
      ledger.credit({ accountId: 'acc_missing', amountMicros: 1, note: 'x', at: Date.now() }),
    ).rejects.toBeInstanceOf(NotFoundError);
    await expect(reserve('acc_missing', 1)).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('transactions', () => {
  const key = () => ({ pk: `T#${newId('led')}`, sk: 'X' });
  /** One transaction: put `put` with n = 1, then update `updated` as `update` says. */
  const putThenUpdate = (
    put: Record<string, string>,
    updated: Record<string, string>,
    update: {
      UpdateExpression: string;
      ConditionExpression?: string;
      ExpressionAttributeValues?: Record<string, number>;
      ReturnValuesOnConditionCheckFailure?: 'ALL_OLD';
    },
  ) =>
    backend.table.doc.send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: backend.table.name, Item: { ...put, n: 1 } } },
          { Update: { TableName: backend.table.name, Key: updated, ...update } },
        ],
      }),
    );

  it('write nothing when any condition fails, and say which one', async () => {
    const [a, b] = [key(), key()];
    await backend.table.doc.send(new PutCommand({ TableName: backend.table.name, Item: { ...b, n: 1 } }));
    const attempt = putThenUpdate(a, b, {
      UpdateExpression: 'SET n = n + :one',
      ConditionExpression: 'n = :two',
      ExpressionAttributeValues: { ':one': 1, ':two': 2 },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    });
    const error = await attempt.catch((e: unknown) => e);
    expect(cancellationReasons(error)?.map((r) => r.Code)).toEqual(['None', 'ConditionalCheckFailed']);
    expect(cancellationReasons(error)?.[1]?.Item).toMatchObject({ n: { N: '1' } });
    const { GetCommand } = await import('@aws-sdk/lib-dynamodb');
    expect(
      (await backend.table.doc.send(new GetCommand({ TableName: backend.table.name, Key: a }))).Item,
    ).toBeUndefined();
  });

  it('refuse two operations on one item', async () => {
    const a = key();
    const attempt = putThenUpdate(a, a, { UpdateExpression: 'SET n = :one', ExpressionAttributeValues: { ':one': 1 } });
    await expect(attempt).rejects.toMatchObject({ name: 'ValidationException' });
  });

  it('commit many transactions at once, each whole, whether their items are disjoint or shared', async () => {
    const shared = key();
    await backend.table.doc.send(new PutCommand({ TableName: backend.table.name, Item: { ...shared, n: 0 } }));
    const pairs = Array.from({ length: 40 }, () => key());
    await Promise.all(
      pairs.map((own) =>
        backend.table.doc.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Put: {
                  TableName: backend.table.name,
                  Item: { ...own, n: 1 },
                  ConditionExpression: 'attribute_not_exists(pk)',
                },
              },
              {
                Update: {
                  TableName: backend.table.name,
                  Key: shared,
                  UpdateExpression: 'ADD n :one',
                  ExpressionAttributeValues: { ':one': 1 },
                },
              },
            ],
          }),
        ),
      ),
    );
    const read = (k: Record<string, string>) =>
      backend.table.doc.send(new GetCommand({ TableName: backend.table.name, Key: k }));
    expect((await read(shared)).Item).toMatchObject({ n: 40 });
    for (const own of pairs) expect((await read(own)).Item).toMatchObject({ n: 1 });
  });

  it('check a condition on an absent item without creating it', async () => {
    const [a, b] = [key(), key()];
    await backend.table.doc.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            ConditionCheck: { TableName: backend.table.name, Key: a, ConditionExpression: 'attribute_not_exists(pk)' },
          },
          { Put: { TableName: backend.table.name, Item: { ...b, n: 1 } } },
        ],
      }),
    );
    const { GetCommand } = await import('@aws-sdk/lib-dynamodb');
    expect(
      (await backend.table.doc.send(new GetCommand({ TableName: backend.table.name, Key: a }))).Item,
    ).toBeUndefined();
    expect(
      (await backend.table.doc.send(new GetCommand({ TableName: backend.table.name, Key: b }))).Item,
    ).toMatchObject({ n: 1 });
  });
});

describe('statement', () => {
  it('counts every entry on the account, so a reader can tell that none landed between its reads', async () => {
    const accountId = await openAccount(5_000_000);
    const owner = await reserve(accountId, 1_000_000);
    await ledger.settle({ accountId, ends: succeeded(owner), finalMicros: 400_000, at: Date.now() });
    await ledger.credit({ accountId, amountMicros: 250_000, note: 'top-up', at: Date.now() });
    const { Item } = await backend.table.doc.send(
      new GetCommand({ TableName: backend.table.name, Key: keys.account(accountId), ConsistentRead: true }),
    );
    expect(Item).toMatchObject({ entryCount: 4, balanceMicros: 4_850_000 });
  });

  it('shows each entry with the balance after it, newest first, paged with the balance carried across pages', async () => {
    const accountId = await openAccount(5_000_000);
    const owners = [await reserve(accountId, 1_000_000), await reserve(accountId, 300_000)];
    await ledger.release({ accountId, ends: failed(owners[1]!), at: Date.now() });
    await ledger.settle({ accountId, ends: succeeded(owners[0]!), finalMicros: 900_000, at: Date.now() });

    const oldestFirst = await ledger.allEntries(accountId);
    let running = 0;
    const expected = oldestFirst
      .map((entry) => {
        running += entry.amountMicros;
        return { entryId: entry.entryId, balanceAfterMicros: running };
      })
      .reverse();

    const first = await ledger.statement(accountId, { limit: 3 });
    expect(first.entries[0]!.balanceAfterMicros).toBe(await ledger.balance(accountId));
    const second = await ledger.statement(accountId, { limit: 3, after: first.next! });
    expect(second.next).toBeNull();
    expect(
      [...first.entries, ...second.entries].map(({ entryId, balanceAfterMicros }) => ({ entryId, balanceAfterMicros })),
    ).toEqual(expected);
  });

  it('anchors the first page on a balance that matches it while reservations land concurrently', async () => {
    const accountId = await openAccount(50_000_000);
    const writes = Promise.all(Array.from({ length: 20 }, () => reserve(accountId, 100_000)));
    const reads = await Promise.allSettled(
      Array.from({ length: 5 }, () => ledger.statement(accountId, { limit: 100 })),
    );
    await writes;
    // A read that never found the ledger still is refused as retryable (503), never answered wrong.
    const pages = reads.flatMap((read) => (read.status === 'fulfilled' ? [read.value] : []));
    for (const read of reads)
      if (read.status === 'rejected') expect(read.reason).toBeInstanceOf(ServiceUnavailableError);
    expect(pages.length).toBeGreaterThan(0);
    for (const page of pages) {
      const sum = page.entries.reduce((total, entry) => total + entry.amountMicros, 0);
      // The page holds every entry there was, so the newest one's balance is the sum of them all.
      expect(page.entries[0]!.balanceAfterMicros).toBe(sum);
    }
  });
});

describe('entries since a time', () => {
  it('finds the entries made at or after it by their time-ordered ids, oldest first, and caps them', async () => {
    const accountId = await openAccount(5_000_000);
    const since = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 5));
    await reserve(accountId, 100_000);
    await reserve(accountId, 200_000);
    const { entries, truncated } = await ledger.entriesSince(accountId, since, 10);
    expect(entries.map((entry) => entry.amountMicros)).toEqual([-100_000, -200_000]);
    expect(truncated).toBe(false);
    expect(await ledger.entriesSince(accountId, 0, 2)).toMatchObject({
      truncated: true,
      entries: [{ kind: 'credit' }, { amountMicros: -100_000 }],
    });
  });
});
