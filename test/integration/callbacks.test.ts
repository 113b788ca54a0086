import { GetQueueAttributesCommand, ReceiveMessageCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { services } from '../../bin/local-aws/services';
import { keys } from '../../functions/adapters/dynamo/table';
import { CALLBACK_QUEUE } from '../../functions/callbacks/definitions';
import { MAX_CALLBACK_ATTEMPTS } from '../../functions/domain/callbacks/retry-schedule';
import { octokitVerify } from '../support/octokit-verify';
import { startHangingReceiver, startReceiver } from '../support/receiver';
import { getJson, startTestRuntime, type TestRuntime } from '../support/runtime';
import { until as waitUntil } from '../support/wait';

let runtime: TestRuntime;

beforeAll(async () => {
  runtime = await startTestRuntime({ env: { CALLBACK_RETRY_SCALE: '0' } });
});
afterAll(() => runtime.close());

let deliveries = 0;
const enqueue = async (accountId: string, callbackUrl: string) => {
  deliveries += 1;
  const message = {
    deliveryId: `dlv_test${deliveries}`,
    accountId,
    jobId: `job_test${deliveries}`,
    callbackUrl,
    body: JSON.stringify({ job_id: `job_test${deliveries}`, status: 'succeeded', note: 'bytes  as sent' }),
  };
  await services().sqs.send(
    new SendMessageCommand({ QueueUrl: runtime.queueUrls[CALLBACK_QUEUE.name], MessageBody: JSON.stringify(message) }),
  );
  return message;
};

const recordedAttempts = async (accountId: string, jobId: string) => {
  const { Items = [] } = await services().table.doc.send(
    new QueryCommand({
      TableName: services().table.name,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.accountPk(accountId), ':prefix': keys.callbackAttempts(jobId) },
      ConsistentRead: true,
    }),
  );
  return Items;
};

const dlqMessages = async () => {
  const { Attributes } = await services().sqs.send(
    new GetQueueAttributesCommand({
      QueueUrl: runtime.queueUrls[CALLBACK_QUEUE.deadLetterName],
      AttributeNames: ['ApproximateNumberOfMessages'],
    }),
  );
  return Number(Attributes?.ApproximateNumberOfMessages ?? 0);
};

/**
 * Messages still on the callback queue, visible, in flight or delayed. The poller deletes a message once its
 * delivery is final (delivered, gone, or dead-lettered): at 0, no further attempt of any delivery can come.
 */
const callbackQueueHolds = async () => {
  const { Attributes = {} } = await services().sqs.send(
    new GetQueueAttributesCommand({
      QueueUrl: runtime.queueUrls[CALLBACK_QUEUE.name],
      AttributeNames: [
        'ApproximateNumberOfMessages',
        'ApproximateNumberOfMessagesNotVisible',
        'ApproximateNumberOfMessagesDelayed',
      ],
    }),
  );
  return (
    Number(Attributes.ApproximateNumberOfMessages ?? 0) +
    Number(Attributes.ApproximateNumberOfMessagesNotVisible ?? 0) +
    Number(Attributes.ApproximateNumberOfMessagesDelayed ?? 0)
  );
};

const until = (check: () => Promise<boolean>, timeoutMs = 15_000) => waitUntil(check, timeoutMs, 50);

