/**
 * Real image models behind MODEL_ROUTES, asynchronous jobs (issue 24), black box: base-b-2 on a double of
 * OpenAI's Images API, base-c-2 on a double of Gemini, base-a-2 on a double of fal's queue. fal's work is
 * submitted once by the workflow's RunEngine step, its ticket kept on the job; the workflow then waits for
 * fal's webhook (AwaitEngine, whose later wait states check fal's status; a request the double holds by polls
 * advances only at those checks), and RunEngine reads the result, so a job outlives any one Lambda run and a
 * retried step checks the same request instead of paying again. Every double checks each request
 * against its provider's published format, and none may have found a violation after any test.
 */
import { services } from '../../bin/local-aws/services';
import { PROVIDER_RETRY_DEFAULTS } from '../../functions/adapters/engine/providers/provider-http';
import { findBaseModel } from '../../functions/domain/catalog/catalog';
import {
  download,
  expectCost,
  type JobStatus,
  jobStatus,
  pollJob,
  tokenPriceMicros,
  usd,
  useProviderRuntime,
} from '../support/providers/e2e';
import { startReceiver } from '../support/receiver';
import { balanceOf, decode } from './images/support';

const OPENING_MICROS = 10_000_000;

/** RunEngine's Lambda timeout and the workflow's WaitForEngine, in the state machine's seconds. */
const LAMBDA_TIMEOUT_SECONDS = 900;
const WAIT_FOR_ENGINE_SECONDS = 5;

// The doubles draw every output's faces with the face analyser: a call takes seconds, not milliseconds.
jest.setTimeout(120_000);

/**
 * The state machines' time scale in this file (waits, heartbeats and retries): a fifth of the test runtime's
 * default, so a round of fal's wait chain (the job's 1800 s budget in the workflow's seconds, checks at 30 s,
 * 150 s and 630 s) takes 0.36 s: the job fal holds for 30 status polls goes round it several times.
 */
const TIME_SCALE = 0.0002;
const world = useProviderRuntime({ CALLBACK_RETRY_SCALE: '0' }, {}, TIME_SCALE);

/** Submits an asynchronous generate; answers the job id of the 202. */
const submit = async (apiKey: string, body: Record<string, unknown>): Promise<string> => {
  const response = await world.runtime.call('POST', '/v2/service/generate', { apiKey, body: { ...body, async: true } });
  const text = await response.text();
  expect({ status: response.status, text }).toEqual({ status: 202, text: expect.stringContaining('"pending"') });
  return (JSON.parse(text) as { job_id: string }).job_id;
};

const spent = async (accountId: string) => OPENING_MICROS - (await balanceOf(accountId));

const flatPrice = (model: string): number => {
  const pricing = findBaseModel(model)?.pricing;
  if (pricing?.metering === 'flat') return pricing.perImageMicros['1K'] ?? Number.NaN;
  if (pricing?.metering === 'tokens') return pricing.floorPerImageMicros;
  return Number.NaN;
};

describe('an asynchronous job on each provider', () => {
  it.each([
    ['base-b-2', () => world.doubles.openai.received.length],
    ['base-c-2', () => world.doubles.gemini.received.length],
    ['base-a-2', () => world.doubles.fal.submissions.length],
  ] as const)('on %s goes pending → succeeded, with the callback and the images', async (model, calls) => {
    const account = await world.runtime.newAccount(OPENING_MICROS);
    const receiver = await startReceiver([204]);
    try {
      const before = calls();
      const jobId = await submit(account.apiKey, {
        prompt: 'a lighthouse',
        base_model: model,
        aspect_ratio: '4:3',
        output_format: 'png',
        callback_url: receiver.url,
      });
      const job = await pollJob(world.runtime, account.apiKey, jobId);
      expect(job).toMatchObject({ status: 'succeeded', error: null, progress: 1 });
      expect(calls() - before).toBe(1);
      const [link] = job.result?.download_urls ?? [];
      expect(await decode(await download(link ?? ''))).toEqual({ format: 'png', width: 1024, height: 768 });
      await receiver.waitFor(1);
      expect(JSON.parse(receiver.received[0]?.body ?? '{}')).toMatchObject({
        job_id: jobId,
        status: 'succeeded',
        result: { download_urls: [expect.any(String)] },
      });
      // base-b-2 at 1024x768 makes fewer tokens than its floor: every model settles at its floor price here.
      expectCost(job.cost, flatPrice(model));
      expect(await spent(account.accountId)).toBe(flatPrice(model));
    } finally {
      await receiver.close();
    }
  });
});

