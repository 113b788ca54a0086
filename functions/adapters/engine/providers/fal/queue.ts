/**
 * fal's queue without the image work: the ticket's requests as stored on a job, fal's error bodies, and
 * the cancel. Apart from fal.ts so that the cancel route (POST /jobs/{job_id}/cancel), which ships no
 * sharp, can stop a job's fal work.
 */
import * as v from 'valibot';
import type { EngineTicket } from '../../../../domain/engine/engine';
import { type ApiKey, withApiKey } from '../provider';
import {
  defaultTransport,
  HttpEngineError,
  type ProviderAnswer,
  type ProviderTransport,
  sendWithRetries,
} from '../provider-http';
import { PROVIDER, parseAnswer, type StatusAnswer, StatusAnswerSchema } from './answers';

export { PROVIDER };
/** The `engine` of the tickets the fal adapter makes. */
export const FAL_ENGINE = 'fal';

export const falHeaders = (apiKey: string): Record<string, string> => ({
  authorization: `Key ${apiKey}`,
  'content-type': 'application/json',
  accept: 'application/json',
});

/** One fal request of a ticket, as stored on the job. */
export const TicketRequestSchema = v.union([
  v.object({
    id: v.pipe(v.string(), v.minLength(1)),
    status: v.string(),
    response: v.string(),
    cancel: v.string(),
    images: v.pipe(v.number(), v.integer(), v.minValue(1)),
    /** fal's whole megapixels of the inputs this call sent (what an edit endpoint bills). */
    inputMegapixels: v.pipe(v.number(), v.minValue(0)),
    /** The subject this call carried by its LoRA (a LoRA endpoint); absent: none, and on older tickets. */
    lora: v.optional(v.string()),
  }),
  /** A submit fal refused outright (422 content_policy_violation): nothing to poll. */
  v.object({ id: v.literal('refused'), refusal: v.picklist(['moderated', 'no_image']), message: v.string() }),
]);
export type TicketRequest = v.InferOutput<typeof TicketRequestSchema>;
export type QueuedRequest = Extract<TicketRequest, { status: string }>;

/** The requests of a ticket the fal adapter made (parsed, never cast: it comes back from the table). */
export const falTicketRequests = (ticket: EngineTicket): TicketRequest[] => {
  if (ticket.engine !== FAL_ENGINE) throw new Error(`a ${ticket.engine} ticket was handed to the fal queue`);
  return ticket.requests.map((entry) => {
    const parsed = v.safeParse(TicketRequestSchema, entry);
    if (!parsed.success)
      throw new Error(`fal ticket request is not one this adapter made: ${v.summarize(parsed.issues)}`);
    return parsed.output;
  });
};

/** fal's error body: `detail` a string or a list of ValidationErrorInfo (common.d.ts; the errors page adds `url`, `input`). */
const ErrorBodySchema = v.object({
  detail: v.union([v.string(), v.array(v.object({ msg: v.string(), type: v.string() }))]),
});

export const CONTENT_POLICY = 'content_policy_violation';

export const errorDetail = (answer: ProviderAnswer): { message: string; policy: boolean } => {
  let json: unknown;
  try {
    json = JSON.parse(answer.text);
  } catch {
    return { message: answer.text.slice(0, 300), policy: false };
  }
  const parsed = v.safeParse(ErrorBodySchema, json);
  if (!parsed.success) return { message: answer.text.slice(0, 300), policy: false };
  const { detail } = parsed.output;
  if (typeof detail === 'string') return { message: detail, policy: false };
  const policy = detail.filter((item) => item.type === CONTENT_POLICY);
  return {
    message: (policy.length > 0 ? policy : detail).map((item) => item.msg).join('; '),
    policy: answer.status === 422 && policy.length > 0,
  };
};

export const providerError = (answer: ProviderAnswer, what: string): HttpEngineError =>
  new HttpEngineError(`fal answered HTTP ${answer.status} to ${what}: ${errorDetail(answer).message}`, {
    retryable: false,
    status: answer.status,
  });

