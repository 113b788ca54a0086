/**
 * The local runtime's DynamoDB: tables held in memory, every change appended to a journal on disk
 * (one line per request, so a transaction is written whole or not at all), the journal rewritten as a
 * snapshot at each start and whenever it has grown well past one. Each request runs to completion in one turn of the event loop, so every
 * request is isolated from every other: a transaction is seen whole or not at all by any read, as on
 * DynamoDB, without locks. Only what DynamoDB would answer is answered; test/data holds this store to
 * DynamoDB Local (AWS's own emulator) with the same tests.
 */
import fs from 'node:fs';
import path from 'node:path';
import { DynamoError } from './errors';
import {
  applyUpdate,
  type Condition,
  evaluate,
  parseCondition,
  parseProjection,
  parseUpdate,
  Scope,
  type Update,
} from './expressions';
import {
  checkItem,
  checkValue,
  compareScalars,
  type Item,
  itemSize,
  MAX_ITEM_BYTES,
  type PathStep,
  project,
  typeOf,
  type Value,
} from './values';

type Request = Record<string, unknown>;
type Answer = Record<string, unknown>;

interface KeyShape {
  hash: string;
  range?: string;
}

interface Index {
  name: string;
  shape: KeyShape;
  projection: Record<string, unknown>;
  partitions: Map<string, Item[]>;
}

interface TableDefinition {
  TableName: string;
  KeySchema: Array<{ AttributeName: string; KeyType: 'HASH' | 'RANGE' }>;
  AttributeDefinitions: Array<{ AttributeName: string; AttributeType: 'S' | 'N' | 'B' }>;
  GlobalSecondaryIndexes?: Array<{
    IndexName: string;
    KeySchema: TableDefinition['KeySchema'];
    Projection: Record<string, unknown>;
  }>;
  BillingMode?: string;
  CreationDateTime: number;
}

const invalid = (message: string) => new DynamoError('ValidationException', message);
const notFound = () => new DynamoError('ResourceNotFoundException', 'Requested resource not found');

const MAX_PAGE_BYTES = 1024 * 1024;

const shapeOf = (schema: TableDefinition['KeySchema']): KeyShape => {
  const hash = schema.find((key) => key.KeyType === 'HASH');
  if (!hash) throw invalid('The key schema has no HASH key');
  return { hash: hash.AttributeName, range: schema.find((key) => key.KeyType === 'RANGE')?.AttributeName };
};

const keyText = (value: Value): string => `${typeOf(value)}:${String(value[typeOf(value)])}`;

class Table {
  readonly shape: KeyShape;
  readonly indexes = new Map<string, Index>();
  readonly partitions = new Map<string, Item[]>();
  private readonly types = new Map<string, string>();
  count = 0;

  constructor(readonly definition: TableDefinition) {
    this.shape = shapeOf(definition.KeySchema);
    for (const attribute of definition.AttributeDefinitions)
      this.types.set(attribute.AttributeName, attribute.AttributeType);
    for (const index of definition.GlobalSecondaryIndexes ?? []) {
      this.indexes.set(index.IndexName, {
        name: index.IndexName,
        shape: shapeOf(index.KeySchema),
        projection: index.Projection,
        partitions: new Map(),
      });
    }
  }

  get keyNames(): string[] {
    return this.shape.range ? [this.shape.hash, this.shape.range] : [this.shape.hash];
  }

  /** The key of a Key parameter, checked against the schema. */
  checkKey(key: unknown): Item {
    const checked = checkItem(key);
    const names = Object.keys(checked);
    if (names.length !== this.keyNames.length || !this.keyNames.every((name) => checked[name]))
      throw invalid('The provided key element does not match the schema');
    for (const name of this.keyNames) this.checkKeyValue(name, checked[name], '');
    return checked;
  }

  /** An item to write: its key attributes present and typed, index keys typed, at most 400 KB. */
  checkItem(item: unknown): Item {
    const checked = checkItem(item);
    this.checkKeys(checked);
    if (itemSize(checked) > MAX_ITEM_BYTES) throw invalid('Item size has exceeded the maximum allowed size');
    return checked;
  }

