/**
 * The local front door: turns each HTTP request into the API Gateway proxy event the Lambda would get,
 * calls the route's handler in process, and writes its result back. Routes come from the one route table.
 * Bodies over the API Gateway limit are refused here with the service's error body, as the deployed
 * gateway response does; bodies over the Lambda limit reach the handler, which answers 413 itself.
 *
 * Read first: nothing a client sends may stop this process. A request target that is not a URL, a path
 * with a malformed percent-escape, a method no route has, or a request Node's HTTP parser refuses (bad
 * request line or header: 400; headers too large: 431) is answered in the service's error shape with an
 * X-Request-Id; anything unexpected while handling a request is a 500 in that shape, logged, and the
 * process goes on. As on API Gateway, a method a path does not have is a 404 NOT_FOUND.
 */

import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { LOCAL_ACCOUNT } from './arns';
import { inFlightWork } from './in-flight';

/** API Gateway's own payload limit (REST APIs). */
const GATEWAY_MAX_BODY_BYTES = 10 * 1024 * 1024;
/** How long the rest of a refused upload is still read, and dropped, after its 413 was sent. */
const REFUSED_UPLOAD_LINGER_MS = 10_000;

export type ApiHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

/** One method on one path, and what answers it. */
export interface GatewayRoute {
  method: string;
  /** The full resource path, e.g. `/v2/service/jobs/{job_id}`. */
  resource: string;
  /** Calls the function behind the route; a thrown error is a function error (502). */
  invoke(event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult>;
}

interface CompiledRoute {
  route: GatewayRoute;
  resource: string;
  pattern: RegExp;
  parameterNames: string[];
}

const compile = (route: GatewayRoute): CompiledRoute => {
  const { resource } = route;
  const parameterNames: string[] = [];
  const pattern = new RegExp(
    `^${resource
      .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
      .replace(/\\?\{([A-Za-z0-9_]+)(\\\+)?\\?\}/g, (_match, name: string, greedy?: string) => {
        parameterNames.push(name);
        // `{name+}` is API Gateway's greedy parameter: the rest of the path, slashes included.
        return greedy ? '(.+)' : '([^/]+)';
      })}$`,
  );
  return { route, resource, pattern, parameterNames };
};

/** Writes an answer in the service's error shape; the caller ends the response. */
const writeError = (
  res: http.ServerResponse,
  status: number,
  code: string,
  detail: string,
  extraHeaders: Record<string, string> = {},
) => {
  const requestId = randomUUID();
  const body = JSON.stringify({ detail, code, request_id: requestId });
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'X-Request-Id': requestId,
    'Content-Length': Buffer.byteLength(body),
    ...extraHeaders,
  });
  res.write(body);
};

const errorResponse = (
  res: http.ServerResponse,
  status: number,
  code: string,
  detail: string,
  extraHeaders: Record<string, string> = {},
) => {
  writeError(res, status, code, detail, extraHeaders);
  res.end();
};

/**
 * A 413 sent while the client is still uploading. Closing the connection at once would reset it under
 * the client's writes, and a client then reports the reset (EPIPE, ECONNRESET) instead of the answer,
 * which it may not even have read. So the whole answer is written (Content-Length, Connection: close),
 * the rest of the upload is read and dropped, and the response ends, closing the connection, once the
 * upload has ended, or REFUSED_UPLOAD_LINGER_MS later for a client that never stops.
 */
const refuseTooLarge = (req: http.IncomingMessage, res: http.ServerResponse) => {
  writeError(res, 413, 'PAYLOAD_TOO_LARGE', `The request body exceeds ${GATEWAY_MAX_BODY_BYTES} bytes.`, {
    Connection: 'close',
  });
  const close = () => {
    clearTimeout(linger);
    if (!res.writableEnded) res.end();
  };
  const linger = setTimeout(close, REFUSED_UPLOAD_LINGER_MS).unref();
  req.on('end', close);
  req.on('close', close);
};

