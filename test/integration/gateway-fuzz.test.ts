/**
 * Nothing a client sends can stop the service: a seeded fuzz of malformed requests of every kind, sent as
 * raw bytes on loopback at every route (bad percent-escapes, request targets that are not URLs, unknown
 * methods, broken and oversized headers, bodies that are not JSON or not the schema, odd path
 * parameters and queries). No answer may be a 5xx; every refusal must be in one of the spec's shapes
 * (the error body, or the validation body for a 422), every answer must carry an X-Request-Id, and the
 * service must still answer afterwards. (A few fuzzed requests are valid, e.g. a GET with an ignored
 * query, and are answered 200.) Then bodies built to break a parser or what walks its result: nested
 * 100 000 deep, a million items wide, strings of megabytes, on every kind of route; and uploads far over
 * the gateway's limit, which must be told 413 before the connection closes.
 */
import http from 'node:http';
import net from 'node:net';
import { ROUTES, routePath, routeVersions } from '../../functions/deployment/routes';
import { startTestRuntime, type TestRuntime } from '../support/runtime';

const SEED = 20261123;
const REQUESTS = 400;

let runtime: TestRuntime;
let apiKey: string;
let port: number;

beforeAll(async () => {
  runtime = await startTestRuntime();
  apiKey = runtime.devAccount!.apiKey;
  port = Number(new URL(runtime.url).port);
});
afterAll(() => runtime.close());

/** mulberry32: the same requests on every run. */
const prng = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const random = prng(SEED);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const junk = (length: number) => Array.from({ length }, () => String.fromCharCode(Math.floor(random() * 256))).join('');

const paths = ROUTES.flatMap((route) => routeVersions(route).map((version) => routePath(version, route)));
const withParameter = (path: string, value: string) => path.replace(/\{[a-z_]+\}/g, value);
const BAD_SEGMENTS = ['%zz', '%', '%E0%A4%A', '%00', '..', '%2e%2e', 'é', '\u{1F600}', 'a'.repeat(5000), '%25zz', ''];
const BAD_TARGETS = [
  'http://[',
  'http://x',
  '*',
  '//',
  '/?',
  'http://example.com/v2/service/jobs/%zz',
  '/v2/service/../../etc/passwd',
  '/v2//service///jobs/1',
];
const METHODS = ['GET', 'POST', 'DELETE', 'PUT', 'PATCH', 'OPTIONS', 'HEAD', 'FOO', 'G ET', 'get'];
const BODIES = [
  '',
  '{',
  'null',
  '[]',
  '"x"',
  '{"prompt":',
  '{"images":"not-a-list"}',
  '{"num_output_images":1e309}',
  '{"async":"yes"}',
  '{"tags":[{}]}',
  `{"image_urls":[${'"x",'.repeat(60)}"x"]}`,
  '['.repeat(5000),
  '{"prompt":"\\ud800"}',
];

interface Raw {
  status: number;
  headers: Record<string, string>;
  body: string;
  request: string;
}

/** One request as raw bytes; the answer as the socket delivered it (the connection is closed after it). */
const send = (request: string): Promise<Raw> =>
  new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.setTimeout(20_000, () => socket.destroy(new Error(`no answer to ${JSON.stringify(request.slice(0, 120))}`)));
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...headerLines] = head.split('\r\n');
      const headers = Object.fromEntries(
        headerLines.map((line) => [
          line.slice(0, line.indexOf(':')).toLowerCase(),
          line.slice(line.indexOf(':') + 1).trim(),
        ]),
      );
      resolve({
        status: Number(statusLine.split(' ')[1]),
        headers,
        body: Buffer.from(rest.join('\r\n\r\n'), 'latin1').toString('utf8'),
        request,
      });
    });
    // Written, not ended: the server closes the connection after its answer (Connection: close).
    socket.write(request, 'latin1');
  });

const requestOf = (method: string, target: string, headers: string[], body: string) =>
  `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n${headers.map((h) => `${h}\r\n`).join('')}Content-Length: ${Buffer.byteLength(body, 'latin1')}\r\n\r\n${body}`;

