import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import * as v from 'valibot';
import { createLogger } from '../../../../functions/adapters/logger';
import { InsufficientBalanceError, NotFoundError } from '../../../../functions/domain/errors';
import { apiHandler } from '../../../../functions/entry/http/api-handler';
import { errorAnswer } from '../../../../functions/entry/http/error-mapping';
import { ok } from '../../../../functions/entry/http/responses';
import { RequestValidationError } from '../../../../functions/entry/http/validation';

process.env.SERVICE_TABLE_NAME ??= 'unit-tests';

const Body = v.object({
  name: v.pipe(v.string(), v.minLength(1)),
  count: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(4)), 1),
});

const echo = apiHandler(async ({ body }) => ok({ received: body }), { body: Body, auth: 'none' });
const failing = (error: unknown) => apiHandler(async () => Promise.reject(error), { auth: 'none' });

const event = (overrides: Partial<APIGatewayProxyEvent> = {}): APIGatewayProxyEvent =>
  ({
    httpMethod: 'POST',
    path: '/v2/service/test',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'a' }),
    isBase64Encoded: false,
    requestContext: { requestId: 'req-1' },
    ...overrides,
  }) as APIGatewayProxyEvent;

const context = {} as Context;
const call = async (handler: ReturnType<typeof apiHandler>, e: APIGatewayProxyEvent) => {
  const response = await handler(e, context);
  return { ...response, json: JSON.parse(response.body) };
};

