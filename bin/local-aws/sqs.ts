/**
 * Read first: SQS for the local runtime.
 *
 * `local-aws-sqs` serves the SQS API (JSON and query protocols) in process; queues, the DLQ and its
 * redrive policy are created as the CDK stack creates them. A poller stands in for the Lambda event
 * source mapping: it long-polls, hands the consumer the same SQSEvent Lambda would, and deletes the
 * messages that are not reported in `batchItemFailures` (a thrown error fails the whole batch), so
 * redelivery, visibility changes and the DLQ behave as on AWS. Messages are kept in memory only.
 */

import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  CreateQueueCommand,
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  type Message,
  ReceiveMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { LOCAL_REGION } from './arns';
import { AccessDenied, deniedJson, type IamGate, listenFront } from './iam';
import { sqsRequests } from './iam-requests';
import { lambdaContext } from './lambda-context';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { createSqsServer } = require('local-aws-sqs') as {
  createSqsServer: (options: Record<string, unknown>) => Promise<Server>;
};

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

export const startLocalSqs = async (options: {
  queues: QueueSpec[];
  port?: number;
  host?: string;
  gate?: IamGate;
}): Promise<LocalSqs> => {
  const host = options.host ?? '127.0.0.1';
  const server = await createSqsServer({
    port: options.gate ? 0 : (options.port ?? 0),
    hostname: host,
    emulateQueueCreationLifecycle: false,
  });
  const backendEndpoint = `http://${host}:${(server.address() as AddressInfo).port}`;
  const queueUrls: Record<string, string> = {};
  const queueArns: Record<string, string> = {};
  const queueArnOf = (url: string) => {
    const name = Object.keys(queueUrls).find((known) => queueUrls[known] === url);
    return name ? queueArns[name] : undefined;
  };
  const front = options.gate
    ? await startSqsGate({ host, port: options.port, backendEndpoint, gate: options.gate, queueArnOf })
    : undefined;
  const endpoint = front?.endpoint ?? backendEndpoint;
  const client = sqsClient(endpoint);
  const ordered = [...options.queues].sort((a, b) => Number(Boolean(a.deadLetter)) - Number(Boolean(b.deadLetter)));
  for (const queue of ordered) {
    const attributes: Record<string, string> = { VisibilityTimeout: String(queue.visibilityTimeoutSeconds) };
    if (queue.deadLetter) {
      const dlq = await client.send(
        new GetQueueAttributesCommand({
          QueueUrl: queueUrls[queue.deadLetter.queueName],
          AttributeNames: ['QueueArn'],
        }),
      );
      attributes.RedrivePolicy = JSON.stringify({
        deadLetterTargetArn: dlq.Attributes?.QueueArn,
        maxReceiveCount: queue.deadLetter.maxReceiveCount,
      });
    }
    const created = await client.send(new CreateQueueCommand({ QueueName: queue.name, Attributes: attributes }));
    // Clients send to the queue URL's host: behind the gate, that is the gate.
    if (!created.QueueUrl) throw new Error(`The SQS emulator created ${queue.name} without a URL`);
    queueUrls[queue.name] = created.QueueUrl.replace(backendEndpoint, endpoint);
    const described = await client.send(
      new GetQueueAttributesCommand({ QueueUrl: created.QueueUrl, AttributeNames: ['QueueArn'] }),
    );
    queueArns[queue.name] = described.Attributes?.QueueArn ?? '';
  }
  return {
    endpoint,
    client,
    queueUrls,
    queueArns,
    close: async () => {
      client.destroy();
      await front?.close();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections?.();
      await closed;
    },
  };
};

/** In front of the emulator when IAM is checked: each call put to the gate for its queue, then passed through. */
const startSqsGate = async (options: {
  host: string;
  port?: number;
  backendEndpoint: string;
  gate: IamGate;
  queueArnOf: (url: string) => string | undefined;
}) => {
  const backend = new URL(options.backendEndpoint);
  const agent = new http.Agent({ keepAlive: true });
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      try {
        const target = req.headers['x-amz-target'];
        options.gate.authorize(
          req,
          sqsRequests(typeof target === 'string' ? target : undefined, body, options.queueArnOf),
        );
      } catch (error) {
        if (error instanceof AccessDenied) return deniedJson(res, error, 'com.amazonaws.sqs#AccessDenied');
        res.writeHead(400);
        return res.end();
      }
      const upstream = http.request(
        {
          host: backend.hostname,
          port: backend.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: backend.host },
          agent,
        },
        (response) => {
          const answer: Buffer[] = [];
          response.on('data', (chunk: Buffer) => answer.push(chunk));
          response.on('end', () => {
            // Queue URLs in answers name the gate, as the ones handed out do.
            const text = Buffer.concat(answer)
              .toString('utf8')
              .split(options.backendEndpoint)
              .join(`http://${req.headers.host}`);
            const { 'content-length': _length, ...headers } = response.headers;
            res.writeHead(response.statusCode ?? 502, { ...headers, 'content-length': Buffer.byteLength(text) });
            res.end(text);
          });
        },
      );
      upstream.on('error', () => {
        if (!res.headersSent) res.writeHead(502);
        res.end();
      });
      upstream.end(body);
    });
  });
  return listenFront(server, options, agent);
};

