/**
 * The DynamoDB the data-layer tests run against: the local runtime's store (bin/local-aws/dynamo.ts) by
 * default, or DynamoDB Local (AWS's emulator) when DYNAMODB_LOCAL_ENDPOINT is set by
 * test/support/run-with-dynamodb-local.ts, so the store is held to DynamoDB's real semantics.
 */
import { randomUUID } from 'node:crypto';
import { startLocalDynamo } from '../../bin/local-aws/dynamo';
import { ensureTable } from '../../bin/local-aws/table';
import { openTable, type Table } from '../../functions/adapters/dynamo/table';

export interface DataBackend {
  name: 'local-store' | 'dynamodb-local';
  endpoint: string;
  table: Table;
  close(): Promise<void>;
}

export const startDataBackend = async (): Promise<DataBackend> => {
  const tableName = `test-${randomUUID()}`;
  const external = process.env.DYNAMODB_LOCAL_ENDPOINT;
  if (external) {
    await ensureTable(external, tableName);
    const table = openTable({ tableName, region: 'us-east-1', endpoint: external });
    return { name: 'dynamodb-local', endpoint: external, table, close: async () => table.doc.destroy() };
  }
  const dynamo = await startLocalDynamo({});
  await ensureTable(dynamo.endpoint, tableName);
  const table = openTable({ tableName, region: 'us-east-1', endpoint: dynamo.endpoint });
  return {
    name: 'local-store',
    endpoint: dynamo.endpoint,
    table,
    close: async () => {
      table.doc.destroy();
      await dynamo.close();
    },
  };
};
