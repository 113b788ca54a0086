/**
 * Read first: the image engine port over HTTPS to a real inference backend. The JSON contract is written
 * down in docs/engine-contract.md; the schemas below are its executable half.
 *
 * One `run` is one POST {baseUrl}/v1/run, repeated at most `maxAttempts` times with one Idempotency-Key (the
 * request's workKey, fixed by the job, so a retried workflow step repeats it too)
 * while the failure is worth retrying (network error, attempt timeout, 429, 5xx) and the overall deadline
 * allows, with jittered exponential backoff (or the backend's Retry-After). A 4xx other than 429 and a
 * response that breaks the contract are not retried. Every failure is an HttpEngineError, which callers
 * answer as an internal error; the caller's AbortSignal cancels at once, with its own reason.
 *
 * The backend URL is operator configuration, so it is not passed through the SSRF guard.
 */
import * as v from 'valibot';
import type { EngineOutcome, EngineRequest, ImageEngine, OutputFormat } from '../../domain/engine/engine';
import { MAX_REFERENCES_PER_SUBJECT, referencesInOrder } from '../../domain/engine/reference-choice';
import type { Clock } from '../../domain/shared/clock';
import {
  defaultTransport,
  type Fetch,
  HttpEngineError,
  type ProviderTransport,
  sendWithRetries,
  type Wait,
} from './providers/provider-http';

export { type Fetch, HttpEngineError, type Wait };

export interface HttpEngineOptions {
  /** e.g. https://gpu.example.com or https://gpu.example.com/prefix; the run path is appended. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <token>`. */
  token: string;
  fetch?: Fetch;
  maxAttempts?: number;
  attemptTimeoutSeconds?: number;
  /** Bounds all attempts and backoffs of one run together. */
  deadlineSeconds?: number;
  /** Backoff before attempt n+1 is about base * 2^(n-1), jittered to between half and all of it. */
  retryBaseDelaySeconds?: number;
  /** Longest wait honoured from a Retry-After header. */
  maxRetryAfterSeconds?: number;
  wait?: Wait;
  /** Uniform in [0, 1), for the jitter. */
  random?: () => number;
  clock?: Clock;
  /** A short-lived URL the backend can GET a reference crop from (CandidateFace.referenceKeys); without it none is sent. */
  referenceUrl?: (key: string) => Promise<string>;
}

export const HTTP_ENGINE_DEFAULTS = {
  maxAttempts: 3,
  attemptTimeoutSeconds: 300,
  deadlineSeconds: 900,
  retryBaseDelaySeconds: 1,
  maxRetryAfterSeconds: 30,
} as const;

const count = v.pipe(v.number(), v.integer(), v.minValue(0));

export const EngineResponseSchema = v.variant('status', [
  v.object({
    status: v.literal('ok'),
    images: v.pipe(
      v.array(
        v.object({ format: v.picklist(['png', 'jpg']), data_base64: v.pipe(v.string(), v.minLength(4), v.base64()) }),
      ),
      v.minLength(1),
    ),
    // Accepted from backends written to the first contract, and ignored: recognition decides what is billed.
    known_subjects: v.optional(v.unknown()),
    usage: v.object({ output_tokens: count, megapixels: v.pipe(v.number(), v.minValue(0)) }),
  }),
  v.object({ status: v.picklist(['moderated', 'no_image']), message: v.string() }),
]);
export type EngineResponse = v.InferOutput<typeof EngineResponseSchema>;

/** The body POSTed to {baseUrl}/v1/run. */
export interface EngineRunBody {
  operation: EngineRequest['operation'];
  prompt: string;
  inputs: { format: string; width: number; height: number; data_base64: string }[];
  params: {
    width: number;
    height: number;
    output_format: OutputFormat;
    num_output_images: number;
    base_model: string;
    quality: string | null;
  };
  /** `reference_urls`: the profile's aligned face crops, best first (empty for a profile without a face template). */
  candidates: { profile_id: string; reference_urls: string[] }[];
  named_in_prompt: string[];
}

export const RUN_PATH = 'v1/run';

const MAGIC: Record<OutputFormat, Buffer> = {
  png: Buffer.from([0x89, 0x50, 0x4e, 0x47]),
  jpg: Buffer.from([0xff, 0xd8, 0xff]),
};

export class HttpEngine implements ImageEngine {
  private readonly runUrl: URL;
  private readonly token: string;
  private readonly transport: ProviderTransport;
  private readonly referenceUrl?: (key: string) => Promise<string>;