/** A function's answer as the gateway sent it (the test suite checks each against the OpenAPI document). */
export interface GatewayAnswer {
  method: string;
  /** The route's resource, e.g. `/v2/service/jobs/{job_id}`. */
  resource: string;
  status: number;
  headers: Record<string, string | string[]>;
  body: Buffer;
}

export interface LocalGateway {
  url: string;
  close(): Promise<void>;
}

export const startLocalGateway = async (options: {
  routes: readonly GatewayRoute[];
  port?: number;
  host?: string;
  onError?: (error: unknown) => void;
  onAnswer?: (answer: GatewayAnswer) => void;
}): Promise<LocalGateway> => {
  const handlerWork = inFlightWork();
  const compiled = options.routes.map(compile);

  const serve = (req: http.IncomingMessage, res: http.ServerResponse, fail: (error: unknown) => void) => {
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://localhost');
    } catch {
      req.resume();
      return errorResponse(res, 400, 'INVALID_REQUEST', 'The request target is not a valid URL.');
    }
    const chunks: Buffer[] = [];
    let size = 0;
    // A body over the limit is answered as soon as it is known to be: from its Content-Length, or once
    // as much has arrived (chunked); what follows is dropped.
    let refused = Number(req.headers['content-length']) > GATEWAY_MAX_BODY_BYTES;
    if (refused) refuseTooLarge(req, res);
    req.on('data', (chunk: Buffer) => {
      if (refused) return;
      size += chunk.length;
      if (size > GATEWAY_MAX_BODY_BYTES) {
        refused = true;
        chunks.length = 0;
        refuseTooLarge(req, res);
      } else chunks.push(chunk);
    });
    // A client that goes away mid-upload (after its 413, say) is no failure of the gateway's.
    req.on('error', (error: Error & { code?: string }) => {
      if (error.code !== 'ECONNRESET') fail(error);
    });
    req.on('end', () => {
      try {
        if (!refused) answer(req, res, url, Buffer.concat(chunks), fail);
      } catch (error) {
        fail(error);
      }
    });
  };

  const answer = (
    req: http.IncomingMessage,
    res: http.ServerResponse,
    url: URL,
    body: Buffer,
    fail: (error: unknown) => void,
  ) => {
    const match = compiled.find(
      (c) => (c.route.method === req.method || c.route.method === 'ANY') && c.pattern.test(url.pathname),
    );
    if (!match) return errorResponse(res, 404, 'NOT_FOUND', `No route for ${String(req.method)} ${url.pathname}.`);
    const values = match.pattern.exec(url.pathname)?.slice(1) ?? [];
    let pathParameters: Record<string, string> | null = null;
    try {
      if (match.parameterNames.length > 0)
        pathParameters = Object.fromEntries(
          match.parameterNames.map((name, i) => [name, decodeURIComponent(values[i] ?? '')]),
        );
    } catch {
      return errorResponse(res, 400, 'INVALID_REQUEST', 'The path has a malformed percent-escape.');
    }
    const headers: Record<string, string> = {};
    const multiValueHeaders: Record<string, string[]> = {};
    for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
      const [name = '', value = ''] = [req.rawHeaders[i], req.rawHeaders[i + 1]];
      headers[name] = value;
      const all = multiValueHeaders[name] ?? [];
      all.push(value);
      multiValueHeaders[name] = all;
    }
    // As API Gateway does: tell the function how the caller reached it.
    for (const [name, value] of [
      ['X-Forwarded-Proto', 'http'],
      ['X-Forwarded-For', req.socket.remoteAddress ?? '127.0.0.1'],
    ] as const) {
      if (!Object.keys(headers).some((existing) => existing.toLowerCase() === name.toLowerCase())) {
        headers[name] = value;
        multiValueHeaders[name] = [value];
      }
    }
    const query: Record<string, string> = {};
    const multiQuery: Record<string, string[]> = {};
    for (const [name, value] of url.searchParams) {
      query[name] = value;
      const all = multiQuery[name] ?? [];
      all.push(value);
      multiQuery[name] = all;
    }
    const requestId = randomUUID();
    const event: APIGatewayProxyEvent = {
      resource: match.resource,
      path: url.pathname,
      httpMethod: req.method ?? 'GET',
      headers,
      multiValueHeaders,
      queryStringParameters: Object.keys(query).length > 0 ? query : null,
      multiValueQueryStringParameters: Object.keys(multiQuery).length > 0 ? multiQuery : null,
      pathParameters,
      stageVariables: null,
      body: body.length > 0 ? body.toString('utf8') : null,
      isBase64Encoded: false,
      requestContext: {
        accountId: LOCAL_ACCOUNT,
        apiId: 'local',
        authorizer: null,
        protocol: `HTTP/${req.httpVersion}`,
        httpMethod: req.method ?? 'GET',
        path: url.pathname,
        stage: 'local',
        requestId,
        requestTimeEpoch: Date.now(),
        resourceId: 'local',
        resourcePath: match.resource,
        identity: {
          sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
          userAgent: req.headers['user-agent'] ?? null,
          accessKey: null,
          accountId: null,
          apiKey: null,
          apiKeyId: null,
          caller: null,
          clientCert: null,
          cognitoAuthenticationProvider: null,
          cognitoAuthenticationType: null,
          cognitoIdentityId: null,
          cognitoIdentityPoolId: null,
          principalOrgId: null,
          user: null,
          userArn: null,
        },
      },
    };
    handlerWork
      .track(Promise.resolve().then(() => match.route.invoke(event)))
      .then((result) => {
        const responseHeaders: Record<string, string | string[]> = {};
        for (const [name, value] of Object.entries(result.headers ?? {})) responseHeaders[name] = String(value);
        for (const [name, values] of Object.entries(result.multiValueHeaders ?? {}))
          responseHeaders[name] = values.map(String);
        const payload = result.isBase64Encoded
          ? Buffer.from(result.body, 'base64')
          : Buffer.from(result.body ?? '', 'utf8');
        responseHeaders['Content-Length'] = String(payload.length);
        res.writeHead(result.statusCode, responseHeaders);
        res.end(payload);
        options.onAnswer?.({
          method: event.httpMethod,
          resource: match.resource,
          status: result.statusCode,
          headers: responseHeaders,
          body: payload,
        });
      })
      .catch((error: unknown) => {
        options.onError?.(error);
        if (res.headersSent) return res.destroy();
        // As API Gateway answers a function that timed out, or failed without an answer.
        if (error instanceof Error && error.name === 'Sandbox.Timedout')
          errorResponse(res, 504, 'TIMEOUT', 'The request did not finish in time.');
        else errorResponse(res, 502, 'INTERNAL_ERROR', 'The handler failed without an answer.');
      })
      .catch(fail);
  };

  const server = http.createServer((req, res) => {
    const fail = (error: unknown) => {
      options.onError?.(error);
      if (res.headersSent || res.destroyed) res.destroy();
      else errorResponse(res, 500, 'INTERNAL_ERROR', 'Internal error.');
    };
    try {
      serve(req, res, fail);
    } catch (error) {
      fail(error);
    }
  });
  // Requests Node's parser refuses never reach the handler: answered here, in the error shape, if the socket still can be.
  server.on('clientError', (error: Error & { code?: string }, socket) => {
    if (!socket.writable || error.code === 'ECONNRESET') return socket.destroy();
    const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
    const requestId = randomUUID();
    const detail = status === 431 ? 'The request headers are too large.' : 'The request is not valid HTTP.';
    const body = JSON.stringify({ detail, code: 'INVALID_REQUEST', request_id: requestId });
    socket.end(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      await handlerWork.drain();
      server.closeAllConnections();
      await closed;
    },
  };
};
