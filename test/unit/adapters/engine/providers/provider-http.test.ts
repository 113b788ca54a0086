/**
 * The retry rules every provider adapter shares (functions/adapters/engine/providers/provider-http.ts),
 * against a real local HTTP server that answers from a script. Waits are recorded, never slept.
 */
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import { HttpEngineError } from '../../../../../functions/adapters/engine/http-engine';
import {
  defaultTransport,
  PROVIDER_RETRY_DEFAULTS,
  type ProviderCall,
  type ProviderTransport,
  retryAfterSeconds,
  sendWithRetries,
} from '../../../../../functions/adapters/engine/providers/provider-http';

const NOW = Date.parse('2026-11-23T12:00:00.000Z');

interface Reply {
  status: number;
  body?: string;
  headers?: Record<string, string>;
  /** Never answer: the request hangs until the client gives up. */
  hang?: true;
}

interface Received {
  method: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A server that answers each request with the next scripted reply (the last one repeats). */
const scriptedServer = async () => {
  const replies: Reply[] = [];
  const received: Received[] = [];
  const hanging: ServerResponse[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ method: request.method ?? '', headers: request.headers, body: Buffer.concat(chunks).toString() });
      const reply = replies.length > 1 ? replies.shift() : replies[0];
      if (!reply || reply.hang) {
        hanging.push(response);
        return;
      }
      response.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
      response.end(reply.body ?? '{}');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('scripted server: not listening on TCP');
  const { port } = address;
  return {
    url: `http://127.0.0.1:${port}/v1/images`,
    received,
    reply: (...next: Reply[]) => void replies.push(...next),
    close: async () => {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
};

let server: Awaited<ReturnType<typeof scriptedServer>>;
let waits: number[];

beforeEach(async () => {
  server = await scriptedServer();
  waits = [];
});
afterEach(() => server.close());

const transport = (policy: Partial<ProviderTransport['policy']> = {}, clock = () => NOW): ProviderTransport =>
  defaultTransport({
    wait: async (milliseconds) => void waits.push(milliseconds),
    random: () => 0.5,
    clock,
    policy: { ...PROVIDER_RETRY_DEFAULTS, ...policy },
  });

const call = (overrides: Partial<ProviderCall> = {}): ProviderCall => ({
  provider: 'Acme',
  url: server.url,
  method: 'POST',
  headers: { 'content-type': 'application/json', 'idempotency-key': 'job_123' },
  body: '{"prompt":"a cat"}',
  ...overrides,
});

const live = () => new AbortController().signal;

describe('answers handed back', () => {
  it('hands back a 200 with its body and headers', async () => {
    server.reply({ status: 200, body: '{"ok":true}', headers: { 'x-request-id': 'req_1' } });
    const answer = await sendWithRetries(transport(), call(), live());
    expect(answer.status).toBe(200);
    expect(answer.text).toBe('{"ok":true}');
    expect(answer.headers.get('x-request-id')).toBe('req_1');
    expect(server.received).toEqual([expect.objectContaining({ method: 'POST', body: '{"prompt":"a cat"}' })]);
  });

  it.each([400, 401, 404, 422])('hands back a %i without retrying it', async (status) => {
    server.reply({ status, body: '{"error":"no"}' }, { status: 200 });
    const answer = await sendWithRetries(transport(), call(), live());
    expect(answer).toMatchObject({ status, text: '{"error":"no"}' });
    expect(server.received).toHaveLength(1);
    expect(waits).toEqual([]);
  });
});

describe('retries', () => {
  it('retries a 429 after the seconds its Retry-After asks', async () => {
    server.reply({ status: 429, headers: { 'retry-after': '2' } }, { status: 200, body: 'done' });
    const answer = await sendWithRetries(transport(), call(), live());
    expect(answer.text).toBe('done');
    expect(server.received).toHaveLength(2);
    expect(waits).toEqual([2000]);
  });

  it('retries a 503 until the date its Retry-After names', async () => {
    server.reply(
      { status: 503, headers: { 'retry-after': new Date(NOW + 7000).toUTCString() } },
      { status: 200, body: 'done' },
    );
    await sendWithRetries(transport(), call(), live());
    expect(waits).toEqual([7000]);
  });

  it('backs off longer each time without a Retry-After', async () => {
    server.reply({ status: 500 }, { status: 502 }, { status: 504 }, { status: 200 });
    await sendWithRetries(transport(), call(), live());
    // Half the ceiling plus half the jitter (0.5): 1 s, 2 s, 4 s ceilings.
    expect(waits).toEqual([750, 1500, 3000]);
  });

  it('sends the same headers and body on every attempt', async () => {
    server.reply({ status: 503 }, { status: 429 }, { status: 200 });
    await sendWithRetries(transport(), call(), live());
    expect(server.received).toHaveLength(3);
    for (const received of server.received) {
      expect(received.headers['idempotency-key']).toBe('job_123');
      expect(received.body).toBe('{"prompt":"a cat"}');
    }
  });

  it('sends a multipart body again on a retry', async () => {
    const form = new FormData();
    form.append('prompt', 'a cat');
    server.reply({ status: 503 }, { status: 200 });
    await sendWithRetries(transport(), call({ headers: { 'idempotency-key': 'job_123' }, body: form }), live());
    expect(server.received).toHaveLength(2);
    for (const received of server.received) expect(received.body).toContain('a cat');
  });

  it('gives up after the last attempt with an error that is not retried again', async () => {
    server.reply({ status: 503, body: 'overloaded' });
    const sent = sendWithRetries(transport({ maxAttempts: 3 }), call(), live());
    await expect(sent).rejects.toThrow(HttpEngineError);
    await expect(sent).rejects.toMatchObject({
      retryable: false,
      status: 503,
      message: 'Acme answered HTTP 503: overloaded (gave up after 3 attempts)',
    });
    expect(server.received).toHaveLength(3);
    expect(waits).toHaveLength(2);
  });

  it('gives up at once when Retry-After asks for longer than it honours', async () => {
    server.reply({ status: 429, headers: { 'retry-after': '120' } }, { status: 200 });
    await expect(sendWithRetries(transport({ maxRetryAfterSeconds: 60 }), call(), live())).rejects.toMatchObject({
      retryable: false,
      status: 429,
      message: expect.stringContaining('(it asked to wait 120 s)'),
    });
    expect(server.received).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('gives up when the wait would pass the deadline', async () => {
    let now = NOW;
    const clock = () => now;
    const moving: ProviderTransport = {
      ...transport({ deadlineSeconds: 10 }, clock),
      wait: async (milliseconds) => {
        waits.push(milliseconds);
        now += milliseconds;
      },
    };
    server.reply({ status: 429, headers: { 'retry-after': '6' } });
    await expect(sendWithRetries(moving, call(), live())).rejects.toMatchObject({
      retryable: false,
      message: expect.stringContaining('no time left for another attempt before the deadline'),
    });
    expect(waits).toEqual([6000]);
    expect(server.received).toHaveLength(2);
  });

  it('retries when the provider cannot be reached', async () => {
    const closed = await scriptedServer();
    await closed.close();
    await expect(
      sendWithRetries(transport({ maxAttempts: 3 }), call({ url: closed.url }), live()),
    ).rejects.toMatchObject({
      retryable: false,
      message: expect.stringMatching(/^Acme unreachable: .*\(gave up after 3 attempts\)$/),
    });
    expect(waits).toHaveLength(2);
  });

  it('retries an attempt that times out', async () => {
    server.reply({ status: 200, hang: true });
    await expect(
      sendWithRetries(transport({ maxAttempts: 2, attemptTimeoutSeconds: 0.3 }), call(), live()),
    ).rejects.toMatchObject({
      retryable: false,
      message: expect.stringMatching(/^Acme attempt timed out .*gave up after 2 attempts/),
    });
    // The server may read the second request only after the client gave up on it.
    for (let tries = 0; server.received.length < 2 && tries < 100; tries += 1)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(server.received).toHaveLength(2);
  });
});

describe('a POST of work at a provider that does not deduplicate (notProcessed)', () => {
  const work = (overrides: Partial<ProviderCall> = {}) => call({ notProcessed: [429, 503], ...overrides });

  it('retries only the answers the provider documents as not processed', async () => {
    server.reply({ status: 429, headers: { 'retry-after': '1' } }, { status: 503 }, { status: 200, body: 'done' });
    const answer = await sendWithRetries(transport(), work(), live());
    expect(answer.text).toBe('done');
    expect(server.received).toHaveLength(3);
  });

  it.each([500, 502, 504])('never sends again after a %i, and says the work may have run', async (status) => {
    server.reply({ status, body: 'oops' }, { status: 200 });
    await expect(sendWithRetries(transport(), work(), live())).rejects.toMatchObject({
      retryable: false,
      status,
      mayHaveRun: true,
      message: expect.stringContaining('may have done the work'),
    });
    expect(server.received).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('never sends again after an attempt times out', async () => {
    server.reply({ status: 200, hang: true });
    await expect(sendWithRetries(transport({ attemptTimeoutSeconds: 0.3 }), work(), live())).rejects.toMatchObject({
      retryable: false,
      mayHaveRun: true,
      message: expect.stringMatching(/^Acme attempt timed out .*may have done the work/),
    });
    expect(server.received).toHaveLength(1);
  });

  it('never sends again after the connection is lost once the request was sent', async () => {
    server.reply({ status: 200, hang: true });
    const sent = sendWithRetries(transport(), work(), live());
    while (server.received.length === 0) await new Promise((resolve) => setImmediate(resolve));
    await server.close();
    await expect(sent).rejects.toMatchObject({ retryable: false, mayHaveRun: true });
    expect(server.received).toHaveLength(1);
    server = await scriptedServer();
  });

  it('retries a connection that was never made: nothing was sent', async () => {
    const closed = await scriptedServer();
    await closed.close();
    await expect(
      sendWithRetries(transport({ maxAttempts: 3 }), work({ url: closed.url }), live()),
    ).rejects.toMatchObject({
      retryable: false,
      message: expect.stringMatching(/unreachable.*gave up after 3 attempts/),
    });
    expect(waits).toHaveLength(2);
  });

  it('leaves a read as it was: its 500 is tried again', async () => {
    server.reply({ status: 500 }, { status: 200 });
    await sendWithRetries(transport(), call({ method: 'GET', body: undefined }), live());
    expect(server.received).toHaveLength(2);
  });
});

describe('aborting', () => {
  it('rejects with the signal’s reason while a request is in flight', async () => {
    server.reply({ status: 200, hang: true });
    const controller = new AbortController();
    const reason = new Error('job canceled');
    const sent = sendWithRetries(transport(), call(), controller.signal);
    while (server.received.length === 0) await new Promise((resolve) => setImmediate(resolve));
    controller.abort(reason);
    await expect(sent).rejects.toBe(reason);
    expect(waits).toEqual([]);
  });

  it('sends nothing once aborted', async () => {
    const controller = new AbortController();
    const reason = new Error('job canceled');
    controller.abort(reason);
    await expect(sendWithRetries(transport(), call(), controller.signal)).rejects.toBe(reason);
    expect(server.received).toEqual([]);
  });

  it('rejects with the signal’s reason when aborted during a backoff', async () => {
    const controller = new AbortController();
    const reason = new Error('job canceled');
    const aborting: ProviderTransport = {
      ...transport(),
      wait: async () => {
        controller.abort(reason);
        throw reason;
      },
    };
    server.reply({ status: 503 }, { status: 200 });
    await expect(sendWithRetries(aborting, call(), controller.signal)).rejects.toBe(reason);
    expect(server.received).toHaveLength(1);
  });
});

describe('reading Retry-After', () => {
  const headers = (value: string) => new Headers({ 'retry-after': value });

  it('reads seconds and HTTP dates', () => {
    expect(retryAfterSeconds(headers('5'), NOW)).toBe(5);
    expect(retryAfterSeconds(headers(new Date(NOW + 30_000).toUTCString()), NOW)).toBe(30);
  });

  it('reads a date already past as no wait', () => {
    expect(retryAfterSeconds(headers(new Date(NOW - 30_000).toUTCString()), NOW)).toBe(0);
  });

  it('ignores an absent, negative or unreadable value', () => {
    expect(retryAfterSeconds(new Headers(), NOW)).toBeUndefined();
    expect(retryAfterSeconds(headers('-1'), NOW)).toBeUndefined();
    expect(retryAfterSeconds(headers('soon'), NOW)).toBeUndefined();
  });
});

describe('aborting during the default backoff', () => {
  it('rejects with the signal’s reason, not the timer’s AbortError', async () => {
    const controller = new AbortController();
    const reason = new Error('job canceled');
    const realWait = defaultTransport().wait;
    const aborting: ProviderTransport = {
      ...transport(),
      // The service's own wait, aborted as soon as it starts: nothing is slept.
      wait: (milliseconds, signal) => {
        const waiting = realWait(milliseconds, signal);
        controller.abort(reason);
        return waiting;
      },
    };
    server.reply({ status: 503, headers: { 'retry-after': '30' } }, { status: 200 });
    await expect(sendWithRetries(aborting, call(), controller.signal)).rejects.toBe(reason);
    expect(server.received).toHaveLength(1);
  });
});
