/**
 * The queue consumer counterpart of apiHandler: each record is parsed with its schema and handled on
 * its own; the answer is a partial batch response. A record whose handler asks for a retry gets its
 * visibility set to the requested delay (backoff without a sleeping Lambda) and is reported as failed;
 * a record that cannot be parsed is logged and dropped, since no retry could ever fix it.
 */
import type { Context, SQSBatchItemFailure, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import * as v from 'valibot';
import { errorFields, type Logger } from '../adapters/logger';
import { log as processLog } from '../composition/core';

export type RecordResult = { kind: 'done' } | { kind: 'retry'; delaySeconds: number };

export const queueHandler =
  <S extends v.GenericSchema>(
    schema: S,
    fn: (message: v.InferOutput<S>, record: SQSRecord, log: Logger) => Promise<RecordResult>,
    options: { retryLater(receiptHandle: string, delaySeconds: number): Promise<void> },
  ) =>
  async (event: SQSEvent, context?: Context): Promise<SQSBatchResponse> => {
    if (context) processLog().addContext(context);
    const batchItemFailures: SQSBatchItemFailure[] = [];
    await Promise.all(
      event.Records.map(async (record) => {
        const log = processLog().child({
          message_id: record.messageId,
          receive_count: record.attributes.ApproximateReceiveCount,
        });
        let parsed: unknown;
        try {
          parsed = JSON.parse(record.body);
        } catch {
          return log.error('dropping a message that is not JSON');
        }
        const message = v.safeParse(schema, parsed);
        if (!message.success)
          return log.error('dropping a message of the wrong shape', { issues: message.issues.map((i) => i.message) });
        try {
          const result = await fn(message.output, record, log);
          if (result.kind === 'done') return;
          await options.retryLater(record.receiptHandle, result.delaySeconds);
          batchItemFailures.push({ itemIdentifier: record.messageId });
        } catch (error) {
          log.error('message handling failed; it will be redelivered', errorFields(error));
          batchItemFailures.push({ itemIdentifier: record.messageId });
        }
      }),
    );
    return { batchItemFailures };
  };
