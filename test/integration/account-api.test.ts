/**
 * The account API over HTTP: the account and its ledger, a job's cost, its callback delivery log,
 * redelivery and the webhook test event; what a developer sees, in both runtimes.
 */
import { Webhook } from 'standardwebhooks';
import { MAX_CALLBACK_ATTEMPTS } from '../../functions/domain/callbacks/retry-schedule';
import { startReceiver } from '../support/receiver';
import { startTestRuntime, type TestRuntime } from '../support/runtime';

let runtime: TestRuntime;

beforeAll(async () => {
  runtime = await startTestRuntime({ env: { CALLBACK_RETRY_SCALE: '0', OUTBOUND_SENDS_PER_MINUTE: '5' } });
});
afterAll(() => runtime.close());

// biome-ignore lint/suspicious/noExplicitAny: answers are read by path in assertions; their shape is checked against the OpenAPI schema
type Json = Record<string, any>;

const json = async (response: Response): Promise<Json> => (await response.json()) as Json;

const get = async (apiKey: string, route: string) => {
  const response = await runtime.call('GET', route, { apiKey });
  return { status: response.status, body: await json(response) };
};

const until = async <T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met in time: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

const submitAsync = async (apiKey: string, extra: Json = {}) => {
  const response = await runtime.call('POST', '/v2/service/generate', {
    apiKey,
    body: { prompt: 'a lighthouse at dawn', async: true, ...extra },
  });
  expect(response.status).toBe(202);
  return (await json(response)).job_id as string;
};

const finished = (apiKey: string, jobId: string) =>
  until(
    () => get(apiKey, `/v2/service/jobs/${jobId}`),
    ({ body }) => body.status === 'succeeded' || body.status === 'failed',
  );