describe('the HTTP layer', () => {
  it('hands the handler the parsed, validated body with defaults applied', async () => {
    const response = await call(echo, event());
    expect(response.statusCode).toBe(200);
    expect(response.json).toEqual({ received: { name: 'a', count: 1 } });
    expect(response.headers).toMatchObject({ 'X-Request-Id': 'req-1', 'Content-Type': 'application/json' });
  });

  it('answers malformed JSON with a 422 as FastAPI words it, never a 500', async () => {
    const response = await call(echo, event({ body: '{"name": ' }));
    expect(response.statusCode).toBe(422);
    expect(response.json).toEqual({
      detail: [
        {
          type: 'json_invalid',
          loc: ['body', 9],
          msg: 'JSON decode error',
          input: {},
          ctx: { error: 'Expecting value' },
        },
      ],
    });
    expect(response.headers).toMatchObject({ 'X-Request-Id': 'req-1' });
  });

  it('answers a missing body with 422 missing', async () => {
    expect((await call(echo, event({ body: null }))).json).toEqual({
      detail: [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }],
    });
  });

  it('answers a JSON null body as a missing body', async () => {
    expect((await call(echo, event({ body: 'null' }))).json).toEqual({
      detail: [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }],
    });
  });

  it('locates malformed JSON of a base64-encoded body in the decoded text', async () => {
    const response = await call(
      echo,
      event({ body: Buffer.from('{"name": "b",}').toString('base64'), isBase64Encoded: true }),
    );
    expect(response.json.detail).toEqual([expect.objectContaining({ type: 'json_invalid', loc: ['body', 12] })]);
  });

  it('refuses a body that is JSON but not an object', async () => {
    expect((await call(echo, event({ body: '["a"]' }))).json).toEqual({
      detail: [
        {
          type: 'model_attributes_type',
          loc: ['body'],
          msg: 'Input should be a valid dictionary or object to extract fields from',
          input: ['a'],
        },
      ],
    });
  });

  it('locates each validation failure under body with the field path', async () => {
    const response = await call(echo, event({ body: JSON.stringify({ name: 'a', count: 9 }) }));
    expect(response.statusCode).toBe(422);
    expect(response.json.detail).toEqual([
      {
        type: 'less_than_equal',
        loc: ['body', 'count'],
        msg: 'Input should be less than or equal to 4',
        input: 9,
        ctx: { le: 4 },
      },
    ]);
  });

  it('reports a missing required field as missing', async () => {
    expect((await call(echo, event({ body: '{}' }))).json.detail).toEqual([
      { type: 'missing', loc: ['body', 'name'], msg: 'Field required', input: {} },
    ]);
  });

  it('parses JSON whatever the content type says', async () => {
    expect((await call(echo, event({ headers: {} }))).statusCode).toBe(200);
  });

  it('reads a base64-encoded body', async () => {
    const response = await call(
      echo,
      event({ body: Buffer.from('{"name":"b"}').toString('base64'), isBase64Encoded: true }),
    );
    expect(response.json).toEqual({ received: { name: 'b', count: 1 } });
  });

  it('maps domain errors by code to their status with the error body', async () => {
    const notFound = await call(failing(new NotFoundError('Job job_x not found.')), event());
    expect(notFound.statusCode).toBe(404);
    expect(notFound.json).toEqual({ detail: 'Job job_x not found.', code: 'NOT_FOUND', request_id: 'req-1' });
    expect((await call(failing(new InsufficientBalanceError(120_000)), event())).json).toMatchObject({
      code: 'INSUFFICIENT_BALANCE',
      detail: expect.stringContaining('0.12 USD'),
    });
    expect((await call(failing(new InsufficientBalanceError(120_000)), event())).statusCode).toBe(402);
  });

  it('answers an unexpected error with a generic 500 that leaks nothing', async () => {
    const response = await call(failing(new Error('secret table name in a message')), event());
    expect(response.statusCode).toBe(500);
    expect(response.json).toEqual({ detail: expect.any(String), code: 'INTERNAL_ERROR', request_id: 'req-1' });
    expect(response.body).not.toContain('secret');
  });

  it('logs an unexpected error with its stack', () => {
    const lines: Array<Record<string, unknown>> = [];
    const log = {
      ...createLogger('silent'),
      error: (message: string, fields?: Record<string, unknown>) => lines.push({ message, ...fields }),
    };
    errorAnswer(new Error('boom'), 'req-2', log);
    expect(lines).toEqual([
      {
        message: 'unhandled error',
        status: 500,
        error: expect.objectContaining({ message: 'boom', stack: expect.stringContaining('api-handler.test') }),
      },
    ]);
  });

  it('refuses a body over 6 MB with 413 before parsing it', async () => {
    const response = await call(echo, event({ body: 'x'.repeat(6 * 1024 * 1024 + 1) }));
    expect(response.statusCode).toBe(413);
    expect(response.json).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
  });

  it.each([10_000, 100_000])(
    'answers a body nested %d deep with 422 json_invalid, not a stack overflow',
    async (depth) => {
      const response = await call(echo, event({ body: `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}` }));
      expect(response.statusCode).toBe(422);
      expect(response.json.detail).toEqual([
        expect.objectContaining({ type: 'json_invalid', ctx: { error: 'recursion limit exceeded' } }),
      ]);
    },
  );

  it('echoes a long input cut short, so the 422 stays small', async () => {
    const response = await call(echo, event({ body: JSON.stringify({ name: 'a', count: 'x'.repeat(5_000_000) }) }));
    expect(response.statusCode).toBe(422);
    expect(response.json.detail).toEqual([
      expect.objectContaining({ loc: ['body', 'count'], input: `${'x'.repeat(1000)}…` }),
    ]);
    expect(response.body.length).toBeLessThan(2000);
  });

  it('logs a 422 with its first details and their count', () => {
    const lines: Array<Record<string, unknown>> = [];
    const log = {
      ...createLogger('silent'),
      info: (message: string, fields?: Record<string, unknown>) => lines.push({ message, ...fields }),
    };
    const detail = Array.from({ length: 50 }, (_, i) => ({ type: 'missing', loc: ['body', i], msg: 'Field required' }));
    errorAnswer(new RequestValidationError(detail), 'req-3', log);
    expect(lines).toEqual([
      { message: 'request rejected', status: 422, detail: detail.slice(0, 10), detail_count: 50 },
    ]);
  });

  it('marks /v1 answers deprecated, errors included', async () => {
    const response = await call(failing(new NotFoundError('x')), event({ path: '/v1/service/jobs/job_1' }));
    expect(response.headers).toMatchObject({
      Deprecation: 'true',
      Link: '</v2/service/jobs/job_1>; rel="successor-version"',
    });
  });
});