  constructor({ baseUrl, referenceUrl, token, ...options }: HttpEngineOptions) {
    this.referenceUrl = referenceUrl;
    this.token = token;
    this.runUrl = new URL(RUN_PATH, baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
    this.transport = defaultTransport({
      fetch: options.fetch,
      wait: options.wait,
      random: options.random,
      clock: options.clock,
      policy: {
        maxAttempts: options.maxAttempts ?? HTTP_ENGINE_DEFAULTS.maxAttempts,
        attemptTimeoutSeconds: options.attemptTimeoutSeconds ?? HTTP_ENGINE_DEFAULTS.attemptTimeoutSeconds,
        deadlineSeconds: options.deadlineSeconds ?? HTTP_ENGINE_DEFAULTS.deadlineSeconds,
        retryBaseDelaySeconds: options.retryBaseDelaySeconds ?? HTTP_ENGINE_DEFAULTS.retryBaseDelaySeconds,
        maxRetryAfterSeconds: options.maxRetryAfterSeconds ?? HTTP_ENGINE_DEFAULTS.maxRetryAfterSeconds,
      },
    });
  }

  async run(request: EngineRequest, signal: AbortSignal): Promise<EngineOutcome> {
    signal.throwIfAborted();
    const body = JSON.stringify(await toRunBody(request, this.referenceUrl));
    const answer = await sendWithRetries(
      this.transport,
      {
        provider: 'engine',
        url: this.runUrl,
        method: 'POST',
        headers: {
          authorization: `Bearer ${this.token}`,
          'content-type': 'application/json',
          accept: 'application/json',
          // Fixed by the job, so a retried step (or a retried attempt) asks for the same work, never new work.
          'idempotency-key': request.workKey,
        },
        body,
      },
      signal,
    );
    if (answer.status < 200 || answer.status >= 300)
      throw new HttpEngineError(`engine answered HTTP ${answer.status}: ${answer.text.slice(0, 200)}`, {
        retryable: false,
        status: answer.status,
      });
    return toOutcome(parseResponse(answer.text), request);
  }
}

const toRunBody = async (
  request: EngineRequest,
  referenceUrl: ((key: string) => Promise<string>) | undefined,
): Promise<EngineRunBody> => ({
  operation: request.operation,
  prompt: request.prompt,
  inputs: request.images.map(({ format, width, height, data }) => ({
    format,
    width,
    height,
    data_base64: data.toString('base64'),
  })),
  params: {
    width: request.width,
    height: request.height,
    output_format: request.outputFormat,
    num_output_images: request.numOutputImages,
    base_model: request.baseModel,
    quality: request.quality ?? null,
  },
  candidates: await Promise.all(
    request.candidates.map(async (candidate) => ({
      profile_id: candidate.profileId,
      reference_urls: referenceUrl
        ? await Promise.all(referencesInOrder(candidate).slice(0, MAX_REFERENCES_PER_SUBJECT).map(referenceUrl))
        : [],
    })),
  ),
  named_in_prompt: request.namedInPrompt,
});

const malformed = (reason: string, cause?: unknown) =>
  new HttpEngineError(`engine response breaks the contract: ${reason}`, { retryable: false, cause });

const parseResponse = (text: string): EngineResponse => {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw malformed('not JSON', error);
  }
  const parsed = v.safeParse(EngineResponseSchema, json);
  if (!parsed.success) throw malformed(v.summarize(parsed.issues));
  return parsed.output;
};

/** Checks what the schema cannot (the response answers this request) and speaks the port's language. */
const toOutcome = (response: EngineResponse, request: EngineRequest): EngineOutcome => {
  if (response.status !== 'ok')
    return { kind: response.status === 'moderated' ? 'moderated' : 'no_image', message: response.message };
  if (response.images.length !== request.numOutputImages) {
    throw malformed(`${response.images.length} images for ${request.numOutputImages} asked`);
  }
  const images = response.images.map(({ format, data_base64 }, index) => {
    const data = Buffer.from(data_base64, 'base64');
    if (
      format !== request.outputFormat ||
      !data.subarray(0, MAGIC[request.outputFormat].length).equals(MAGIC[request.outputFormat])
    ) {
      throw malformed(`image ${index} is not ${request.outputFormat}`);
    }
    return data;
  });
  return {
    kind: 'images',
    images,
    usage: { outputTokens: response.usage.output_tokens, megapixels: response.usage.megapixels },
  };
};
