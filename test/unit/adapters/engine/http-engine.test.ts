import sharp from 'sharp';
import {
  HttpEngine,
  HttpEngineError,
  type HttpEngineOptions,
  type Wait,
} from '../../../../functions/adapters/engine/http-engine';
import type { EngineRequest } from '../../../../functions/domain/engine/engine';
import { aNamedCandidate } from '../../../support/builders/engine';
import { type FakeEngineServer, okBody, startFakeEngineServer } from '../../../support/fake-engine-server';

let server: FakeEngineServer;
let input: Buffer;
let outputs: Buffer[];
let waits: number[];

beforeAll(async () => {
  input = await sharp({ create: { width: 8, height: 6, channels: 3, background: '#336699' } })
    .jpeg()
    .toBuffer();
  outputs = await Promise.all(
    ['#ff0000', '#00ff00'].map((background) =>
      sharp({ create: { width: 16, height: 12, channels: 3, background } })
        .png()
        .toBuffer(),
    ),
  );
});

beforeEach(async () => {
  server = await startFakeEngineServer();
  waits = [];
});

afterEach(() => server.close());

const recordWait: Wait = async (milliseconds) => {
  waits.push(milliseconds);
};

const engine = (options: Partial<HttpEngineOptions> = {}) =>
  new HttpEngine({
    baseUrl: server.baseUrl,
    token: 'engine-token',
    attemptTimeoutSeconds: 5,
    deadlineSeconds: 20,
    wait: recordWait,
    random: () => 0.5,
    referenceUrl: async (key) => `https://bucket.test/${key}?signed`,
    ...options,
  });

const request = (overrides: Partial<EngineRequest> = {}): EngineRequest => ({
  workKey: 'job_test',
  accountId: 'acc_1',
  operation: 'edit',
  prompt: 'a [[prf_named]] portrait',
  images: [{ data: input, format: 'jpeg', width: 8, height: 6 }],
  width: 16,
  height: 12,
  outputFormat: 'png',
  numOutputImages: 2,
  baseModel: 'base-b-2',
  quality: 'high',
  candidates: [aNamedCandidate(), { profileId: 'prf_other', face: null }],
  namedInPrompt: ['prf_named'],
  ...overrides,
});

const live = () => new AbortController().signal;
const ok = () => ({
  status: 200,
  json: okBody(outputs, 'png', { outputTokens: 1234, megapixels: 0.000384 }),
});

describe('HTTP engine: outcomes', () => {
  it('returns the images and usage of an ok response', async () => {
    server.reply(ok());
    expect(await engine().run(request(), live())).toEqual({
      kind: 'images',
      images: outputs,
      usage: { outputTokens: 1234, megapixels: 0.000384 },
    });
  });

  it('ignores the known subjects a backend of the first contract reports, even of non-candidates', async () => {
    const reply = okBody(outputs, 'png', { knownSubjects: { prf_named: 2, prf_stranger: -1 } });
    server.reply({ status: 200, json: reply });
    expect(await engine().run(request(), live())).toEqual({
      kind: 'images',
      images: outputs,
      usage: { outputTokens: 0, megapixels: 0 },
    });
  });

  it('turns a moderated response into a moderation refusal', async () => {
    server.reply({ status: 200, json: { status: 'moderated', message: 'blocked: violence' } });
    expect(await engine().run(request(), live())).toEqual({ kind: 'moderated', message: 'blocked: violence' });
  });

  it('turns a no_image response into a no-image outcome', async () => {
    server.reply({ status: 200, json: { status: 'no_image', message: 'nothing came out' } });
    expect(await engine().run(request(), live())).toEqual({ kind: 'no_image', message: 'nothing came out' });
  });

  it('sends the request in the contract’s shape', async () => {
    server.reply(ok());
    await engine().run(request(), live());
    expect(server.received).toHaveLength(1);
    const [received] = server.received;
    expect(received).toMatchObject({ method: 'POST', path: '/v1/run' });
    expect(received.headers).toMatchObject({
      authorization: 'Bearer engine-token',
      'content-type': 'application/json',
    });
    expect(received.headers['idempotency-key']).toBe('job_test');
    expect(received.body).toEqual({
      operation: 'edit',
      prompt: 'a [[prf_named]] portrait',
      inputs: [{ format: 'jpeg', width: 8, height: 6, data_base64: input.toString('base64') }],
      params: {
        width: 16,
        height: 12,
        output_format: 'png',
        num_output_images: 2,
        base_model: 'base-b-2',
        quality: 'high',
      },
      candidates: [
        {
          profile_id: 'prf_named',
          reference_urls: [
            'https://bucket.test/profiles/acc_1/prf_named/reference-0.jpg?signed',
            'https://bucket.test/profiles/acc_1/prf_named/reference-1.jpg?signed',
          ],
        },
        { profile_id: 'prf_other', reference_urls: [] },
      ],
      named_in_prompt: ['prf_named'],
    });
  });

  it('keeps a base path of the backend URL', async () => {
    server.reply(ok());
    await engine({ baseUrl: `${server.baseUrl}/gpu/` }).run(request(), live());
    expect(server.received[0].path).toBe('/gpu/v1/run');
  });
});

