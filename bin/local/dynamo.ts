/**
 * Read first: DynamoDB for the local runtime.
 *
 * dynalite (LevelDB on disk) speaks the DynamoDB API but has no TransactWriteItems or TransactGetItems.
 * This module puts a small proxy in front of it that implements both transaction calls with DynamoDB's
 * semantics. Isolation is DynamoDB's, item by item: a transaction holds exactly the items it touches
 * (exclusively for a write, shared for a read), single-item reads and writes hold their one item, so
 * nothing observes a transaction half-done through GetItem and disjoint transactions run side by side,
 * as they do on DynamoDB. Query, Scan and BatchGetItem take no lock (DynamoDB gives them read-committed
 * isolation, not serializable). The transaction semantics:
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
 * A readers-writer lock over one item: reads share it, a write takes it alone. Waiters are served in
 * arrival order, so a transaction is not starved by a stream of reads.
 */
class ItemLock {
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

  get idle(): boolean {
    return !this.exclusive && this.shared === 0 && this.waiting.length === 0;
  }
}

/**
 * The item locks of the store. A request takes all of its items' locks in one global order (sorted
 * ids), so two transactions that share items cannot each hold one the other waits for.
 */
class ItemLocks {
  private readonly locks = new Map<string, ItemLock>();

  async run<T>(items: ReadonlyArray<{ id: string; exclusive: boolean }>, work: () => Promise<T>): Promise<T> {
    // One lock per item, even when a request names an item twice (a transaction DynamoDB will refuse).
    const merged = new Map<string, boolean>();
    for (const { id, exclusive } of items) merged.set(id, (merged.get(id) ?? false) || exclusive);
    const ordered = [...merged].map(([id, exclusive]) => ({ id, exclusive })).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const take = (index: number): Promise<T> => {
      if (index === ordered.length) return work();
      const { id, exclusive } = ordered[index]!;
      let lock = this.locks.get(id);
      if (!lock) this.locks.set(id, (lock = new ItemLock()));
      const held = lock;
      return held.run(exclusive, () => take(index + 1)).finally(() => {
        if (held.idle && this.locks.get(id) === held) this.locks.delete(id);
      });
    };
    return take(0);
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
  const itemLocks = new ItemLocks();
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

  const itemId = (tableName: string, key: Item) => `${tableName}|${JSON.stringify(key)}`;

  /** The items a request touches, each with whether it writes; none for Query, Scan and the like. */
  const itemsOf = async (operation: string, request: Record<string, unknown>): Promise<Array<{ id: string; exclusive: boolean }>> => {
    const table = String(request['TableName'] ?? '');
    const single = async (item: unknown, exclusive: boolean) => [{ id: itemId(table, await keyOf(table, item as Item)), exclusive }];
    switch (operation) {
      case 'GetItem':
        return single(request['Key'], false);
      case 'PutItem':
        return single(request['Item'], true);
      case 'UpdateItem':
      case 'DeleteItem':
        return single(request['Key'], true);
      case 'TransactWriteItems': {
        const targets = await Promise.all(((request['TransactItems'] as TransactOperation[] | undefined) ?? []).map(targetOf));
        return targets.map((target) => ({ id: itemId(target.parts.TableName, target.key), exclusive: target.kind !== 'ConditionCheck' }));
      }
      case 'TransactGetItems': {
        const gets = (request['TransactItems'] as Array<{ Get: { TableName: string; Key: Item } }> | undefined) ?? [];
        return Promise.all(gets.map(async ({ Get }) => ({ id: itemId(Get.TableName, await keyOf(Get.TableName, Get.Key)), exclusive: false })));
      }
      case 'BatchWriteItem': {
        const byTable = (request['RequestItems'] as Record<string, Array<{ PutRequest?: { Item: Item }; DeleteRequest?: { Key: Item } }>> | undefined) ?? {};
        const writes = Object.entries(byTable).flatMap(([name, requests]) => requests.map((write) => ({ name, item: write.PutRequest?.Item ?? write.DeleteRequest?.Key ?? {} })));
        return Promise.all(writes.map(async ({ name, item }) => ({ id: itemId(name, await keyOf(name, item)), exclusive: true })));
      }
      default:
        return [];
    }
  };

  const targetOf = async (operation: TransactOperation) => {
    // Keys are rebuilt in schema order, so that one item named two ways is still seen as one item.
    if ('ConditionCheck' in operation) return { kind: 'ConditionCheck' as const, parts: operation.ConditionCheck, key: await keyOf(operation.ConditionCheck.TableName, operation.ConditionCheck.Key) };
    if ('Put' in operation) return { kind: 'Put' as const, parts: operation.Put, key: await keyOf(operation.Put.TableName, operation.Put.Item) };
    if ('Update' in operation) return { kind: 'Update' as const, parts: operation.Update, key: await keyOf(operation.Update.TableName, operation.Update.Key) };
    if ('Delete' in operation) return { kind: 'Delete' as const, parts: operation.Delete, key: await keyOf(operation.Delete.TableName, operation.Delete.Key) };
    throw new DynamoError('ValidationException', 'Unknown transaction operation');
  };

  /**
   * Does `condition` hold for the item as it is now? Asked of dynalite with a write that changes nothing:
   * a put of the item's own content, or, when there is no item, a delete of nothing (never a put of a
   * stand-in, which an unlocked Query could see).
   */
  const conditionHolds = async (parts: ExpressionParts, key: Item, current: Item | undefined): Promise<boolean> => {
    if (!parts.ConditionExpression) return true;
    const condition = {
      TableName: parts.TableName,
      ConditionExpression: parts.ConditionExpression,
      ExpressionAttributeNames: only(parts.ExpressionAttributeNames, parts.ConditionExpression, '#'),
      ExpressionAttributeValues: only(parts.ExpressionAttributeValues, parts.ConditionExpression, ':'),
    };
    try {
      if (current) await client.send(new PutItemCommand({ ...condition, Item: current }));
      else await client.send(new DeleteItemCommand({ ...condition, Key: key }));
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
      const id = itemId(target.parts.TableName, target.key);
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
      const operation = target.slice(target.lastIndexOf('.') + 1);
      let request: Record<string, unknown>;
      try {
        request = JSON.parse(body.toString('utf8') || '{}') as Record<string, unknown>;
        options.gate?.authorize(req, dynamoRequests(target, request));
      } catch (error) {
        if (error instanceof AccessDenied) return deniedJson(res, error, 'com.amazon.coral.service#AccessDeniedException');
        return answer(res, 400, { __type: 'com.amazonaws.dynamodb.v20120810#SerializationException', message: 'The request body is not JSON.' });
      }
      void requestWork
        .track(
          // A request too malformed to name its items is forwarded unlocked, for dynalite to refuse in DynamoDB's words.
          itemsOf(operation, request)
            .catch(() => [])
            .then((items) =>
              itemLocks.run(items, async () => {
                if (operation === 'TransactWriteItems') return { shim: await transactWrite(request) };
                if (operation === 'TransactGetItems') return { shim: await transactGet(request as Parameters<typeof transactGet>[0]) };
                return { forwarded: await forward(req, body) };
              }),
            ),
        )
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
