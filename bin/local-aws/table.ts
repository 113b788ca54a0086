import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ResourceNotFoundException,
} from '@aws-sdk/client-dynamodb';
import { LOCAL_REGION } from './arns';

/**
 * Creates the service table on a local DynamoDB (the local store or DynamoDB Local) with the key schema the
 * CDK stack deploys (lib/constructs/data.ts): pk/sk, and the gsi1 index on gsi1pk/gsi1sk.
 */
export const ensureTable = async (endpoint: string, tableName: string): Promise<void> => {
  const client = new DynamoDBClient({
    endpoint,
    region: LOCAL_REGION,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  try {
    await client.send(new DescribeTableCommand({ TableName: tableName }));
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
    await client.send(
      new CreateTableCommand({
        TableName: tableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: ['pk', 'sk', 'gsi1pk', 'gsi1sk'].map((name) => ({
          AttributeName: name,
          AttributeType: 'S',
        })),
        KeySchema: [
          { AttributeName: 'pk', KeyType: 'HASH' },
          { AttributeName: 'sk', KeyType: 'RANGE' },
        ],
        GlobalSecondaryIndexes: [
          {
            IndexName: 'gsi1',
            KeySchema: [
              { AttributeName: 'gsi1pk', KeyType: 'HASH' },
              { AttributeName: 'gsi1sk', KeyType: 'RANGE' },
            ],
            Projection: { ProjectionType: 'ALL' },
          },
        ],
      }),
    );
    // A new table takes writes once it is ACTIVE (DynamoDB, and dynalite a moment after answering): a
    // write straight after CreateTable could otherwise meet ResourceNotFoundException on a busy machine.
    const deadline = Date.now() + 10_000;
    while ((await client.send(new DescribeTableCommand({ TableName: tableName }))).Table?.TableStatus !== 'ACTIVE') {
      if (Date.now() > deadline) throw new Error(`table ${tableName} at ${endpoint} is not ACTIVE after 10 s`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    client.destroy();
  }
};
