/**
 * The job item's writes for a provider that reports back (DynamoJobs.awaitEngine, recordEngineReport), on the
 * local table: each is one UpdateItem, so the webhook's report and AwaitEngine's token cannot miss each other
 * (domain/workflow/reports.ts), and a report is recorded once however often it is delivered. And the tickets a
 * job opens (recordTicket, addTicket): every one kept, in order, a job stored with one ticket read as before.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoAccounts } from '../../../../functions/adapters/dynamo/accounts-repository';
import { DynamoJobs } from '../../../../functions/adapters/dynamo/jobs-repository';
import { DynamoLedger } from '../../../../functions/adapters/dynamo/ledger-repository';
import { keys } from '../../../../functions/adapters/dynamo/table';
import type { EngineTicket } from '../../../../functions/domain/engine/engine';
import { newId } from '../../../../functions/domain/shared/ids';
import { aJob } from '../../../support/builders/jobs';
import { type DataBackend, startDataBackend } from '../../../support/data-backend';

let backend: DataBackend;
let jobs: DynamoJobs;
let accountId: string;

beforeAll(async () => {
  backend = await startDataBackend();
  jobs = new DynamoJobs(backend.table);
  accountId = newId('acc');
  await new DynamoAccounts(backend.table, newId).create(
    { accountId, name: 'test', balanceMicros: 10_000_000, defaultModelVersion: 'v2', createdAt: Date.now() },
    'opening credit',
  );
});
afterAll(() => backend.close());

/** A job stored as the submit stores it (through the ledger's reservation), holding a webhook ticket. */
const storedJob = async () => {
  const job = aJob(accountId);
  await new DynamoLedger(backend.table, newId).reserve({
    accountId,
    amountMicros: 40_000,
    creates: { kind: 'job', job },
    at: Date.now(),
  });
  await jobs.markRunning(accountId, job.jobId, Date.now(), 10);
  await jobs.recordTicket(accountId, job.jobId, {
    engine: 'fal',
    requests: [{ id: 'req-1' }, { id: 'req-2' }],
    submittedAt: Date.now(),
    webhook: true,
  });
  return job.jobId;
};

describe('awaitEngine', () => {
  it('stores the token and when the wait began, and answers the job as it was just before', async () => {
    const jobId = await storedJob();
    const first = await jobs.awaitEngine(accountId, jobId, 'token-1', 1_000);
    expect(first).toMatchObject({ jobId, status: 'running', awaitToken: null, awaitSince: null });
    const second = await jobs.awaitEngine(accountId, jobId, 'token-2', 2_000);
    expect(second).toMatchObject({ awaitToken: 'token-1', awaitSince: 1_000 });
    expect(await jobs.get(accountId, jobId)).toMatchObject({ awaitToken: 'token-2', awaitSince: 2_000 });
  });

  it('answers undefined for a job that does not exist, and creates nothing', async () => {
    expect(await jobs.awaitEngine(accountId, 'job_missing', 'token', 1)).toBeUndefined();
    expect(await jobs.get(accountId, 'job_missing')).toBeUndefined();
  });
});

describe('recordEngineReport', () => {
  it('records each request once: the first write says so and answers the job after it', async () => {
    const jobId = await storedJob();
    const first = await jobs.recordEngineReport(accountId, jobId, 'req-1');
    expect(first).toMatchObject({ first: true, job: { engineReported: ['req-1'] } });
    const again = await jobs.recordEngineReport(accountId, jobId, 'req-1');
    expect(again).toMatchObject({ first: false, job: { engineReported: ['req-1'] } });
    const second = await jobs.recordEngineReport(accountId, jobId, 'req-2');
    expect(second?.first).toBe(true);
    expect([...(second?.job.engineReported ?? [])].sort()).toEqual(['req-1', 'req-2']);
  });

  it('records concurrent deliveries of one report once', async () => {
    const jobId = await storedJob();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => jobs.recordEngineReport(accountId, jobId, 'req-1')),
    );
    expect(answers.filter((answer) => answer?.first)).toHaveLength(1);
    expect((await jobs.get(accountId, jobId))?.engineReported).toEqual(['req-1']);
  });

  it('shows the token stored by a wait that came first, and the wait shows a report that came first', async () => {
    const tokenFirst = await storedJob();
    await jobs.awaitEngine(accountId, tokenFirst, 'token-1', 1_000);
    expect((await jobs.recordEngineReport(accountId, tokenFirst, 'req-1'))?.job.awaitToken).toBe('token-1');
    const reportFirst = await storedJob();
    await jobs.recordEngineReport(accountId, reportFirst, 'req-1');
    expect((await jobs.awaitEngine(accountId, reportFirst, 'token-1', 1_000))?.engineReported).toEqual(['req-1']);
  });

  it('answers undefined for a job that does not exist, and creates nothing', async () => {
    expect(await jobs.recordEngineReport(accountId, 'job_missing', 'req-1')).toBeUndefined();
    expect(await jobs.get(accountId, 'job_missing')).toBeUndefined();
  });
});