describe('callback delivery', () => {
  it('POSTs the exact body, signed with the account secret, verifiable by a GitHub-style verifier', async () => {
    const receiver = await startReceiver([204]);
    const account = await runtime.newAccount();
    const message = await enqueue(account.accountId, receiver.url);
    await receiver.waitFor(1);
    const [callback] = receiver.received;
    expect(callback!.body).toBe(message.body);
    expect(callback!.headers['content-type']).toBe('application/json');
    expect(callback!.headers['x-service-delivery-id']).toBe(message.deliveryId);
    expect(new Date(String(callback!.headers['x-service-timestamp'])).getTime()).not.toBeNaN();
    const secret = (
      await getJson<{ webhook_signing_secret: string }>(runtime, '/v2/service/webhook-secret', account.apiKey)
    ).webhook_signing_secret;
    const signature = String(callback!.headers['x-service-signature']);
    expect(
      octokitVerify([
        { secret, payload: callback!.body, signature },
        { secret: `${secret}x`, payload: callback!.body, signature },
      ]),
    ).toEqual([true, false]);
    await until(async () => (await recordedAttempts(account.accountId, message.jobId)).length === 1);
    expect((await recordedAttempts(account.accountId, message.jobId))[0]).toMatchObject({
      attempt: 1,
      status: 204,
      deliveryId: message.deliveryId,
    });
    await receiver.close();
  });

  it('retries a failing receiver and stops at the first success: 3 failures, then 1 success', async () => {
    const receiver = await startReceiver([500, 503, 429, 200]);
    const account = await runtime.newAccount();
    const message = await enqueue(account.accountId, receiver.url);
    await receiver.waitFor(4);
    await until(async () => (await recordedAttempts(account.accountId, message.jobId)).length === 4);
    // The message is deleted once the success is final: no fifth attempt can follow.
    await until(async () => (await callbackQueueHolds()) === 0);
    expect(receiver.received).toHaveLength(4);
    expect(new Set(receiver.received.map((r) => r.headers['x-service-delivery-id']))).toEqual(
      new Set([message.deliveryId]),
    );
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id']))).toEqual(new Set([message.deliveryId]));
    expect((await recordedAttempts(account.accountId, message.jobId)).map((a) => a.status)).toEqual([
      500, 503, 429, 200,
    ]);
    await receiver.close();
  });

  it(`gives up after ${MAX_CALLBACK_ATTEMPTS} attempts and leaves the message in the dead-letter queue`, async () => {
    const receiver = await startReceiver([500]);
    const account = await runtime.newAccount();
    const before = await dlqMessages();
    const message = await enqueue(account.accountId, receiver.url);
    await until(async () => (await dlqMessages()) === before + 1, 30_000);
    expect(receiver.received).toHaveLength(MAX_CALLBACK_ATTEMPTS);
    expect(await recordedAttempts(account.accountId, message.jobId)).toHaveLength(MAX_CALLBACK_ATTEMPTS);
    const { Messages = [] } = await services().sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: runtime.queueUrls[CALLBACK_QUEUE.deadLetterName],
        MaxNumberOfMessages: 10,
      }),
    );
    expect(Messages.map((m) => JSON.parse(m.Body!).deliveryId)).toContain(message.deliveryId);
    await receiver.close();
  });

  it('stops at once when the receiver answers 410 Gone', async () => {
    const receiver = await startReceiver([410]);
    const account = await runtime.newAccount();
    const message = await enqueue(account.accountId, receiver.url);
    await until(async () => (await recordedAttempts(account.accountId, message.jobId)).length === 1);
    // The message is deleted once the 410 is final (a retry would keep it on the queue): no second attempt.
    await until(async () => (await callbackQueueHolds()) === 0);
    expect(receiver.received).toHaveLength(1);
    await receiver.close();
  });

  it('delivers to healthy receivers within seconds while 20 others hang', async () => {
    const hanging = await startHangingReceiver();
    const healthy = await startReceiver([204]);
    const account = await runtime.newAccount();
    try {
      for (let i = 0; i < 20; i += 1) await enqueue(account.accountId, `${hanging.url}/${i}`);
      await until(async () => hanging.requests() >= 10);
      const sentAt = Date.now();
      for (let i = 0; i < 5; i += 1) await enqueue(account.accountId, healthy.url);
      await healthy.waitFor(5);
      // A hanging receiver holds its own delivery for the 10 s POST timeout; the healthy ones wait for none of them.
      expect(Date.now() - sentAt).toBeLessThan(8000);
    } finally {
      await hanging.close();
      await healthy.close();
    }
  }, 30_000);
});
