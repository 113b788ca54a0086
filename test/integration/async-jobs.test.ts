import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { services } from '../../bin/local-aws/services';
import { keys } from '../../functions/adapters/dynamo/table';
import { enhanceCommand } from '../../functions/api/images/image-commands';
import { EnhanceRequestSchema } from '../../functions/api/schemas/images';
import { PINNED_PRICES } from '../../functions/domain/catalog/catalog';
import { requestFingerprint } from '../../functions/domain/images/idempotency';
import { aJob } from '../support/builders/jobs';
import { useMovableClock } from '../support/clock';
import { base64Jpeg } from '../support/images';
import { entriesOfJob, jobCount } from '../support/ledger';
import { octokitVerify } from '../support/octokit-verify';
import { startReceiver } from '../support/receiver';
import { getJson, inProcessOnly, startTestRuntime, type TestRuntime } from '../support/runtime';

const DAY_MS = 24 * 3600 * 1000;
let runtime: TestRuntime;
const clock = useMovableClock();

beforeAll(async () => {
  runtime = await startTestRuntime({
    env: { CALLBACK_RETRY_SCALE: '0', ASYNC_BUDGET_SECONDS: '3' },
    clock: clock.now,
  });
});
afterAll(() => runtime.close());

interface JobStatus {
  job_id: string;
  status: string;
  operation: string;
  created_at: string;
  result: { known_subjects: { counts: Record<string, number> }; images: string[]; download_urls: string[] } | null;
  error: { code: string; message: string } | null;
  completed_at: string | null;
}

const submit = async (apiKey: string, body: Record<string, unknown>, operation = 'enhance') =>
  runtime.call('POST', `/v2/service/${operation}`, {
    apiKey,
    body: { image: await base64Jpeg(), async: true, ...body },
  });

