/**
 * The local front door: turns each HTTP request into the API Gateway proxy event the Lambda would get,
 * calls the route's handler in process, and writes its result back. Routes come from the one route table.
 * Bodies over the API Gateway limit are refused here with the service's error body, as the deployed
 * gateway response does; bodies over the Lambda limit reach the handler, which answers 413 itself.
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { inFlightWork } from './in-flight';

/** API Gateway's own payload limit (REST APIs). */
const GATEWAY_MAX_BODY_BYTES = 10 * 1024 * 1024;

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
    `^${resource.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{([A-Za-z0-9_]+)\\?\}/g, (_match, name: string) => {
      parameterNames.push(name);
      return '([^/]+)';
    })}$`,
  );
  return { route, resource, pattern, parameterNames };
};

const errorResponse = (res: http.ServerResponse, status: number, code: string, detail: string, extraHeaders: Record<string, string> = {}) => {
  const requestId = randomUUID();
  const body = JSON.stringify({ detail, code, request_id: requestId });
  res.writeHead(status, { 'Content-Type': 'application/json', 'X-Request-Id': requestId, 'Content-Length': Buffer.byteLength(body), ...extraHeaders });
  res.end(body);
};

export interface LocalGateway {
  url: string;
  close(): Promise<void>;
}

export const startLocalGateway = async (options: { routes: readonly GatewayRoute[]; port?: number; host?: string; onError?: (error: unknown) => void }): Promise<LocalGateway> => {
  const handlerWork = inFlightWork();
  const compiled = options.routes.map(compile);

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    req.on('data', (chunk: Buffer) => {
      if (refused) return;
      size += chunk.length;
      if (size > GATEWAY_MAX_BODY_BYTES) {
        // Answer at once and discard the rest of the upload, then close the connection.
        refused = true;
        chunks.length = 0;
        errorResponse(res, 413, 'PAYLOAD_TOO_LARGE', `The request body exceeds ${GATEWAY_MAX_BODY_BYTES} bytes.`, { Connection: 'close' });
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (refused) return;
      const candidates = compiled.filter((c) => c.pattern.test(url.pathname));
      const match = candidates.find((c) => c.route.method === req.method);
      if (!match) {
        return candidates.length > 0
          ? errorResponse(res, 405, 'METHOD_NOT_ALLOWED', `${req.method} is not allowed on ${url.pathname}.`)
          : errorResponse(res, 404, 'NOT_FOUND', `No route for ${req.method} ${url.pathname}.`);
      }
      const values = match.pattern.exec(url.pathname)!.slice(1);
      const headers: Record<string, string> = {};
      const multiValueHeaders: Record<string, string[]> = {};
      for (let i = 0; i < req.rawHeaders.length; i += 2) {
        const [name, value] = [req.rawHeaders[i]!, req.rawHeaders[i + 1]!];
        headers[name] = value;
        (multiValueHeaders[name] ??= []).push(value);
      }
      // As API Gateway does: tell the function how the caller reached it.
      for (const [name, value] of [['X-Forwarded-Proto', 'http'], ['X-Forwarded-For', req.socket.remoteAddress ?? '127.0.0.1']] as const) {
        if (!Object.keys(headers).some((existing) => existing.toLowerCase() === name.toLowerCase())) {
          headers[name] = value;
          multiValueHeaders[name] = [value];
        }
      }
      const query: Record<string, string> = {};
      const multiQuery: Record<string, string[]> = {};
      for (const [name, value] of url.searchParams) {
        query[name] = value;
        (multiQuery[name] ??= []).push(value);
      }
      const requestId = randomUUID();
      const body = Buffer.concat(chunks);
      const event: APIGatewayProxyEvent = {
        resource: match.resource,
        path: url.pathname,
        httpMethod: req.method ?? 'GET',
        headers,
        multiValueHeaders,
        queryStringParameters: Object.keys(query).length > 0 ? query : null,
        multiValueQueryStringParameters: Object.keys(multiQuery).length > 0 ? multiQuery : null,
        pathParameters: match.parameterNames.length > 0 ? Object.fromEntries(match.parameterNames.map((name, i) => [name, decodeURIComponent(values[i]!)])) : null,
        stageVariables: null,
        body: body.length > 0 ? body.toString('utf8') : null,
        isBase64Encoded: false,
        requestContext: {
          accountId: '000000000000',
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
          for (const [name, values] of Object.entries(result.multiValueHeaders ?? {})) responseHeaders[name] = values.map(String);
          const payload = result.isBase64Encoded ? Buffer.from(result.body, 'base64') : Buffer.from(result.body ?? '', 'utf8');
          responseHeaders['Content-Length'] = String(payload.length);
          res.writeHead(result.statusCode, responseHeaders);
          res.end(payload);
        })
        .catch((error: unknown) => {
          options.onError?.(error);
          // As API Gateway answers a function that timed out, or failed without an answer.
          if (error instanceof Error && error.name === 'Sandbox.Timedout') errorResponse(res, 504, 'TIMEOUT', 'The request did not finish in time.');
          else errorResponse(res, 502, 'INTERNAL_ERROR', 'The handler failed without an answer.');
        });
    });
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