  /** The table's and the indexes' key attributes of an item whose values are already checked. */
  checkKeys(checked: Item): void {
    for (const name of this.keyNames) {
      if (!checked[name])
        throw invalid(`One or more parameter values were invalid: Missing the key ${name} in the item`);
      this.checkKeyValue(name, checked[name], '');
    }
    for (const index of this.indexes.values()) {
      for (const name of [index.shape.hash, index.shape.range]) {
        if (name && checked[name]) this.checkKeyValue(name, checked[name], index.name);
      }
    }
  }

  private checkKeyValue(name: string, value: Value, indexName: string): void {
    const expected = this.types.get(name);
    const actual = typeOf(value);
    if (expected !== actual) {
      throw invalid(
        indexName
          ? `One or more parameter values were invalid: Type mismatch for Index Key ${name} Expected: ${expected} Actual: ${actual} IndexName: ${indexName}`
          : `One or more parameter values were invalid: Type mismatch for key ${name} expected: ${expected} actual: ${actual}`,
      );
    }
    if (actual === 'S' && value.S === '') {
      throw invalid(
        indexName
          ? `One or more parameter values are not valid. A value specified for a secondary index key is not supported. The AttributeValue for a key attribute cannot contain an empty string value. IndexName: ${indexName}, IndexKey: ${name}`
          : `One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty string value. Key: ${name}`,
      );
    }
  }

  keyOf(item: Item): Item {
    return Object.fromEntries(this.keyNames.map((name) => [name, item[name]]));
  }

  id(key: Item): string {
    return this.keyNames.map((name) => keyText(key[name])).join('|');
  }

  private position(items: Item[], item: Item, order: (a: Item, b: Item) => number): { index: number; found: boolean } {
    let low = 0;
    let high = items.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      const comparison = order(items[middle], item);
      if (comparison === 0) return { index: middle, found: true };
      if (comparison < 0) low = middle + 1;
      else high = middle;
    }
    return { index: low, found: false };
  }

  private tableOrder = (a: Item, b: Item): number =>
    this.shape.range ? (compareScalars(a[this.shape.range], b[this.shape.range]) ?? 0) : 0;

  indexOrder(index: Index): (a: Item, b: Item) => number {
    return (a, b) =>
      (index.shape.range ? (compareScalars(a[index.shape.range], b[index.shape.range]) ?? 0) : 0) ||
      this.keyOrder(a, b);
  }

  /** Orders items by their table key, partition first: ties in an index are broken by it. */
  private keyOrder = (a: Item, b: Item): number => {
    const [x, y] = [keyText(a[this.shape.hash]), keyText(b[this.shape.hash])];
    return (x < y ? -1 : x > y ? 1 : 0) || this.tableOrder(a, b);
  };

  get(key: Item): Item | undefined {
    const items = this.partitions.get(keyText(key[this.shape.hash]));
    if (!items) return undefined;
    const { index, found } = this.position(items, key, this.tableOrder);
    return found ? items[index] : undefined;
  }

  /** Writes (or, with `undefined`, deletes) the item at `key`, and keeps every index in step. */
  write(key: Item, item: Item | undefined): void {
    const before = this.get(key);
    if (before) {
      this.remove(this.partitions, keyText(before[this.shape.hash]), before, this.tableOrder);
      for (const index of this.indexes.values()) {
        if (this.inIndex(index, before))
          this.remove(index.partitions, keyText(before[index.shape.hash]), before, this.indexOrder(index));
      }
      this.count -= 1;
    }
    if (!item) return;
    this.insert(this.partitions, keyText(item[this.shape.hash]), item, this.tableOrder);
    for (const index of this.indexes.values()) {
      if (this.inIndex(index, item))
        this.insert(index.partitions, keyText(item[index.shape.hash]), item, this.indexOrder(index));
    }
    this.count += 1;
  }

  inIndex(index: Index, item: Item): boolean {
    return item[index.shape.hash] !== undefined && (!index.shape.range || item[index.shape.range] !== undefined);
  }

  private insert(partitions: Map<string, Item[]>, hash: string, item: Item, order: (a: Item, b: Item) => number): void {
    let items = partitions.get(hash);
    if (!items) {
      items = [];
      partitions.set(hash, items);
    }
    items.splice(this.position(items, item, order).index, 0, item);
  }

  private remove(partitions: Map<string, Item[]>, hash: string, item: Item, order: (a: Item, b: Item) => number): void {
    const items = partitions.get(hash);
    if (!items) return;
    const { index, found } = this.position(items, item, order);
    if (found) items.splice(index, 1);
    if (items.length === 0) partitions.delete(hash);
  }
}