/** Polls like a client until the job is terminal; returns the last answer's raw text too. */
const pollUntilDone = async (apiKey: string, pollUrl: string): Promise<{ body: JobStatus; text: string }> => {
  for (let i = 0; i < 200; i += 1) {
    const response = await runtime.call('GET', pollUrl, { apiKey });
    const text = await response.text();
    const body = JSON.parse(text) as JobStatus;
    if (body.status === 'succeeded' || body.status === 'failed') return { body, text };
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('job did not finish');
};

describe('asynchronous submit', () => {
  it('answers 202 with a pending job handle and reserves the floor', async () => {
    const account = await runtime.newAccount();
    const response = await submit(account.apiKey, { num_output_images: 2 });
    expect(response.status).toBe(202);
    const handle = (await response.json()) as { job_id: string; status: string; poll_url: string };
    expect(handle).toEqual({
      job_id: expect.stringMatching(/^job_/),
      status: 'pending',
      poll_url: `/v2/service/jobs/${handle.job_id}`,
    });
    const [reserve] = await entriesOfJob(account.accountId, handle.job_id);
    expect(reserve).toMatchObject({ kind: 'reserve', amountMicros: -2 * PINNED_PRICES.perImageMicros });
  });

  it('runs to succeeded with download links only, signs the callback with the exact bytes a poll answers', async () => {
    const receiver = await startReceiver([200]);
    const account = await runtime.newAccount();
    const handle = (await (await submit(account.apiKey, { callback_url: receiver.url })).json()) as {
      poll_url: string;
    };
    const { body, text } = await pollUntilDone(account.apiKey, handle.poll_url);
    expect(body).toMatchObject({ status: 'succeeded', operation: 'enhance', error: null });
    expect(body.result!.images).toEqual([]);
    expect(body.result!.download_urls).toHaveLength(1);
    expect(Date.parse(body.completed_at!)).toBeGreaterThanOrEqual(Date.parse(body.created_at));
    await receiver.waitFor(1);
    const [callback] = receiver.received;
    expect(callback!.body).toBe(text);
    const secret = (
      await getJson<{ webhook_signing_secret: string }>(runtime, '/v2/service/webhook-secret', account.apiKey)
    ).webhook_signing_secret;
    expect(
      octokitVerify([{ secret, payload: callback!.body, signature: String(callback!.headers['x-service-signature']) }]),
    ).toEqual([true]);
    await receiver.close();
  });

  it('reports an engine failure as failed INTERNAL_ERROR and refunds the reservation', async () => {
    const account = await runtime.newAccount(1_000_000);
    const handle = (await (await submit(account.apiKey, { prompt: 'sandbox:fail' })).json()) as {
      job_id: string;
      poll_url: string;
    };
    const { body } = await pollUntilDone(account.apiKey, handle.poll_url);
    expect(body).toMatchObject({
      status: 'failed',
      result: null,
      error: { code: 'INTERNAL_ERROR', message: expect.any(String) },
    });
    expect(await services().ledger.balance(account.accountId)).toBe(1_000_000);
    expect((await entriesOfJob(account.accountId, handle.job_id)).map((e) => e.kind)).toEqual(['reserve', 'release']);
  });

  it.each([
    ['sandbox:moderation', 'CONTENT_MODERATION'],
    ['sandbox:no-image', 'NO_IMAGE_GENERATED'],
  ])('reports %s as failed %s, not charged', async (prompt, code) => {
    const account = await runtime.newAccount(1_000_000);
    const handle = (await (await submit(account.apiKey, { prompt })).json()) as { poll_url: string };
    expect((await pollUntilDone(account.apiKey, handle.poll_url)).body.error).toMatchObject({ code });
    expect(await services().ledger.balance(account.accountId)).toBe(1_000_000);
  });

  it('fails a job past its time budget with TIMEOUT and refunds it', async () => {
    const account = await runtime.newAccount(1_000_000);
    const handle = (await (await submit(account.apiKey, { prompt: 'sandbox:slow=10' })).json()) as { poll_url: string };
    expect((await pollUntilDone(account.apiKey, handle.poll_url)).body.error).toMatchObject({ code: 'TIMEOUT' });
    expect(await services().ledger.balance(account.accountId)).toBe(1_000_000);
  });

  it('settles work that is never polled', async () => {
    const account = await runtime.newAccount(1_000_000);
    const handle = (await (await submit(account.apiKey, {})).json()) as { job_id: string };
    await runtime.stepFunctions.waitForExecution(handle.job_id);
    expect((await entriesOfJob(account.accountId, handle.job_id)).map((e) => e.kind)).toEqual(['reserve', 'settle']);
    expect(await services().ledger.balance(account.accountId)).toBe(1_000_000 - PINNED_PRICES.perImageMicros);
  });

  it('refuses async with response_mode bytes (422 at response_mode)', async () => {
    const response = await submit(devKey(), { response_mode: 'bytes' });
    expect(response.status).toBe(422);
    expect(((await response.json()) as { detail: Array<{ loc: unknown[] }> }).detail[0]!.loc).toEqual([
      'body',
      'response_mode',
    ]);
  });

  it('refuses callback_url without async (422 at callback_url)', async () => {
    const response = await submit(devKey(), { async: false, callback_url: 'https://example.com/hook' });
    expect(response.status).toBe(422);
    expect(((await response.json()) as { detail: Array<{ loc: unknown[] }> }).detail[0]!.loc).toEqual([
      'body',
      'callback_url',
    ]);
  });

  it('refuses a callback_url that is not https (422)', async () => {
    const response = await submit(devKey(), { callback_url: 'http://example.com/hook' });
    expect(response.status).toBe(422);
  });

  it('answers 402 and creates no job when the floor does not fit', async () => {
    const account = await runtime.newAccount(PINNED_PRICES.perImageMicros - 1);
    const response = await submit(account.apiKey, {});
    expect(response.status).toBe(402);
    expect(await response.json()).toMatchObject({ code: 'INSUFFICIENT_BALANCE' });
    expect(await jobCount(account.accountId)).toBe(0);
    expect(await services().ledger.balance(account.accountId)).toBe(PINNED_PRICES.perImageMicros - 1);
  });
});

const devKey = () => runtime.devAccount!.apiKey;

describe('client_request_id', () => {
  it('refuses a client_request_id reused with a different request, and charges nothing', async () => {
    const account = await runtime.newAccount(1_000_000);
    const image = await base64Jpeg();
    const first = await runtime.call('POST', '/v2/service/enhance', {
      apiKey: account.apiKey,
      body: { image, async: true, client_request_id: 'order-7' },
    });
    expect(first.status).toBe(202);
    const changed = await runtime.call('POST', '/v2/service/enhance', {
      apiKey: account.apiKey,
      body: { image, async: true, client_request_id: 'order-7', num_output_images: 2 },
    });
    expect(changed.status).toBe(400);
    expect(await changed.json()).toMatchObject({
      code: 'IDEMPOTENCY_KEY_REUSED',
      detail: expect.stringContaining('order-7'),
    });
    expect(await jobCount(account.accountId)).toBe(1);
    // The same request, its fields in another order and a default spelled out, is still a replay.
    const same = await runtime.call('POST', '/v2/service/enhance', {
      apiKey: account.apiKey,
      body: { num_output_images: 1, client_request_id: 'order-7', async: true, image },
    });
    expect(same.status).toBe(202);
    expect(same.headers.get('idempotent-replayed')).toBe('true');
  });

  it('makes 20 concurrent identical submits one job and one charge', async () => {
    const account = await runtime.newAccount(1_000_000);
    const image = await base64Jpeg();
    const responses = await Promise.all(
      Array.from({ length: 20 }, () =>
        runtime.call('POST', '/v2/service/enhance', {
          apiKey: account.apiKey,
          body: { image, async: true, client_request_id: 'order-42' },
        }),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(202));
    const jobIds = new Set(
      await Promise.all(responses.map(async (r) => ((await r.json()) as { job_id: string }).job_id)),
    );
    expect(jobIds.size).toBe(1);
    expect(responses.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(19);
    expect(await jobCount(account.accountId)).toBe(1);
    const [jobId] = [...jobIds];
    await runtime.stepFunctions.waitForExecution(jobId!);
    expect((await entriesOfJob(account.accountId, jobId!)).map((e) => e.kind)).toEqual(['reserve', 'settle']);
  });

  it('runs a synchronous call whose client hung up to the end, charges it once, and answers its result to the repeat', async () => {
    const account = await runtime.newAccount(1_000_000);
    const body = { image: await base64Jpeg(), prompt: 'sandbox:slow=1', client_request_id: 'hung-up-1' };
    const hangUp = new AbortController();
    const first = fetch(`${runtime.url}/v2/service/enhance`, {
      method: 'POST',
      headers: { 'X-API-Key': account.apiKey, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      signal: hangUp.signal,
    });
    setTimeout(() => hangUp.abort(), 300);
    await expect(first).rejects.toThrow();
    const repeat = await runtime.call('POST', '/v2/service/enhance', { apiKey: account.apiKey, body });
    expect(repeat.status).toBe(200);
    expect(repeat.headers.get('idempotent-replayed')).toBe('true');
    expect(((await repeat.json()) as { images: string[] }).images).toHaveLength(1);
    const entries = (await services().ledger.allEntries(account.accountId)).filter(
      (entry) => entry.owner?.kind === 'job',
    );
    expect(entries.map((entry) => entry.kind).sort()).toEqual(['reserve', 'settle']);
  });

  it('lists a synchronous call whose client hung up without a client_request_id, with its result', async () => {
    const account = await runtime.newAccount(1_000_000);
    const hangUp = new AbortController();
    const call = fetch(`${runtime.url}/v2/service/enhance`, {
      method: 'POST',
      headers: { 'X-API-Key': account.apiKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ image: await base64Jpeg(), prompt: 'sandbox:slow=0.5' }),
      signal: hangUp.signal,
    });
    setTimeout(() => hangUp.abort(), 100);
    await expect(call).rejects.toThrow();
    let listed: JobStatus[] = [];
    for (let i = 0; i < 100 && listed[0]?.status !== 'succeeded'; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      listed = (await getJson<{ jobs: JobStatus[] }>(runtime, '/v2/service/jobs', account.apiKey)).jobs;
    }
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ operation: 'enhance', status: 'succeeded' });
    expect(listed[0]!.result!.download_urls).toHaveLength(1);
  });

  it('returns the original result to a repeated synchronous call, charging once', async () => {
    const account = await runtime.newAccount(1_000_000);
    const body = { image: await base64Jpeg(), client_request_id: 'sync-1' };
    const first = await runtime.call('POST', '/v2/service/enhance', { apiKey: account.apiKey, body });
    const second = await runtime.call('POST', '/v2/service/enhance', { apiKey: account.apiKey, body });
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(await second.json()).toEqual(await first.json());
    expect(await jobCount(account.accountId)).toBe(1);
    expect(await services().ledger.balance(account.accountId)).toBe(1_000_000 - PINNED_PRICES.perImageMicros);
  });

  it('is scoped to the account: another account with the same id gets its own job', async () => {
    const [a, b] = [await runtime.newAccount(), await runtime.newAccount()];
    const jobOf = async (apiKey: string) =>
      ((await (await submit(apiKey, { client_request_id: 'shared-id' })).json()) as { job_id: string }).job_id;
    expect(await jobOf(a.apiKey)).not.toBe(await jobOf(b.apiKey));
  });
});

describe('callback_url', () => {
  it.each([
    'https://10.0.0.8/hook',
    'https://169.254.169.254/latest',
    'https://[fd00::1]/hook',
    'https://user:pass@example.com/hook',
  ])('%s is refused at submit with 422, nothing created', async (callbackUrl) => {
    const account = await runtime.newAccount();
    const response = await submit(account.apiKey, { response_mode: 'urls', callback_url: callbackUrl });
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({ detail: [{ loc: ['body', 'callback_url'], type: 'value_error' }] });
    expect(await jobCount(account.accountId)).toBe(0);
  });
});

describe('listing jobs', () => {
  it('lists the account’s jobs newest first, synchronous ones included, filtered and paged', async () => {
    const account = await runtime.newAccount(1_000_000);
    const failed = (await (
      await submit(account.apiKey, { response_mode: 'urls', prompt: 'sandbox:no-image' })
    ).json()) as { job_id: string };
    await runtime.stepFunctions.waitForExecution(failed.job_id);
    const succeeded = (await (await submit(account.apiKey, { response_mode: 'urls' })).json()) as { job_id: string };
    await runtime.stepFunctions.waitForExecution(succeeded.job_id);
    expect(
      (await runtime.call('POST', '/v2/service/generate', { apiKey: account.apiKey, body: { prompt: 'a lighthouse' } }))
        .status,
    ).toBe(200);
    const list = async (query = '') => {
      const response = await runtime.call('GET', `/v2/service/jobs${query}`, { apiKey: account.apiKey });
      expect(response.status).toBe(200);
      return (await response.json()) as { jobs: JobStatus[]; next_cursor: string | null };
    };

    const all = await list();
    expect(all.jobs.map((job) => [job.operation, job.status])).toEqual([
      ['generate', 'succeeded'],
      ['enhance', 'succeeded'],
      ['enhance', 'failed'],
    ]);
    expect(all.jobs[0]!.result!.download_urls).toHaveLength(1);
    expect(all.next_cursor).toBeNull();
    expect((await list('?status=failed')).jobs.map((job) => job.job_id)).toEqual([failed.job_id]);
    expect((await list('?operation=generate')).jobs).toHaveLength(1);
    expect(
      (await list(`?created_after=${encodeURIComponent(all.jobs[1]!.created_at)}`)).jobs.map((job) => job.operation),
    ).toEqual(['generate']);

    const first = await list('?limit=2');
    expect(first.jobs.map((job) => job.job_id)).toEqual(all.jobs.slice(0, 2).map((job) => job.job_id));
    const second = await list(`?limit=2&cursor=${first.next_cursor}`);
    expect(second.jobs.map((job) => job.job_id)).toEqual([failed.job_id]);

    const stranger = await runtime.newAccount();
    expect((await getJson<{ jobs: unknown[] }>(runtime, '/v2/service/jobs', stranger.apiKey)).jobs).toEqual([]);
  });

  it('refuses a cursor it did not give out (400) and a limit out of range (422)', async () => {
    const account = await runtime.newAccount();
    const badCursor = await runtime.call('GET', '/v2/service/jobs?cursor=bm90LWEtY3Vyc29y', { apiKey: account.apiKey });
    expect(badCursor.status).toBe(400);
    expect(await badCursor.json()).toMatchObject({ code: 'INVALID_REQUEST' });
    for (const limit of ['0', '101', 'ten']) {
      const response = await runtime.call('GET', `/v2/service/jobs?limit=${limit}`, { apiKey: account.apiKey });
      expect(response.status).toBe(422);
      expect(await response.json()).toMatchObject({ detail: [{ loc: ['query', 'limit'] }] });
    }
  });
});

describe('polling', () => {
  it("answers 404 for an unknown job and for another account's job", async () => {
    const [owner, stranger] = [await runtime.newAccount(), await runtime.newAccount()];
    const handle = (await (await submit(owner.apiKey, {})).json()) as { poll_url: string };
    for (const [apiKey, path] of [
      [owner.apiKey, '/v2/service/jobs/job_unknown'],
      [stranger.apiKey, handle.poll_url],
    ] as const) {
      const response = await runtime.call('GET', path, { apiKey });
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ code: 'NOT_FOUND' });
    }
  });

  inProcessOnly('answers 200 until 24 h after completion, and 410 JOB_EXPIRED one second later', async () => {
    const account = await runtime.newAccount();
    const handle = (await (await submit(account.apiKey, {})).json()) as { poll_url: string };
    const { body } = await pollUntilDone(account.apiKey, handle.poll_url);
    const completedAt = Date.parse(body.completed_at!);
    clock.setTo(completedAt + DAY_MS - 1000);
    expect((await runtime.call('GET', handle.poll_url, { apiKey: account.apiKey })).status).toBe(200);
    clock.setTo(completedAt + DAY_MS + 1000);
    const expired = await runtime.call('GET', handle.poll_url, { apiKey: account.apiKey });
    expect(expired.status).toBe(410);
    expect(await expired.json()).toMatchObject({ code: 'JOB_EXPIRED' });
  });

  it('is served under /v1 as well', async () => {
    const account = await runtime.newAccount();
    const handle = (await (await submit(account.apiKey, {})).json()) as { job_id: string };
    const response = await runtime.call('GET', `/v1/service/jobs/${handle.job_id}`, { apiKey: account.apiKey });
    expect(response.status).toBe(200);
    expect(response.headers.get('deprecation')).toBe('true');
  });
});

