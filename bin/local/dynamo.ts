/**
 * Read first: DynamoDB for the local runtime.
 *
 * dynalite (LevelDB on disk) speaks the DynamoDB API but has no TransactWriteItems or TransactGetItems.
 * This module puts a small proxy in front of it that implements both transaction calls with DynamoDB's
 * semantics. A transaction holds the store exclusively, so nothing observes it half-done; other
 * requests share the store (dynalite already locks each item for a single write). The semantics:
 *  - two operations on one item → ValidationException;
 *  - every condition is evaluated against the state before the transaction; if any fails, nothing is
 *    written and the answer is TransactionCanceledException with one CancellationReason per item
 *    (`ConditionalCheckFailed` with the old item when ALL_OLD was asked, else `None`);
 *  - otherwise every write is applied; if one is refused midway (e.g. a bad update expression) the
 *    writes already made are rolled back from snapshots, so the transaction is all-or-nothing.
 * Conditions are evaluated by dynalite itself (a conditional put of the item's current content, which
 * changes nothing), so the expression semantics are DynamoDB's, not ours. The CI also runs the data
 * layer against DynamoDB Local to hold this shim to the real thing.
 */
import { DynamoDBClient, DescribeTableCommand, DeleteItemCommand, GetItemCommand, PutItemCommand, UpdateItemCommand, type AttributeValue } from '@aws-sdk/client-dynamodb';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { inFlightWork } from './in-flight';
import { LOCAL_REGION } from './arns';
import { AccessDenied, deniedJson, type IamGate } from './iam';
import { dynamoRequests } from './iam-requests';

// dynalite ships no types.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const dynalite: (options: Record<string, unknown>) => http.Server = require('dynalite');

type Item = Record<string, AttributeValue>;
type ExpressionParts = {
  TableName: string;
  ConditionExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: Item;
  ReturnValuesOnConditionCheckFailure?: 'ALL_OLD' | 'NONE';
};
type TransactOperation =
  | { ConditionCheck: ExpressionParts & { Key: Item } }
  | { Put: ExpressionParts & { Item: Item } }
  | { Update: ExpressionParts & { Key: Item; UpdateExpression: string } }
  | { Delete: ExpressionParts & { Key: Item } };

