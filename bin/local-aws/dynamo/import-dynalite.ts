/**
 * Data directories made before the local runtime had its own DynamoDB store hold dynalite's LevelDB
 * files. The first start on one copies every table and item into the store's journal, then moves the
 * LevelDB files aside (`<dir>.dynalite`), so that nothing a developer kept locally is lost.
 */

import fs from 'node:fs';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import {
  type AttributeValue,
  DescribeTableCommand,
  DynamoDBClient,
  ListTablesCommand,
  ScanCommand,
} from '@aws-sdk/client-dynamodb';

export const importDynaliteData = async (dataDir: string): Promise<void> => {
  if (!fs.existsSync(path.join(dataDir, 'CURRENT')) || fs.existsSync(path.join(dataDir, 'journal.jsonl'))) return;
  // dynalite ships no types; it is only needed for this one-time import.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const dynalite = require('dynalite') as (options: Record<string, unknown>) => http.Server;
  const server = dynalite({ path: dataDir, createTableMs: 0 });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const client = new DynamoDBClient({
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const lines: string[] = [];
  try {
    for (const name of (await client.send(new ListTablesCommand({}))).TableNames ?? []) {
      const { Table } = await client.send(new DescribeTableCommand({ TableName: name }));
      lines.push(
        JSON.stringify({
          create: {
            TableName: name,
            KeySchema: Table?.KeySchema,
            AttributeDefinitions: Table?.AttributeDefinitions,
            GlobalSecondaryIndexes: Table?.GlobalSecondaryIndexes?.map(({ IndexName, KeySchema, Projection }) => ({
              IndexName,
              KeySchema,
              Projection,
            })),
            BillingMode: Table?.BillingModeSummary?.BillingMode ?? 'PAY_PER_REQUEST',
            CreationDateTime: (Table?.CreationDateTime ?? new Date()).getTime() / 1000,
          },
        }),
      );
      let startKey: Record<string, AttributeValue> | undefined;
      do {
        const page = await client.send(new ScanCommand({ TableName: name, ExclusiveStartKey: startKey }));
        if (page.Items?.length)
          lines.push(JSON.stringify({ changes: page.Items.map((item) => ({ table: name, item })) }, base64Bytes));
        startKey = page.LastEvaluatedKey;
      } while (startKey);
    }
  } finally {
    client.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  fs.renameSync(dataDir, `${dataDir}.dynalite`);
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(path.join(dataDir, 'journal.jsonl'), lines.map((line) => `${line}\n`).join(''));
};

/** The SDK answers binary values as bytes; the store keeps them as the JSON protocol carries them, in base64. */
const base64Bytes = (_key: string, value: unknown): unknown =>
  value instanceof Uint8Array ? Buffer.from(value).toString('base64') : value;