describe('what must not stay held', () => {
  it('frees a client_request_id whose job has been cleaned up, and runs the repeat as a new job', async () => {
    const account = await runtime.newAccount();
    const first = (await (await submit(account.apiKey, { client_request_id: 'reused-later' })).json()) as {
      job_id: string;
    };
    await runtime.stepFunctions.waitForExecution(first.job_id);
    await services().table.doc.send(
      new DeleteCommand({ TableName: services().table.name, Key: keys.job(account.accountId, first.job_id) }),
    );
    const again = await submit(account.apiKey, { client_request_id: 'reused-later' });
    expect(again.status).toBe(202);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(((await again.json()) as { job_id: string }).job_id).not.toBe(first.job_id);
  });

  inProcessOnly('releases the reservation of a synchronous call whose settlement fails, and answers 500', async () => {
    const account = await runtime.newAccount(1_000_000);
    const deps = services().images;
    const original = deps.ledger;
    deps.ledger = Object.assign(Object.create(original), {
      settle: async () => Promise.reject(new Error('settlement store unavailable')),
    });
    try {
      const response = await runtime.call('POST', '/v2/service/enhance', {
        apiKey: account.apiKey,
        body: { image: await base64Jpeg() },
      });
      expect(response.status).toBe(500);
    } finally {
      deps.ledger = original;
    }
    expect(await services().ledger.balance(account.accountId)).toBe(1_000_000);
  });

  it('releases an abandoned synchronous job when its client_request_id is repeated', async () => {
    const account = await runtime.newAccount(1_000_000);
    const longAgo = Date.now() - 2 * 3600 * 1000;
    const image = await base64Jpeg();
    await services().ledger.reserve({
      accountId: account.accountId,
      amountMicros: PINNED_PRICES.perImageMicros,
      creates: {
        kind: 'job',
        job: aJob(account.accountId, {
          jobId: 'job_abandoned',
          mode: 'sync',
          status: 'running',
          createdAt: longAgo,
          startedAt: longAgo,
          clientRequestId: 'crashed',
        }),
      },
      claim: {
        clientRequestId: 'crashed',
        jobId: 'job_abandoned',
        fingerprint: requestFingerprint(
          enhanceCommand(v.parse(EnhanceRequestSchema, { image, client_request_id: 'crashed' })),
        ),
        keepUntil: Date.now() + 3600_000,
      },
      at: longAgo,
    });
    const response = await runtime.call('POST', '/v2/service/enhance', {
      apiKey: account.apiKey,
      body: { image, client_request_id: 'crashed' },
    });
    expect(response.status).toBe(500);
    expect(await services().ledger.balance(account.accountId)).toBe(1_000_000);
    expect((await services().jobs.get(account.accountId, 'job_abandoned'))!.status).toBe('failed');
  });

  it('keeps no inputs of an async submit refused for its balance', async () => {
    const account = await runtime.newAccount(0);
    expect((await submit(account.apiKey, {})).status).toBe(402);
    expect(await services().objects.deletePrefix(`inputs/${account.accountId}/`)).toBe(0);
  });
});
