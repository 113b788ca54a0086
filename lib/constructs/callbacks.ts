/**
 * Callback delivery: the queue that jobs post their callbacks to, its dead-letter queue, and the deliverer
 * that POSTs each one to the account's callback URL.
 *
 * Read first: the queue's settings come from functions/callbacks/definitions.ts, which the local runtime
 * reads too, so both homes retry alike. The retry budget lives in the deliverer: after a failed attempt
 * it reports the message as a batch item failure and sets its visibility to the next backoff delay with
 * ChangeMessageVisibility; it counts attempts from its own records and, after the last one, sends the
 * message to the DLQ itself. The redrive policy (maxReceiveCount well above the budget) only catches a
 * deliverer that keeps crashing before it can record an attempt.
 */
import { Duration } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { CALLBACK_QUEUE } from '../../functions/callbacks/definitions';
import { ENV, serviceEnvironment, serviceFunction } from './function-defaults';
import type { LiveDeployments, LiveFunction } from './live';

export const DELIVERER_TIMEOUT_SECONDS = CALLBACK_QUEUE.delivererTimeoutSeconds;

export interface CallbacksProps {
  readonly table: dynamodb.ITable;
  readonly bucket: s3.IBucket;
  readonly downloadTokenSecret: secretsmanager.ISecret;
  /** The deliverer's handler module, relative to the repository root; CALLBACK_QUEUE.handler by default. */
  readonly delivererEntry?: string;
  readonly deployments: LiveDeployments;
}

export class Callbacks extends Construct {
  readonly queue: sqs.Queue;
  readonly deadLetterQueue: sqs.Queue;
  readonly deliverer: LiveFunction;

  constructor(scope: Construct, id: string, props: CallbacksProps) {
    super(scope, id);

    this.deadLetterQueue = new sqs.Queue(this, 'DeadLetterQueue', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    this.queue = new sqs.Queue(this, 'Queue', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      // Longer than one deliverer run, so a batch in flight is not received twice.
      visibilityTimeout: Duration.seconds(CALLBACK_QUEUE.visibilityTimeoutSeconds),
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: CALLBACK_QUEUE.maxReceiveCount },
    });

    const deliverer = serviceFunction(this, 'Deliverer', {
      entry: props.delivererEntry ?? CALLBACK_QUEUE.handler,
      description: 'Delivers signed job callbacks from the callback queue',
      timeout: Duration.seconds(DELIVERER_TIMEOUT_SECONDS),
      environment: {
        ...serviceEnvironment({
          table: props.table,
          bucket: props.bucket,
          callbackQueue: this.queue,
          downloadTokenSecret: props.downloadTokenSecret,
        }),
        [ENV.callbackDeadLetterQueueUrl]: this.deadLetterQueue.queueUrl,
      },
    });
    this.deadLetterQueue.grantSendMessages(deliverer);
    this.deliverer = props.deployments.publish(deliverer, 'callback deliverer');
    // The event source grants consume, which includes sqs:ChangeMessageVisibility for the backoff; it
    // invokes the alias, so a deploy's traffic shift covers the deliveries too.
    this.deliverer.alias.addEventSource(
      new SqsEventSource(this.queue, { batchSize: CALLBACK_QUEUE.batchSize, reportBatchItemFailures: true }),
    );
  }
}