/** One malformed request, of a kind chosen at random. */
const fuzzed = (): string => {
  const path = pick(paths);
  const key = random() < 0.7 ? [`X-API-Key: ${apiKey}`] : random() < 0.5 ? ['X-API-Key: isk_wrong'] : [];
  switch (Math.floor(random() * 7)) {
    case 0:
      return requestOf(pick(['GET', 'POST', 'DELETE']), withParameter(path, pick(BAD_SEGMENTS)), key, '');
    case 1:
      return requestOf('GET', pick(BAD_TARGETS), key, '');
    case 2:
      return requestOf(pick(METHODS), withParameter(path, 'job_x'), key, random() < 0.5 ? '' : pick(BODIES));
    case 3:
      return requestOf(
        'GET',
        withParameter(path, 'x'),
        [...key, random() < 0.5 ? `X-Big: ${'a'.repeat(20_000)}` : `Bad Header: ${junk(10)}`],
        '',
      );
    case 4:
      return requestOf('POST', withParameter(path, 'x'), [...key, 'Content-Type: application/json'], pick(BODIES));
    case 5:
      return requestOf(
        'POST',
        withParameter(path, 'x'),
        [...key, 'Content-Type: application/json'],
        junk(Math.floor(random() * 300)),
      );
    default:
      return requestOf(
        'GET',
        `${withParameter(path, 'x')}?${pick(['tag=%zz', 'tag=', `tag=${'t'.repeat(300)}`, 'tag=a&tag=b', '%%%', 'a=1&&&b'])}`,
        key,
        '',
      );
  }
};

const inSpecShape = (answer: Raw): boolean => {
  if (!answer.headers['x-request-id']) return false;
  if (answer.request.startsWith('HEAD ') || answer.status < 400) return true;
  let body: unknown;
  try {
    body = JSON.parse(answer.body);
  } catch {
    return false;
  }
  const b = body as { detail?: unknown; code?: unknown; request_id?: unknown };
  if (answer.status === 422 && Array.isArray(b.detail))
    return b.detail.every(
      (item: { loc?: unknown; msg?: unknown; type?: unknown }) =>
        Array.isArray(item.loc) && typeof item.msg === 'string' && typeof item.type === 'string',
    );
  return typeof b.detail === 'string' && typeof b.code === 'string' && b.request_id === answer.headers['x-request-id'];
};

test(`${REQUESTS} malformed requests: no crash, no 5xx, every refusal in a spec shape, every answer with X-Request-Id`, async () => {
  const requests = Array.from({ length: REQUESTS }, fuzzed);
  const answers: Raw[] = [];
  for (let i = 0; i < requests.length; i += 8) answers.push(...(await Promise.all(requests.slice(i, i + 8).map(send))));
  const wrong = answers.filter((answer) => !(answer.status >= 200 && answer.status < 500) || !inSpecShape(answer));
  expect(answers.filter((answer) => answer.status >= 400).length).toBeGreaterThan(REQUESTS * 0.9);
  expect(
    wrong.map(
      (answer) => `${answer.status} ${JSON.stringify(answer.request.slice(0, 100))} → ${answer.body.slice(0, 160)}`,
    ),
  ).toEqual([]);
  const alive = await runtime.call('GET', '/v2/service/webhook-secret', { apiKey });
  expect(alive.status).toBe(200);
}, 120_000);

test.each([
  { name: 'a malformed percent-escape in a path parameter', line: 'GET /v2/service/jobs/%zz HTTP/1.1', status: 400 },
  { name: 'an absolute-form target that is not a URL', line: 'GET http://[ HTTP/1.1', status: 400 },
  {
    name: 'a method no route has (as API Gateway answers it)',
    line: 'PUT /v2/service/webhook-secret HTTP/1.1',
    status: 404,
  },
  { name: 'a request line Node cannot parse', line: 'G ET /v2/service/webhook-secret HTTP/1.1', status: 400 },
])('$name answers $status in the error shape', async ({ line, status }) => {
  const answer = await send(`${line}\r\nHost: 127.0.0.1\r\nX-API-Key: ${apiKey}\r\nConnection: close\r\n\r\n`);
  expect(answer.status).toBe(status);
  expect(inSpecShape(answer)).toBe(true);
});

