/**
 * A loopback proxy in front of a provider double that fixes the provider's time: each request is passed on
 * at once, and its answer released no earlier than `holdMs` after the request began to arrive (the double's
 * own work, drawing faces included, happens inside that time). Every exchange is recorded with its times,
 * so the bench knows exactly when the provider began and finished, as the service's client saw it.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';

export interface Exchange {
  method: string;
  path: string;
  status: number;
  /** performance.now() when the request's first bytes arrived, and when its answer was fully written. */
  startMs: number;
  endMs: number;
}

export interface HeldProvider {
  /** The proxy's base URL, with the target's path prefix (hand it to the service as the provider's URL). */
  baseUrl: string;
  exchanges: Exchange[];
  /** The time each answer is held to, from its request's start; 0 passes answers on as they come. */
  holdMs: number;
  close(): Promise<void>;
}

const HOP_HEADERS = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive']);

const body = (request: IncomingMessage): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });

/** `target` is the double's base URL; its path prefix (`/v1`) is kept on the proxy's URL. */
export const startHeldProvider = async (target: string, holdMs = 0): Promise<HeldProvider> => {
  const targetUrl = new URL(target);
  const origin = targetUrl.origin;
  const timers = new Set<NodeJS.Timeout>();
  const held: HeldProvider = { baseUrl: '', exchanges: [], holdMs, close: async () => undefined };
  const server: Server = createServer((request, response) => {
    const startMs = performance.now();
    const method = request.method ?? 'GET';
    const path = request.url ?? '/';
    void (async () => {
      const sent = await body(request);
      const headers = Object.fromEntries(
        Object.entries(request.headers).flatMap(([name, value]) =>
          HOP_HEADERS.has(name) || value === undefined ? [] : [[name, Array.isArray(value) ? value.join(', ') : value]],
        ),
      );
      const answer = await fetch(`${origin}${path}`, {
        method,
        headers,
        body: method === 'GET' || method === 'HEAD' ? undefined : sent,
      });
      const answerBody = Buffer.from(await answer.arrayBuffer());
      const waitMs = startMs + held.holdMs - performance.now();
      if (waitMs > 0)
        await new Promise<void>((resolve) => {
          const timer = setTimeout(() => {
            timers.delete(timer);
            resolve();
          }, waitMs);
          timers.add(timer);
        });
      const answerHeaders: Record<string, string> = {};
      answer.headers.forEach((value, name) => {
        if (!HOP_HEADERS.has(name) && name !== 'content-encoding') answerHeaders[name] = value;
      });
      response.writeHead(answer.status, answerHeaders);
      response.end(answerBody, () =>
        held.exchanges.push({ method, path, status: answer.status, startMs, endMs: performance.now() }),
      );
    })().catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(502, { 'content-type': 'text/plain' });
      response.end(`held provider: ${String(error)}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('held provider: not listening on TCP');
  held.baseUrl = `http://127.0.0.1:${address.port}${targetUrl.pathname.replace(/\/$/, '')}`;
  held.close = async () => {
    for (const timer of timers) clearTimeout(timer);
    server.closeAllConnections();
    await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
  };
  return held;
};
