/**
 * A typed client of the identity-preserving image service. The calls and their types come from the
 * service's OpenAPI document (schema.d.ts, through openapi-fetch); this file adds what a caller would
 * otherwise write by hand around them:
 *
 * - one `client_request_id` per logical submit, generated unless given, and the same on every retry of
 *   it, so a retried submit is answered by the original and charged once;
 * - retries with exponential backoff and jitter that honour `Retry-After`: 429 and 503 always (the
 *   service did nothing), 502 and network failures only where a repeat is safe (reads, deletes, and image
 *   submits, which carry their client_request_id), never other 4xx or a 504;
 * - `waitForJob`: polls with backoff until the job ends, or until a deadline;
 * - image inputs from a string (base64 or URL, sent as is), bytes, `{ path }` or `{ url }`; bytes beyond
 *   the inline limit go through a direct upload (POST /uploads, then a PUT) and are sent by reference;
 * - `verifyWebhook` for both signatures a callback carries (webhook.ts).
 */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import createFetchClient from 'openapi-fetch';
import type { components, operations, paths } from './schema';

export type { components, paths } from './schema';
export { verifyWebhook, type WebhookScheme, WebhookVerificationError } from './webhook';

type Schemas = components['schemas'];
export type ImageResult = Schemas['ImageResult'];
export type JobHandle = Schemas['JobHandle'];
export type JobStatus = Schemas['JobStatus'];
export type JobPage = Schemas['JobPage'];
export type Account = Schemas['Account'];
export type LedgerPage = Schemas['LedgerPage'];
export type TopUpCreated = Schemas['TopUpCreated'];
export type TopUpPage = Schemas['TopUpPage'];
export type JobDeliveries = Schemas['JobDeliveries'];
export type UploadTicket = Schemas['UploadTicket'];
type ErrorBody = Schemas['ErrorBody'];
type ValidationErrorBody = Schemas['ValidationErrorBody'];

type JsonBody<O extends keyof operations> = operations[O] extends {
  requestBody: { content: { 'application/json': infer B } };
}
  ? B
  : never;

/** An image input: base64 or a URL as a string (sent as is), bytes, a file, or a URL. */
export type ImageSource = string | Uint8Array | { path: string } | { url: string };

type WithSources<B, K extends string> = Omit<B, K> & {
  [P in K & keyof B]: B[P] extends string[] ? ImageSource[] : ImageSource;
};
export type EditRequest = WithSources<JsonBody<'edit'>, 'images'>;
export type GenerateRequest = JsonBody<'generate'>;
export type EnhanceRequest = WithSources<JsonBody<'enhance'>, 'image'>;
export type RemixRequest = WithSources<JsonBody<'remix'>, 'input_image' | 'reference_image'>;
export type AddProfileRequest = JsonBody<'addProfile'>;
export type ListJobsQuery = NonNullable<operations['listJobs']['parameters']['query']>;

/** What an image operation answers: the result, or the job handle when `async: true`. */
type Answer<B> = B extends { async: true } ? JobHandle : ImageResult;

export interface RetryOptions {
  /** Attempts in all, the first included. Default 4. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export interface ClientOptions {
  baseUrl: string;
  apiKey: string;
  fetch?: typeof fetch;
  retry?: Partial<RetryOptions>;
  /** Bytes above this are sent as a direct upload (request bodies are limited to 6 MB). Default 4 MB. */
  inlineMaxBytes?: number;
  /** Waits between attempts and polls (tests pass an instant one). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
}

/** A refusal by the service, with its status and, as the service sent them, its code and detail. */
export class ServiceError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | undefined,
    /** The message, or the validation errors of a 422 (pydantic's shape). */
    readonly detail: string | ValidationErrorBody['detail'],
    readonly requestId: string | undefined,
  ) {
    super(
      `${status}${code ? ` ${code}` : ''}: ${typeof detail === 'string' ? detail : detail.map((entry) => `${entry.loc.join('.')}: ${entry.msg}`).join('; ')}`,
    );
    this.name = 'ServiceError';
  }
}

