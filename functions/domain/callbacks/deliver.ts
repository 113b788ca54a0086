/**
 * Read first: delivering one callback attempt.
 *
 * The message carries the exact bytes to send (the job-status body as it was serialised when the job
 * ended), so the signature covers what the receiver gets and every retry sends the same bytes under
 * the same delivery id. One attempt: sign, POST with a 10 s timeout, record the attempt, decide:
 * 2xx → delivered; 410 → the receiver asked us to stop; anything else → retry after a jittered
 * backoff, until MAX_CALLBACK_ATTEMPTS, after which the message is left to SQS's redrive into the DLQ.
 */
import type { Clock } from '../shared/clock';
import { toIso } from '../shared/clock';
import { deliveryOutcome, MAX_CALLBACK_ATTEMPTS, retryDelaySeconds, type DeliveryResult } from './retry-schedule';
import { signCallbackBody } from './signature';

export const CALLBACK_TIMEOUT_MS = 10_000;

export const CALLBACK_HEADERS = {
  signature: 'X-Service-Signature',
  deliveryId: 'X-Service-Delivery-Id',
  timestamp: 'X-Service-Timestamp',
} as const;

export interface CallbackMessage {
  deliveryId: string;
  accountId: string;
  jobId: string;
  callbackUrl: string;
  /** The exact JSON text to POST. */
  body: string;
}

export interface DeliveryAttempt {
  deliveryId: string;
  accountId: string;
  jobId: string;
  attempt: number;
  /** HTTP status, or why there was none. */
  result: DeliveryResult;
  latencyMs: number;
  at: number;
}

export interface DeliveryDeps {
  webhookSecret(accountId: string): Promise<string>;
  post(url: string, body: string, headers: Record<string, string>, timeoutMs: number): Promise<{ result: DeliveryResult; latencyMs: number }>;
  recordAttempt(attempt: DeliveryAttempt): Promise<void>;
  clock: Clock;
  random: () => number;
}

export type DeliveryDecision =
  | { kind: 'done'; outcome: 'delivered' | 'gone' }
  | { kind: 'retry'; delaySeconds: number }
  /** The last attempt failed: hand the message to the dead-letter queue. */
  | { kind: 'exhausted' };

export const deliverCallback = async (deps: DeliveryDeps, message: CallbackMessage, attempt: number): Promise<DeliveryDecision> => {
  const secret = await deps.webhookSecret(message.accountId);
  const at = deps.clock();
  const headers = {
    'Content-Type': 'application/json',
    'User-Agent': 'identity-image-service-callbacks/1',
    [CALLBACK_HEADERS.signature]: signCallbackBody(message.body, secret),
    [CALLBACK_HEADERS.deliveryId]: message.deliveryId,
    [CALLBACK_HEADERS.timestamp]: toIso(at),
  };
  const { result, latencyMs } = await deps.post(message.callbackUrl, message.body, headers, CALLBACK_TIMEOUT_MS);
  await deps.recordAttempt({ deliveryId: message.deliveryId, accountId: message.accountId, jobId: message.jobId, attempt, result, latencyMs, at });
  const outcome = deliveryOutcome(result);
  if (outcome === 'delivered' || outcome === 'gone') return { kind: 'done', outcome };
  const delaySeconds = attempt < MAX_CALLBACK_ATTEMPTS ? retryDelaySeconds(attempt, deps.random) : undefined;
  return delaySeconds === undefined ? { kind: 'exhausted' } : { kind: 'retry', delaySeconds };
};