describe('fal’s queue in the workflow', () => {
  it('shows the job running with progress while fal holds it, and submits once however often it checks', async () => {
    const account = await world.runtime.newAccount(OPENING_MICROS);
    const before = { ...world.doubles.fal.counters };
    world.doubles.fal.holdNext({ queuedPolls: 15, runningPolls: 15 });
    const seen: JobStatus[] = [];
    const jobId = await submit(account.apiKey, { prompt: 'a harbour', base_model: 'base-a-2' });
    const job = await pollJob(world.runtime, account.apiKey, jobId, undefined, { seen: (answer) => seen.push(answer) });
    expect(job.status).toBe('succeeded');
    const running = seen.filter((answer) => answer.status === 'running');
    expect(running.some((answer) => answer.progress > 0 && answer.progress < 1)).toBe(true);
    expect(world.doubles.fal.counters.submits - before.submits).toBe(1);
    expect(world.doubles.fal.counters.statusPolls - before.statusPolls).toBeGreaterThan(30);
    expect(world.doubles.fal.counters.results - before.results).toBe(1);
  });

  it('runs a job fal holds longer than RunEngine’s Lambda timeout (in the workflow’s seconds) with one submission', async () => {
    const account = await world.runtime.newAccount(OPENING_MICROS);
    const before = { ...world.doubles.fal.counters };
    // fal works for 1.5 × RunEngine's timeout in the workflow's seconds, then reports to the webhook.
    world.doubles.fal.holdNext({ ms: LAMBDA_TIMEOUT_SECONDS * 1.5 * TIME_SCALE * 1000 });
    const jobId = await submit(account.apiKey, { prompt: 'a slow harbour', base_model: 'base-a-2' });
    const job = await pollJob(world.runtime, account.apiKey, jobId, undefined, { timeoutMs: 60_000 });
    expect(job.status).toBe('succeeded');
    // The job waited on fal's webhook: its status was asked at the wait's checks (30 s, 150 s, 630 s) and by
    // RunEngine once at the end, not every WAIT_FOR_ENGINE_SECONDS.
    const polls = world.doubles.fal.counters.statusPolls - before.statusPolls;
    expect(polls).toBeLessThan((LAMBDA_TIMEOUT_SECONDS * 1.5) / WAIT_FOR_ENGINE_SECONDS / 10);
    expect(world.doubles.fal.counters.submits - before.submits).toBe(1);
    expect(await spent(account.accountId)).toBe(40_000);
  }, 90_000);

  it('checks the same request again when fal’s status answers 500 many times mid-job: one submission, one charge', async () => {
    const account = await world.runtime.newAccount(OPENING_MICROS);
    const before = { ...world.doubles.fal.counters };
    world.doubles.fal.holdNext({ queuedPolls: 3, runningPolls: 3 });
    // More 500s in a row than one check's attempts: the step fails, and the workflow runs it again.
    world.doubles.fal.failNext(500, { on: 'status', after: 2, retryAfter: '0' });
    for (let more = 0; more < PROVIDER_RETRY_DEFAULTS.maxAttempts; more += 1)
      world.doubles.fal.failNext(500, { on: 'status', retryAfter: '0' });
    const jobId = await submit(account.apiKey, { prompt: 'a flaky harbour', base_model: 'base-a-2' });
    const job = await pollJob(world.runtime, account.apiKey, jobId);
    expect(job).toMatchObject({ status: 'succeeded', error: null, cost: { final: usd(40_000) } });
    expect(world.doubles.fal.counters.submits - before.submits).toBe(1);
    expect(await spent(account.accountId)).toBe(40_000);
  });

  it('fails the job CONTENT_MODERATION when fal refuses the result, refunded', async () => {
    const account = await world.runtime.newAccount(OPENING_MICROS);
    world.doubles.fal.refuseNext('content_policy', { on: 'result', message: 'The content could not be processed.' });
    const jobId = await submit(account.apiKey, { prompt: 'something refused', base_model: 'base-a-2' });
    const job = await pollJob(world.runtime, account.apiKey, jobId);
    expect(job).toMatchObject({
      status: 'failed',
      error: { code: 'CONTENT_MODERATION', message: expect.stringContaining('could not be processed') },
      cost: { final: '0.00' },
    });
    expect(await spent(account.accountId)).toBe(0);
  });

  it('cancels a job fal holds in its queue: fal is asked to cancel that request, the job ends CANCELED, refunded', async () => {
    const account = await world.runtime.newAccount(OPENING_MICROS);
    const before = world.doubles.fal.submissions.length;
    world.doubles.fal.holdNext({ queuedPolls: 100_000 });
    const jobId = await submit(account.apiKey, { prompt: 'a harbour never drawn', base_model: 'base-a-2' });
    // Checked at least once: the ticket is on the job.
    const deadline = Date.now() + 15_000;
    const checked = () =>
      world.doubles.fal.received.some(
        (request) =>
          request.path === `/fal-ai/flux-2/requests/${world.doubles.fal.submissions[before]?.requestId}/status`,
      );
    while (!checked() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    const requestId = world.doubles.fal.submissions[before]?.requestId;
    expect(requestId).toBeDefined();

    const response = await world.runtime.call('POST', `/v2/service/jobs/${jobId}/cancel`, { apiKey: account.apiKey });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ job_id: jobId, status: 'failed', error: { code: 'CANCELED' } });
    expect(
      world.doubles.fal.received.filter((request) => request.method === 'PUT').map((request) => request.path),
    ).toContain(`/fal-ai/flux-2/requests/${requestId}/cancel`);
    expect(await jobStatus(world.runtime, account.apiKey, jobId)).toMatchObject({
      status: 'failed',
      error: { code: 'CANCELED' },
      cost: { final: '0.00' },
    });
    expect(await spent(account.accountId)).toBe(0);
    expect(world.doubles.fal.submissions.length - before).toBe(1);
  });

  it('keeps fal’s own cost on the job for the operator, never in what the client sees', async () => {
    const account = await world.runtime.newAccount(OPENING_MICROS);
    const jobId = await submit(account.apiKey, { prompt: 'a harbour', base_model: 'base-a-2', aspect_ratio: '16:9' });
    const job = await pollJob(world.runtime, account.apiKey, jobId);
    expect(job.status).toBe('succeeded');
    expect(JSON.stringify(job)).not.toMatch(/provider|0\.012/i);
    // flux-2 [dev]: $0.012 per started megapixel of output; 1024x576 is one.
    const stored = await services().jobs.get(account.accountId, jobId);
    expect(stored?.result?.providerCostMicros).toBe(12_000);
  });
});