export const ok = (answer: ProviderAnswer) => answer.status >= 200 && answer.status < 300;

/**
 * The key goes only to the configured queue: a status, result or cancel URL fal answered (or a ticket
 * read back from the table) on any other origin is refused before a request carries the key, and the
 * job fails (refunded), rather than hand the key to wherever an answer points.
 */
export const onQueue = (url: string, queueUrl: string, what: string): string => {
  let origin: string | undefined;
  try {
    origin = new URL(url).origin;
  } catch {
    origin = undefined;
  }
  if (origin !== undefined && origin === new URL(queueUrl).origin) return url;
  throw new HttpEngineError(
    `fal answered a ${what} URL outside its queue (${origin ?? 'not a URL'}, not ${new URL(queueUrl).origin}); the key is not sent there`,
    { retryable: false },
  );
};

/** The cancel answer's `status` (https://fal.ai/docs/inference-api/queue/cancel: OK, CANCELLATION_REQUESTED, ALREADY_COMPLETED, NOT_FOUND). */
const CancelAnswerSchema = v.object({ status: v.string() });

const alreadyCompleted = (answer: ProviderAnswer): boolean => {
  try {
    const parsed = v.safeParse(CancelAnswerSchema, JSON.parse(answer.text));
    return parsed.success && parsed.output.status === 'ALREADY_COMPLETED';
  } catch {
    return false;
  }
};

/** PUTs each cancel_url of the ticket; a request fal has already finished is not an error (it may still be charged). */
export const cancelFalTicket = async (
  ticket: EngineTicket,
  options: { apiKey: ApiKey; queueUrl: string; transport?: ProviderTransport },
  signal: AbortSignal,
): Promise<void> => {
  const transport = options.transport ?? defaultTransport();
  const queued = falTicketRequests(ticket).filter((entry): entry is QueuedRequest => 'status' in entry);
  await Promise.all(
    queued.map(async (entry) => {
      const url = onQueue(entry.cancel, options.queueUrl, 'cancel');
      const answer = await withApiKey(options.apiKey, (apiKey) =>
        sendWithRetries(transport, { provider: PROVIDER, url, method: 'PUT', headers: falHeaders(apiKey) }, signal),
      );
      if (ok(answer) || alreadyCompleted(answer)) return;
      throw providerError(answer, `the cancel of request ${entry.id}`);
    }),
  );
};

export interface FalQueueAccess {
  apiKey: ApiKey;
  queueUrl: string;
  transport?: ProviderTransport;
}

/** One request's status (GET its status_url with the key): the check `FalEngine.check` makes, and the webhook's fallback. */
export const falRequestStatus = async (
  entry: QueuedRequest,
  options: FalQueueAccess,
  signal: AbortSignal,
): Promise<StatusAnswer> => {
  const transport = options.transport ?? defaultTransport();
  const url = onQueue(entry.status, options.queueUrl, 'status');
  const answer = await withApiKey(options.apiKey, (apiKey) =>
    sendWithRetries(transport, { provider: PROVIDER, url, method: 'GET', headers: falHeaders(apiKey) }, signal),
  );
  if (!ok(answer)) throw providerError(answer, `the status of request ${entry.id}`);
  return parseAnswer(StatusAnswerSchema, answer, 'status');
};

/** The ids of the ticket's requests whose status says COMPLETED (the fallback when a webhook is lost). */
export const falFinishedRequests = async (
  ticket: EngineTicket,
  options: FalQueueAccess,
  signal: AbortSignal,
): Promise<string[]> => {
  const queued = falTicketRequests(ticket).filter((entry): entry is QueuedRequest => 'status' in entry);
  const statuses = await Promise.all(queued.map((entry) => falRequestStatus(entry, options, signal)));
  return queued.filter((_, index) => statuses[index]?.status === 'COMPLETED').map((entry) => entry.id);
};
