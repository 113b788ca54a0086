import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import type {
  Account,
  AccountLimit,
  AccountsRepository,
  ApiKeyRecord,
  WebhookSecretRecord,
} from '../../domain/accounts/accounts';
import { storedScopes } from '../../domain/accounts/scopes';
import { AlreadyExistsError } from '../../domain/errors';
import type { IdSource } from '../../domain/shared/ids';
import { MODEL_VERSIONS } from '../../domain/shared/model-version';
import { ledgerEntryWrite } from './ledger-repository';
import {
  cancellationReasons,
  ITEM_TYPE,
  isConditionalCheckFailure,
  keys,
  RECORD_VERSION,
  SORT_KEY_PREFIX,
  type Table,
  type TransactItem,
  transactWrite,
} from './table';

const AccountItem = v.object({
  accountId: v.string(),
  name: v.string(),
  balanceMicros: v.pipe(v.number(), v.safeInteger()),
  defaultModelVersion: v.picklist(MODEL_VERSIONS),
  createdAt: v.number(),
  requestsPerMinute: v.optional(v.nullable(v.number()), null),
  runningJobs: v.optional(v.nullable(v.number()), null),
});

/**
 * `scopes` (a list of scope names) exists on keys made since keys had scopes. A key item without it is the
 * previous shape and reads as LEGACY_KEY_SCOPES (all but billing); a scope name this code does not know
 * (written by a later deploy) is dropped, never a failure to authenticate.
 */
const ApiKeyItem = v.pipe(
  v.object({
    keyId: v.string(),
    accountId: v.string(),
    name: v.optional(v.nullable(v.string()), null),
    keyHash: v.string(),
    scopes: v.optional(v.nullable(v.array(v.string())), null),
    createdAt: v.number(),
    revokedAt: v.optional(v.nullable(v.number()), null),
    requestsPerMinute: v.optional(v.nullable(v.number()), null),
    runningJobs: v.optional(v.nullable(v.number()), null),
  }),
  v.transform((item): ApiKeyRecord => ({ ...item, scopes: storedScopes(item.scopes) })),
);

/** `previousSecret`/`previousExpiresAt` (epoch ms) exist only after a rotation; items written before rotation existed lack them. */
const WebhookSecretItem = v.pipe(
  v.object({
    secret: v.string(),
    createdAt: v.number(),
    previousSecret: v.optional(v.nullable(v.string()), null),
    previousExpiresAt: v.optional(v.nullable(v.number()), null),
  }),
  v.transform(
    ({ secret, createdAt, previousSecret, previousExpiresAt }): WebhookSecretRecord => ({
      secret,
      createdAt,
      previous:
        previousSecret !== null && previousExpiresAt !== null
          ? { secret: previousSecret, expiresAt: previousExpiresAt }
          : null,
    }),
  ),
);

/**
 * The account and its opening credit entry, both new (first the account: a collision is reported on it).
 * entryCount: the opening credit is the account's first entry (ledger-repository.ts counts each one after).
 */
