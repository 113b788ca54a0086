/**
 * The middleware stack every HTTP function shares (httpHandler), in a fixed order:
 * request id → logger → error mapper (last to run) → the function's own middlewares → its handler.
 * An API route's own are body size limit → auth → scope → rate limit → JSON body → validation (apiHandler); the portal's are
 * its routing, body, same-origin, session and CSRF checks (functions/portal/middlewares.ts).
 * A handler receives a typed request and returns an ApiResult; it never builds a response itself.
 */

import { randomUUID } from 'node:crypto';
import middy, { type MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type * as v from 'valibot';
import type { Logger } from '../../adapters/logger';
import { clock, meter, log as processLog, settings } from '../../composition/core';
import { keyLookup, keyUses, rateLimitDeps } from '../../composition/data';
import { routeOf } from '../../deployment/routes';
import { authenticate, type Caller } from '../../domain/accounts/accounts';
import { admitRequest, rateLimitHeaders } from '../../domain/accounts/rate-limit';
import { requireScope } from '../../domain/accounts/scopes';
import { PayloadTooLargeError, RateLimitedError } from '../../domain/errors';
import { errorAnswer } from './error-mapping';
import type { ApiResult } from './responses';
import { missingBody, parseJsonBody, parseOrThrow, RequestValidationError } from './validation';

/** The Lambda request payload limit; larger bodies are answered 413 in both homes. */
export const MAX_BODY_BYTES = 6 * 1024 * 1024;

export interface ApiRequest<B = undefined, Q = undefined, P = undefined> {
  body: B;
  query: Q;
  params: P;
  caller: Caller;
  requestId: string;
  log: Logger;
  headers: Readonly<Record<string, string>>;
  /** The API's public base URL as the caller reached it (scheme, host and stage), for links. */
  baseUrl: string;
  /** The body's bytes as received (a signed webhook is verified over these); empty for a route with a body schema. */
  rawBody: Buffer;
}

interface Schemas<
  B extends v.GenericSchema | undefined,
  Q extends v.GenericSchema | undefined,
  P extends v.GenericSchema | undefined,
> {
  body?: B;
  /** An empty request body reads as `{}` (for a body whose fields are all optional). */
  bodyOptional?: true;
  query?: Q;
  params?: P;
  /** `none` only for routes whose URL is the credential (download tokens). */
  auth?: 'api-key' | 'none';
  /** Headers on every answer of the route, errors included. */
  headers?: Record<string, string>;
}

type Out<S> = S extends v.GenericSchema ? v.InferOutput<S> : undefined;

/** What the stack's middlewares learn about a request; a function's own middlewares may add to it (`X`). */
export interface Internal extends Record<string, unknown> {
  requestId: string;
  log: Logger;
  caller?: Caller;
  headers: Record<string, string>;
  /** The account's rate-limit headers, on every answer once the caller is known. */
  rateHeaders?: Record<string, string>;
}

type Request = middy.Request<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context, Internal>;

export type HttpMiddleware<X extends object = object> = MiddlewareObj<
  APIGatewayProxyEvent,
  APIGatewayProxyResult,
  Error,
  Context,
  Internal & X
>;

interface StackOptions {
  /** Headers on every answer, errors included; asked for at each answer, so they may come from settings. */
  headers?: () => Record<string, string>;
  /**
   * Whether a 429 states its window (`RateLimit-*`) beside `Retry-After`: the API's does. The portal's does not:
   * its windows count sign-in attempts at an e-mail address, which others make too.
   */
  limitWindowHeaders?: boolean;
}

/** What the middlewares learned about a request, for the handler (middy passes it only the event). */
const learned = new WeakMap<APIGatewayProxyEvent, Internal>();

const NO_CALLER: Caller = { accountId: '', keyId: '' };

const lowerCaseHeaders = (event: APIGatewayProxyEvent): Record<string, string> =>
  Object.fromEntries(
    Object.entries(event.headers ?? {}).flatMap(([name, value]) =>
      value === undefined ? [] : [[name.toLowerCase(), value]],
    ),
  );

const bodyBytes = (event: APIGatewayProxyEvent): number =>
  event.body === null || event.body === undefined
    ? 0
    : event.isBase64Encoded
      ? Math.floor((event.body.length * 3) / 4)
      : Buffer.byteLength(event.body, 'utf8');

/** The public base URL: scheme and host as the caller used them, plus the stage prefix on AWS. */
export const baseUrlOf = (event: APIGatewayProxyEvent, headers: Record<string, string>): string => {
  const proto = headers['x-forwarded-proto']?.split(',')[0]?.trim() || 'https';
  const host = headers.host ?? 'localhost';
  const fullPath = event.requestContext?.path ?? event.path;
  const stagePrefix = fullPath?.endsWith(event.path) ? fullPath.slice(0, fullPath.length - event.path.length) : '';
  return `${proto}://${host}${stagePrefix}`;
};

/** Headers every answer carries: the request id, the route's own, and the deprecation notice on /v1. */
const commonHeaders = (
  event: APIGatewayProxyEvent,
  requestId: string,
  routeHeaders: Record<string, string> = {},
): Record<string, string> => {
  const headers: Record<string, string> = { 'X-Request-Id': requestId, ...routeHeaders };
  const path = event.path ?? '';
  if (path.startsWith('/v1/')) {
    headers.Deprecation = 'true';
    headers.Link = `<${path.replace(/^\/v1\//, '/v2/')}>; rel="successor-version"`;
  }
  return headers;
};

const serialise = (result: ApiResult, base: Record<string, string>): APIGatewayProxyResult => {
  switch (result.kind) {
    case 'json':
      return {
        statusCode: result.status,
        headers: { 'Content-Type': 'application/json', ...base, ...result.headers },
        body: JSON.stringify(result.body),
      };
    case 'binary':
      return {
        statusCode: result.status,
        headers: { 'Content-Type': result.contentType, ...base, ...result.headers },
        body: result.body.toString('base64'),
        isBase64Encoded: true,
      };
    case 'text':
      return {
        statusCode: result.status,
        headers: { 'Content-Type': result.contentType, ...base, ...result.headers },
        body: result.body,
      };
    case 'redirect':
      return {
        statusCode: 302,
        headers: { Location: result.location, 'Cache-Control': 'no-store', ...base },
        body: '',
      };
  }
};

const requestContext = (): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context, Internal> => ({
  before: (request: Request) => {
    const requestId = request.event.requestContext?.requestId || randomUUID();
    request.internal.requestId = requestId;
    request.internal.headers = lowerCaseHeaders(request.event);
    if (request.context?.functionName) processLog().addContext(request.context);
    request.internal.log = processLog().child({
      request_id: requestId,
      method: request.event.httpMethod,
      path: request.event.path,
    });
    learned.set(request.event, request.internal);
  },
});

const errorMapper = (
  options: StackOptions,
): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context, Internal> => ({
  onError: (request: Request) => {
    const requestId = request.internal.requestId ?? request.event.requestContext?.requestId ?? randomUUID();
    const log = request.internal.log ?? processLog().child({ request_id: requestId });
    const answer = errorAnswer(request.error, requestId, log, meter());
    const limited =
      request.error instanceof RateLimitedError
        ? {
            ...(options.limitWindowHeaders === false ? {} : rateLimitHeaders(request.error.window, clock())),
            'Retry-After': String(request.error.retryAfterSeconds),
          }
        : {};
    request.response = serialise(
      { kind: 'json', status: answer.statusCode, body: answer.body },
      { ...commonHeaders(request.event, requestId, options.headers?.()), ...request.internal.rateHeaders, ...limited },
    );
  },
});

const bodyLimit = (): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context, Internal> => ({
  before: (request: Request) => {
    if (bodyBytes(request.event) > MAX_BODY_BYTES) throw new PayloadTooLargeError(MAX_BODY_BYTES);
  },
});

const apiKeyAuth = (): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context, Internal> => ({
  before: async (request: Request) => {
    const caller = await authenticate(keyLookup(), request.internal.headers['x-api-key']);
    request.internal.caller = caller;
    request.internal.log = request.internal.log.child({ account_id: caller.accountId });
  },
});

/**
 * The scope the route's row of the route table names (routes.ts), which the key must carry: 403
 * INSUFFICIENT_SCOPE before anything is counted, read or written. A route the table does not know is
 * refused too (a 500: the function was deployed for another route), never let through.
 */
const scopeCheck = (): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context, Internal> => ({
  before: (request: Request) => {
    const caller = request.internal.caller;
    if (!caller) throw new Error('the scope check runs after authentication');
    const route = routeOf(request.event.httpMethod, request.event.resource);
    if (!route || route.auth === 'none')
      throw new Error(
        `${request.event.httpMethod} ${request.event.resource} is not an API-key route of the route table`,
      );
    requireScope(caller.scopes ?? [], route.scope);
  },
});

/** Counts the request against its account's limit: 429 past it, the limit headers on every answer (rate-limit.ts). */
const rateLimit = (): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context, Internal> => ({
  before: async (request: Request) => {
    const caller = request.internal.caller;
    if (!caller) throw new Error('the rate limit runs after authentication');
    // Beside the counter, the key's last-used time (written at most once a minute per key: key-use.ts).
    const [window] = await Promise.all([
      admitRequest(rateLimitDeps(), caller.accountId, caller.requestsPerMinute ?? settings().RATE_LIMIT_PER_MINUTE),
      keyUses().noteUse(caller.accountId, caller.keyId, clock()),
    ]);
    request.internal.rateHeaders = rateLimitHeaders(window, clock());
  },
});

/** The body as text, as FastAPI reads it before decoding JSON. */
export const bodyText = (event: APIGatewayProxyEvent): string =>
  event.isBase64Encoded ? Buffer.from(event.body ?? '', 'base64').toString('utf8') : (event.body ?? '');

/**
 * A body that is absent, `null`, not JSON or nested too deep is a 422 in FastAPI's words (validation.ts),
 * never a 500; it is read as JSON whatever the Content-Type says. A body that is JSON but not an object
 * is refused by the schema, as pydantic refuses it.
 */
const jsonBody = (
  optional: boolean,
): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context, Internal> => ({
  before: (request: Request) => {
    const event = request.event as { body: unknown };
    if (request.event.body === null || request.event.body === undefined || request.event.body === '') {
      if (!optional) throw new RequestValidationError([missingBody()]);
      // No body at all is the empty object: every field of such a schema is optional.
      event.body = {};
      return;
    }
    event.body = parseJsonBody(bodyText(request.event));
    if (event.body === null) throw new RequestValidationError([missingBody()]);
  },
});

/**
 * The one stack every HTTP function runs in: the request context, the error mapper (the only place an error
 * becomes an answer), then the function's own `middlewares` in order, then `handle`, whose result is
 * serialised with the stack's headers.
 */
export const httpHandler = <X extends object = object>(
  handle: (event: APIGatewayProxyEvent, internal: Internal & Partial<X>) => Promise<ApiResult>,
  middlewares: readonly HttpMiddleware<Partial<X>>[],
  options: StackOptions = {},
) => {
  const chain = middy<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context, Internal & Partial<X>>()
    .use(requestContext())
    .use(errorMapper(options));
  for (const middleware of middlewares) chain.use(middleware);
  return chain.handler(async (event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult> => {
    // The object the middlewares filled in, `X`'s fields included (each optional until its middleware ran).
    const internal = learned.get(event) as (Internal & Partial<X>) | undefined;
    if (!internal) throw new Error('the request context middleware did not run');
    const result = await handle(event, internal);
    return serialise(result, {
      ...commonHeaders(event, internal.requestId, options.headers?.()),
      ...internal.rateHeaders,
    });
  });
};

export const apiHandler = <
  B extends v.GenericSchema | undefined = undefined,
  Q extends v.GenericSchema | undefined = undefined,
  P extends v.GenericSchema | undefined = undefined,
>(
  fn: (request: ApiRequest<Out<B>, Out<Q>, Out<P>>) => Promise<ApiResult>,
  schemas: Schemas<B, Q, P> = {},
) =>
  httpHandler(
    async (event, internal) => {
      const body = (schemas.body ? parseOrThrow('body', schemas.body, event.body) : undefined) as Out<B>;
      const query = (
        schemas.query ? parseOrThrow('query', schemas.query, event.queryStringParameters ?? {}) : undefined
      ) as Out<Q>;
      const params = (
        schemas.params ? parseOrThrow('path', schemas.params, event.pathParameters ?? {}) : undefined
      ) as Out<P>;
      return fn({
        body,
        query,
        params,
        caller: internal.caller ?? NO_CALLER,
        requestId: internal.requestId,
        log: internal.log,
        headers: internal.headers,
        baseUrl: baseUrlOf(event, internal.headers),
        rawBody:
          typeof event.body === 'string'
            ? Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8')
            : Buffer.alloc(0),
      });
    },
    [
      bodyLimit(),
      ...(schemas.auth !== 'none' ? [apiKeyAuth(), scopeCheck(), rateLimit()] : []),
      ...(schemas.body ? [jsonBody(schemas.bodyOptional === true)] : []),
    ],
    { headers: () => schemas.headers ?? {} },
  );