/** One change to persist: an item written, or a key deleted. */
type Change = { table: string; item: Item } | { table: string; deleted: Item };
type JournalLine = { create: TableDefinition } | { drop: string } | { changes: Change[] };

/** The journal: appended to with a write per request, replayed and compacted at start. */
class Journal {
  private fd: number | undefined;
  /** Lines appended since the journal was last rewritten. */
  appended = 0;

  constructor(private readonly file: string | undefined) {}

  *replay(): Generator<JournalLine> {
    if (!this.file || !fs.existsSync(this.file)) return;
    const lines = fs.readFileSync(this.file, 'utf8').split('\n');
    for (const line of lines) {
      if (line === '') continue;
      try {
        yield JSON.parse(line) as JournalLine;
      } catch {
        // A line torn by a crash mid-write: the request it recorded never answered, so it never happened.
        return;
      }
    }
  }

  /** Replaces the journal with `lines` (written aside, then renamed over it) and opens it for appending. */
  rewrite(lines: JournalLine[]): void {
    if (!this.file) return;
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    const aside = `${this.file}.compacting`;
    fs.writeFileSync(aside, lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
    this.close();
    fs.renameSync(aside, this.file);
    this.fd = fs.openSync(this.file, 'a');
    this.appended = 0;
  }

  append(line: JournalLine): void {
    if (this.fd === undefined) return;
    fs.writeSync(this.fd, `${JSON.stringify(line)}\n`);
    this.appended += 1;
  }

  close(): void {
    if (this.fd !== undefined) fs.closeSync(this.fd);
    this.fd = undefined;
  }
}

/** A write a request will make once every check has passed. */
interface PlannedWrite {
  table: Table;
  key: Item;
  after: Item | undefined;
}

/** A running store rewrites its journal as a snapshot once this many lines (or one per item, if more) were appended. */
const COMPACT_AFTER_LINES = 20_000;

export class Store {
  private readonly tables = new Map<string, Table>();
  private readonly journal: Journal;
  private readonly compactAfterLines: number;

  /** `dataDir`: where the journal lives; in memory only without one. */
  constructor(dataDir?: string, options: { compactAfterLines?: number } = {}) {
    this.journal = new Journal(dataDir ? path.join(dataDir, 'journal.jsonl') : undefined);
    this.compactAfterLines = options.compactAfterLines ?? COMPACT_AFTER_LINES;
    for (const line of this.journal.replay()) this.replayLine(line);
    this.compact();
  }

  /**
   * Every change is on disk before it is made in memory: a write the disk refuses is answered as a fault
   * and made nowhere. The journal is compacted, after the change, once it has grown well past its snapshot.
   */
  private record(line: JournalLine, apply: () => void): void {
    this.journal.append(line);
    apply();
    const items = [...this.tables.values()].reduce((sum, table) => sum + table.count, 0);
    if (this.journal.appended > Math.max(this.compactAfterLines, items)) this.compact();
  }

  private replayLine(line: JournalLine): void {
    if ('create' in line) this.tables.set(line.create.TableName, new Table(line.create));
    else if ('drop' in line) this.tables.delete(line.drop);
    else {
      for (const change of line.changes) {
        const table = this.tables.get(change.table);
        if (!table) continue;
        if ('item' in change) table.write(table.keyOf(change.item), change.item);
        else table.write(change.deleted, undefined);
      }
    }
  }