export const accountCreation = (
  table: Table,
  account: Account,
  entryId: string,
  openingCreditNote: string,
): TransactItem[] => [
  {
    Put: {
      TableName: table.name,
      Item: {
        ...keys.account(account.accountId),
        type: ITEM_TYPE.account,
        v: RECORD_VERSION.account,
        ...account,
        entryCount: 1,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  },
  ledgerEntryWrite(table, entryId, {
    accountId: account.accountId,
    kind: 'credit',
    amountMicros: account.balanceMicros,
    at: account.createdAt,
    note: openingCreditNote,
  }).item,
];

export class DynamoAccounts implements AccountsRepository {
  constructor(
    private readonly table: Table,
    private readonly newId: IdSource,
  ) {}

  async create(account: Account, openingCreditNote: string): Promise<void> {
    const key = keys.account(account.accountId);
    try {
      await transactWrite(this.table, accountCreation(this.table, account, this.newId('led'), openingCreditNote));
    } catch (error) {
      if (cancellationReasons(error)?.[0]?.Code === 'ConditionalCheckFailed') throw new AlreadyExistsError(key.sk);
      throw error;
    }
  }

  async get(accountId: string): Promise<Account | undefined> {
    const result = await this.table.doc.send(
      new GetCommand({ TableName: this.table.name, Key: keys.account(accountId) }),
    );
    return result.Item ? v.parse(AccountItem, result.Item) : undefined;
  }

  async createKey(key: ApiKeyRecord): Promise<void> {
    const record = {
      v: RECORD_VERSION.apiKey,
      keyId: key.keyId,
      accountId: key.accountId,
      name: key.name ?? null,
      keyHash: key.keyHash,
      scopes: [...key.scopes],
      createdAt: key.createdAt,
      revokedAt: key.revokedAt,
      requestsPerMinute: key.requestsPerMinute ?? null,
      runningJobs: key.runningJobs ?? null,
    };
    await transactWrite(this.table, [
      {
        Put: {
          TableName: this.table.name,
          Item: { ...keys.apiKeyLookup(key.keyHash), type: ITEM_TYPE.apiKeyLookup, ...record },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      {
        Put: {
          TableName: this.table.name,
          Item: { ...keys.apiKey(key.accountId, key.keyId), type: ITEM_TYPE.apiKey, ...record },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    ]);
  }

  async findKeyByHash(keyHash: string): Promise<ApiKeyRecord | undefined> {
    const result = await this.table.doc.send(
      new GetCommand({ TableName: this.table.name, Key: keys.apiKeyLookup(keyHash) }),
    );
    return result.Item ? v.parse(ApiKeyItem, result.Item) : undefined;
  }

  async listKeys(accountId: string): Promise<ApiKeyRecord[]> {
    const records: ApiKeyRecord[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await this.table.doc.send(
        new QueryCommand({
          TableName: this.table.name,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': keys.accountPk(accountId), ':prefix': SORT_KEY_PREFIX.key },
          ExclusiveStartKey: startKey,
        }),
      );
      records.push(...(page.Items ?? []).map((item) => v.parse(ApiKeyItem, item)));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return records;
  }

  async revokeKey(accountId: string, keyId: string, at: number): Promise<boolean> {
    const found = await this.table.doc.send(
      new GetCommand({ TableName: this.table.name, Key: keys.apiKey(accountId, keyId), ConsistentRead: true }),
    );
    if (!found.Item) return false;
    const key = v.parse(ApiKeyItem, found.Item);
    if (key.revokedAt !== null) return true;
    const revoke = (itemKey: { pk: string; sk: string }) => ({
      Update: {
        TableName: this.table.name,
        Key: itemKey,
        UpdateExpression: 'SET revokedAt = :at',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':at': at },
      },
    });
    await transactWrite(this.table, [revoke(keys.apiKeyLookup(key.keyHash)), revoke(keys.apiKey(accountId, keyId))]);
    return true;
  }

  async setLimit(accountId: string, limit: AccountLimit, value: number | null): Promise<void> {
    const set = (itemKey: { pk: string; sk: string }) => ({
      Update: {
        TableName: this.table.name,
        Key: itemKey,
        UpdateExpression: 'SET #limit = :value',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#limit': limit },
        ExpressionAttributeValues: { ':value': value },
      },
    });
    await transactWrite(this.table, [set(keys.account(accountId))]);
    for (const key of await this.listKeys(accountId))
      await transactWrite(this.table, [set(keys.apiKeyLookup(key.keyHash)), set(keys.apiKey(accountId, key.keyId))]);
  }

  async getOrCreateWebhookSecret(accountId: string, candidate: string, at: number): Promise<WebhookSecretRecord> {
    const existing = await this.findWebhookSecret(accountId);
    if (existing) return existing;
    const created: WebhookSecretRecord = { secret: candidate, createdAt: at, previous: null };
    if (await this.replaceWebhookSecret(accountId, null, created)) return created;
    // Two first uses raced: the stored secret wins.
    const stored = await this.findWebhookSecret(accountId);
    if (!stored) throw new Error(`the webhook secret of ${accountId} was created and is gone`);
    return stored;
  }

  async findWebhookSecret(accountId: string): Promise<WebhookSecretRecord | undefined> {
    // Strongly: right after a rotation, the secret answered and the secrets deliveries are signed with are the new ones.
    const found = await this.table.doc.send(
      new GetCommand({ TableName: this.table.name, Key: keys.webhookSecret(accountId), ConsistentRead: true }),
    );
    return found.Item ? v.parse(WebhookSecretItem, found.Item) : undefined;
  }

  async replaceWebhookSecret(accountId: string, expected: string | null, next: WebhookSecretRecord): Promise<boolean> {
    try {
      await this.table.doc.send(
        new PutCommand({
          TableName: this.table.name,
          Item: {
            ...keys.webhookSecret(accountId),
            type: ITEM_TYPE.webhookSecret,
            accountId,
            secret: next.secret,
            createdAt: next.createdAt,
            ...(next.previous && { previousSecret: next.previous.secret, previousExpiresAt: next.previous.expiresAt }),
          },
          ...(expected === null
            ? { ConditionExpression: 'attribute_not_exists(pk)' }
            : { ConditionExpression: 'secret = :expected', ExpressionAttributeValues: { ':expected': expected } }),
        }),
      );
      return true;
    } catch (error) {
      if (isConditionalCheckFailure(error)) return false;
      throw error;
    }
  }
}
