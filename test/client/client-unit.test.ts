/**
 * The client's own behaviour on a fake fetch (no service, no waiting: the sleep is recorded, not slept).
 * One scripted exchange per test; each breaks one aspect.
 */
import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import {
  createClient,
  JobWaitTimeoutError,
  ServiceError,
  verifyWebhook,
  WebhookVerificationError,
} from '../../clients/typescript/src';

const BASE = 'http://127.0.0.1:9';
const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', 'X-Request-Id': 'req-1', ...headers },
  });
const RESULT = { known_subjects: { counts: {} }, images: ['aGk='], download_urls: [] };
const JOB = (status: string) => ({
  job_id: 'job_1',
  status,
  operation: 'generate',
  created_at: '2026-11-23T12:00:00.000Z',
  result: null,
  error: null,
  completed_at: null,
});

/** A client whose fetch answers from `script` in order and records every request. */
const scripted = (script: Array<Response | Error>) => {
  const requests: Array<{ method: string; url: string; body: string }> = [];
  const sleeps: number[] = [];
  const client = createClient({
    baseUrl: BASE,
    apiKey: 'isk_test',
    fetch: async (input, init) => {
      const request = new Request(input, init);
      requests.push({ method: request.method, url: request.url, body: await request.text() });
      const next = script.shift();
      if (!next) throw new Error('the script ran out');
      if (next instanceof Error) throw next;
      return next;
    },
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 1,
  });
  return { client, requests, sleeps };
};

