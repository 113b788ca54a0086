/** SQS in the domain's words: send a JSON message, and put a received one back after a delay. */
import type * as Sqs from '@aws-sdk/client-sqs';
import type { SQSClient } from '@aws-sdk/client-sqs';
import { clientOptions, onFirstUse } from '../aws-clients';

const sdk = onFirstUse(() => require('@aws-sdk/client-sqs') as typeof Sqs);

export const sqsClient = (region: string, endpoint: string | undefined): SQSClient =>
  new (sdk().SQSClient)(clientOptions(region, endpoint));

export const sendJson = async (
  sqs: SQSClient,
  queueUrl: string,
  message: unknown,
  numberAttributes?: Record<string, number>,
): Promise<void> => {
  const attributes =
    numberAttributes &&
    Object.fromEntries(
      Object.entries(numberAttributes).map(([name, value]) => [
        name,
        { DataType: 'Number', StringValue: String(value) },
      ]),
    );
  await sqs.send(
    new (sdk().SendMessageCommand)({
      QueueUrl: queueUrl,
      MessageBody: JSON.stringify(message),
      MessageAttributes: attributes,
    }),
  );
};

/** Backoff without a sleeping function: the message becomes visible again after `delaySeconds`. */
export const delayRedelivery = async (
  sqs: SQSClient,
  queueUrl: string,
  receiptHandle: string,
  delaySeconds: number,
): Promise<void> => {
  await sqs.send(
    new (sdk().ChangeMessageVisibilityCommand)({
      QueueUrl: queueUrl,
      ReceiptHandle: receiptHandle,
      VisibilityTimeout: Math.max(0, Math.round(delaySeconds)),
    }),
  );
};