class DynamoError extends Error {
  constructor(
    readonly type: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/**
 * A readers-writer lock over the whole store: single-item requests share it, a transaction takes it
 * alone. Waiters are served in arrival order, so a transaction is not starved by a stream of reads.
 */
class StoreLock {
  private shared = 0;
  private exclusive = false;
  private readonly waiting: Array<{ exclusive: boolean; grant: () => void }> = [];

  async run<T>(exclusive: boolean, work: () => Promise<T>): Promise<T> {
    await this.acquire(exclusive);
    try {
      return await work();
    } finally {
      if (exclusive) this.exclusive = false;
      else this.shared -= 1;
      this.drain();
    }
  }

  private acquire(exclusive: boolean): Promise<void> {
    if (this.waiting.length === 0 && this.admits(exclusive)) {
      this.take(exclusive);
      return Promise.resolve();
    }
    return new Promise((grant) => this.waiting.push({ exclusive, grant }));
  }

  private admits(exclusive: boolean): boolean {
    return exclusive ? !this.exclusive && this.shared === 0 : !this.exclusive;
  }

  private take(exclusive: boolean): void {
    if (exclusive) this.exclusive = true;
    else this.shared += 1;
  }

  private drain(): void {
    while (this.waiting.length > 0 && this.admits(this.waiting[0]!.exclusive)) {
      const next = this.waiting.shift()!;
      this.take(next.exclusive);
      next.grant();
      if (next.exclusive) return;
    }
  }
}

/** Keeps only the names and values an expression mentions (DynamoDB refuses unused ones). */
const only = <T>(record: Record<string, T> | undefined, expression: string, sigil: '#' | ':') => {
  if (!record) return undefined;
  const used = new Set(expression.match(sigil === '#' ? /#[A-Za-z0-9_]+/g : /:[A-Za-z0-9_]+/g) ?? []);
  const kept = Object.fromEntries(Object.entries(record).filter(([name]) => used.has(name)));
  return Object.keys(kept).length > 0 ? kept : undefined;
};

export interface LocalDynamo {
  endpoint: string;
  close(): Promise<void>;
}

export const startLocalDynamo = async (options: { dataDir?: string; port?: number; host?: string; gate?: IamGate }): Promise<LocalDynamo> => {
  const host = options.host ?? '127.0.0.1';
  const backend = dynalite({ ...(options.dataDir ? { path: options.dataDir } : {}), createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise<void>((resolve) => backend.listen(0, host, resolve));
  const backendPort = (backend.address() as AddressInfo).port;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  const client = new DynamoDBClient({
    endpoint: `http://${host}:${backendPort}`,
    region: LOCAL_REGION,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
  const lock = new StoreLock();
  const requestWork = inFlightWork();
  const keyNames = new Map<string, string[]>();

  const keyOf = async (tableName: string, item: Item): Promise<Item> => {
    let names = keyNames.get(tableName);
    if (!names) {
      const table = await client.send(new DescribeTableCommand({ TableName: tableName }));
      names = (table.Table?.KeySchema ?? []).map((k) => k.AttributeName!);
      keyNames.set(tableName, names);
    }
    return Object.fromEntries(names.map((name) => [name, item[name]!]));
  };

  const targetOf = async (operation: TransactOperation) => {
    // Keys are rebuilt in schema order, so that one item named two ways is still seen as one item.
    if ('ConditionCheck' in operation) return { kind: 'ConditionCheck' as const, parts: operation.ConditionCheck, key: await keyOf(operation.ConditionCheck.TableName, operation.ConditionCheck.Key) };
    if ('Put' in operation) return { kind: 'Put' as const, parts: operation.Put, key: await keyOf(operation.Put.TableName, operation.Put.Item) };
    if ('Update' in operation) return { kind: 'Update' as const, parts: operation.Update, key: await keyOf(operation.Update.TableName, operation.Update.Key) };
    if ('Delete' in operation) return { kind: 'Delete' as const, parts: operation.Delete, key: await keyOf(operation.Delete.TableName, operation.Delete.Key) };
    throw new DynamoError('ValidationException', 'Unknown transaction operation');
  };

  /** Does `condition` hold for the item as it is now? Asked of dynalite with a write that changes nothing. */
  const conditionHolds = async (parts: ExpressionParts, key: Item, current: Item | undefined): Promise<boolean> => {
    if (!parts.ConditionExpression) return true;
    const condition = {
      TableName: parts.TableName,
      ConditionExpression: parts.ConditionExpression,
      ExpressionAttributeNames: only(parts.ExpressionAttributeNames, parts.ConditionExpression, '#'),
      ExpressionAttributeValues: only(parts.ExpressionAttributeValues, parts.ConditionExpression, ':'),
    };
    try {
      await client.send(new PutItemCommand({ ...condition, Item: current ?? key }));
      if (!current) await client.send(new DeleteItemCommand({ TableName: parts.TableName, Key: key }));
      return true;
    } catch (error) {
      if (error instanceof Error && error.name === 'ConditionalCheckFailedException') return false;
      throw error;
    }
  };

  const transactWrite = async (request: { TransactItems?: TransactOperation[] }) => {
    const operations = request.TransactItems ?? [];
    if (operations.length === 0 || operations.length > 100) {
      throw new DynamoError('ValidationException', 'TransactItems must have between 1 and 100 items');
    }
    const targets = await Promise.all(operations.map(targetOf));
    const seen = new Set<string>();
    for (const target of targets) {
      const id = `${target.parts.TableName}|${JSON.stringify(target.key)}`;
      if (seen.has(id)) throw new DynamoError('ValidationException', 'Transaction request cannot include multiple operations on one item');
      seen.add(id);
    }
    // The items are distinct, so their reads and condition checks are independent of one another.
    const snapshots = await Promise.all(
      targets.map(async (target) => (await client.send(new GetItemCommand({ TableName: target.parts.TableName, Key: target.key, ConsistentRead: true }))).Item),
    );
    const reasons: Array<Record<string, unknown>> = await Promise.all(
      targets.map(async (target, index) => {
        const old = snapshots[index];
        return (await conditionHolds(target.parts, target.key, old))
          ? { Code: 'None' }
          : {
              Code: 'ConditionalCheckFailed',
              Message: 'The conditional request failed',
              ...(target.parts.ReturnValuesOnConditionCheckFailure === 'ALL_OLD' && old ? { Item: old } : {}),
            };
      }),
    );
    if (reasons.some((reason) => reason['Code'] !== 'None')) {
      throw new DynamoError(
        'TransactionCanceledException',
        `Transaction cancelled, please refer cancellation reasons for specific reasons [${reasons.map((r) => r['Code']).join(', ')}]`,
        { CancellationReasons: reasons },
      );
    }
    const applied: number[] = [];
    const outcomes = await Promise.allSettled(
      operations.map(async (operation, index) => {
        if ('Put' in operation) {
          const { ReturnValuesOnConditionCheckFailure: _ignored, ...put } = operation.Put;
          await client.send(new PutItemCommand(put));
        } else if ('Update' in operation) {
          const { ReturnValuesOnConditionCheckFailure: _ignored, ...update } = operation.Update;
          await client.send(new UpdateItemCommand(update));
        } else if ('Delete' in operation) {
          const { ReturnValuesOnConditionCheckFailure: _ignored, ...remove } = operation.Delete;
          await client.send(new DeleteItemCommand(remove));
        } else return;
        applied.push(index);
      }),
    );
    const refused = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    if (refused) {
      const error: unknown = refused.reason;
      for (const index of applied) {
        const target = targets[index]!;
        const before = snapshots[index];
        await (before
          ? client.send(new PutItemCommand({ TableName: target.parts.TableName, Item: before }))
          : client.send(new DeleteItemCommand({ TableName: target.parts.TableName, Key: target.key })));
      }
      const name = error instanceof Error ? error.name : 'InternalServerError';
      throw new DynamoError(name === 'ValidationException' ? 'ValidationException' : 'InternalServerError', error instanceof Error ? error.message : String(error));
    }
    return {};
  };

  const transactGet = async (request: { TransactItems?: Array<{ Get: { TableName: string; Key: Item; ProjectionExpression?: string; ExpressionAttributeNames?: Record<string, string> } }> }) => {
    const responses = [];
    for (const { Get } of request.TransactItems ?? []) {
      const found = await client.send(new GetItemCommand({ ...Get, ConsistentRead: true }));
      responses.push(found.Item ? { Item: found.Item } : {});
    }
    return { Responses: responses };
  };

  const forward = (req: http.IncomingMessage, body: Buffer): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> =>
    new Promise((resolve, reject) => {
      const upstream = http.request(
        { host, port: backendPort, method: req.method, path: req.url, headers: { ...req.headers, host: `${host}:${backendPort}` }, agent },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 500, headers: response.headers, body: Buffer.concat(chunks) }));
          response.on('error', reject);
        },
      );
      upstream.on('error', reject);
      upstream.end(body);
    });

  const answer = (res: http.ServerResponse, status: number, payload: unknown) => {
    const text = JSON.stringify(payload);
    res.writeHead(status, { 'Content-Type': 'application/x-amz-json-1.0', 'Content-Length': Buffer.byteLength(text), 'x-amzn-RequestId': `local-${Date.now()}` });
    res.end(text);
  };

  const proxy = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const target = String(req.headers['x-amz-target'] ?? '');
      try {
        options.gate?.authorize(req, dynamoRequests(target, JSON.parse(body.toString('utf8') || '{}') as Record<string, unknown>));
      } catch (error) {
        if (error instanceof AccessDenied) return deniedJson(res, error, 'com.amazon.coral.service#AccessDeniedException');
        return answer(res, 400, { __type: 'com.amazonaws.dynamodb.v20120810#SerializationException', message: 'The request body is not JSON.' });
      }
      const transaction = target.endsWith('.TransactWriteItems') || target.endsWith('.TransactGetItems');
      void requestWork
        .track(lock.run(transaction, async () => {
          if (target.endsWith('.TransactWriteItems')) return { shim: await transactWrite(JSON.parse(body.toString('utf8'))) };
          if (target.endsWith('.TransactGetItems')) return { shim: await transactGet(JSON.parse(body.toString('utf8'))) };
          return { forwarded: await forward(req, body) };
        }))
        .then((result) => {
          if ('shim' in result) return answer(res, 200, result.shim);
          const { status, headers, body: payload } = result.forwarded;
          res.writeHead(status, headers);
          res.end(payload);
        })
        .catch((error: unknown) => {
          if (error instanceof DynamoError) {
            return answer(res, error.type === 'InternalServerError' ? 500 : 400, { __type: `com.amazonaws.dynamodb.v20120810#${error.type}`, message: error.message, ...error.extra });
          }
          answer(res, 500, { __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError', message: error instanceof Error ? error.message : String(error) });
        });
    });
  });
  await new Promise<void>((resolve) => proxy.listen(options.port ?? 0, host, resolve));
  const port = (proxy.address() as AddressInfo).port;

  return {
    endpoint: `http://${host}:${port}`,
    close: async () => {
      const closed = new Promise<void>((resolve) => proxy.close(() => resolve()));
      await requestWork.drain();
      proxy.closeAllConnections();
      await closed;
      client.destroy();
      agent.destroy();
      await new Promise<void>((resolve) => backend.close(() => resolve()));
    },
  };
};
