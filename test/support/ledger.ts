import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { services } from '../../bin/local-aws/services';
import { keys, SORT_KEY_PREFIX } from '../../functions/adapters/dynamo/table';

/** The account's ledger entries that belong to one job, oldest first. */
export const entriesOfJob = async (accountId: string, jobId: string) =>
  (await services().ledger.allEntries(accountId)).filter((entry) => entry.owner?.id === jobId);

/** How many job records the account has (to prove that a refused submit created none). */
export const jobCount = async (accountId: string): Promise<number> => {
  const result = await services().table.doc.send(
    new QueryCommand({
      TableName: services().table.name,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.accountPk(accountId), ':prefix': SORT_KEY_PREFIX.job },
      Select: 'COUNT',
      ConsistentRead: true,
    }),
  );
  return result.Count ?? 0;
};