  /** Everything as a snapshot: each table's definition, then its items, 1000 to a line. */
  private compact(): void {
    const lines: JournalLine[] = [];
    for (const table of this.tables.values()) {
      lines.push({ create: table.definition });
      const items = [...table.partitions.values()].flat();
      for (let start = 0; start < items.length; start += 1000) {
        lines.push({
          changes: items.slice(start, start + 1000).map((item) => ({ table: table.definition.TableName, item })),
        });
      }
    }
    this.journal.rewrite(lines);
  }

  close(): void {
    this.journal.close();
  }

  /** Runs one DynamoDB operation, by its X-Amz-Target name. */
  handle(operation: string, request: Request): Answer {
    switch (operation) {
      case 'CreateTable':
        return this.createTable(request);
      case 'DescribeTable':
        return { Table: this.describe(this.table(request.TableName)) };
      case 'DeleteTable': {
        const table = this.table(request.TableName);
        this.record({ drop: table.definition.TableName }, () => this.tables.delete(table.definition.TableName));
        return { TableDescription: { ...this.describe(table), TableStatus: 'DELETING' } };
      }
      case 'ListTables':
        return { TableNames: [...this.tables.keys()].sort() };
      case 'GetItem':
        return this.getItem(request);
      case 'PutItem':
      case 'UpdateItem':
      case 'DeleteItem':
        return this.writeItem(operation, request);
      case 'Query':
      case 'Scan':
        return this.read(operation, request);
      case 'BatchGetItem':
        return this.batchGet(request);
      case 'BatchWriteItem':
        return this.batchWrite(request);
      case 'TransactWriteItems':
        return this.transactWrite(request);
      case 'TransactGetItems':
        return this.transactGet(request);
      default:
        throw new DynamoError('UnknownOperationException', `Unknown operation: ${operation}`);
    }
  }

  // ---- tables ----

  private table(name: unknown): Table {
    const table = typeof name === 'string' ? this.tables.get(name) : undefined;
    if (!table) throw notFound();
    return table;
  }

  private createTable(request: Request): Answer {
    const name = request.TableName;
    if (typeof name !== 'string' || !/^[a-zA-Z0-9_.-]{3,255}$/.test(name))
      throw invalid('TableName must be 3 to 255 characters of [a-zA-Z0-9_.-]');
    if (this.tables.has(name)) throw new DynamoError('ResourceInUseException', `Table already exists: ${name}`);
    const definition: TableDefinition = {
      TableName: name,
      KeySchema: request.KeySchema as TableDefinition['KeySchema'],
      AttributeDefinitions: request.AttributeDefinitions as TableDefinition['AttributeDefinitions'],
      GlobalSecondaryIndexes:
        (request.GlobalSecondaryIndexes as TableDefinition['GlobalSecondaryIndexes']) ?? undefined,
      BillingMode: (request.BillingMode as string | undefined) ?? 'PROVISIONED',
      CreationDateTime: Date.now() / 1000,
    };
    const defined = new Set(definition.AttributeDefinitions?.map((attribute) => attribute.AttributeName));
    const keys = [
      ...(definition.KeySchema ?? []),
      ...(definition.GlobalSecondaryIndexes ?? []).flatMap((index) => index.KeySchema),
    ];
    if (
      !definition.KeySchema?.some((key) => key.KeyType === 'HASH') ||
      keys.some((key) => !defined.has(key.AttributeName))
    ) {
      throw invalid(
        'One or more parameter values were invalid: Some index key attributes are not defined in AttributeDefinitions',
      );
    }
    const table = new Table(definition);
    this.record({ create: definition }, () => this.tables.set(name, table));
    return { TableDescription: this.describe(table) };
  }

