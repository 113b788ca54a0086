/**
 * When each API key was last used. One item per key in the account's RATE# partition, which every
 * API-key function may already update (the rate counter's IAM condition), so no function gains a grant.
 * A warm function writes a key's time at most once per KEY_USE_PRECISION_MS, and the write is conditional
 * on the stored time being older, so concurrent functions add at most one write a minute each.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import type { KeyUses } from '../../domain/accounts/accounts';
import { ITEM_TYPE, keys, queryAll, type Table } from './table';

export const KEY_USE_PRECISION_MS = 60_000;

export const dynamoKeyUses = (
  table: Table,
): KeyUses & { noteUse(accountId: string, keyId: string, at: number): Promise<void> } => {
  const written = new Map<string, number>();
  const record = async (accountId: string, keyId: string, at: number) => {
    await table.doc
      .send(
        new UpdateCommand({
          TableName: table.name,
          Key: keys.keyUse(accountId, keyId),
          UpdateExpression: 'SET lastUsedAt = :at, keyId = :keyId, #type = :type',
          ConditionExpression: 'attribute_not_exists(lastUsedAt) OR lastUsedAt < :stale',
          ExpressionAttributeNames: { '#type': 'type' },
          ExpressionAttributeValues: {
            ':at': at,
            ':keyId': keyId,
            ':type': ITEM_TYPE.keyUse,
            ':stale': at - KEY_USE_PRECISION_MS,
          },
        }),
      )
      .catch((error: unknown) => {
        if ((error as { name?: string }).name !== 'ConditionalCheckFailedException') throw error;
      });
  };
  return {
    record,
    /**
     * The request path's entry: a write only when this function has not written the key's time for a
     * minute. Bookkeeping never fails a request: a failed write is tried again by the next request.
     */
    noteUse: async (accountId, keyId, at) => {
      if (at - (written.get(keyId) ?? -Infinity) < KEY_USE_PRECISION_MS) return;
      if (written.size > 10_000) written.clear();
      written.set(keyId, at);
      await record(accountId, keyId, at).catch(() => written.delete(keyId));
    },
    lastUses: async (accountId) => {
      const { pk, prefix } = keys.keyUses(accountId);
      const uses: Record<string, number> = {};
      const { items } = await queryAll(table, {
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': pk, ':prefix': prefix },
      });
      for (const item of items) {
        const use = v.parse(v.object({ keyId: v.string(), lastUsedAt: v.number() }), item);
        uses[use.keyId] = use.lastUsedAt;
      }
      return uses;
    },
  };
};
