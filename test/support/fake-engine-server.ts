/**
 * A scripted stand-in for the inference backend of docs/engine-contract.md, on 127.0.0.1. Each request
 * takes the next scripted reply (or gets a 500 saying none was scripted) and is recorded as received.
 * A reply `{ render: {} }` answers `ok` with images drawn as a model would (providers/face-render.ts):
 * the people of the inputs and of the reference crops of the candidates named in the prompt, redrawn,
 * never pasted. Unlike the providers, this backend is ours: the contract sends it `[[id]]` and profile ids.
 */
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import { renderOutput, requestSeed } from './providers/face-render';

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
  /** Answer `ok` with images drawn from the request (status, json and text are then ignored). */
  render?: { driftRate?: number; outputTokens?: number };
}

export interface FakeEngineServer {
  baseUrl: string;
  received: ReceivedRequest[];
  /** What a `render` reply could not do (a reference URL it could not fetch, a body not in the contract). */
  violations: string[];
  /** Queues replies, taken one per request in order. */
  reply(...replies: Reply[]): void;
  close(): Promise<void>;
}

export const startFakeEngineServer = async (): Promise<FakeEngineServer> => {
  const queue: Reply[] = [];
  const received: ReceivedRequest[] = [];
  const violations: string[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let rendered = 0;

  /** The `ok` body a model would answer: num_output_images drawn at the asked size and format. */
  const renderBody = async (body: unknown, options: NonNullable<Reply['render']>): Promise<Reply> => {
    const request = body as Partial<RunBody>;
    const params = request.params;
    if (!params || typeof params.width !== 'number' || typeof params.height !== 'number') {
      violations.push('render: the body has no params.width and params.height');
      return { status: 400, json: { error: 'no params' } };
    }
    const named = new Set(request.named_in_prompt ?? []);
    const references: Buffer[] = [];
    for (const candidate of request.candidates ?? []) {
      if (!named.has(candidate.profile_id)) continue;
      for (const url of candidate.reference_urls) {
        try {
          const response = await fetch(url);
          if (!response.ok) throw new Error(`HTTP ${response.status}`);
          references.push(Buffer.from(await response.arrayBuffer()));
        } catch (error) {
          violations.push(`render: reference ${url}: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
    }
    const inputs = [...(request.inputs ?? []).map((input) => Buffer.from(input.data_base64, 'base64')), ...references];
    const prompt = request.prompt ?? '';
    const format = params.output_format === 'jpg' ? 'jpg' : 'png';
    const images: Buffer[] = [];
    for (let index = 0; index < (params.num_output_images ?? 1); index += 1) {
      rendered += 1;
      const drawn = await renderOutput({
        width: params.width,
        height: params.height,
        format: format === 'jpg' ? 'jpeg' : 'png',
        seed: requestSeed('engine', rendered, prompt, ...inputs),
        prompt,
        inputs,
        driftRate: options.driftRate,
      });
      images.push(drawn.data);
    }
    const megapixels = (images.length * params.width * params.height) / 1e6;
    return { status: 200, json: okBody(images, format, { outputTokens: options.outputTokens ?? 0, megapixels }) };
  };

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
      const scripted = queue.shift() ?? { status: 500, json: { error: 'fake engine: no reply scripted' } };
      const answer = async (): Promise<Reply> =>
        scripted.render ? { ...(await renderBody(body, scripted.render)), delayMs: scripted.delayMs } : scripted;
      answer().then(
        (reply) => {
          if (!reply.delayMs) return send(response, reply);
          const timer = setTimeout(() => {
            timers.delete(timer);
            if (!response.destroyed) send(response, reply);
          }, reply.delayMs);
          timers.add(timer);
        },
        (error: unknown) => {
          violations.push(`render failed: ${error instanceof Error ? error.message : String(error)}`);
          send(response, { status: 500, json: { error: 'fake engine: render failed' } });
        },
      );
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('fake engine: not listening on TCP');

  return {
    baseUrl: `http://127.0.0.1:${address.port}`,
    received,
    violations,
    reply: (...replies) => queue.push(...replies),
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
};

/** The contract's request body, as far as a `render` reply reads it. */
interface RunBody {
  prompt: string;
  inputs: { data_base64: string }[];
  params: { width: number; height: number; output_format: string; num_output_images: number };
  candidates: { profile_id: string; reference_urls: string[] }[];
  named_in_prompt: string[];
}

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