  private describe(table: Table): Answer {
    const { TableName, KeySchema, AttributeDefinitions, GlobalSecondaryIndexes, BillingMode, CreationDateTime } =
      table.definition;
    return {
      TableName,
      TableArn: `arn:aws:dynamodb:us-east-1:000000000000:table/${TableName}`,
      TableStatus: 'ACTIVE',
      KeySchema,
      AttributeDefinitions,
      CreationDateTime,
      ItemCount: table.count,
      BillingModeSummary: { BillingMode },
      ...(GlobalSecondaryIndexes && {
        GlobalSecondaryIndexes: GlobalSecondaryIndexes.map((index) => ({
          ...index,
          IndexStatus: 'ACTIVE',
          IndexArn: `arn:aws:dynamodb:us-east-1:000000000000:table/${TableName}/index/${index.IndexName}`,
        })),
      }),
    };
  }

  // ---- single items ----

  private getItem(request: Request): Answer {
    const table = this.table(request.TableName);
    const key = table.checkKey(request.Key);
    const scope = new Scope(request.ExpressionAttributeNames as Record<string, string>, undefined);
    const projection = request.ProjectionExpression
      ? parseProjection(String(request.ProjectionExpression), scope)
      : undefined;
    scope.checkAllUsed();
    const item = table.get(key);
    return item ? { Item: projection ? project(item, projection) : item } : {};
  }

  /** A Put, Update or Delete (alone or in a transaction), checked and parsed but not yet applied. */
  private plan(
    kind: 'Put' | 'Update' | 'Delete' | 'ConditionCheck',
    request: Request,
  ): { write: PlannedWrite; condition?: Condition; before: Item | undefined; updated: string[]; returnOld: boolean } {
    const table = this.table(request.TableName);
    const scope = new Scope(
      request.ExpressionAttributeNames as Record<string, string>,
      request.ExpressionAttributeValues as Record<string, unknown>,
    );
    const put = kind === 'Put' ? table.checkItem(request.Item) : undefined;
    const key = put ? table.keyOf(put) : table.checkKey(request.Key);
    const condition = request.ConditionExpression
      ? parseCondition(String(request.ConditionExpression), 'ConditionExpression', scope)
      : undefined;
    if (kind === 'ConditionCheck' && !condition)
      throw invalid('The ConditionCheck operation requires a ConditionExpression');
    let update: Update | undefined;
    if (kind === 'Update' && request.UpdateExpression !== undefined)
      update = parseUpdate(String(request.UpdateExpression), scope);
    scope.checkAllUsed();
    const before = table.get(key);
    let after: Item | undefined = before;
    if (put) after = put;
    else if (kind === 'Delete') after = undefined;
    else if (kind === 'Update') {
      // Evaluated only when the condition holds: DynamoDB checks the condition first.
      const holds = !condition || evaluate(condition, before ?? {});
      if (holds) {
        after = update
          ? applyUpdate(update, before ?? structuredClone(key), table.keyNames)
          : (before ?? structuredClone(key));
        if (!before) Object.assign(after, structuredClone(key));
        if (itemSize(after) > MAX_ITEM_BYTES)
          throw invalid('Item size to update has exceeded the maximum allowed size');
        table.checkKeys(after);
      }
    }
    // The top-level attributes the update names: what UPDATED_OLD and UPDATED_NEW answer.
    const updated = update
      ? [
          ...new Set(
            [
              ...update.set.map((a) => a.path),
              ...update.remove,
              ...update.add.map((a) => a.path),
              ...update.delete.map((a) => a.path),
            ].map((path) => String(path[0])),
          ),
        ]
      : [];
    return {
      write: { table, key, after },
      condition,
      before,
      updated,
      returnOld: request.ReturnValuesOnConditionCheckFailure === 'ALL_OLD',
    };
  }

  private commit(writes: PlannedWrite[]): void {
    if (writes.length === 0) return;
    const changes: Change[] = writes.map(({ table, key, after }) =>
      after ? { table: table.definition.TableName, item: after } : { table: table.definition.TableName, deleted: key },
    );
    this.record({ changes }, () => {
      for (const { table, key, after } of writes) table.write(key, after);
    });
  }