describe('image submits', () => {
  it('send one generated client_request_id, the same on every retry of the submit', async () => {
    const { client, requests } = scripted([
      json(503, { detail: 'busy', code: 'SERVICE_UNAVAILABLE', request_id: 'r' }),
      new TypeError('socket hang up'),
      json(200, RESULT),
    ]);
    await expect(client.generate({ prompt: 'a lighthouse' })).resolves.toEqual(RESULT);
    const ids = requests.map(
      (request) => (JSON.parse(request.body) as { client_request_id: string }).client_request_id,
    );
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(1);
    expect(ids[0]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('use a new client_request_id for the next submit, and the caller’s own when given', async () => {
    const { client, requests } = scripted([json(200, RESULT), json(200, RESULT), json(200, RESULT)]);
    await client.generate({ prompt: 'one' });
    await client.generate({ prompt: 'two' });
    await client.generate({ prompt: 'three', client_request_id: 'order-42' });
    const ids = requests.map(
      (request) => (JSON.parse(request.body) as { client_request_id: string }).client_request_id,
    );
    expect(ids[0]).not.toBe(ids[1]);
    expect(ids[2]).toBe('order-42');
  });

  it('wait as long as Retry-After says before retrying a 429', async () => {
    const { client, sleeps } = scripted([
      json(429, { detail: 'slow down', code: 'RATE_LIMITED', request_id: 'r' }, { 'Retry-After': '7' }),
      json(200, RESULT),
    ]);
    await client.generate({ prompt: 'a lighthouse' });
    expect(sleeps).toEqual([7000]);
  });

  it('do not retry a validation error, and say what it was', async () => {
    const detail = [
      {
        type: 'less_than_equal',
        loc: ['body', 'num_output_images'],
        msg: 'Input should be less than or equal to 4',
        input: 9,
        ctx: { le: 4 },
      },
    ];
    const { client, requests } = scripted([json(422, { detail })]);
    const error = await client.generate({ prompt: 'x', num_output_images: 9 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({ status: 422, detail });
    expect(requests).toHaveLength(1);
  });

  it('stop retrying after the last attempt and answer the last refusal', async () => {
    const busy = () => json(503, { detail: 'busy', code: 'SERVICE_UNAVAILABLE', request_id: 'r' });
    const { client, requests } = scripted([busy(), busy(), busy(), busy()]);
    await expect(client.generate({ prompt: 'x' })).rejects.toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
    expect(requests).toHaveLength(4);
  });

  it('never repeat a profile creation that may have taken effect', async () => {
    const { client, requests } = scripted([
      json(502, { detail: 'no answer', code: 'INTERNAL_ERROR', request_id: 'r' }),
    ]);
    await expect(client.addProfile({ image_urls: ['https://example.com/1.jpg'] } as never)).rejects.toMatchObject({
      status: 502,
    });
    expect(requests).toHaveLength(1);
  });
});

describe('image inputs', () => {
  const jpeg = (size: number) => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(size - 4, 7)]);

  it('send small bytes inline as base64', async () => {
    const { client, requests } = scripted([json(200, RESULT)]);
    await client.enhance({ image: jpeg(100) });
    expect(JSON.parse(requests[0]!.body)).toMatchObject({ image: jpeg(100).toString('base64') });
  });

  it('upload bytes beyond the inline limit and send the reference', async () => {
    const ticket = {
      upload_id: 'upl_1',
      reference: 'upload:upl_1',
      upload_url: 'http://127.0.0.1:9/bucket/uploads/acc/upl_1?X-Amz-Signature=abc',
      upload_method: 'PUT',
      upload_headers: { 'Content-Type': 'image/jpeg' },
      upload_url_expires_at: '2026-11-23T12:15:00.000Z',
      expires_at: '2026-11-24T12:15:00.000Z',
    };
    const { client, requests } = scripted([json(200, ticket), new Response(null, { status: 200 }), json(200, RESULT)]);
    await client.enhance({ image: jpeg(5 * 1024 * 1024) });
    expect(requests.map((request) => `${request.method} ${new URL(request.url).pathname}`)).toEqual([
      'POST /v2/service/uploads',
      'PUT /bucket/uploads/acc/upl_1',
      'POST /v2/service/enhance',
    ]);
    expect(JSON.parse(requests[0]!.body)).toEqual({ size_bytes: 5 * 1024 * 1024, content_type: 'image/jpeg' });
    expect(requests[1]!.body.length).toBe(5 * 1024 * 1024);
    expect(JSON.parse(requests[2]!.body)).toMatchObject({ image: 'upload:upl_1' });
  });

  it('pass a URL through', async () => {
    const { client, requests } = scripted([json(200, RESULT)]);
    await client.remix({
      input_image: { url: 'https://example.com/a.jpg' },
      reference_image: 'https://example.com/b.jpg',
    });
    expect(JSON.parse(requests[0]!.body)).toMatchObject({
      input_image: 'https://example.com/a.jpg',
      reference_image: 'https://example.com/b.jpg',
    });
  });
});

describe('waitForJob', () => {
  it('polls with growing waits until the job ends', async () => {
    const { client, sleeps } = scripted([
      json(200, JOB('pending')),
      json(200, JOB('running')),
      json(200, JOB('succeeded')),
    ]);
    await expect(client.waitForJob('job_1', { minDelayMs: 100 })).resolves.toMatchObject({ status: 'succeeded' });
    expect(sleeps).toEqual([100, 200]);
  });

  it('answers a failed job rather than throwing', async () => {
    const { client } = scripted([
      json(200, { ...JOB('failed'), error: { code: 'CONTENT_MODERATION', message: 'refused' } }),
    ]);
    await expect(client.waitForJob('job_1')).resolves.toMatchObject({
      status: 'failed',
      error: { code: 'CONTENT_MODERATION' },
    });
  });

  it('throws at the deadline with the last status', async () => {
    const { client } = scripted([json(200, JOB('running'))]);
    const error = await client.waitForJob('job_1', { timeoutMs: 0 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(JobWaitTimeoutError);
    expect(error).toMatchObject({ jobId: 'job_1', lastStatus: { status: 'running' } });
  });
});

describe('verifyWebhook', () => {
  const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
  const body = '{"job_id":"job_1","status":"succeeded"}';
  const NOW = Date.parse('2026-11-23T12:00:00.000Z');
  const signed = (content = body, at = NOW, key = secret) => {
    const headers = new Webhook(key).sign('msg_1', new Date(at), content);
    return {
      'webhook-id': 'msg_1',
      'webhook-timestamp': String(Math.floor(at / 1000)),
      'webhook-signature': headers,
      'X-Service-Signature': `sha256=${createHmac('sha256', key).update(content).digest('hex')}`,
    };
  };
  const now = () => NOW;

  it('verifies the Standard Webhooks signature the standardwebhooks package makes', () => {
    expect(verifyWebhook(body, signed(), secret, { now })).toBe('standard-webhooks');
  });

  it('verifies X-Service-Signature when the Standard Webhooks headers are absent', () => {
    const { 'X-Service-Signature': spec } = signed();
    expect(verifyWebhook(body, { 'x-service-signature': spec }, secret, { now })).toBe('x-service-signature');
  });

  it('refuses a changed body', () => {
    expect(() => verifyWebhook(`${body} `, signed(), secret, { now })).toThrow(WebhookVerificationError);
  });

  it('refuses a timestamp outside the tolerance', () => {
    expect(() => verifyWebhook(body, signed(body, NOW - 301_000), secret, { now })).toThrow('outside the tolerance');
  });

  it('refuses another secret, and accepts it among the live ones', () => {
    const other = 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD';
    expect(() => verifyWebhook(body, signed(), other, { now })).toThrow('no webhook-signature matches');
    expect(verifyWebhook(body, signed(), [other, secret], { now })).toBe('standard-webhooks');
  });
});
