import http from 'node:http';
import { services } from '../../bin/local-aws/services';
import { Accounts } from '../../functions/domain';
import { startTestRuntime, type TestRuntime } from '../support/runtime';

/** A request with any method and body (fetch refuses a body on GET), read to the end. */
const rawRequest = (url: string, method: string, headers: Record<string, string>, body: Buffer) =>
  new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const request = http.request(
      url,
      { method, headers: { ...headers, 'Content-Length': String(body.length) } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode!,
            headers: response.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    // The gateway may answer before it has read everything: once an answer came, it is what counts.
    let answered = false;
    request.on('response', () => (answered = true));
    request.on('error', (error) => (answered ? undefined : reject(error)));
    request.end(body);
  });

let runtime: TestRuntime;

beforeAll(async () => {
  runtime = await startTestRuntime({ env: { API_KEY_CACHE_SECONDS: '0' } });
});
afterAll(() => runtime.close());

const devKey = () => runtime.devAccount!.apiKey;

const expectErrorBody = async (response: Response, status: number, code: string) => {
  expect(response.status).toBe(status);
  const body = (await response.json()) as { detail: string; code: string; request_id: string };
  expect(body).toEqual({ detail: expect.any(String), code, request_id: expect.any(String) });
  expect(response.headers.get('x-request-id')).toBe(body.request_id);
  return body;
};

describe('webhook secret', () => {
  it('is created on first use and the same afterwards', async () => {
    const first = await runtime.call('GET', '/v2/service/webhook-secret', { apiKey: devKey() });
    const second = await runtime.call('GET', '/v2/service/webhook-secret', { apiKey: devKey() });
    expect(first.status).toBe(200);
    expect(first.headers.get('x-request-id')).toBeTruthy();
    const { webhook_signing_secret: secret } = (await first.json()) as { webhook_signing_secret: string };
    // Standard base64 of 32 bytes, the encoding Standard Webhooks libraries decode (docs/callbacks.md).
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(await second.json()).toEqual({ webhook_signing_secret: secret });
  });

  it('is served under /v1 too, marked deprecated with a link to /v2', async () => {
    const v2 = await (await runtime.call('GET', '/v2/service/webhook-secret', { apiKey: devKey() })).json();
    const v1 = await runtime.call('GET', '/v1/service/webhook-secret', { apiKey: devKey() });
    expect(v1.status).toBe(200);
    expect(await v1.json()).toEqual(v2);
    expect(v1.headers.get('deprecation')).toBe('true');
    expect(v1.headers.get('link')).toBe('</v2/service/webhook-secret>; rel="successor-version"');
  });

  it('differs between accounts', async () => {
    const other = await runtime.newAccount();
    const mine = await (await runtime.call('GET', '/v2/service/webhook-secret', { apiKey: devKey() })).json();
    const theirs = await (await runtime.call('GET', '/v2/service/webhook-secret', { apiKey: other.apiKey })).json();
    expect(theirs).not.toEqual(mine);
  });
});

describe('authentication', () => {
  it('answers 403 MISSING_API_KEY without the header', async () => {
    await expectErrorBody(await runtime.call('GET', '/v2/service/webhook-secret'), 403, 'MISSING_API_KEY');
  });

  it('answers 401 INVALID_API_KEY for an unknown key', async () => {
    await expectErrorBody(
      await runtime.call('GET', '/v2/service/webhook-secret', { apiKey: 'isk_not-a-key' }),
      401,
      'INVALID_API_KEY',
    );
  });

  it('answers 401 for a revoked key while the account other keys keep working', async () => {
    const account = await runtime.newAccount();
    const spare = await Accounts.issueKey(services(), account.accountId);
    await Accounts.revokeKey(services(), account.accountId, account.keyId);
    await expectErrorBody(
      await runtime.call('GET', '/v2/service/webhook-secret', { apiKey: account.apiKey }),
      401,
      'INVALID_API_KEY',
    );
    expect((await runtime.call('GET', '/v2/service/webhook-secret', { apiKey: spare.apiKey })).status).toBe(200);
  });
});

describe('the HTTP layer', () => {
  it('answers 413 with the error body for a request body over 6 MB', async () => {
    const response = await rawRequest(
      `${runtime.url}/v2/service/webhook-secret`,
      'GET',
      { 'X-API-Key': devKey() },
      Buffer.alloc(6 * 1024 * 1024 + 1, 120),
    );
    expect(response.status).toBe(413);
    const body = JSON.parse(response.body) as { code: string; request_id: string };
    expect(body).toEqual({
      detail: expect.stringContaining('6291456 bytes'),
      code: 'PAYLOAD_TOO_LARGE',
      request_id: response.headers['x-request-id'],
    });
  });

  it('answers 413 at the gateway for a body over its 10 MB limit', async () => {
    const response = await rawRequest(
      `${runtime.url}/v2/service/webhook-secret`,
      'GET',
      { 'X-API-Key': devKey() },
      Buffer.alloc(11 * 1024 * 1024, 120),
    );
    expect(response.status).toBe(413);
    expect(JSON.parse(response.body)).toEqual({
      detail: expect.any(String),
      code: 'PAYLOAD_TOO_LARGE',
      request_id: response.headers['x-request-id'],
    });
  });

  it('answers an unknown path with 404 and the error body', async () => {
    await expectErrorBody(
      await runtime.call('GET', '/v2/service/nothing-here', { apiKey: devKey() }),
      404,
      'NOT_FOUND',
    );
  });

  it('gives every response its own request id', async () => {
    const ids = await Promise.all(
      [1, 2, 3].map(async () =>
        (await runtime.call('GET', '/v2/service/webhook-secret', { apiKey: devKey() })).headers.get('x-request-id'),
      ),
    );
    expect(new Set(ids).size).toBe(3);
  });
});

describe('restart', () => {
  it('keeps accounts, keys and secrets in the data directory', async () => {
    const before = await (await runtime.call('GET', '/v2/service/webhook-secret', { apiKey: devKey() })).json();
    const devAccount = runtime.devAccount;
    await runtime.close();
    runtime = await startTestRuntime({ dataDir: runtime.dataDir, env: { API_KEY_CACHE_SECONDS: '0' } });
    expect(runtime.devAccount).toEqual(devAccount);
    const after = await runtime.call('GET', '/v2/service/webhook-secret', { apiKey: devKey() });
    expect(after.status).toBe(200);
    expect(await after.json()).toEqual(before);
  });
});