  private writeItem(operation: 'PutItem' | 'UpdateItem' | 'DeleteItem', request: Request): Answer {
    const planned = this.plan(
      operation === 'PutItem' ? 'Put' : operation === 'UpdateItem' ? 'Update' : 'Delete',
      request,
    );
    const { write, condition, before } = planned;
    if (condition && !evaluate(condition, before ?? {})) {
      throw new DynamoError(
        'ConditionalCheckFailedException',
        'The conditional request failed',
        planned.returnOld && before ? { Item: before } : {},
      );
    }
    this.commit([write]);
    const returnValues = String(request.ReturnValues ?? 'NONE');
    switch (returnValues) {
      case 'NONE':
        return {};
      case 'ALL_OLD':
        return before ? { Attributes: before } : {};
      case 'ALL_NEW':
        return write.after ? { Attributes: write.after } : {};
      case 'UPDATED_OLD':
      case 'UPDATED_NEW': {
        if (operation !== 'UpdateItem') throw invalid(`Return values set to invalid value: ${returnValues}`);
        const source = returnValues === 'UPDATED_OLD' ? before : write.after;
        const attributes = Object.fromEntries(
          planned.updated.flatMap((name) => (source?.[name] !== undefined ? [[name, source[name]]] : [])),
        );
        return Object.keys(attributes).length > 0 ? { Attributes: attributes } : {};
      }
      default:
        throw invalid(`Return values set to invalid value: ${returnValues}`);
    }
  }

  // ---- Query and Scan ----

  private read(operation: 'Query' | 'Scan', request: Request): Answer {
    const table = this.table(request.TableName);
    const indexName = request.IndexName as string | undefined;
    const index = indexName === undefined ? undefined : table.indexes.get(indexName);
    if (indexName !== undefined && !index) throw invalid(`The table does not have the specified index: ${indexName}`);
    if (index && request.ConsistentRead === true)
      throw invalid('Consistent reads are not supported on global secondary indexes');
    const shape = index?.shape ?? table.shape;
    const scope = new Scope(
      request.ExpressionAttributeNames as Record<string, string>,
      request.ExpressionAttributeValues as Record<string, unknown>,
    );
    const keyCondition =
      operation === 'Query' ? keyConditionOf(String(request.KeyConditionExpression ?? ''), shape, scope) : undefined;
    const filter = request.FilterExpression
      ? parseCondition(String(request.FilterExpression), 'FilterExpression', scope)
      : undefined;
    const projection = request.ProjectionExpression
      ? parseProjection(String(request.ProjectionExpression), scope)
      : undefined;
    scope.checkAllUsed();
    const limit = request.Limit === undefined ? Infinity : Number(request.Limit);
    if (!(limit >= 1))
      throw invalid(
        "1 validation error detected: Value at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1",
      );

    const partitions = index?.partitions ?? table.partitions;
    const order = index ? table.indexOrder(index) : undefined;
    let candidates: Item[];
    if (keyCondition) {
      candidates = (partitions.get(keyText(keyCondition.hash)) ?? []).filter(
        (item) => !keyCondition.range || evaluate(keyCondition.range, item),
      );
      if (request.ScanIndexForward === false) candidates = [...candidates].reverse();
    } else candidates = [...partitions.values()].flat();

    const startKey = request.ExclusiveStartKey ? checkItem(request.ExclusiveStartKey) : undefined;
    let start = 0;
    if (startKey) {
      const startId = table.id(table.keyOf(startKey));
      const at = candidates.findIndex((item) => table.id(table.keyOf(item)) === startId);
      if (at >= 0) start = at + 1;
      else {
        // The item the previous page ended on is gone: resume after where it would have been.
        const forward = request.ScanIndexForward !== false;
        const compare =
          order ?? ((a: Item, b: Item) => (shape.range ? (compareScalars(a[shape.range], b[shape.range]) ?? 0) : 0));
        const next = candidates.findIndex((item) =>
          forward ? compare(item, startKey) > 0 : compare(item, startKey) < 0,
        );
        start = next >= 0 ? next : candidates.length;
      }
    }

    const evaluated: Item[] = [];
    let bytes = 0;
    for (let position = start; position < candidates.length; position += 1) {
      if (evaluated.length >= limit || bytes >= MAX_PAGE_BYTES) break;
      const item = candidates[position];
      evaluated.push(item);
      bytes += itemSize(item);
    }
    const stopped = evaluated.length >= limit || bytes >= MAX_PAGE_BYTES;
    const last = evaluated[evaluated.length - 1];
    const matched = filter ? evaluated.filter((item) => evaluate(filter, item)) : evaluated;
    const answer: Answer = { Count: matched.length, ScannedCount: evaluated.length };
    if (request.Select !== 'COUNT')
      answer.Items = projection ? matched.map((item) => project(item, projection)) : matched;
    if (stopped && last) {
      const names = [
        ...new Set([
          ...table.keyNames,
          ...(index ? [index.shape.hash, ...(index.shape.range ? [index.shape.range] : [])] : []),
        ]),
      ];
      answer.LastEvaluatedKey = Object.fromEntries(names.map((name) => [name, last[name]]));
    }
    return answer;
  }

