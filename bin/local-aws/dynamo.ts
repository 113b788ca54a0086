/**
 * Read first: DynamoDB for the local runtime.
 *
 * An HTTP endpoint that speaks DynamoDB's JSON protocol (the SDK clients of every function point at it
 * through DYNAMODB_ENDPOINT), in front of the in-memory store of bin/local-aws/dynamo/store.ts, which keeps
 * a journal under the data directory so that a restart keeps everything. The store runs each request
 * whole within one turn of the event loop, so requests are isolated as DynamoDB isolates them: a
 * transaction is never seen half-done, and disjoint transactions never wait for each other.
 * With the artefacts (`npm run start:assets`) every request is first checked against the calling
 * function's IAM policies (bin/local-aws/iam.ts). The CI runs the data-layer tests against DynamoDB Local
 * too, which holds this store to AWS's own semantics.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DynamoError } from './dynamo/errors';
import { importDynaliteData } from './dynamo/import-dynalite';
import { Store } from './dynamo/store';
import { AccessDenied, deniedJson, type IamGate } from './iam';
import { dynamoRequests } from './iam-requests';

export interface LocalDynamo {
  endpoint: string;
  close(): Promise<void>;
}

let requestCounter = 0;

export const startLocalDynamo = async (options: {
  dataDir?: string;
  port?: number;
  host?: string;
  gate?: IamGate;
}): Promise<LocalDynamo> => {
  const host = options.host ?? '127.0.0.1';
  if (options.dataDir) await importDynaliteData(options.dataDir);
  const store = new Store(options.dataDir);

  const answer = (res: http.ServerResponse, status: number, payload: unknown) => {
    const text = JSON.stringify(payload);
    requestCounter += 1;
    res.writeHead(status, {
      'Content-Type': 'application/x-amz-json-1.0',
      'Content-Length': Buffer.byteLength(text),
      'x-amzn-RequestId': `local-${requestCounter}`,
    });
    res.end(text);
  };
  const failure = (res: http.ServerResponse, error: DynamoError) =>
    answer(res, error.type === 'InternalServerError' ? 500 : 400, {
      __type: `com.amazonaws.dynamodb.v20120810#${error.type}`,
      message: error.message,
      ...error.extra,
    });

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const target = String(req.headers['x-amz-target'] ?? '');
      const operation = target.slice(target.lastIndexOf('.') + 1);
      let request: Record<string, unknown>;
      try {
        const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
        if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new SyntaxError('not an object');
        request = parsed as Record<string, unknown>;
      } catch {
        return answer(res, 400, {
          __type: 'com.amazonaws.dynamodb.v20120810#SerializationException',
          message: 'The request body is not JSON.',
        });
      }
      try {
        options.gate?.authorize(req, dynamoRequests(target, request));
        answer(res, 200, store.handle(operation, request));
      } catch (error) {
        if (error instanceof AccessDenied)
          return deniedJson(res, error, 'com.amazon.coral.service#AccessDeniedException');
        // Anything the store did not foresee is answered as DynamoDB would answer a fault, never thrown out of the process.
        failure(
          res,
          error instanceof DynamoError
            ? error
            : new DynamoError('InternalServerError', error instanceof Error ? error.message : String(error)),
        );
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, host, resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    endpoint: `http://${host}:${port}`,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
      store.close();
    },
  };
};