export type QueueConsumer = (
  event: SQSEvent,
  context: ReturnType<typeof lambdaContext>,
) => Promise<SQSBatchResponse | undefined>;

/** Batches in flight at once, as the event source mapping scales out: a slow batch holds up no other. */
export const CONCURRENT_BATCHES = 5;

const receive = (client: SQSClient, queueUrl: string, count: number, waitSeconds: number, signal: AbortSignal) =>
  client
    .send(
      new ReceiveMessageCommand({
        QueueUrl: queueUrl,
        MaxNumberOfMessages: count,
        WaitTimeSeconds: waitSeconds,
        MessageSystemAttributeNames: ['All'],
        MessageAttributeNames: ['All'],
      }),
      { abortSignal: signal },
    )
    .then((received) => received.Messages ?? []);

/**
 * Up to `batchSize` messages, answered as soon as there is one, as SQS's long poll answers. The emulator's
 * long poll answers early only once it holds a full batch (a lone message waited out the whole second), so
 * the wait asks for one message, and what else is visible then is taken without waiting.
 */
const receiveBatch = async (
  client: SQSClient,
  queueUrl: string,
  batchSize: number,
  signal: AbortSignal,
): Promise<Message[]> => {
  const first = await receive(client, queueUrl, 1, 1, signal);
  if (first.length === 0 || batchSize <= 1) return first;
  const { Attributes } = await client.send(
    new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['ApproximateNumberOfMessages'] }),
    { abortSignal: signal },
  );
  const visible = Math.min(Number(Attributes?.ApproximateNumberOfMessages ?? 0), batchSize - 1);
  return visible > 0 ? [...first, ...(await receive(client, queueUrl, visible, 0, signal))] : first;
};

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

  const handle = async (received: Message[], arn: string) => {
    // A received message always has both; the type says optional because the SDK shares it with sends.
    const messages = received.flatMap(({ MessageId, ReceiptHandle, ...rest }) =>
      MessageId && ReceiptHandle ? [{ ...rest, MessageId, ReceiptHandle }] : [],
    );
    const event: SQSEvent = {
      Records: messages.map((message) => ({
        messageId: message.MessageId,
        receiptHandle: message.ReceiptHandle,
        body: message.Body ?? '',
        attributes: {
          ApproximateReceiveCount: message.Attributes?.ApproximateReceiveCount ?? '1',
          SentTimestamp: message.Attributes?.SentTimestamp ?? String(Date.now()),
          SenderId: message.Attributes?.SenderId ?? 'local',
          ApproximateFirstReceiveTimestamp: message.Attributes?.ApproximateFirstReceiveTimestamp ?? String(Date.now()),
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
      failed = new Set(messages.map((message) => message.MessageId));
    }
    const done = messages.filter((message) => !failed.has(message.MessageId));
    if (done.length > 0) {
      await options.client.send(
        new DeleteMessageBatchCommand({
          QueueUrl: options.queueUrl,
          Entries: done.map((message, index) => ({ Id: String(index), ReceiptHandle: message.ReceiptHandle })),
        }),
      );
    }
  };

  const loop = (async () => {
    const arn =
      (
        await options.client.send(
          new GetQueueAttributesCommand({ QueueUrl: options.queueUrl, AttributeNames: ['QueueArn'] }),
        )
      ).Attributes?.QueueArn ?? '';
    while (running) {
      try {
        if (inFlight.size >= (options.concurrentBatches ?? CONCURRENT_BATCHES)) {
          await Promise.race(inFlight);
          continue;
        }
        const messages = await receiveBatch(
          options.client,
          options.queueUrl,
          options.batchSize ?? 10,
          controller.signal,
        );
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