  // ---- batches ----

  private batchGet(request: Request): Answer {
    const byTable = (request.RequestItems ?? {}) as Record<
      string,
      { Keys: unknown[]; ProjectionExpression?: string; ExpressionAttributeNames?: Record<string, string> }
    >;
    const total = Object.values(byTable).reduce((sum, entry) => sum + (entry.Keys?.length ?? 0), 0);
    if (total === 0 || total > 100) throw invalid('Too many items requested for the BatchGetItem call');
    const responses: Record<string, Item[]> = {};
    for (const [name, entry] of Object.entries(byTable)) {
      const table = this.table(name);
      const scope = new Scope(entry.ExpressionAttributeNames, undefined);
      const projection = entry.ProjectionExpression ? parseProjection(entry.ProjectionExpression, scope) : undefined;
      scope.checkAllUsed();
      const keys = entry.Keys.map((key) => table.checkKey(key));
      if (new Set(keys.map((key) => table.id(key))).size !== keys.length)
        throw invalid('Provided list of item keys contains duplicates');
      responses[name] = keys.flatMap((key) => {
        const item = table.get(key);
        return item ? [projection ? project(item, projection) : item] : [];
      });
    }
    return { Responses: responses, UnprocessedKeys: {} };
  }

  private batchWrite(request: Request): Answer {
    const byTable = (request.RequestItems ?? {}) as Record<
      string,
      Array<{ PutRequest?: { Item: unknown }; DeleteRequest?: { Key: unknown } }>
    >;
    const writes: PlannedWrite[] = [];
    for (const [name, requests] of Object.entries(byTable)) {
      const table = this.table(name);
      for (const write of requests) {
        if (write.PutRequest) {
          const item = table.checkItem(write.PutRequest.Item);
          writes.push({ table, key: table.keyOf(item), after: item });
        } else if (write.DeleteRequest)
          writes.push({ table, key: table.checkKey(write.DeleteRequest.Key), after: undefined });
        else throw invalid('Supplied AttributeValue has no PutRequest or DeleteRequest');
      }
    }
    if (writes.length === 0 || writes.length > 25)
      throw invalid('Too many items requested for the BatchWriteItem call');
    const ids = writes.map(({ table, key }) => `${table.definition.TableName}#${table.id(key)}`);
    if (new Set(ids).size !== ids.length) throw invalid('Provided list of item keys contains duplicates');
    this.commit(writes);
    return { UnprocessedItems: {} };
  }

  // ---- transactions ----

