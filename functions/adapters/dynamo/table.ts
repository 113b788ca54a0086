/**
 * Read first: the single table.
 *
 * Every item has `pk`, `sk` and `type`; `gsi1pk`/`gsi1sk` feed the one index; `ttl` (epoch seconds)
 * only cleans up, it never decides anything (DynamoDB deletes "typically within 2 days").
 *
 * | access pattern                         | key                                                        |
 * |----------------------------------------|------------------------------------------------------------|
 * | account (balance, default version)     | pk ACCOUNT#<accountId>  sk ACCOUNT                         |
 * | resolve an API key                     | pk APIKEY#<sha256 hex>  sk APIKEY                          |
 * | an account's keys (list, revoke)       | pk ACCOUNT#<accountId>  sk KEY#<keyId>                     |
 * | webhook signing secret                 | pk ACCOUNT#<accountId>  sk WEBHOOK_SECRET                  |
 * | ledger entries, newest first           | pk ACCOUNT#<accountId>  sk LEDGER#<entryId> (time-ordered) |
 * | job (charge owner)                     | pk ACCOUNT#<accountId>  sk JOB#<jobId>                     |
 * | profile (charge owner)                 | pk ACCOUNT#<accountId>  sk PROFILE#<profileId>             |
 * | idempotency (client_request_id → job)  | pk ACCOUNT#<accountId>  sk IDEMPOTENCY#<clientRequestId>   |
 * | profiles by tag                        | gsi1pk TAG#<accountId>#<tag>  gsi1sk PROFILE#<profileId>   |
 */
import { DynamoDBClient, TransactionCanceledException, type CancellationReason } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { ChargeOwner } from '../../domain/billing/ledger';

export interface TableConfig {
  tableName: string;
  region: string;
  /** Set for the local runtime and DynamoDB Local; absent on AWS. */
  endpoint?: string;
}

export interface Table {
  doc: DynamoDBDocumentClient;
  name: string;
}

export const openTable = (config: TableConfig): Table => {
  const client = new DynamoDBClient({
    region: config.region,
    ...(config.endpoint
      ? { endpoint: config.endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
      : {}),
    maxAttempts: 5,
  });
  return {
    doc: DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } }),
    name: config.tableName,
  };
};

export interface ItemKey {
  pk: string;
  sk: string;
}

const accountPk = (accountId: string) => `ACCOUNT#${accountId}`;

export const keys = {
  account: (accountId: string): ItemKey => ({ pk: accountPk(accountId), sk: 'ACCOUNT' }),
  apiKeyLookup: (keyHash: string): ItemKey => ({ pk: `APIKEY#${keyHash}`, sk: 'APIKEY' }),
  apiKey: (accountId: string, keyId: string): ItemKey => ({ pk: accountPk(accountId), sk: `KEY#${keyId}` }),
  webhookSecret: (accountId: string): ItemKey => ({ pk: accountPk(accountId), sk: 'WEBHOOK_SECRET' }),
  ledgerEntry: (accountId: string, entryId: string): ItemKey => ({ pk: accountPk(accountId), sk: `LEDGER#${entryId}` }),
  chargeOwner: (accountId: string, owner: ChargeOwner): ItemKey => ({
    pk: accountPk(accountId),
    sk: `${owner.kind === 'job' ? 'JOB' : 'PROFILE'}#${owner.id}`,
  }),
  accountItem: (accountId: string, sortKey: string): ItemKey => ({ pk: accountPk(accountId), sk: sortKey }),
  accountPk,
} as const;

export const SORT_KEY_PREFIX = { key: 'KEY#', ledger: 'LEDGER#' } as const;

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

export const isConditionalCheckFailure = (error: unknown): boolean =>
  error instanceof Error && error.name === 'ConditionalCheckFailedException';

/** The cancellation reasons of a failed transaction, or undefined when it failed for another cause. */
export const cancellationReasons = (error: unknown): CancellationReason[] | undefined =>
  error instanceof TransactionCanceledException || (error instanceof Error && error.name === 'TransactionCanceledException')
    ? ((error as TransactionCanceledException).CancellationReasons ?? [])
    : undefined;

const CONFLICT_RETRIES = 8;

/**
 * Runs a transaction, retrying with jittered backoff while DynamoDB cancels it only for a conflict with
 * another transaction on the same items (contention on a hot balance is normal, not an error).
 */
export const transactWrite = async (table: Table, items: TransactItem[]): Promise<void> => {
  for (let attempt = 0; ; attempt += 1) {
    try {
      await table.doc.send(new TransactWriteCommand({ TransactItems: items }));
      return;
    } catch (error) {
      const reasons = cancellationReasons(error);
      const conflictOnly =
        (reasons?.some((r) => r.Code === 'TransactionConflict') &&
          reasons.every((r) => r.Code === 'TransactionConflict' || r.Code === 'None')) ||
        (error instanceof Error && error.name === 'TransactionConflictException');
      if (!conflictOnly || attempt >= CONFLICT_RETRIES) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * 2 ** attempt));
    }
  }
};

export const epochSeconds = (epochMs: number): number => Math.floor(epochMs / 1000);