export class JobWaitTimeoutError extends Error {
  constructor(
    readonly jobId: string,
    readonly lastStatus: JobStatus | undefined,
  ) {
    super(`job ${jobId} did not end in time (last status: ${lastStatus?.status ?? 'unknown'})`);
    this.name = 'JobWaitTimeoutError';
  }
}

const DEFAULT_RETRY: RetryOptions = { maxAttempts: 4, baseDelayMs: 500, maxDelayMs: 20_000 };
const DEFAULT_INLINE_MAX_BYTES = 4 * 1024 * 1024;
const IMAGE_PATHS = ['/v2/service/edit', '/v2/service/generate', '/v2/service/enhance', '/v2/service/remix'];

const abortable = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/** Seconds (or an HTTP date) of a Retry-After header, in milliseconds. */
const retryAfterMs = (header: string | null, now: number): number | undefined => {
  if (!header) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
};

/**
 * A fetch that retries what may be retried. A repeat of a request that could have taken effect is safe
 * only where the service makes it so: reads, deletes, and image submits (their body carries the
 * client_request_id, the same on every attempt because the body is the same).
 */
const retryingFetch = (
  inner: typeof fetch,
  retry: RetryOptions,
  sleep: NonNullable<ClientOptions['sleep']>,
  random: () => number,
): typeof fetch =>
  (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    const original = new Request(input, init);
    const path = new URL(original.url).pathname;
    const repeatable =
      original.method === 'GET' ||
      original.method === 'DELETE' ||
      IMAGE_PATHS.some((image) => path.endsWith(image.replace('/v2/service', '')));
    for (let attempt = 1; ; attempt += 1) {
      const last = attempt >= retry.maxAttempts;
      const backoff = Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** (attempt - 1)) * (0.5 + random() / 2);
      let response: Response;
      try {
        response = await inner(original.clone());
      } catch (error) {
        if (last || !repeatable || original.signal.aborted) throw error;
        await sleep(backoff, original.signal);
        continue;
      }
      const retryable = response.status === 429 || response.status === 503 || (response.status === 502 && repeatable);
      if (!retryable || last) return response;
      const wait = retryAfterMs(response.headers.get('retry-after'), Date.now()) ?? backoff;
      await response.body?.cancel();
      await sleep(Math.min(wait, retry.maxDelayMs), original.signal);
    }
  }) as typeof fetch;

const isBytes = (source: ImageSource): source is Uint8Array => source instanceof Uint8Array;

/** The type of image bytes, from their magic numbers (what the service reads too). */
export const imageContentType = (bytes: Uint8Array): UploadTicket['upload_headers']['Content-Type'] | undefined => {
  const ascii = (start: number, end: number) => Buffer.from(bytes.subarray(start, end)).toString('latin1');
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (ascii(0, 8) === '\x89PNG\r\n\x1a\n') return 'image/png';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp';
  if (ascii(4, 8) === 'ftyp')
    return ['heic', 'heix', 'hevc', 'hevx'].includes(ascii(8, 12)) ? 'image/heic' : 'image/heif';
  return undefined;
};

