import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import type { CallbackMessage, DeliveryAttempt } from '../../domain/callbacks/deliver';
import { ITEM_TYPE, keys, queryAll, type Table, ttlAfter } from './table';

/** Callback attempts are kept as long as the job is answered for: 24 h (the TTL adds its clean-up week). */
const ATTEMPT_RETENTION_MS = 24 * 3600 * 1000;

/** How many attempts were recorded for the message's delivery (a strongly consistent count). */
export const countCallbackAttempts = (table: Table) => async (message: CallbackMessage) => {
  const result = await table.doc.send(
    new QueryCommand({
      TableName: table.name,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      FilterExpression: 'deliveryId = :deliveryId',
      ExpressionAttributeValues: {
        ':pk': keys.accountPk(message.accountId),
        ':prefix': keys.callbackAttempts(message.jobId),
        ':deliveryId': message.deliveryId,
      },
      Select: 'COUNT',
      ConsistentRead: true,
    }),
  );
  return result.Count ?? 0;
};

/** One item per attempt (sk CALLBACK#<jobId>#<attempt>): status or failure, latency, time. */
export const recordCallbackAttempt = (table: Table) => async (attempt: DeliveryAttempt) => {
  await table.doc.send(
    new PutCommand({
      TableName: table.name,
      Item: {
        ...keys.callbackAttempt(attempt.accountId, attempt.jobId, attempt.deliveryId, attempt.attempt),
        type: ITEM_TYPE.callbackAttempt,
        deliveryId: attempt.deliveryId,
        jobId: attempt.jobId,
        attempt: attempt.attempt,
        status: typeof attempt.result === 'number' ? attempt.result : undefined,
        failure: typeof attempt.result === 'string' ? attempt.result : undefined,
        latencyMs: Math.round(attempt.latencyMs),
        at: attempt.at,
        ttl: ttlAfter(attempt.at + ATTEMPT_RETENTION_MS),
      },
    }),
  );
};

const AttemptItem = v.object({
  deliveryId: v.string(),
  jobId: v.string(),
  accountId: v.optional(v.string()),
  attempt: v.number(),
  status: v.optional(v.number()),
  failure: v.optional(v.picklist(['timeout', 'network'])),
  latencyMs: v.number(),
  at: v.number(),
});

/** Every recorded attempt of the job's callbacks (all its deliveries), oldest first; one Query (a job has a few dozen at most). */
export const listCallbackAttempts =
  (table: Table) =>
  async (accountId: string, jobId: string): Promise<DeliveryAttempt[]> => {
    const { items } = await queryAll(table, {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.accountPk(accountId), ':prefix': keys.callbackAttempts(jobId) },
      ConsistentRead: true,
    });
    return items
      .map((item) => v.parse(AttemptItem, item))
      .map((item) => ({
        deliveryId: item.deliveryId,
        accountId,
        jobId: item.jobId,
        attempt: item.attempt,
        result: item.status ?? item.failure ?? 'network',
        latencyMs: item.latencyMs,
        at: item.at,
      }))
      .sort((a, b) => a.at - b.at || a.attempt - b.attempt);
  };