describe('HTTP engine: retries', () => {
  it('retries a 503 and returns the next attempt’s answer', async () => {
    server.reply({ status: 503, json: { error: 'warming up' } }, ok());
    const outcome = await engine().run(request(), live());
    expect(outcome.kind).toBe('images');
    expect(server.received).toHaveLength(2);
    expect(server.received[1].headers['idempotency-key']).toBe(server.received[0].headers['idempotency-key']);
    expect(waits).toEqual([750]);
  });

  it('backs off longer each time and honours Retry-After', async () => {
    server.reply({ status: 500, json: {} }, { status: 429, json: {}, headers: { 'retry-after': '2' } }, ok());
    await engine({ maxAttempts: 3 }).run(request(), live());
    expect(waits).toEqual([750, 2000]);
  });

  it('retries a network error', async () => {
    const closed = await startFakeEngineServer();
    await closed.close();
    await expect(engine({ baseUrl: closed.baseUrl }).run(request(), live())).rejects.toThrow(
      /unreachable.*gave up after 3 attempts/,
    );
    expect(waits).toHaveLength(2);
  });

  it('gives up after the last attempt', async () => {
    server.reply({ status: 503, json: {} }, { status: 503, json: {} }, { status: 503, json: {} }, ok());
    await expect(engine().run(request(), live())).rejects.toThrow(/HTTP 503.*gave up after 3 attempts/);
    expect(server.received).toHaveLength(3);
  });

  it('does not retry a 400, which is an engine failure', async () => {
    server.reply({ status: 400, json: { error: 'bad params' } }, ok());
    await expect(engine().run(request(), live())).rejects.toMatchObject({
      name: 'HttpEngineError',
      status: 400,
      retryable: false,
    });
    expect(server.received).toHaveLength(1);
  });
});

describe('HTTP engine: malformed responses are engine failures, not retried', () => {
  const cases: [string, () => { status: number; text?: string; json?: unknown }][] = [
    ['a body that is not JSON', () => ({ status: 200, text: '<html>gateway</html>' })],
    ['an unknown status', () => ({ status: 200, json: { status: 'maybe', message: '?' } })],
    ['an ok without usage', () => ({ status: 200, json: { ...okBody(outputs, 'png'), usage: undefined } })],
    [
      'images that are not base64',
      () => ({
        status: 200,
        json: { ...okBody(outputs, 'png'), images: [{ format: 'png', data_base64: 'not base64!' }] },
      }),
    ],
    ['fewer images than asked', () => ({ status: 200, json: okBody(outputs.slice(0, 1), 'png') })],
    ['images in another format than asked', () => ({ status: 200, json: okBody(outputs, 'jpg') })],
    ['bytes that are not the format claimed', () => ({ status: 200, json: okBody([input, input], 'png') })],
  ];
  for (const [what, reply] of cases) {
    it(`rejects ${what}`, async () => {
      server.reply(reply(), ok());
      const failure = engine().run(request(), live());
      await expect(failure).rejects.toBeInstanceOf(HttpEngineError);
      await expect(failure).rejects.toThrow(/breaks the contract/);
      expect(server.received).toHaveLength(1);
    });
  }
});

describe('HTTP engine: time', () => {
  it('times out a slow attempt and retries it', async () => {
    server.reply({ ...ok(), delayMs: 2000 }, ok());
    const outcome = await engine({ attemptTimeoutSeconds: 0.2 }).run(request(), live());
    expect(outcome.kind).toBe('images');
    expect(server.received).toHaveLength(2);
  });

  it('fails when every attempt times out', async () => {
    server.reply({ ...ok(), delayMs: 2000 }, { ...ok(), delayMs: 2000 });
    const started = Date.now();
    await expect(engine({ attemptTimeoutSeconds: 0.1, maxAttempts: 2 }).run(request(), live())).rejects.toThrow(
      /timed out.*gave up after 2/,
    );
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('stops at the overall deadline even inside an attempt', async () => {
    server.reply({ ...ok(), delayMs: 3000 });
    const started = Date.now();
    await expect(
      engine({ attemptTimeoutSeconds: 10, deadlineSeconds: 0.2 }).run(request(), live()),
    ).rejects.toBeInstanceOf(HttpEngineError);
    expect(Date.now() - started).toBeLessThan(1500);
    expect(server.received).toHaveLength(1);
  });

  it('an abort cancels the request at once and is not retried', async () => {
    server.reply({ ...ok(), delayMs: 3000 }, ok());
    const controller = new AbortController();
    const running = engine().run(request(), controller.signal);
    while (server.received.length === 0) await new Promise((resolve) => setImmediate(resolve));
    controller.abort();
    await expect(running).rejects.toMatchObject({ name: 'AbortError' });
    expect(server.received).toHaveLength(1);
  });

  it('an abort during the backoff stops the retries', async () => {
    server.reply({ status: 503, json: {} }, ok());
    const controller = new AbortController();
    const abortingWait: Wait = async () => {
      controller.abort();
      controller.signal.throwIfAborted();
    };
    await expect(engine({ wait: abortingWait }).run(request(), controller.signal)).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(server.received).toHaveLength(1);
  });
});