export const createClient = (options: ClientOptions) => {
  const retry = { ...DEFAULT_RETRY, ...options.retry };
  const sleep = options.sleep ?? abortable;
  const random = options.random ?? Math.random;
  const baseFetch = options.fetch ?? globalThis.fetch;
  const inlineMaxBytes = options.inlineMaxBytes ?? DEFAULT_INLINE_MAX_BYTES;
  const api = createFetchClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { 'X-API-Key': options.apiKey },
    fetch: retryingFetch(baseFetch, retry, sleep, random),
  });

  /** The data of a success, or a ServiceError with what the service said. */
  const unwrap = async <T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> => {
    const { data, error, response } = await call;
    if (response.ok && data !== undefined) return data;
    const body = (error ?? {}) as Partial<ErrorBody> & { detail?: unknown };
    const detail = Array.isArray(body.detail)
      ? (body.detail as ValidationErrorBody['detail'])
      : String(body.detail ?? response.statusText);
    throw new ServiceError(
      response.status,
      body.code,
      detail,
      body.request_id ?? response.headers.get('x-request-id') ?? undefined,
    );
  };

  const upload = async (bytes: Uint8Array, signal?: AbortSignal): Promise<string> => {
    const contentType = imageContentType(bytes);
    if (!contentType) throw new TypeError('the bytes are not a JPEG, PNG, WebP or HEIC/HEIF image');
    const ticket = await unwrap(
      api.POST('/v2/service/uploads', { body: { size_bytes: bytes.length, content_type: contentType }, signal }),
    );
    const put = await baseFetch(ticket.upload_url, {
      method: ticket.upload_method,
      headers: ticket.upload_headers,
      body: new Blob([Buffer.from(bytes)]),
      signal,
    });
    if (!put.ok)
      throw new ServiceError(
        put.status,
        undefined,
        `the direct upload was refused: ${(await put.text()).slice(0, 200)}`,
        undefined,
      );
    return ticket.reference;
  };

  /** One input as the service takes it: a string, or bytes inline as base64 or by an upload reference. */
  const inputOf = async (source: ImageSource, signal?: AbortSignal): Promise<string> => {
    if (typeof source === 'string') return source;
    if ('url' in source) return source.url;
    const bytes = isBytes(source) ? source : await readFile(source.path);
    return bytes.length > inlineMaxBytes ? upload(bytes, signal) : Buffer.from(bytes).toString('base64');
  };

  const submit = async <B extends { client_request_id?: string }>(
    path: (typeof IMAGE_PATHS)[number],
    body: B,
    inputs: readonly string[],
    signal?: AbortSignal,
  ) => {
    const sent: Record<string, unknown> = { ...body, client_request_id: body.client_request_id ?? randomUUID() };
    for (const field of inputs) {
      const value = sent[field];
      if (value === undefined) continue;
      sent[field] = Array.isArray(value)
        ? await Promise.all(value.map((item: ImageSource) => inputOf(item, signal)))
        : await inputOf(value as ImageSource, signal);
    }
    // openapi-fetch types each path's body; the four share this code, so the body is passed through.
    return unwrap(api.POST(path as '/v2/service/generate', { body: sent as never, signal })) as Promise<
      ImageResult | JobHandle
    >;
  };

  const getJob = (jobId: string, signal?: AbortSignal) =>
    unwrap(api.GET('/v2/service/jobs/{job_id}', { params: { path: { job_id: jobId } }, signal }));

  return {
    /** The typed openapi-fetch client, for anything this layer does not wrap. */
    api,
    edit: <B extends EditRequest>(body: B, call: { signal?: AbortSignal } = {}) =>
      submit('/v2/service/edit', body, ['images'], call.signal) as Promise<Answer<B>>,
    generate: <B extends GenerateRequest>(body: B, call: { signal?: AbortSignal } = {}) =>
      submit('/v2/service/generate', body, [], call.signal) as Promise<Answer<B>>,
    enhance: <B extends EnhanceRequest>(body: B, call: { signal?: AbortSignal } = {}) =>
      submit('/v2/service/enhance', body, ['image'], call.signal) as Promise<Answer<B>>,
    remix: <B extends RemixRequest>(body: B, call: { signal?: AbortSignal } = {}) =>
      submit('/v2/service/remix', body, ['input_image', 'reference_image'], call.signal) as Promise<Answer<B>>,
    /** Uploads image bytes directly; answers the `upload:` reference to use as an input. */
    upload,
    getJob,
    listJobs: (query: ListJobsQuery = {}, call: { signal?: AbortSignal } = {}) =>
      unwrap(api.GET('/v2/service/jobs', { params: { query }, signal: call.signal })),
    /** Polls until the job is `succeeded` or `failed` (both answered, not thrown), or throws at the deadline. */
    waitForJob: async (
      jobId: string,
      wait: { timeoutMs?: number; signal?: AbortSignal; minDelayMs?: number; maxDelayMs?: number } = {},
    ): Promise<JobStatus> => {
      const deadline = Date.now() + (wait.timeoutMs ?? 30 * 60 * 1000);
      let delay = wait.minDelayMs ?? 500;
      let last: JobStatus | undefined;
      for (;;) {
        last = await getJob(jobId, wait.signal);
        if (last.status === 'succeeded' || last.status === 'failed') return last;
        const left = deadline - Date.now();
        if (left <= 0) throw new JobWaitTimeoutError(jobId, last);
        await sleep(Math.min(delay, left), wait.signal);
        delay = Math.min(delay * 2, wait.maxDelayMs ?? 10_000);
      }
    },
    addProfile: (body: AddProfileRequest) => unwrap(api.POST('/v2/service/profiles/add', { body })),
    listProfiles: (tag?: string) =>
      unwrap(api.GET('/v2/service/profiles/ids', { params: { query: tag === undefined ? {} : { tag } } })),
    profileStatus: (profileId: string) =>
      unwrap(api.GET('/v2/service/profiles/{profile_id}/status', { params: { path: { profile_id: profileId } } })),
    deleteProfile: (profileId: string) =>
      unwrap(api.DELETE('/v2/service/profiles/{profile_id}', { params: { path: { profile_id: profileId } } })),
    tagProfiles: (tags: Array<{ profile_id: string; tag: string }>) =>
      unwrap(api.POST('/v2/service/profiles/tags', { body: { tags } })),
    /** Every base model: what it accepts, what it costs, and whether a real hosted model serves it here. */
    models: () => unwrap(api.GET('/v2/service/models')),
    webhookSecret: () => unwrap(api.GET('/v2/service/webhook-secret')),
    rotateWebhookSecret: () => unwrap(api.POST('/v2/service/webhook-secret/rotate')),
    /** Sends one signed test event to `url` and answers what the receiver did. */
    testWebhook: (url: string) => unwrap(api.POST('/v2/service/webhook-test', { body: { url } })),
    /** Every attempt to deliver the job's callback, oldest first. */
    jobDeliveries: (jobId: string) =>
      unwrap(api.GET('/v2/service/jobs/{job_id}/deliveries', { params: { path: { job_id: jobId } } })),
    /** Queues a fresh delivery of an ended job's event (to its callback_url, or `callbackUrl`). Not retried: each call is a delivery. */
    redeliver: (jobId: string, callbackUrl?: string) =>
      unwrap(
        api.POST('/v2/service/jobs/{job_id}/deliveries/redeliver', {
          params: { path: { job_id: jobId } },
          body: callbackUrl === undefined ? {} : { callback_url: callbackUrl },
        }),
      ),
    /** The balance, the default model version and the limits in force. */
    account: () => unwrap(api.GET('/v2/service/account')),
    /** One page of the ledger, newest first; pass the previous page's `next_cursor` as `cursor`. */
    ledger: (query: { limit?: number; cursor?: string } = {}) =>
      unwrap(
        api.GET('/v2/service/account/ledger', {
          params: {
            query: {
              ...(query.limit !== undefined && { limit: String(query.limit) }),
              ...(query.cursor !== undefined && { cursor: query.cursor }),
            },
          },
        }),
      ),
    /**
     * Opens a Stripe Checkout page for `amount` US dollars ("25.00"): send the developer to `checkout_url`.
     * The balance is credited when Stripe confirms the payment to the service, not by this call.
     */
    topUp: (amount: string, options: { saveCard?: boolean } = {}) =>
      unwrap(
        api.POST('/v2/service/account/top-ups', {
          body: { amount, ...(options.saveCard !== undefined && { save_card: options.saveCard }) },
        }),
      ),
    /** Auto-recharge, the low-balance threshold, where account events go, the balance and any debt. */
    billing: () => unwrap(api.GET('/v2/service/account/billing')),
    /** Sets what is given of auto-recharge, the low-balance threshold and the account events' URL (null clears). */
    updateBilling: (settings: JsonBody<'updateBillingSettings'>) =>
      unwrap(api.PUT('/v2/service/account/billing', { body: settings })),
    /** One page of the account's top-ups, newest first; pass the previous page's `next_cursor` as `cursor`. */
    topUps: (query: { limit?: number; cursor?: string } = {}) =>
      unwrap(
        api.GET('/v2/service/account/top-ups', {
          params: {
            query: {
              ...(query.limit !== undefined && { limit: String(query.limit) }),
              ...(query.cursor !== undefined && { cursor: query.cursor }),
            },
          },
        }),
      ),
  };
};

export type Client = ReturnType<typeof createClient>;
