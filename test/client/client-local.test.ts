/**
 * The typed client against the local runtime (the same handlers, state machines and back ends as
 * `npm start`): what a developer's first hour with it looks like.
 */
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { type Client, createClient, ServiceError } from '../../clients/typescript/src';
import { startTestRuntime, type TestRuntime } from '../support/runtime';

let runtime: TestRuntime;
let client: Client;

beforeAll(async () => {
  runtime = await startTestRuntime();
  const { apiKey } = await runtime.newAccount(1_000_000_000);
  client = createClient({ baseUrl: runtime.url, apiKey });
});
afterAll(() => runtime.close());

const photo = (width: number, height: number, quality = 90) =>
  sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
    .jpeg({ quality })
    .toBuffer();

describe('the TypeScript client, against the local runtime', () => {
  it('generates synchronously', async () => {
    const result = await client.generate({ prompt: 'a lighthouse at dawn', output_format: 'jpg' });
    expect(result.images).toHaveLength(1);
    expect(Buffer.from(result.images[0]!, 'base64').subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
  });

  it('submits a job and waits for it', async () => {
    const handle = await client.generate({ prompt: 'a lighthouse at dawn', async: true });
    expect(handle).toMatchObject({ status: 'pending', job_id: expect.stringMatching(/^job_/) });
    const done = await client.waitForJob(handle.job_id, { minDelayMs: 50, timeoutMs: 30_000 });
    expect(done).toMatchObject({ status: 'succeeded', result: { download_urls: [expect.any(String)] } });
    const page = await client.listJobs({ limit: '5' });
    expect(page.jobs.map((job) => job.job_id)).toContain(handle.job_id);
  });

  it('reads the account, its ledger and a job’s cost and delivery log, and tests a webhook receiver', async () => {
    const { apiKey } = await runtime.newAccount(2_000_000);
    const own = createClient({ baseUrl: runtime.url, apiKey });
    const handle = await own.generate({ prompt: 'a lighthouse at dawn', async: true });
    const done = await own.waitForJob(handle.job_id, { minDelayMs: 50, timeoutMs: 30_000 });
    const account = await own.account();
    expect(account.balance.micro_usd).toBe(2_000_000 - Math.round(Number(done.cost!.final) * 1e6));
    const page = await own.ledger({ limit: 2 });
    expect(page.entries.map((entry) => entry.kind)).toEqual(['settle', 'reserve']);
    expect((await own.ledger({ cursor: page.next_cursor! })).entries.map((entry) => entry.kind)).toEqual(['credit']);
    expect(await own.jobDeliveries(handle.job_id)).toEqual({ job_id: handle.job_id, callback_url: null, attempts: [] });
    await expect(own.redeliver(handle.job_id)).rejects.toMatchObject({ status: 400, code: 'INVALID_REQUEST' });
    expect(await own.testWebhook('https://127.0.0.1:9/none')).toMatchObject({ delivered: false, error: 'network' });
  });

  it('edits bytes sent inline', async () => {
    const result = await client.edit({ prompt: 'warmer', images: [await photo(64, 48)] });
    expect(result.images).toHaveLength(1);
  });

  it('edits bytes too large to send inline through a direct upload', async () => {
    const large = await photo(2400, 1800, 98);
    expect(large.length).toBeGreaterThan(4 * 1024 * 1024);
    const result = await client.edit({ prompt: 'warmer', images: [large] });
    expect(result.images).toHaveLength(1);
  }, 60_000);

  it('surfaces a validation error with pydantic’s detail', async () => {
    const error = await client.generate({ prompt: 'x', num_output_images: 9 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({
      status: 422,
      detail: [expect.objectContaining({ type: 'less_than_equal', loc: ['body', 'num_output_images'] })],
    });
  });

  it('answers a job of nobody as a 404 ServiceError', async () => {
    await expect(client.getJob('job_nobody')).rejects.toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });
});