test('headers too large answer 431 in the error shape', async () => {
  const answer = await send(
    `GET /v2/service/webhook-secret HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(20_000)}\r\nConnection: close\r\n\r\n`,
  );
  expect(answer.status).toBe(431);
  expect(inSpecShape(answer)).toBe(true);
});

describe('bodies built to exhaust the parser, the validation or the answer', () => {
  const BODY_ROUTES = [
    '/v2/service/generate',
    '/v2/service/edit',
    '/v2/service/enhance',
    '/v2/service/remix',
    '/v2/service/profiles/tags',
    '/v2/service/profiles/add',
    '/v2/service/uploads',
    '/v2/service/webhook-test',
    '/portal/api/signin',
    '/portal/api/keys',
  ];
  const nestedObjects = (depth: number) => `${'{"a":'.repeat(depth)}0${'}'.repeat(depth)}`;
  const nestedArrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
  const numbers = (count: number) => `[${'0,'.repeat(count - 1)}0]`;
  const text = (length: number) => `"${'x'.repeat(length)}"`;
  const wideObject = (keys: number) => `{${Array.from({ length: keys }, (_, i) => `"${i.toString(36)}":0`).join(',')}}`;
  const inEveryField = (value: string) =>
    `{${['prompt', 'images', 'image_urls', 'profile_ids', 'tags', 'url', 'email', 'password', 'name']
      .map((field) => `"${field}":${value}`)
      .join(',')}}`;

  const DEEP = [10, 1_000, 10_000, 100_000].flatMap((depth) => [
    { name: `objects nested ${depth} deep`, depth, body: () => nestedObjects(depth) },
    { name: `arrays nested ${depth} deep`, depth, body: () => nestedArrays(depth) },
    {
      name: `objects and arrays nested ${depth} deep in the fields`,
      depth,
      body: () => `{"tags":[${nestedObjects(depth)}],"prompt":${nestedArrays(depth)}}`,
    },
  ]);
  const WIDE_AND_LONG = [
    { name: 'a list of 1 000 000 numbers', body: () => numbers(1_000_000) },
    { name: 'an object of 500 000 keys', body: () => wideObject(500_000) },
    {
      name: 'the list fields 500 000 items long',
      body: () =>
        `{${['images', 'image_urls', 'profile_ids', 'tags'].map((field) => `"${field}":${numbers(500_000)}`).join(',')}}`,
    },
    { name: 'a string of 5 MB', body: () => text(5_000_000) },
    { name: 'every string field 500 KB long', body: () => inEveryField(text(500_000)) },
    { name: 'a string of 800 000 escapes', body: () => `{"prompt":"${'\\u00e9'.repeat(800_000)}"}` },
  ];

  /** Each body sent to each route, a few at a time; the answers. */
  const sendToEveryRoute = async (body: string): Promise<Raw[]> => {
    const answers: Raw[] = [];
    for (let i = 0; i < BODY_ROUTES.length; i += 4)
      answers.push(
        ...(await Promise.all(
          BODY_ROUTES.slice(i, i + 4).map((path) =>
            send(requestOf('POST', path, [`X-API-Key: ${apiKey}`, 'Content-Type: application/json'], body)),
          ),
        )),
      );
    return answers;
  };
  const describeWrong = (answers: Raw[]) =>
    answers
      .filter((answer) => answer.status < 400 || answer.status >= 500 || !inSpecShape(answer))
      .map((answer) => `${answer.status} ${answer.request.split(' ', 2)[1]} → ${answer.body.slice(0, 160)}`);
  /** pydantic's echo of a failing value is cut short, so no answer grows with the body. */
  const MAX_ANSWER_CHARS = 1_100_000;

  test.each(DEEP)(
    '$name: a 4xx in the spec shape on every route',
    async ({ body, depth }) => {
      const answers = await sendToEveryRoute(body());
      expect(describeWrong(answers)).toEqual([]);
      if (depth > 200)
        for (const answer of answers) {
          expect(answer.status).toBe(422);
          expect(JSON.parse(answer.body).detail).toEqual([
            expect.objectContaining({ type: 'json_invalid', ctx: { error: 'recursion limit exceeded' } }),
          ]);
        }
    },
    120_000,
  );

  test.each(WIDE_AND_LONG)(
    '$name: a small 4xx in the spec shape on every route',
    async ({ body }) => {
      const answers = await sendToEveryRoute(body());
      expect(describeWrong(answers)).toEqual([]);
      expect(
        answers
          .filter((answer) => answer.body.length > MAX_ANSWER_CHARS)
          .map((answer) => answer.request.split(' ', 2)[1]),
      ).toEqual([]);
    },
    120_000,
  );

  test("a body over the function limit (6 MB) but under the gateway's is a 413 from the function", async () => {
    const answers = await sendToEveryRoute(text(7_000_000));
    expect(describeWrong(answers)).toEqual([]);
    expect(answers.map((answer) => JSON.parse(answer.body).code)).toEqual(BODY_ROUTES.map(() => 'PAYLOAD_TOO_LARGE'));
  }, 120_000);

  test('the service still answers afterwards', async () => {
    expect((await runtime.call('GET', '/v2/service/webhook-secret', { apiKey })).status).toBe(200);
  });
});

