/**
 * The expression and paging semantics the service relies on, asserted as DynamoDB answers them. They run
 * against the local runtime's store by default and against DynamoDB Local in CI
 * (`npm run test:dynamodb-local`), so the store cannot drift from AWS's own emulator unnoticed.
 */

import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  BatchGetCommand,
  BatchWriteCommand,
  DeleteCommand,
  GetCommand,
  NumberValue,
  PutCommand,
  QueryCommand,
  type QueryCommandInput,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { startLocalDynamo } from '../../bin/local-aws/dynamo';
import { Store } from '../../bin/local-aws/dynamo/store';
import { ensureTable } from '../../bin/local-aws/table';
import { openTable } from '../../functions/adapters/dynamo/table';
import { type DataBackend, startDataBackend } from '../support/data-backend';

/** A query of the gsi1 index for the items whose gsi1pk is `gsi1pk`, with any other parameters. */
const gsi1Query = (TableName: string, gsi1pk: string, more: Partial<QueryCommandInput> = {}) =>
  new QueryCommand({
    TableName,
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :g',
    ExpressionAttributeValues: { ':g': gsi1pk },
    ...more,
  });

let backend: DataBackend;
beforeAll(async () => {
  backend = await startDataBackend();
});
afterAll(() => backend.close());

const doc = () => backend.table.doc;
const TableName = () => backend.table.name;
const partition = () => `P#${randomUUID()}`;

const put = (item: Record<string, unknown>) => doc().send(new PutCommand({ TableName: TableName(), Item: item }));
const get = async (pk: string, sk: string) =>
  (await doc().send(new GetCommand({ TableName: TableName(), Key: { pk, sk }, ConsistentRead: true }))).Item;