describe('OpenAI in the workflow', () => {
  it('fails the job INTERNAL_ERROR for a 400 from OpenAI, sent once and never retried, refunded', async () => {
    const account = await world.runtime.newAccount(OPENING_MICROS);
    const before = world.doubles.openai.received.length;
    world.doubles.openai.script.push({ kind: 'reject', status: 400, message: 'Invalid value for size.' });
    const jobId = await submit(account.apiKey, { prompt: 'a kite', base_model: 'base-b-2' });
    const job = await pollJob(world.runtime, account.apiKey, jobId);
    expect(job).toMatchObject({ status: 'failed', error: { code: 'INTERNAL_ERROR' }, cost: { final: '0.00' } });
    expect(world.doubles.openai.received.length - before).toBe(1);
    expect(await spent(account.accountId)).toBe(0);
  });

  it('retries a 429 inside the step after its Retry-After, under the job’s key, and charges once', async () => {
    const account = await world.runtime.newAccount(OPENING_MICROS);
    const [before, answersBefore] = [world.doubles.openai.received.length, world.doubles.openai.answers.length];
    world.doubles.openai.failNext(429, { retryAfter: '1' });
    const jobId = await submit(account.apiKey, { prompt: 'a kite', base_model: 'base-b-2', quality: 'high' });
    const job = await pollJob(world.runtime, account.apiKey, jobId);
    expect(job.status).toBe('succeeded');
    const keys = world.doubles.openai.received.slice(before).map((request) => request.headers['idempotency-key']);
    expect(keys).toEqual([jobId, jobId]);
    // One answer's tokens, at the catalog's token price (above the floor at high quality).
    expect(world.doubles.openai.answers.length - answersBefore).toBe(1);
    const priceMicros = tokenPriceMicros('base-b-2', world.doubles.openai, answersBefore);
    expect(priceMicros).toBeGreaterThan(20_000);
    expectCost(job.cost, priceMicros);
    expect(await spent(account.accountId)).toBe(priceMicros);
  });
});