describe('an upload far over the gateway limit', () => {
  const UPLOAD_BYTES = 200 * 1024 * 1024;

  /**
   * A client that keeps writing the body (JSON whitespace, 64 KiB at a time) until an answer arrives, as
   * curl does: chunked, or after a Content-Length announcing all of it.
   */
  const upload = (framing: 'chunked' | 'content-length') =>
    new Promise<{ status?: number; headers: http.IncomingHttpHeaders; body: string; writtenBytes: number }>(
      (resolve, reject) => {
        const request = http.request({
          host: '127.0.0.1',
          port,
          path: '/v2/service/generate',
          method: 'POST',
          agent: false,
          headers: {
            'X-API-Key': apiKey,
            'Content-Type': 'application/json',
            ...(framing === 'content-length' ? { 'Content-Length': String(UPLOAD_BYTES) } : {}),
          },
        });
        const chunk = Buffer.alloc(64 * 1024, ' ');
        let writtenBytes = 0;
        let answered = false;
        const write = () => {
          while (!answered && writtenBytes < UPLOAD_BYTES) {
            writtenBytes += chunk.length;
            if (!request.write(chunk)) return void request.once('drain', write);
          }
          if (!answered) request.end();
        };
        request.on('response', (response) => {
          answered = true;
          const parts: Buffer[] = [];
          response.on('data', (part: Buffer) => parts.push(part));
          response.on('end', () => {
            resolve({
              status: response.statusCode,
              headers: response.headers,
              body: Buffer.concat(parts).toString(),
              writtenBytes,
            });
            request.destroy();
          });
        });
        request.on('error', (error) => {
          if (!answered) reject(error);
        });
        write();
      },
    );

  test.each(['chunked', 'content-length'] as const)(
    '200 MB %s: the 413 in the error shape reaches the client before the connection closes',
    async (framing) => {
      const answer = await upload(framing);
      expect(answer.status).toBe(413);
      expect(answer.headers.connection).toBe('close');
      expect(JSON.parse(answer.body)).toEqual({
        detail: expect.any(String),
        code: 'PAYLOAD_TOO_LARGE',
        request_id: answer.headers['x-request-id'],
      });
      // Answered while the client was still sending, not after taking in the whole upload.
      expect(answer.writtenBytes).toBeLessThan(UPLOAD_BYTES);
    },
    60_000,
  );

  test('the service still answers afterwards', async () => {
    expect((await runtime.call('GET', '/v2/service/webhook-secret', { apiKey })).status).toBe(200);
  });
});