const update = (
  pk: string,
  sk: string,
  input: {
    UpdateExpression?: string;
    ConditionExpression?: string;
    ExpressionAttributeNames?: Record<string, string>;
    ExpressionAttributeValues?: Record<string, unknown>;
    ReturnValues?: 'ALL_OLD' | 'ALL_NEW' | 'UPDATED_NEW' | 'UPDATED_OLD';
  },
) => doc().send(new UpdateCommand({ TableName: TableName(), Key: { pk, sk }, ...input }));
/** Whether `condition` holds for the item, asked as DynamoDB would be asked: a conditional update that changes nothing else. */
const holds = async (
  pk: string,
  condition: string,
  names?: Record<string, string>,
  values?: Record<string, unknown>,
) => {
  try {
    await doc().send(
      new UpdateCommand({
        TableName: TableName(),
        Key: { pk, sk: 'ITEM' },
        UpdateExpression: 'SET probe = :probe',
        ConditionExpression: condition,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: { ...values, ':probe': 1 },
      }),
    );
    return true;
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
};

describe('conditions', () => {
  let pk: string;
  beforeAll(async () => {
    pk = partition();
    await put({
      pk,
      sk: 'ITEM',
      n: 10,
      s: 'apple',
      list: ['a', 'b'],
      tags: new Set(['x', 'y']),
      nested: { inner: 'deep' },
    });
  });

  it('compare numbers as numbers and strings by their bytes', async () => {
    expect(await holds(pk, 'n > :nine', undefined, { ':nine': 9 })).toBe(true);
    expect(await holds(pk, 'n < :hundred', undefined, { ':hundred': 100 })).toBe(true);
    expect(await holds(pk, 's < :b', undefined, { ':b': 'b' })).toBe(true);
    expect(await holds(pk, 's >= :upper', undefined, { ':upper': 'Z' })).toBe(true);
    expect(await holds(pk, 'n = :ten', undefined, { ':ten': '10' })).toBe(false);
  });

  it('evaluate functions, BETWEEN, IN and NOT with AND binding tighter than OR', async () => {
    expect(await holds(pk, 'begins_with(s, :ap) AND contains(s, :pl)', undefined, { ':ap': 'ap', ':pl': 'pl' })).toBe(
      true,
    );
    expect(
      await holds(pk, 'contains(#list, :b) AND contains(tags, :x)', { '#list': 'list' }, { ':b': 'b', ':x': 'x' }),
    ).toBe(true);
    expect(
      await holds(pk, 'size(s) = :five AND size(#list) = :two', { '#list': 'list' }, { ':five': 5, ':two': 2 }),
    ).toBe(true);
    expect(
      await holds(pk, 'attribute_type(tags, :ss) AND attribute_type(n, :n)', undefined, { ':ss': 'SS', ':n': 'N' }),
    ).toBe(true);
    expect(await holds(pk, 'n BETWEEN :five AND :ten', undefined, { ':five': 5, ':ten': 10 })).toBe(true);
    expect(await holds(pk, 's IN (:pear, :apple)', undefined, { ':pear': 'pear', ':apple': 'apple' })).toBe(true);
    expect(
      await holds(
        pk,
        'NOT attribute_exists(absent) AND nested.#inner = :deep',
        { '#inner': 'inner' },
        { ':deep': 'deep' },
      ),
    ).toBe(true);
    // false AND false OR true → true only if AND binds tighter.
    expect(
      await holds(pk, 'attribute_exists(absent) AND attribute_exists(elsewhere) OR n = :ten', undefined, {
        ':ten': 10,
      }),
    ).toBe(true);
    expect(
      await holds(pk, 'attribute_exists(absent) AND (attribute_exists(elsewhere) OR n = :ten)', undefined, {
        ':ten': 10,
      }),
    ).toBe(false);
  });

  it('treat a absent attribute as unequal to anything and not comparable', async () => {
    expect(await holds(pk, 'absent <> :x', undefined, { ':x': 1 })).toBe(true);
    expect(await holds(pk, 'absent = :x', undefined, { ':x': 1 })).toBe(false);
    expect(await holds(pk, 'absent < :x OR absent >= :x', undefined, { ':x': 1 })).toBe(false);
    expect(await holds(pk, 's > :one', undefined, { ':one': 1 })).toBe(false);
  });

  it('answer the old item with a failed condition when asked', async () => {
    const attempt = doc().send(
      new PutCommand({
        TableName: TableName(),
        Item: { pk, sk: 'ITEM' },
        ConditionExpression: 'attribute_not_exists(pk)',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    await expect(attempt).rejects.toMatchObject({
      name: 'ConditionalCheckFailedException',
      Item: expect.objectContaining({ s: { S: 'apple' } }),
    });
  });

  it('refuse unused or undefined names and values, and reserved words as raw names', async () => {
    await expect(holds(pk, 'n > :nine', { '#unused': 'x' }, { ':nine': 9 })).rejects.toMatchObject({
      name: 'ValidationException',
    });
    await expect(holds(pk, 'n > :nine', undefined, { ':nine': 9, ':unused': 1 })).rejects.toMatchObject({
      name: 'ValidationException',
    });
    await expect(holds(pk, 'n > :undefined', undefined, {})).rejects.toMatchObject({ name: 'ValidationException' });
    await expect(holds(pk, 'attribute_exists(status)')).rejects.toMatchObject({
      name: 'ValidationException',
      message: expect.stringMatching(/reserved keyword/),
    });
    await expect(holds(pk, 'n >', undefined, {})).rejects.toMatchObject({ name: 'ValidationException' });
  });
});

describe('updates', () => {
  it('add decimals exactly, and create what ADD and if_not_exists name', async () => {
    const pk = partition();
    await put({ pk, sk: 'ITEM', amount: 0.1 });
    await update(pk, 'ITEM', {
      UpdateExpression: 'SET amount = amount + :more, made = if_not_exists(made, :now) ADD #count :one',
      ExpressionAttributeNames: { '#count': 'count' },
      ExpressionAttributeValues: { ':more': 0.2, ':now': 5, ':one': 1 },
    });
    await update(pk, 'ITEM', {
      UpdateExpression: 'SET made = if_not_exists(made, :later) ADD #count :one',
      ExpressionAttributeNames: { '#count': 'count' },
      ExpressionAttributeValues: { ':later': 9, ':one': 1 },
    });
    expect(await get(pk, 'ITEM')).toEqual({ pk, sk: 'ITEM', amount: 0.3, made: 5, count: 2 });
  });

  it('read every right-hand side from the item before the update', async () => {
    const pk = partition();
    await put({ pk, sk: 'ITEM', a: 1, b: 2 });
    await update(pk, 'ITEM', { UpdateExpression: 'SET a = b, b = a' });
    expect(await get(pk, 'ITEM')).toMatchObject({ a: 2, b: 1 });
  });

  it('append to lists, set nested paths, remove, and add to and delete from sets', async () => {
    const pk = partition();
    await put({ pk, sk: 'ITEM', list: [1], map: { keep: true }, gone: 'x', set: new Set(['a', 'b']) });
    await update(pk, 'ITEM', {
      UpdateExpression:
        'SET #list = list_append(#list, :more), #map.added = :v REMOVE gone ADD #set :c DELETE elsewhere :none',
      ExpressionAttributeNames: { '#list': 'list', '#map': 'map', '#set': 'set' },
      ExpressionAttributeValues: { ':more': [2, 3], ':v': 'new', ':c': new Set(['c']), ':none': new Set(['z']) },
    });
    await update(pk, 'ITEM', {
      UpdateExpression: 'DELETE #set :ab',
      ExpressionAttributeNames: { '#set': 'set' },
      ExpressionAttributeValues: { ':ab': new Set(['a', 'b']) },
    });
    expect(await get(pk, 'ITEM')).toEqual({
      pk,
      sk: 'ITEM',
      list: [1, 2, 3],
      map: { keep: true, added: 'new' },
      set: new Set(['c']),
    });
  });

  it('create the item when none exists, and answer what changed when asked', async () => {
    const pk = partition();
    const first = await update(pk, 'ITEM', {
      UpdateExpression: 'ADD n :one SET label = :label',
      ExpressionAttributeValues: { ':one': 1, ':label': 'x' },
      ReturnValues: 'UPDATED_NEW',
    });
    expect(first.Attributes).toEqual({ n: 1, label: 'x' });
    const second = await update(pk, 'ITEM', {
      UpdateExpression: 'ADD n :one',
      ExpressionAttributeValues: { ':one': 1 },
      ReturnValues: 'ALL_OLD',
    });
    expect(second.Attributes).toEqual({ pk, sk: 'ITEM', n: 1, label: 'x' });
  });

  it('refuse arithmetic on a absent attribute, a key attribute, and an item over 400 KB', async () => {
    const pk = partition();
    await put({ pk, sk: 'ITEM' });
    await expect(
      update(pk, 'ITEM', { UpdateExpression: 'SET n = n + :one', ExpressionAttributeValues: { ':one': 1 } }),
    ).rejects.toMatchObject({ name: 'ValidationException' });
    await expect(
      update(pk, 'ITEM', { UpdateExpression: 'SET pk = :other', ExpressionAttributeValues: { ':other': 'x' } }),
    ).rejects.toMatchObject({ name: 'ValidationException' });
    await expect(put({ pk, sk: 'BIG', blob: 'x'.repeat(410 * 1024) })).rejects.toMatchObject({
      name: 'ValidationException',
    });
    expect(await get(pk, 'ITEM')).toEqual({ pk, sk: 'ITEM' });
  });
});

describe('queries', () => {
  let pk: string;
  beforeAll(async () => {
    pk = partition();
    await doc().send(
      new BatchWriteCommand({
        RequestItems: {
          [TableName()]: Array.from({ length: 12 }, (_, index) => ({
            PutRequest: {
              Item: {
                pk,
                sk: `E#${String(index).padStart(2, '0')}`,
                n: index,
                odd: index % 2 === 1,
                gsi1pk: `G#${pk}`,
                gsi1sk: `${String(11 - index).padStart(2, '0')}`,
              },
            },
          })),
        },
      }),
    );
    await put({ pk, sk: 'OTHER' });
  });

  const query = (input: Partial<QueryCommandInput>) =>
    doc().send(
      new QueryCommand({
        TableName: TableName(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :e)',
        ...input,
        ExpressionAttributeValues: { ':pk': pk, ':e': 'E#', ...input.ExpressionAttributeValues },
      }),
    );

  it('order sort keys by their UTF-8 bytes, not by UTF-16 units', async () => {
    const own = partition();
    // U+FFFD is EF BF BD in UTF-8 and U+1F600 F0 9F 98 80: the other way round in UTF-16 (FFFD after D83D).
    for (const sk of ['S#\u{1F600}', 'S#\uFFFD', 'S#z']) await put({ pk: own, sk });
    const ordered = await doc().send(
      new QueryCommand({
        TableName: TableName(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': own },
      }),
    );
    expect(ordered.Items?.map((item) => item.sk)).toEqual(['S#z', 'S#\uFFFD', 'S#\u{1F600}']);
  });

  it('compare numbers beyond a double exactly', async () => {
    const own = partition();
    await doc().send(
      new PutCommand({
        TableName: TableName(),
        Item: { pk: own, sk: 'ITEM', big: NumberValue.from('12345678901234567890') },
      }),
    );
    const found = async (condition: string, value: string) =>
      (
        await doc().send(
          new QueryCommand({
            TableName: TableName(),
            KeyConditionExpression: 'pk = :pk',
            FilterExpression: condition,
            ExpressionAttributeValues: { ':pk': own, ':v': NumberValue.from(value) },
          }),
        )
      ).Count;
    expect(await found('big > :v', '12345678901234567889')).toBe(1);
    expect(await found('big > :v', '12345678901234567890')).toBe(0);
    expect(await found('big = :v', '12345678901234567890.0')).toBe(1);
  });

  it('return a partition in sort-key order either way, by prefix or range', async () => {
    const forward = await query({ ConsistentRead: true });
    expect(forward.Items?.map((item) => item.n)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    const backward = await query({ ScanIndexForward: false, Limit: 3 });
    expect(backward.Items?.map((item) => item.n)).toEqual([11, 10, 9]);
    const range = await doc().send(
      new QueryCommand({
        TableName: TableName(),
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':pk': pk, ':from': 'E#03', ':to': 'E#05' },
      }),
    );
    expect(range.Items?.map((item) => item.n)).toEqual([3, 4, 5]);
  });

  it('page by Limit with LastEvaluatedKey, counting items before the filter', async () => {
    const seen: number[] = [];
    let startKey: Record<string, unknown> | undefined;
    let pages = 0;
    do {
      const page = await query({
        Limit: 4,
        ExclusiveStartKey: startKey,
        FilterExpression: 'odd = :yes',
        ExpressionAttributeValues: { ':yes': true },
      });
      expect(page.ScannedCount).toBeLessThanOrEqual(4);
      seen.push(...(page.Items ?? []).map((item) => item.n as number));
      startKey = page.LastEvaluatedKey;
      pages += 1;
    } while (startKey);
    expect(seen).toEqual([1, 3, 5, 7, 9, 11]);
    // 12 items by 4: the third page ends exactly on the last item, still with a key; the fourth is empty.
    expect(pages).toBe(4);
  });

  it('project the named attributes and count without items', async () => {
    const projected = await query({
      ProjectionExpression: 'n, #odd',
      ExpressionAttributeNames: { '#odd': 'odd' },
      Limit: 1,
    });
    expect(projected.Items).toEqual([{ n: 0, odd: false }]);
    const counted = await query({ Select: 'COUNT' });
    expect(counted.Count).toBe(12);
    expect(counted.Items).toBeUndefined();
  });

  it('query the index in its own sort order, paged with the index keys', async () => {
    const first = await doc().send(gsi1Query(TableName(), `G#${pk}`, { Limit: 5 }));
    expect(first.Items?.map((item) => item.n)).toEqual([11, 10, 9, 8, 7]);
    expect(Object.keys(first.LastEvaluatedKey ?? {}).sort()).toEqual(['gsi1pk', 'gsi1sk', 'pk', 'sk']);
    const rest = await doc().send(gsi1Query(TableName(), `G#${pk}`, { ExclusiveStartKey: first.LastEvaluatedKey }));
    expect(rest.Items?.map((item) => item.n)).toEqual([6, 5, 4, 3, 2, 1, 0]);
    await expect(doc().send(gsi1Query(TableName(), `G#${pk}`, { ConsistentRead: true }))).rejects.toMatchObject({
      name: 'ValidationException',
    });
  });

  it('take items out of the index when their index key goes', async () => {
    await update(pk, 'E#00', { UpdateExpression: 'REMOVE gsi1pk' });
    const indexed = await doc().send(gsi1Query(TableName(), `G#${pk}`));
    expect(indexed.Items?.map((item) => item.n)).not.toContain(0);
    expect(indexed.Count).toBe(11);
  });
});

describe('batches', () => {
  it('read many keys at once, absent ones left out, duplicates refused', async () => {
    const pk = partition();
    await put({ pk, sk: 'A', v: 1 });
    await put({ pk, sk: 'B', v: 2 });
    /** One BatchGetItem of the table's items at these sort keys of `pk`. */
    const batchGet = (sks: string[], more: { ProjectionExpression?: string } = {}) =>
      doc().send(
        new BatchGetCommand({ RequestItems: { [TableName()]: { Keys: sks.map((sk) => ({ pk, sk })), ...more } } }),
      );
    const read = await batchGet(['A', 'B', 'C'], { ProjectionExpression: 'v' });
    expect((read.Responses?.[TableName()] ?? []).map((item) => item.v).sort()).toEqual([1, 2]);
    await expect(batchGet(['A', 'A'])).rejects.toMatchObject({ name: 'ValidationException' });
    await doc().send(new DeleteCommand({ TableName: TableName(), Key: { pk, sk: 'A' } }));
    expect(await get(pk, 'A')).toBeUndefined();
  });
});

describe('the local store on disk', () => {
  const local = process.env.DYNAMODB_LOCAL_ENDPOINT ? it.skip : it;

  local('keeps every answered write across a restart, and ignores a line torn by a crash', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'store-'));
    try {
      const open = async () => {
        const dynamo = await startLocalDynamo({ dataDir });
        await ensureTable(dynamo.endpoint, 'service');
        return { dynamo, table: openTable({ tableName: 'service', region: 'us-east-1', endpoint: dynamo.endpoint }) };
      };
      const first = await open();
      await first.table.doc.send(
        new PutCommand({ TableName: 'service', Item: { pk: 'A', sk: 'A', n: 1, gsi1pk: 'G', gsi1sk: '1' } }),
      );
      await first.table.doc.send(
        new UpdateCommand({
          TableName: 'service',
          Key: { pk: 'A', sk: 'A' },
          UpdateExpression: 'ADD n :one',
          ExpressionAttributeValues: { ':one': 1 },
        }),
      );
      first.table.doc.destroy();
      await first.dynamo.close();
      fs.appendFileSync(path.join(dataDir, 'journal.jsonl'), '{"changes":[{"table":"service","item":{"pk":{"S":"B"');

      const second = await open();
      expect(
        (await second.table.doc.send(new GetCommand({ TableName: 'service', Key: { pk: 'A', sk: 'A' } }))).Item,
      ).toMatchObject({ n: 2 });
      expect(
        (await second.table.doc.send(new GetCommand({ TableName: 'service', Key: { pk: 'B', sk: 'A' } }))).Item,
      ).toBeUndefined();
      const indexed = await second.table.doc.send(gsi1Query('service', 'G'));
      expect(indexed.Count).toBe(1);
      second.table.doc.destroy();
      await second.dynamo.close();
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  local('rewrites its journal as a snapshot while it runs, once the journal has grown well past one', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'store-compact-'));
    try {
      const store = new Store(dataDir, { compactAfterLines: 10 });
      store.handle('CreateTable', {
        TableName: 'counts',
        KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
        AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      });
      const add = {
        TableName: 'counts',
        Key: { pk: { S: 'a' } },
        UpdateExpression: 'ADD n :one',
        ExpressionAttributeValues: { ':one': { N: '1' } },
      };
      for (let index = 0; index < 100; index += 1) store.handle('UpdateItem', add);
      store.close();
      const lines = fs.readFileSync(path.join(dataDir, 'journal.jsonl'), 'utf8').split('\n').filter(Boolean);
      expect(lines.length).toBeLessThanOrEqual(12);
      const reopened = new Store(dataDir);
      expect(reopened.handle('GetItem', { TableName: 'counts', Key: { pk: { S: 'a' } } })).toEqual({
        Item: { pk: { S: 'a' }, n: { N: '100' } },
      });
      reopened.close();
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  local('imports a data directory dynalite kept, once, and moves its files aside', async () => {
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'store-import-'));
    const dataDir = path.join(parent, 'dynamodb');
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const dynalite = require('dynalite') as (options: Record<string, unknown>) => import('node:http').Server;
      const old = dynalite({ path: dataDir, createTableMs: 0 });
      await new Promise<void>((resolve) => old.listen(0, '127.0.0.1', resolve));
      const oldEndpoint = `http://127.0.0.1:${(old.address() as import('node:net').AddressInfo).port}`;
      await ensureTable(oldEndpoint, 'service');
      const oldTable = openTable({ tableName: 'service', region: 'us-east-1', endpoint: oldEndpoint });
      await oldTable.doc.send(
        new PutCommand({
          TableName: 'service',
          Item: { pk: 'ACCOUNT#a', sk: 'ACCOUNT', balanceMicros: 25_000_000, gsi1pk: 'G', gsi1sk: 'S' },
        }),
      );
      oldTable.doc.destroy();
      await new Promise<void>((resolve) => old.close(() => resolve()));

      const dynamo = await startLocalDynamo({ dataDir });
      const table = openTable({ tableName: 'service', region: 'us-east-1', endpoint: dynamo.endpoint });
      expect(
        (await table.doc.send(new GetCommand({ TableName: 'service', Key: { pk: 'ACCOUNT#a', sk: 'ACCOUNT' } }))).Item,
      ).toMatchObject({ balanceMicros: 25_000_000 });
      const indexed = await table.doc.send(gsi1Query('service', 'G'));
      expect(indexed.Count).toBe(1);
      expect(fs.existsSync(path.join(parent, 'dynamodb.dynalite', 'CURRENT'))).toBe(true);
      table.doc.destroy();
      await dynamo.close();
    } finally {
      fs.rmSync(parent, { recursive: true, force: true });
    }
  });
});