  private transactWrite(request: Request): Answer {
    const operations = (request.TransactItems ?? []) as Array<Record<string, Request>>;
    if (operations.length === 0 || operations.length > 100)
      throw invalid('TransactItems must have between 1 and 100 items');
    const planned = operations.map((operation) => {
      const kind = (['ConditionCheck', 'Put', 'Update', 'Delete'] as const).find((candidate) => operation[candidate]);
      if (!kind) throw invalid('TransactItems can only contain one of Check, Put, Update or Delete');
      return { kind, ...this.plan(kind, operation[kind]) };
    });
    const ids = planned.map(({ write }) => `${write.table.definition.TableName}#${write.table.id(write.key)}`);
    if (new Set(ids).size !== ids.length)
      throw invalid('Transaction request cannot include multiple operations on one item');
    const reasons = planned.map(({ condition, before, returnOld }) =>
      !condition || evaluate(condition, before ?? {})
        ? { Code: 'None' }
        : {
            Code: 'ConditionalCheckFailed',
            Message: 'The conditional request failed',
            ...(returnOld && before ? { Item: before } : {}),
          },
    );
    if (reasons.some((reason) => reason.Code !== 'None')) {
      throw new DynamoError(
        'TransactionCanceledException',
        `Transaction cancelled, please refer cancellation reasons for specific reasons [${reasons.map((reason) => reason.Code).join(', ')}]`,
        {
          CancellationReasons: reasons,
        },
      );
    }
    this.commit(planned.filter((entry) => entry.kind !== 'ConditionCheck').map((entry) => entry.write));
    return {};
  }

  private transactGet(request: Request): Answer {
    const gets = (request.TransactItems ?? []) as Array<{ Get?: Request }>;
    if (gets.length === 0 || gets.length > 100) throw invalid('TransactItems must have between 1 and 100 items');
    return {
      Responses: gets.map(({ Get }) => {
        if (!Get) throw invalid('TransactItems can only contain Get');
        const answer = this.getItem(Get);
        return answer.Item ? { Item: answer.Item } : {};
      }),
    };
  }
}

/** A KeyConditionExpression: equality on the partition key, and at most one condition on the sort key. */
const keyConditionOf = (expression: string, shape: KeyShape, scope: Scope): { hash: Value; range?: Condition } => {
  if (!expression)
    throw invalid('Either the KeyConditions or KeyConditionExpression parameter must be specified in the request.');
  const terms: Condition[] = [];
  const flatten = (condition: Condition) => {
    if (condition.kind === 'and') {
      flatten(condition.left);
      flatten(condition.right);
    } else terms.push(condition);
  };
  flatten(parseCondition(expression, 'KeyConditionExpression', scope));
  const names = (condition: Condition): string[] => {
    const operands =
      condition.kind === 'compare'
        ? [condition.left, condition.right]
        : condition.kind === 'between'
          ? [condition.subject]
          : condition.kind === 'function'
            ? [condition.args[0]]
            : [];
    return operands.flatMap((operand) => (operand.kind === 'path' ? [pathName(operand.path)] : []));
  };
  const hashTerm = terms.find((term) => term.kind === 'compare' && term.op === '=' && names(term).includes(shape.hash));
  if (hashTerm?.kind !== 'compare') throw invalid(`Query condition missed key schema element: ${shape.hash}`);
  const hashValue = [hashTerm.left, hashTerm.right].find((operand) => operand.kind === 'value');
  if (hashValue?.kind !== 'value')
    throw invalid('Invalid KeyConditionExpression: The key condition must compare the key to a value');
  const rest = terms.filter((term) => term !== hashTerm);
  if (rest.length > 1)
    throw invalid('Invalid KeyConditionExpression: The expression has more than one condition on the sort key');
  const range = rest[0];
  if (range) {
    const allowed =
      (range.kind === 'compare' && range.op !== '<>') ||
      range.kind === 'between' ||
      (range.kind === 'function' && range.name === 'begins_with');
    if (!allowed || !shape.range || !names(range).includes(shape.range)) {
      throw invalid(`Query key condition not supported${shape.range ? '' : ': the table has no sort key'}`);
    }
  }
  return { hash: checkValue(hashValue.value), range };
};

const pathName = (path: PathStep[]): string => (path.length === 1 ? String(path[0]) : '');
