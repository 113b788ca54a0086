/**
 * Read first: SQS for the local runtime.
 *
 * `local-aws-sqs` serves the SQS API (JSON and query protocols) in process; queues, the DLQ and its
 * redrive policy are created as the CDK stack creates them. A poller stands in for the Lambda event
 * source mapping: it long-polls, hands the consumer the same SQSEvent Lambda would, and deletes the
 * messages that are not reported in `batchItemFailures` (a thrown error fails the whole batch), so
 * redelivery, visibility changes and the DLQ behave as on AWS. Messages are kept in memory only.
 */
import { CreateQueueCommand, DeleteMessageBatchCommand, GetQueueAttributesCommand, ReceiveMessageCommand, SQSClient, type Message } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { lambdaContext } from './lambda-context';
import { LOCAL_REGION } from './arns';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { createSqsServer } = require('local-aws-sqs') as { createSqsServer: (options: Record<string, unknown>) => Promise<Server> };

export interface QueueSpec {
  name: string;
  visibilityTimeoutSeconds: number;
  /** Name of the dead-letter queue and the receive count after which messages move there. */
  deadLetter?: { queueName: string; maxReceiveCount: number };
}

export interface LocalSqs {
  endpoint: string;
  client: SQSClient;
  queueUrls: Record<string, string>;
  queueArns: Record<string, string>;
  close(): Promise<void>;
}

export const sqsClient = (endpoint: string) =>
  new SQSClient({ endpoint, region: LOCAL_REGION, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });

export const startLocalSqs = async (options: { queues: QueueSpec[]; port?: number; host?: string }): Promise<LocalSqs> => {
  const host = options.host ?? '127.0.0.1';
  const server = await createSqsServer({ port: options.port ?? 0, hostname: host, emulateQueueCreationLifecycle: false });
  const endpoint = `http://${host}:${(server.address() as AddressInfo).port}`;
  const client = sqsClient(endpoint);
  const queueUrls: Record<string, string> = {};
  const queueArns: Record<string, string> = {};
  const ordered = [...options.queues].sort((a, b) => Number(Boolean(a.deadLetter)) - Number(Boolean(b.deadLetter)));
  for (const queue of ordered) {
    const attributes: Record<string, string> = { VisibilityTimeout: String(queue.visibilityTimeoutSeconds) };
    if (queue.deadLetter) {
      const dlq = await client.send(new GetQueueAttributesCommand({ QueueUrl: queueUrls[queue.deadLetter.queueName], AttributeNames: ['QueueArn'] }));
      attributes['RedrivePolicy'] = JSON.stringify({ deadLetterTargetArn: dlq.Attributes?.['QueueArn'], maxReceiveCount: queue.deadLetter.maxReceiveCount });
    }
    const created = await client.send(new CreateQueueCommand({ QueueName: queue.name, Attributes: attributes }));
    queueUrls[queue.name] = created.QueueUrl!;
    const described = await client.send(new GetQueueAttributesCommand({ QueueUrl: created.QueueUrl, AttributeNames: ['QueueArn'] }));
    queueArns[queue.name] = described.Attributes?.['QueueArn'] ?? '';
  }
  return {
    endpoint,
    client,
    queueUrls,
    queueArns,
    close: async () => {
      client.destroy();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections?.();
      await closed;
    },
  };
};

export type QueueConsumer = (event: SQSEvent, context: ReturnType<typeof lambdaContext>) => Promise<SQSBatchResponse | void>;

/** Batches in flight at once, as the event source mapping scales out: a slow batch holds up no other. */
export const CONCURRENT_BATCHES = 5;

/**
 * The stand-in for a Lambda event source mapping with ReportBatchItemFailures. Like the mapping, it runs
 * several batches at once (up to `concurrentBatches`), so a batch that waits on a slow receiver delays
 * only its own messages.
 */
export const startQueuePoller = (options: {
  client: SQSClient;
  queueUrl: string;
  consumer: QueueConsumer;
  functionName: string;
  batchSize?: number;
  concurrentBatches?: number;
  onError?: (error: unknown) => void;
}) => {
  let running = true;
  const controller = new AbortController();
  const inFlight = new Set<Promise<void>>();

  const handle = async (messages: Message[], arn: string) => {
    const event: SQSEvent = {
      Records: messages.map((message) => ({
        messageId: message.MessageId!,
        receiptHandle: message.ReceiptHandle!,
        body: message.Body ?? '',
        attributes: {
          ApproximateReceiveCount: message.Attributes?.['ApproximateReceiveCount'] ?? '1',
          SentTimestamp: message.Attributes?.['SentTimestamp'] ?? String(Date.now()),
          SenderId: message.Attributes?.['SenderId'] ?? 'local',
          ApproximateFirstReceiveTimestamp: message.Attributes?.['ApproximateFirstReceiveTimestamp'] ?? String(Date.now()),
        },
        messageAttributes: {},
        md5OfBody: message.MD5OfBody ?? '',
        eventSource: 'aws:sqs',
        eventSourceARN: arn,
        awsRegion: LOCAL_REGION,
      })),
    };
    let failed: Set<string>;
    try {
      const response = await options.consumer(event, lambdaContext(options.functionName, 30_000));
      failed = new Set((response?.batchItemFailures ?? []).map((failure) => failure.itemIdentifier));
    } catch (error) {
      options.onError?.(error);
      failed = new Set(messages.map((message) => message.MessageId!));
    }
    const done = messages.filter((message) => !failed.has(message.MessageId!));
    if (done.length > 0) {
      await options.client.send(
        new DeleteMessageBatchCommand({
          QueueUrl: options.queueUrl,
          Entries: done.map((message, index) => ({ Id: String(index), ReceiptHandle: message.ReceiptHandle! })),
        }),
      );
    }
  };

  const loop = (async () => {
    const arn = (await options.client.send(new GetQueueAttributesCommand({ QueueUrl: options.queueUrl, AttributeNames: ['QueueArn'] }))).Attributes?.['QueueArn'] ?? '';
    while (running) {
      try {
        if (inFlight.size >= (options.concurrentBatches ?? CONCURRENT_BATCHES)) {
          await Promise.race(inFlight);
          continue;
        }
        const received = await options.client.send(
          new ReceiveMessageCommand({
            QueueUrl: options.queueUrl,
            MaxNumberOfMessages: options.batchSize ?? 10,
            WaitTimeSeconds: 1,
            MessageSystemAttributeNames: ['All'],
            MessageAttributeNames: ['All'],
          }),
          { abortSignal: controller.signal },
        );
        const messages = received.Messages ?? [];
        if (messages.length === 0) continue;
        const batch: Promise<void> = handle(messages, arn)
          .catch((error: unknown) => options.onError?.(error))
          .finally(() => inFlight.delete(batch));
        inFlight.add(batch);
      } catch (error) {
        if (!running) break;
        options.onError?.(error);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
  })();
  return {
    stop: async () => {
      running = false;
      controller.abort();
      await loop.catch(() => undefined);
      await Promise.all(inFlight);
    },
  };
};
