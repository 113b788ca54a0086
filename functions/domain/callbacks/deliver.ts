/**
 * Read first: delivering one callback attempt.
 *
 * The message carries the exact bytes to send (the job-status body as it was serialised when the job
 * ended), so the signature covers what the receiver gets and every retry sends the same bytes under
 * the same delivery id. One attempt: sign (signature.ts: `X-Service-Signature` and the Standard Webhooks
 * headers, with every live secret of the account), POST with a 10 s timeout, record the attempt, decide:
 * 2xx → delivered; 410 → the receiver asked us to stop; anything else → retry after a jittered
 * backoff, until MAX_CALLBACK_ATTEMPTS, after which the message is moved to the dead-letter queue.
 *
 * The attempt number comes from the attempts already recorded, not from SQS's receive count: a receive
 * count also moves with redeliveries that never reached our code (and, in the local emulator, with
 * visibility changes), while the record is what the receiver actually saw.
 */
import type { Clock } from '../shared/clock';
import { toIso } from '../shared/clock';
import { type DeliveryResult, deliveryOutcome, MAX_CALLBACK_ATTEMPTS, retryDelaySeconds } from './retry-schedule';
import { callbackSignatureHeaders, SIGNATURE_HEADERS, type SigningSecrets } from './signature';

export const CALLBACK_TIMEOUT_MS = 10_000;

export const CALLBACK_HEADERS = {
  signature: SIGNATURE_HEADERS.service,
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
  /** The account's live signing secrets: the current one, and the previous one during a rotation window. */
  webhookSecrets(accountId: string): Promise<SigningSecrets>;
  /** How many attempts of this delivery were recorded before. */
  attemptsSoFar(message: CallbackMessage): Promise<number>;
  /** Parks an undeliverable message in the dead-letter queue. */
  deadLetter(message: CallbackMessage, attempts: number): Promise<void>;
  post(
    url: string,
    body: string,
    headers: Record<string, string>,
    timeoutMs: number,
  ): Promise<{ result: DeliveryResult; latencyMs: number }>;
  recordAttempt(attempt: DeliveryAttempt): Promise<void>;
  clock: Clock;
  random: () => number;
}

export type DeliveryDecision =
  | { kind: 'done'; outcome: 'delivered' | 'gone' | 'dead-lettered' | 'already-exhausted' }
  | { kind: 'retry'; delaySeconds: number; attempt: number };

/**
 * One signed POST of a message: the same headers for a delivery attempt and a test event, so what a
 * receiver verifies in a test is what it will verify in production.
 */
export const signedPost = async (
  deps: Pick<DeliveryDeps, 'webhookSecrets' | 'post' | 'clock'>,
  message: Pick<CallbackMessage, 'deliveryId' | 'accountId' | 'callbackUrl' | 'body'>,
): Promise<{ result: DeliveryResult; latencyMs: number; at: number }> => {
  const secrets = await deps.webhookSecrets(message.accountId);
  const at = deps.clock();
  const headers = {
    'Content-Type': 'application/json',
    'User-Agent': 'identity-image-service-callbacks/1',
    ...callbackSignatureHeaders({ id: message.deliveryId, atMs: at, body: message.body, secrets }),
    [CALLBACK_HEADERS.deliveryId]: message.deliveryId,
    [CALLBACK_HEADERS.timestamp]: toIso(at),
  };
  return { ...(await deps.post(message.callbackUrl, message.body, headers, CALLBACK_TIMEOUT_MS)), at };
};

export const deliverCallback = async (deps: DeliveryDeps, message: CallbackMessage): Promise<DeliveryDecision> => {
  const attempt = (await deps.attemptsSoFar(message)) + 1;
  // A redelivery of a message that was already dead-lettered (SQS is at-least-once): nothing to do.
  if (attempt > MAX_CALLBACK_ATTEMPTS) return { kind: 'done', outcome: 'already-exhausted' };
  const { result, latencyMs, at } = await signedPost(deps, message);
  await deps.recordAttempt({
    deliveryId: message.deliveryId,
    accountId: message.accountId,
    jobId: message.jobId,
    attempt,
    result,
    latencyMs,
    at,
  });
  const outcome = deliveryOutcome(result);
  if (outcome === 'delivered' || outcome === 'gone') return { kind: 'done', outcome };
  const delaySeconds = retryDelaySeconds(attempt, deps.random);
  if (delaySeconds !== undefined) return { kind: 'retry', delaySeconds, attempt };
  await deps.deadLetter(message, attempt);
  return { kind: 'done', outcome: 'dead-lettered' };
};
