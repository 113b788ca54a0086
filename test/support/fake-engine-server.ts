/**
 * A scripted stand-in for the inference backend of docs/engine-contract.md, on 127.0.0.1. Each request
 * takes the next scripted reply (or gets a 500 saying none was scripted) and is recorded as received.
 */
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body, or the raw text when it is not JSON. */
  body: unknown;
}

export interface Reply {
  status: number;
  /** Sent as JSON; `text` is sent verbatim instead when given. */
  json?: unknown;
  text?: string;
  headers?: Record<string, string>;
  /** Hold the reply this long (for timeouts). */
  delayMs?: number;
}

export interface FakeEngineServer {
  baseUrl: string;
  received: ReceivedRequest[];
  /** Queues replies, taken one per request in order. */
  reply(...replies: Reply[]): void;
  close(): Promise<void>;
}

export const startFakeEngineServer = async (): Promise<FakeEngineServer> => {
  const queue: Reply[] = [];
  const received: ReceivedRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();

  const send = (response: ServerResponse, reply: Reply) => {
    const body = reply.text ?? JSON.stringify(reply.json ?? {});
    response.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
    response.end(body);
  };

  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // recorded as text: the test decides whether that is wrong
      }
      received.push({ method: request.method ?? '', path: request.url ?? '', headers: request.headers, body });
      const reply = queue.shift() ?? { status: 500, json: { error: 'fake engine: no reply scripted' } };
      if (!reply.delayMs) return send(response, reply);
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (!response.destroyed) send(response, reply);
      }, reply.delayMs);
      timers.add(timer);
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('fake engine: not listening on TCP');

  return {
    baseUrl: `http://127.0.0.1:${address.port}`,
    received,
    reply: (...replies) => queue.push(...replies),
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
};

/** An `ok` body carrying `images` already encoded in `format`. */
export const okBody = (
  images: Buffer[],
  format: 'png' | 'jpg',
  extra: { knownSubjects?: Record<string, number>; outputTokens?: number; megapixels?: number } = {},
) => ({
  status: 'ok',
  images: images.map((image) => ({ format, data_base64: image.toString('base64') })),
  // The first contract's field: a backend may still send it; the service ignores it.
  ...(extra.knownSubjects && { known_subjects: extra.knownSubjects }),
  usage: { output_tokens: extra.outputTokens ?? 0, megapixels: extra.megapixels ?? 0 },
});
