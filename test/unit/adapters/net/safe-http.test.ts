import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  BlockedAddressError,
  FetchFailedError,
  FetchTimeoutError,
  fetchBytes,
  ResponseTooLargeError,
  type SafeRequestOptions,
  safeRequest,
} from '../../../../functions/adapters/net/safe-http';
import type { ResolveAll } from '../../../../functions/adapters/net/ssrf-guard';

const PNG_BYTES = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

// One loopback server; each path is one behaviour. `seen` records every request that reached it.
const seen: Array<{ method?: string; url?: string; headers: http.IncomingHttpHeaders; body: string }> = [];
let connections = 0;
const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    seen.push({ method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks).toString() });
    route(req.url ?? '/', res, Buffer.concat(chunks));
  });
});
server.on('connection', () => (connections += 1));

function route(path: string, res: http.ServerResponse, body: Buffer): void {
  switch (path) {
    case '/ok':
      return void res.end('hello');
    case '/echo':
      return void res.writeHead(201, { 'content-type': 'application/octet-stream' }).end(body);
    case '/image.png':
      return void res.writeHead(200, { 'content-type': 'image/png' }).end(PNG_BYTES);
    case '/missing':
      return void res.writeHead(404).end('not here');
    case '/silent':
      return; // never answers
    case '/stalled-body':
      res.writeHead(200, { 'content-length': '100' });
      return void res.write('only part of it');
    case '/declared-too-large':
      return void res.writeHead(200, { 'content-length': '2048' }).end(Buffer.alloc(2048));
    case '/endless-stream': {
      res.writeHead(200);
      const pump = setInterval(() => (res.destroyed ? clearInterval(pump) : res.write(Buffer.alloc(256))), 1);
      return;
    }
    case '/redirect-to-ok':
      return void res.writeHead(302, { location: '/ok' }).end();
    case '/see-other':
      return void res.writeHead(303, { location: '/echo' }).end();
    case '/redirect-to-metadata':
      return void res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
    case '/redirect-to-ftp':
      return void res.writeHead(301, { location: 'ftp://files.example.com/a.png' }).end();
    case '/redirect-to-credentials':
      return void res.writeHead(302, { location: `http://user:pass@127.0.0.1:${port()}/ok` }).end();
    case '/redirect-loop':
      return void res.writeHead(302, { location: '/redirect-loop' }).end();
    default:
      return void res.writeHead(500).end();
  }
}

const port = () => (server.address() as AddressInfo).port;
const at = (path: string) => `http://127.0.0.1:${port()}${path}`;
const get = (path: string, options: Partial<SafeRequestOptions> = {}) =>
  safeRequest({
    url: at(path),
    method: 'GET',
    timeoutMs: 2000,
    maxResponseBytes: 1024,
    allowLoopback: true,
    ...options,
  });

