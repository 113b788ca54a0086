/** The per-account request counters (functions/domain/accounts/rate-limit.ts): one item per account and minute. */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import type { RateCounter } from '../../domain/accounts/rate-limit';
import { ITEM_TYPE, keys, type Table } from './table';

/** A window's counter is useless once it ends; an hour later is soon enough to clean it up. */
const COUNTER_CLEANUP_MS = 3600_000;

export const dynamoRateCounter = (table: Table): RateCounter => ({
  hit: async (accountId, windowStart, windowEnd, counter) => {
    const result = await table.doc.send(
      new UpdateCommand({
        TableName: table.name,
        Key: keys.rateWindow(accountId, windowStart),
        UpdateExpression: 'ADD #count :one SET #type = :type, #ttl = :ttl',
        ExpressionAttributeNames: { '#count': counter, '#type': 'type', '#ttl': 'ttl' },
        ExpressionAttributeValues: {
          ':one': 1,
          ':type': ITEM_TYPE.rateWindow,
          ':ttl': Math.floor((windowEnd + COUNTER_CLEANUP_MS) / 1000),
        },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    return v.parse(v.number(), result.Attributes?.[counter]);
  },
});