const ticket = (id: string): EngineTicket => ({ engine: 'fal', requests: [{ id }], submittedAt: 1_000 });

/** A job as the submit stores it, running, holding no ticket yet. */
const runningJob = async () => {
  const job = aJob(accountId);
  await new DynamoLedger(backend.table, newId).reserve({
    accountId,
    amountMicros: 40_000,
    creates: { kind: 'job', job },
    at: Date.now(),
  });
  await jobs.markRunning(accountId, job.jobId, Date.now(), 10);
  return job.jobId;
};

describe('the tickets a job opens', () => {
  it('keeps the work ticket first and once, and every added ticket after it, in order', async () => {
    const jobId = await runningJob();
    expect(await jobs.recordTicket(accountId, jobId, ticket('req-work'))).toEqual(ticket('req-work'));
    // A second submit's ticket does not replace the work's: the job answers the one it holds.
    expect(await jobs.recordTicket(accountId, jobId, ticket('req-other'))).toEqual(ticket('req-work'));
    await jobs.addTicket(accountId, jobId, ticket('req-retry-1'));
    await jobs.addTicket(accountId, jobId, ticket('req-retry-2'));
    expect((await jobs.get(accountId, jobId))?.engineTickets.map((held) => held.requests[0]?.id)).toEqual([
      'req-work',
      'req-retry-1',
      'req-retry-2',
    ]);
  });

  it('keeps tickets added at once (a synchronous call and its retries), none lost', async () => {
    const jobId = await runningJob();
    await Promise.all(['a', 'b', 'c', 'd'].map((id) => jobs.addTicket(accountId, jobId, ticket(id))));
    const held = (await jobs.get(accountId, jobId))?.engineTickets.map((entry) => entry.requests[0]?.id);
    expect(held?.sort()).toEqual(['a', 'b', 'c', 'd']);
  });

  it('refuses to add a ticket to a job that does not exist, and creates nothing', async () => {
    await expect(jobs.addTicket(accountId, 'job_missing', ticket('x'))).rejects.toThrow('not found');
    expect(await jobs.get(accountId, 'job_missing')).toBeUndefined();
  });

  it('reads a job stored with one ticket (the previous shape) as holding it first, and keeps it first', async () => {
    const jobId = await runningJob();
    // The previous shape: the work's ticket alone, in `engineTicket`.
    await backend.table.doc.send(
      new UpdateCommand({
        TableName: backend.table.name,
        Key: keys.job(accountId, jobId),
        UpdateExpression: 'SET engineTicket = :ticket REMOVE engineTickets',
        ExpressionAttributeValues: { ':ticket': ticket('req-old') },
      }),
    );
    expect((await jobs.get(accountId, jobId))?.engineTickets).toEqual([ticket('req-old')]);
    expect(await jobs.recordTicket(accountId, jobId, ticket('req-new'))).toEqual(ticket('req-old'));
    await jobs.addTicket(accountId, jobId, ticket('req-retry'));
    expect((await jobs.get(accountId, jobId))?.engineTickets).toEqual([ticket('req-old'), ticket('req-retry')]);
  });
});