beforeAll(() => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve)));
beforeEach(() => {
  seen.length = 0;
  connections = 0;
});
afterAll(() => {
  server.closeAllConnections();
  return new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('safeRequest', () => {
  it('returns status, headers, body and latency of a plain GET', async () => {
    const response = await get('/ok');
    expect(response.status).toBe(200);
    expect(response.body.toString()).toBe('hello');
    expect(response.headers['content-length']).toBe('5');
    expect(response.latencyMs).toBeGreaterThan(0);
  });

  it('sends a POST body with its headers', async () => {
    const response = await safeRequest({
      url: at('/echo'),
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Service-Signature': 'sha256=abc' },
      body: '{"a":1}',
      timeoutMs: 2000,
      maxResponseBytes: 1024,
      allowLoopback: true,
    });
    expect(response.status).toBe(201);
    expect(response.body.toString()).toBe('{"a":1}');
    expect(seen[0].headers).toMatchObject({
      'content-type': 'application/json',
      'x-service-signature': 'sha256=abc',
      'content-length': '7',
    });
  });

  it('a server that never answers fails with FetchTimeoutError at the deadline', async () => {
    const startedAt = Date.now();
    await expect(get('/silent', { timeoutMs: 150 })).rejects.toThrow(FetchTimeoutError);
    expect(Date.now() - startedAt).toBeLessThan(1000);
  });

  it('the deadline also covers a body that stops arriving', async () => {
    await expect(get('/stalled-body', { timeoutMs: 150 })).rejects.toThrow(
      new FetchTimeoutError(`127.0.0.1:${port()}`, 150),
    );
  });

  it('a declared Content-Length over the cap fails before the body is read', async () => {
    await expect(get('/declared-too-large')).rejects.toThrow(ResponseTooLargeError);
  });

  it('an endless body is cut off as soon as it passes the cap', async () => {
    await expect(get('/endless-stream', { maxResponseBytes: 4096 })).rejects.toThrow(
      `The response from 127.0.0.1:${port()} is larger than 4096 bytes.`,
    );
  });

  it('a GET follows a redirect on the same server', async () => {
    const response = await get('/redirect-to-ok');
    expect(response.body.toString()).toBe('hello');
    expect(seen.map(({ url }) => url)).toEqual(['/redirect-to-ok', '/ok']);
  });

  it('a redirect to the metadata address is refused without connecting to it', async () => {
    await expect(get('/redirect-to-metadata')).rejects.toThrow(BlockedAddressError);
    expect(seen.map(({ url }) => url)).toEqual(['/redirect-to-metadata']);
  });

  it('a redirect to a non-http scheme is refused', async () => {
    await expect(get('/redirect-to-ftp')).rejects.toThrow(/scheme ftp:/);
  });

  it('a redirect to a URL with credentials is refused', async () => {
    await expect(get('/redirect-to-credentials')).rejects.toThrow(BlockedAddressError);
  });

  it('redirects stop at maxRedirects and the last redirect is returned', async () => {
    const response = await get('/redirect-loop', { maxRedirects: 2 });
    expect(response.status).toBe(302);
    expect(seen).toHaveLength(3);
  });

  it('a POST does not follow redirects by default', async () => {
    const response = await safeRequest({
      url: at('/see-other'),
      method: 'POST',
      body: 'x',
      timeoutMs: 2000,
      maxResponseBytes: 1024,
      allowLoopback: true,
    });
    expect(response.status).toBe(303);
    expect(seen).toHaveLength(1);
  });

  it('a 303 after a POST continues as a GET without the body', async () => {
    await safeRequest({
      url: at('/see-other'),
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'x',
      maxRedirects: 1,
      timeoutMs: 2000,
      maxResponseBytes: 1024,
      allowLoopback: true,
    });
    expect(seen[1]).toMatchObject({ method: 'GET', url: '/echo', body: '' });
    expect(seen[1].headers['content-type']).toBeUndefined();
  });

  it('without allowLoopback a loopback literal is refused before any connection', async () => {
    await expect(get('/ok', { allowLoopback: false })).rejects.toThrow(BlockedAddressError);
    expect(connections).toBe(0);
  });

  it('without allowLoopback a name resolving to loopback is refused before any connection', async () => {
    await expect(
      safeRequest({ url: `http://localhost:${port()}/ok`, method: 'GET', timeoutMs: 2000, maxResponseBytes: 1024 }),
    ).rejects.toThrow(`Requests to localhost are not allowed`);
    expect(connections).toBe(0);
  });

  it('the connection goes to the address the guard checked', async () => {
    const resolve: ResolveAll = (_hostname, _options, callback) =>
      callback(null, [{ address: '127.0.0.1', family: 4 }]);
    const response = await safeRequest({
      url: `http://callback.test:${port()}/ok`,
      method: 'GET',
      timeoutMs: 2000,
      maxResponseBytes: 1024,
      allowLoopback: true,
      resolve,
    });
    expect(response.status).toBe(200);
    expect(seen[0].headers.host).toBe(`callback.test:${port()}`);
  });

  it('a name resolving to a private address is refused', async () => {
    const resolve: ResolveAll = (_hostname, _options, callback) => callback(null, [{ address: '10.1.2.3', family: 4 }]);
    const request = safeRequest({
      url: 'http://internal.test/',
      method: 'GET',
      timeoutMs: 2000,
      maxResponseBytes: 1024,
      resolve,
    });
    await expect(request).rejects.toThrow(new BlockedAddressError('internal.test'));
  });

  it('a DNS failure is a FetchFailedError naming the host only', async () => {
    const resolve: ResolveAll = (hostname, _options, callback) =>
      callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []);
    const request = safeRequest({
      url: 'http://nowhere.test/',
      method: 'GET',
      timeoutMs: 2000,
      maxResponseBytes: 1024,
      resolve,
    });
    const error = await request.catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(FetchFailedError);
    expect(error).toMatchObject({ reason: 'dns', message: 'The host nowhere.test could not be resolved.' });
  });

  it('a refused connection is a FetchFailedError', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await expect(get('/', { url: `http://127.0.0.1:${closedPort}/` })).rejects.toThrow(
      `The connection to 127.0.0.1:${closedPort} was refused.`,
    );
  });

  it('a non-http scheme is refused', async () => {
    await expect(get('/', { url: 'file:///etc/passwd' })).rejects.toThrow(FetchFailedError);
  });

  it('requireHttps refuses a plain http URL before connecting', async () => {
    await expect(get('/ok', { requireHttps: true })).rejects.toThrow('only https: URLs are allowed');
    expect(connections).toBe(0);
  });

  it('a malformed URL is a FetchFailedError', async () => {
    const error = await get('/', { url: 'not a url' }).catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(FetchFailedError);
    expect(error).toMatchObject({ reason: 'bad-url', message: 'The URL is not valid.' });
  });

  it("the caller's abort signal cancels the request", async () => {
    const controller = new AbortController();
    const request = get('/silent', { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    await expect(request).rejects.toThrow(/was cancelled/);
  });
});

describe('fetchBytes', () => {
  it('returns the body and content type of a 2xx answer', async () => {
    const image = await fetchBytes(at('/image.png'), { timeoutMs: 2000, maxBytes: 1024, allowLoopback: true });
    expect(image).toEqual({ body: PNG_BYTES, contentType: 'image/png' });
    expect(seen[0].headers.accept).toBe('image/*');
  });

  it('a non-2xx answer is a FetchFailedError naming the status', async () => {
    await expect(fetchBytes(at('/missing'), { timeoutMs: 2000, maxBytes: 1024, allowLoopback: true })).rejects.toThrow(
      `The URL on 127.0.0.1:${port()} answered HTTP 404.`,
    );
  });

  it('too many redirects is a FetchFailedError', async () => {
    await expect(
      fetchBytes(at('/redirect-loop'), { timeoutMs: 2000, maxBytes: 1024, allowLoopback: true }),
    ).rejects.toThrow(/HTTP 302 \(too many redirects\)/);
    expect(seen).toHaveLength(4);
  });
});
