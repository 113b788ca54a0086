import { Webhook } from 'standardwebhooks';
import {
  type CallbackMessage,
  type DeliveryAttempt,
  type DeliveryDeps,
  deliverCallback,
} from '../../../../functions/domain/callbacks/deliver';
import type { DeliveryResult } from '../../../../functions/domain/callbacks/retry-schedule';
import { verifyCallbackSignature } from '../../../../functions/domain/callbacks/signature';

const SECRET = 'whsec_MMoOtEqpvPUJeoI7/rV8ao+sy+5sTCQNQEkvbo0B8UY=';
const SENT_AT_MS = Date.UTC(2026, 10, 22);

const message: CallbackMessage = {
  deliveryId: 'dlv_1',
  accountId: 'acc_1',
  jobId: 'job_1',
  callbackUrl: 'https://example.test/hook',
  body: '{"job_id":"job_1"}',
};

const fakeDeps = (result: DeliveryResult, attemptsSoFar = 0, clock = () => SENT_AT_MS) => {
  const sent: Array<{ body: string; headers: Record<string, string> }> = [];
  const recorded: DeliveryAttempt[] = [];
  const deadLettered: number[] = [];
  const deps: DeliveryDeps = {
    webhookSecrets: async () => ({ current: SECRET }),
    attemptsSoFar: async () => attemptsSoFar,
    deadLetter: async (_message, attempts) => {
      deadLettered.push(attempts);
    },
    post: async (_url, body, headers) => {
      sent.push({ body, headers });
      return { result, latencyMs: 12 };
    },
    recordAttempt: async (attempt) => {
      recorded.push(attempt);
    },
    clock,
    random: () => 0.5,
  };
  return { deps, sent, recorded, deadLettered };
};

describe('delivering a callback', () => {
  it('sends the message bytes with a verifiable signature, the delivery id and a timestamp', async () => {
    const { deps, sent } = fakeDeps(200);
    expect(await deliverCallback(deps, message)).toEqual({ kind: 'done', outcome: 'delivered' });
    expect(sent[0]!.body).toBe(message.body);
    expect(verifyCallbackSignature(sent[0]!.body, sent[0]!.headers['X-Service-Signature'], SECRET)).toBe(true);
    expect(sent[0]!.headers).toMatchObject({
      'X-Service-Delivery-Id': 'dlv_1',
      'X-Service-Timestamp': '2026-11-22T00:00:00.000Z',
      'Content-Type': 'application/json',
    });
  });

  it('also carries the Standard Webhooks headers, verifiable with the standardwebhooks package', async () => {
    const { deps, sent } = fakeDeps(200);
    await deliverCallback(deps, message);
    jest.useFakeTimers({ now: SENT_AT_MS });
    try {
      expect(new Webhook(SECRET).verify(sent[0]!.body, sent[0]!.headers)).toEqual({ job_id: 'job_1' });
    } finally {
      jest.useRealTimers();
    }
    expect(sent[0]!.headers).toMatchObject({ 'webhook-id': 'dlv_1', 'webhook-timestamp': String(SENT_AT_MS / 1000) });
  });

  it('keeps webhook-id on a retry while webhook-timestamp moves to the attempt’s time', async () => {
    const first = fakeDeps(503, 0);
    const retry = fakeDeps(200, 1, () => SENT_AT_MS + 30_000);
    await deliverCallback(first.deps, message);
    await deliverCallback(retry.deps, message);
    const [before, after] = [first.sent[0]!.headers, retry.sent[0]!.headers];
    expect(after['webhook-id']).toBe(before['webhook-id']);
    expect(Number(after['webhook-timestamp']) - Number(before['webhook-timestamp'])).toBe(30);
    expect(after['webhook-signature']).not.toBe(before['webhook-signature']);
  });

  it('records every attempt with its status and latency', async () => {
    const { deps, recorded } = fakeDeps(503, 2);
    await deliverCallback(deps, message);
    expect(recorded).toEqual([
      {
        deliveryId: 'dlv_1',
        accountId: 'acc_1',
        jobId: 'job_1',
        attempt: 3,
        result: 503,
        latencyMs: 12,
        at: SENT_AT_MS,
      },
    ]);
  });

  it('asks for a retry after a failure, with the backoff of that attempt', async () => {
    const { deps } = fakeDeps('timeout', 1);
    expect(await deliverCallback(deps, message)).toEqual({ kind: 'retry', delaySeconds: 120, attempt: 2 });
  });

  it('stops at 410 Gone without retrying', async () => {
    expect(await deliverCallback(fakeDeps(410).deps, message)).toEqual({ kind: 'done', outcome: 'gone' });
  });

  it('dead-letters the message when the sixth attempt fails', async () => {
    const { deps, deadLettered } = fakeDeps(500, 5);
    expect(await deliverCallback(deps, message)).toEqual({ kind: 'done', outcome: 'dead-lettered' });
    expect(deadLettered).toEqual([6]);
  });

  it('sends nothing for a redelivered message whose attempts are spent', async () => {
    const { deps, sent } = fakeDeps(500, 6);
    expect(await deliverCallback(deps, message)).toEqual({ kind: 'done', outcome: 'already-exhausted' });
    expect(sent).toHaveLength(0);
  });
});
