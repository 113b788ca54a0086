/**
 * Read first: what a developer can see and do about callbacks (the questions "did it arrive?", "send it
 * again", "does my receiver verify?").
 *
 * - jobDeliveries: every recorded attempt of the job's callback deliveries, oldest first, each with the
 *   receiver's status or why there was none, its latency, and whether it was the last of its delivery
 *   (delivered, refused with 410, or the retry budget spent: no further attempt will follow).
 * - redeliver: a fresh delivery of an ended job's terminal event: a new delivery id (so a
 *   receiver that deduplicates by id takes it), the body a poll answers now (fresh download links),
 *   signed when each attempt is sent, queued to the same deliverer with the same retries.
 * - testWebhook: one signed POST of a test event through the same signing and the same guarded HTTP
 *   client as deliveries, answered with what happened; nothing is recorded or retried.
 *
 * All three are scoped to the caller's account; a job of another account is not found. A redelivery and
 * a test event make the service POST to a URL the caller chooses, so each first counts on the account's
 * outbound-send window (accounts/rate-limit.ts), whoever calls it: 429 RATE_LIMITED past the limit.
 */
import type { Caller } from '../accounts/accounts';
import { admitOutboundSend, type RateCounter } from '../accounts/rate-limit';
import { type CallbackMessage, type DeliveryAttempt, type DeliveryDeps, signedPost } from '../callbacks/deliver';
import { type DeliveryResult, deliveryOutcome, MAX_CALLBACK_ATTEMPTS } from '../callbacks/retry-schedule';
import { InvalidRequestError, JobExpiredError, JobNotFinishedError, NotFoundError } from '../errors';
import { type Clock, toIso } from '../shared/clock';
import type { IdSource } from '../shared/ids';
import { callbackMessage } from './callback-message';
import type { Job, JobsRepository } from './job';
import type { LinkMaker } from './status';

export interface DeliveryAttemptBody {
  delivery_id: string;
  attempt: number;
  at: string;
  /** The receiver's HTTP status; null when there was no answer. */
  response_status: number | null;
  /** Why there was no answer: `timeout` (10 s) or `network` (refused, reset, TLS, a blocked address). */
  error: 'timeout' | 'network' | null;
  latency_ms: number;
  /** No further attempt of this delivery follows: it was delivered, refused with 410, or the retries are spent. */
  last: boolean;
}

export interface JobDeliveriesBody {
  job_id: string;
  callback_url: string | null;
  attempts: DeliveryAttemptBody[];
}

const answerOf = (result: DeliveryResult) =>
  typeof result === 'number' ? { response_status: result, error: null } : { response_status: null, error: result };

export const attemptBody = (attempt: DeliveryAttempt): DeliveryAttemptBody => ({
  delivery_id: attempt.deliveryId,
  attempt: attempt.attempt,
  at: toIso(attempt.at),
  ...answerOf(attempt.result),
  latency_ms: Math.round(attempt.latencyMs),
  last: deliveryOutcome(attempt.result) !== 'retry' || attempt.attempt >= MAX_CALLBACK_ATTEMPTS,
});

interface JobLookup {
  jobs: Pick<JobsRepository, 'get'>;
  clock: Clock;
}

/** The account's outbound-send window, and how many sends a minute it lets through. */
export interface OutboundLimit {
  counter: RateCounter;
  outboundSendsPerMinute: number;
}

const admitSend = (deps: OutboundLimit & { clock: Clock }, caller: Caller) =>
  admitOutboundSend(deps, caller.accountId, deps.outboundSendsPerMinute);

/** The caller's job, as a poll would find it: another account's is not found, an expired one is gone (410). */
const ownJob = async (deps: JobLookup, caller: Caller, jobId: string): Promise<Job> => {
  const job = await deps.jobs.get(caller.accountId, jobId);
  if (!job) throw new NotFoundError(`Job ${jobId} not found.`);
  if (job.expiresAt !== null && deps.clock() >= job.expiresAt) throw new JobExpiredError(jobId);
  return job;
};

/** GET /jobs/{job_id}/deliveries. */
export const jobDeliveries = async (
  deps: JobLookup & { attempts(accountId: string, jobId: string): Promise<DeliveryAttempt[]> },
  caller: Caller,
  jobId: string,
): Promise<JobDeliveriesBody> => {
  const job = await ownJob(deps, caller, jobId);
  const attempts = await deps.attempts(caller.accountId, job.jobId);
  return { job_id: job.jobId, callback_url: job.callbackUrl, attempts: attempts.map(attemptBody) };
};

export interface RedeliveryBody {
  job_id: string;
  delivery_id: string;
  callback_url: string;
}

/**
 * POST /jobs/{job_id}/deliveries/redeliver: `callbackUrl` (already checked like a submit's) replaces the
 * job's own; without either there is nowhere to send it. Only an ended job has a terminal event (409).
 */
export const redeliver = async (
  deps: JobLookup &
    OutboundLimit & { link: LinkMaker; newId: IdSource; enqueueCallback(message: CallbackMessage): Promise<void> },
  caller: Caller,
  jobId: string,
  callbackUrl: string | undefined,
): Promise<RedeliveryBody> => {
  await admitSend(deps, caller);
  const job = await ownJob(deps, caller, jobId);
  if (job.status !== 'succeeded' && job.status !== 'failed') {
    throw new JobNotFinishedError(`Job ${jobId} is ${job.status}: its callback is sent when it ends.`);
  }
  const url = callbackUrl ?? job.callbackUrl;
  if (!url) throw new NoCallbackUrlError(jobId);
  const message = {
    ...(await callbackMessage({ ...job, callbackUrl: url }, deps.link)),
    deliveryId: deps.newId('dlv'),
  };
  await deps.enqueueCallback(message);
  return { job_id: job.jobId, delivery_id: message.deliveryId, callback_url: url };
};

/** A redelivery of a job submitted without a callback_url needs one in the request (400). */
export class NoCallbackUrlError extends InvalidRequestError {
  constructor(readonly jobId: string) {
    super(`Job ${jobId} was submitted without a callback_url; pass one in the body to send its event there.`);
  }
}

export interface WebhookTestBody {
  delivery_id: string;
  url: string;
  /** The receiver answered 2xx. */
  delivered: boolean;
  response_status: number | null;
  error: 'timeout' | 'network' | null;
  latency_ms: number;
}

/** The body of a test event: the type says it is one, so a receiver can tell it from a job's status. */
export const testEventBody = (deliveryId: string, at: number): string =>
  JSON.stringify({
    type: 'webhook.test',
    delivery_id: deliveryId,
    created_at: toIso(at),
    message: 'A test event: no job is behind it.',
  });

/** POST /webhook-test: one signed POST of a test event, answered with what the receiver did. */
export const testWebhook = async (
  deps: Pick<DeliveryDeps, 'webhookSecrets' | 'post' | 'clock'> & OutboundLimit & { newId: IdSource },
  caller: Caller,
  url: string,
): Promise<WebhookTestBody> => {
  await admitSend(deps, caller);
  const deliveryId = deps.newId('dlv');
  const { result, latencyMs } = await signedPost(deps, {
    deliveryId,
    accountId: caller.accountId,
    callbackUrl: url,
    body: testEventBody(deliveryId, deps.clock()),
  });
  return {
    delivery_id: deliveryId,
    url,
    delivered: deliveryOutcome(result) === 'delivered',
    ...answerOf(result),
    latency_ms: Math.round(latencyMs),
  };
};