describe('GET /v2/service/account', () => {
  it('answers the balance in USD and micro-USD, the default model version and the limits in force', async () => {
    const account = await runtime.newAccount(12_345_678);
    const { status, body } = await get(account.apiKey, '/v2/service/account');
    expect(status).toBe(200);
    expect(body).toEqual({
      account_id: account.accountId,
      name: 'test',
      balance: { usd: '12.345678', micro_usd: 12_345_678 },
      default_model_version: 'v2',
      limits: { requests_per_minute: 3000, running_jobs: 20 },
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
  });

  it('needs an API key like every route: 403 without one, 401 for an unknown one', async () => {
    expect((await runtime.call('GET', '/v2/service/account')).status).toBe(403);
    expect((await runtime.call('GET', '/v2/service/account', { apiKey: 'isk_unknown' })).status).toBe(401);
  });
});

describe('a job’s cost and the ledger', () => {
  it('shows the reservation at submit and the final price once ended, and each entry with the balance after it', async () => {
    const account = await runtime.newAccount(10_000_000);
    const jobId = await submitAsync(account.apiKey);
    const { body: job } = await finished(account.apiKey, jobId);
    expect(job.status).toBe('succeeded');
    expect(job.cost).toEqual({
      reserved: expect.stringMatching(/^\d+\.\d{2,6}$/),
      final: expect.stringMatching(/^\d+\.\d{2,6}$/),
    });

    const { body: now } = await get(account.apiKey, '/v2/service/account');
    const { status, body: ledger } = await get(account.apiKey, '/v2/service/account/ledger');
    expect(status).toBe(200);
    expect(ledger.next_cursor).toBeNull();
    expect(ledger.entries.map((entry: Json) => entry.kind)).toEqual(['settle', 'reserve', 'credit']);
    const [settle, reserve, credit] = ledger.entries;
    expect(credit).toMatchObject({
      amount: { usd: '10.00', micro_usd: 10_000_000 },
      balance_after: { micro_usd: 10_000_000 },
      job_id: null,
      note: 'opening credit',
    });
    expect(reserve).toMatchObject({
      job_id: jobId,
      profile_id: null,
      amount: { micro_usd: -Math.round(Number(job.cost.reserved) * 1e6) },
    });
    expect(settle.job_id).toBe(jobId);
    // The newest entry's balance is the account's; each older one is the next newer one's minus its amount.
    expect(settle.balance_after).toEqual(now.balance);
    expect(reserve.balance_after.micro_usd).toBe(settle.balance_after.micro_usd - settle.amount.micro_usd);
    expect(credit.balance_after.micro_usd).toBe(reserve.balance_after.micro_usd - reserve.amount.micro_usd);
    // What the job cost is what the balance lost.
    expect(10_000_000 - now.balance.micro_usd).toBe(Math.round(Number(job.cost.final) * 1e6));
  });

  it('shows a refunded job as final 0.00, and the release in the ledger', async () => {
    const account = await runtime.newAccount();
    const jobId = await submitAsync(account.apiKey, { prompt: 'sandbox:slow=30' });
    expect((await runtime.call('POST', `/v2/service/jobs/${jobId}/cancel`, { apiKey: account.apiKey })).status).toBe(
      200,
    );
    const { body: job } = await finished(account.apiKey, jobId);
    expect(job).toMatchObject({ status: 'failed', cost: { final: '0.00' } });
    const { body: ledger } = await get(account.apiKey, '/v2/service/account/ledger');
    expect(ledger.entries[0]).toMatchObject({
      kind: 'release',
      job_id: jobId,
      balance_after: { micro_usd: 10_000_000 },
    });
  });

  it('pages newest first with a cursor, and the balances carry across pages', async () => {
    const account = await runtime.newAccount(5_000_000);
    const jobs = [await submitAsync(account.apiKey), await submitAsync(account.apiKey)];
    for (const jobId of jobs) await finished(account.apiKey, jobId);
    const { body: whole } = await get(account.apiKey, '/v2/service/account/ledger?limit=100');
    expect(whole.entries).toHaveLength(5);

    const paged: Json[] = [];
    let cursor: string | null = null;
    do {
      const { status, body }: { status: number; body: Json } = await get(
        account.apiKey,
        `/v2/service/account/ledger?limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(status).toBe(200);
      expect(body.entries.length).toBeLessThanOrEqual(2);
      paged.push(...body.entries);
      cursor = body.next_cursor;
    } while (cursor);
    expect(paged).toEqual(whole.entries);
  });

  it('refuses a cursor it did not hand out (400) and a limit out of range (422), and shows another account nothing', async () => {
    const account = await runtime.newAccount();
    const forged = Buffer.from(JSON.stringify(['led_x', 99_000_000_000])).toString('base64url');
    expect((await get(account.apiKey, `/v2/service/account/ledger?cursor=${forged}x`)).status).toBe(400);
    expect((await get(account.apiKey, '/v2/service/account/ledger?cursor=bm90IGEgY3Vyc29y')).body.code).toBe(
      'INVALID_REQUEST',
    );
    const tooMany = await get(account.apiKey, '/v2/service/account/ledger?limit=101');
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.detail[0]).toMatchObject({ type: 'less_than_equal', loc: ['query', 'limit'] });

    const other = await runtime.newAccount(1_000_000);
    const { body } = await get(other.apiKey, '/v2/service/account/ledger');
    expect(body.entries).toHaveLength(1);
    expect(body.entries[0].amount.micro_usd).toBe(1_000_000);
  });
});

describe('callback deliveries', () => {
  it('lists each attempt with its status, latency and whether it was the last; a redelivery is a new delivery id, signed anew', async () => {
    const receiver = await startReceiver([500, 200, 200]);
    const account = await runtime.newAccount();
    const jobId = await submitAsync(account.apiKey, { callback_url: receiver.url });
    await finished(account.apiKey, jobId);
    await receiver.waitFor(2);

    const log = await until(
      () => get(account.apiKey, `/v2/service/jobs/${jobId}/deliveries`),
      ({ body }) => body.attempts?.length === 2,
    );
    expect(log.status).toBe(200);
    expect(log.body).toMatchObject({ job_id: jobId, callback_url: receiver.url });
    const [first, second] = log.body.attempts;
    expect(first).toMatchObject({ attempt: 1, response_status: 500, error: null, last: false });
    expect(second).toMatchObject({
      attempt: 2,
      response_status: 200,
      error: null,
      last: true,
      delivery_id: first.delivery_id,
    });
    expect(second.latency_ms).toBeGreaterThanOrEqual(0);
    expect(Date.parse(second.at)).toBeGreaterThanOrEqual(Date.parse(first.at));

    const redelivered = await runtime.call('POST', `/v2/service/jobs/${jobId}/deliveries/redeliver`, {
      apiKey: account.apiKey,
    });
    expect(redelivered.status).toBe(202);
    const handle = await json(redelivered);
    expect(handle).toEqual({ job_id: jobId, delivery_id: expect.stringMatching(/^dlv_/), callback_url: receiver.url });
    expect(handle.delivery_id).not.toBe(first.delivery_id);
    await receiver.waitFor(3);
    const resent = receiver.received[2]!;
    expect(resent.headers['webhook-id']).toBe(handle.delivery_id);
    expect(JSON.parse(resent.body)).toMatchObject({ job_id: jobId, status: 'succeeded' });
    const secret = (await get(account.apiKey, '/v2/service/webhook-secret')).body.webhook_signing_secret as string;
    expect(() => new Webhook(secret).verify(resent.body, resent.headers as Record<string, string>)).not.toThrow();

    const after = await until(
      () => get(account.apiKey, `/v2/service/jobs/${jobId}/deliveries`),
      ({ body }) => body.attempts?.length === 3,
    );
    expect(after.body.attempts[2]).toMatchObject({
      delivery_id: handle.delivery_id,
      attempt: 1,
      response_status: 200,
      last: true,
    });
    await receiver.close();
  });

  it('records a receiver that never answers as network errors, the last one once the retries are spent', async () => {
    const account = await runtime.newAccount();
    const jobId = await submitAsync(account.apiKey, { callback_url: 'https://127.0.0.1:9/never' });
    await finished(account.apiKey, jobId);
    const { body } = await until(
      () => get(account.apiKey, `/v2/service/jobs/${jobId}/deliveries`),
      ({ body }) => body.attempts?.length === MAX_CALLBACK_ATTEMPTS,
      30_000,
    );
    expect(
      body.attempts.every((attempt: Json) => attempt.response_status === null && attempt.error === 'network'),
    ).toBe(true);
    expect(body.attempts.map((attempt: Json) => attempt.last)).toEqual([
      ...Array(MAX_CALLBACK_ATTEMPTS - 1).fill(false),
      true,
    ]);
  });

  it('redelivers to a URL given in the body, and needs one for a job submitted without', async () => {
    const receiver = await startReceiver([204]);
    const account = await runtime.newAccount();
    const jobId = await submitAsync(account.apiKey);
    await finished(account.apiKey, jobId);
    expect((await get(account.apiKey, `/v2/service/jobs/${jobId}/deliveries`)).body).toEqual({
      job_id: jobId,
      callback_url: null,
      attempts: [],
    });

    const without = await runtime.call('POST', `/v2/service/jobs/${jobId}/deliveries/redeliver`, {
      apiKey: account.apiKey,
      body: {},
    });
    expect(without.status).toBe(400);
    expect(await json(without)).toMatchObject({
      code: 'INVALID_REQUEST',
      detail: expect.stringContaining('without a callback_url'),
    });
    const plain = await runtime.call('POST', `/v2/service/jobs/${jobId}/deliveries/redeliver`, {
      apiKey: account.apiKey,
      body: { callback_url: 'http://example.com/hook' },
    });
    expect(plain.status).toBe(422);
    const metadata = await runtime.call('POST', `/v2/service/jobs/${jobId}/deliveries/redeliver`, {
      apiKey: account.apiKey,
      body: { callback_url: 'https://169.254.169.254/latest' },
    });
    expect(metadata.status).toBe(422);

    const sent = await runtime.call('POST', `/v2/service/jobs/${jobId}/deliveries/redeliver`, {
      apiKey: account.apiKey,
      body: { callback_url: receiver.url },
    });
    expect(sent.status).toBe(202);
    await receiver.waitFor(1);
    expect(JSON.parse(receiver.received[0]!.body)).toMatchObject({ job_id: jobId });
    await receiver.close();
  });

  it('refuses a redelivery before the job has ended (409), and hides another account’s job (404)', async () => {
    const account = await runtime.newAccount();
    const slow = await submitAsync(account.apiKey, {
      prompt: 'sandbox:slow=30',
      callback_url: 'https://127.0.0.1:9/x',
    });
    const early = await runtime.call('POST', `/v2/service/jobs/${slow}/deliveries/redeliver`, {
      apiKey: account.apiKey,
    });
    expect(early.status).toBe(409);
    expect((await json(early)).code).toBe('JOB_NOT_FINISHED');

    const other = await runtime.newAccount();
    expect((await get(other.apiKey, `/v2/service/jobs/${slow}/deliveries`)).status).toBe(404);
    expect(
      (await runtime.call('POST', `/v2/service/jobs/${slow}/deliveries/redeliver`, { apiKey: other.apiKey })).status,
    ).toBe(404);
    expect((await get(account.apiKey, '/v2/service/jobs/job_unknown/deliveries')).status).toBe(404);
    await runtime.call('POST', `/v2/service/jobs/${slow}/cancel`, { apiKey: account.apiKey });
  });
});

describe('POST /v2/service/webhook-test', () => {
  it('sends a signed test event and answers what the receiver did', async () => {
    const receiver = await startReceiver([204]);
    const account = await runtime.newAccount();
    const response = await runtime.call('POST', '/v2/service/webhook-test', {
      apiKey: account.apiKey,
      body: { url: receiver.url },
    });
    expect(response.status).toBe(200);
    const result = await json(response);
    expect(result).toEqual({
      delivery_id: expect.stringMatching(/^dlv_/),
      url: receiver.url,
      delivered: true,
      response_status: 204,
      error: null,
      latency_ms: expect.any(Number),
    });
    const [event] = receiver.received;
    expect(JSON.parse(event!.body)).toMatchObject({ type: 'webhook.test', delivery_id: result.delivery_id });
    expect(event!.headers['webhook-id']).toBe(result.delivery_id);
    expect(event!.headers['x-service-signature']).toMatch(/^sha256=/);
    await receiver.close();
  });

  it('answers a failing or unreachable receiver as such, and refuses a URL the service would never call', async () => {
    const failing = await startReceiver([503]);
    const account = await runtime.newAccount();
    const refused = await json(
      await runtime.call('POST', '/v2/service/webhook-test', { apiKey: account.apiKey, body: { url: failing.url } }),
    );
    expect(refused).toMatchObject({ delivered: false, response_status: 503, error: null });
    await failing.close();

    const unreachable = await json(
      await runtime.call('POST', '/v2/service/webhook-test', {
        apiKey: account.apiKey,
        body: { url: 'https://127.0.0.1:9/x' },
      }),
    );
    expect(unreachable).toMatchObject({ delivered: false, response_status: null, error: 'network' });

    for (const url of ['http://example.com/hook', 'https://10.0.0.1/hook', 'not a url']) {
      const response = await runtime.call('POST', '/v2/service/webhook-test', {
        apiKey: account.apiKey,
        body: { url },
      });
      expect(response.status).toBe(422);
      expect((await json(response)).detail[0].loc).toEqual(['body', 'url']);
    }
    expect((await runtime.call('POST', '/v2/service/webhook-test', { apiKey: account.apiKey })).status).toBe(422);
  });

  it('limits webhook tests and redeliveries together to a few a minute per account (429 with Retry-After)', async () => {
    const account = await runtime.newAccount();
    const send = () =>
      runtime.call('POST', '/v2/service/webhook-test', {
        apiKey: account.apiKey,
        body: { url: 'https://127.0.0.1:9/x' },
      });
    // Windows are fixed minutes: 11 sends cross at most one boundary, so at most 10 can be let through.
    const answers: Response[] = [];
    for (let sent = 0; sent < 11; sent += 1) answers.push(await send());
    expect(answers.slice(0, 5).map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    expect(answers.filter((answer) => answer.status === 200).length).toBeLessThanOrEqual(10);
    const refused = answers.find((answer) => answer.status === 429)!;
    expect(refused).toBeDefined();
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await json(refused)).toMatchObject({
      code: 'RATE_LIMITED',
      detail: expect.stringContaining('webhook tests and redeliveries'),
    });
    // A redelivery counts on the same window, before its job is looked up: refused at once, or after at
    // most five more if a window boundary passed meanwhile (the five would answer 404 for this unknown job).
    const redeliveries: Response[] = [];
    while (redeliveries.length < 6 && redeliveries.at(-1)?.status !== 429)
      redeliveries.push(
        await runtime.call('POST', '/v2/service/jobs/job_unknown/deliveries/redeliver', {
          apiKey: account.apiKey,
          body: { callback_url: 'https://127.0.0.1:9/x' },
        }),
      );
    const redeliveryRefused = redeliveries.at(-1)!;
    expect(redeliveryRefused.status).toBe(429);
    expect(Number(redeliveryRefused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await json(redeliveryRefused)).toMatchObject({ code: 'RATE_LIMITED' });
    // Other requests of the account are not held back by it.
    expect((await get(account.apiKey, '/v2/service/account')).status).toBe(200);
  });
});
