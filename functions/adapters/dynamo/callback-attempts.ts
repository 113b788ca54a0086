import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { CallbackMessage, DeliveryAttempt } from '../../domain/callbacks/deliver';
import { ITEM_TYPE, keys, ttlAfter, type Table } from './table';

/** Callback attempts are kept as long as the job is answered for: 24 h (the TTL adds its clean-up week). */
const ATTEMPT_RETENTION_MS = 24 * 3600 * 1000;

/** How many attempts were recorded for the message's delivery (a strongly consistent count). */
export const countCallbackAttempts = (table: Table) => async (message: CallbackMessage) => {
  const result = await table.doc.send(
    new QueryCommand({
      TableName: table.name,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      FilterExpression: 'deliveryId = :deliveryId',
      ExpressionAttributeValues: { ':pk': keys.accountPk(message.accountId), ':prefix': keys.callbackAttempts(message.jobId), ':deliveryId': message.deliveryId },
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
        ...keys.callbackAttempt(attempt.accountId, attempt.jobId, attempt.attempt),
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
