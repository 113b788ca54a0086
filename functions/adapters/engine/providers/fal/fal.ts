/**
 * Read first: the fal adapter. fal runs every model behind a queue (https://fal.ai/docs/api-reference/inference-api,
 * and @fal-ai/client 1.10.1 src/queue.js): submit `POST {queue}/{endpoint}` with the endpoint's input → request_id,
 * status_url, response_url, cancel_url; poll `GET {status_url}` (202 while IN_QUEUE / IN_PROGRESS, 200 once
 * COMPLETED); fetch `GET {response_url}` → the endpoint's output, whose images are URLs to download; cancel
 * `PUT {cancel_url}`. The URLs fal answers are used as given: they name the app without the endpoint's sub-path.
 *
 * The model families and their size rules are in families.ts, the answers' schemas in answers.ts, the
 * ticket and the cancel in queue.ts. One code path: `queue.submit` makes one ticket (one fal request per `maxImagesPerCall` images asked),
 * `queue.check` reads it, and `run` is submit → check every 1…5 s (the transport's wait) → the outcome.
 *
 * Idempotency: fal's queue takes no idempotency header (the client sends none; the queue docs name none), so
 * none is sent. Exactly-once comes from the ticket: the asynchronous workflow stores it on the job before
 * anything else can fail and later steps only check it; a synchronous `run` submits once per call.
 *
 * Refusals: fal answers HTTP 422 with `detail[].type: "content_policy_violation"` (https://fal.ai/docs/documentation/model-apis/errors),
 * on the result fetch and possibly on submit → moderated with `detail[].msg`; `has_nsfw_concepts` true for an
 * image (flux: the checker blanks it) → moderated; a COMPLETED result without the images asked → no_image.
 */
import {
  type EngineOutcome,
  type EngineQueue,
  type EngineRequest,
  type EngineTicket,
  type ImageEngine,
  inputContentTypeOf,
  type KeepTicket,
  type ProgressReport,
  type QueueCheck,
} from '../../../../domain/engine/engine';
import { LORA_SCALE } from '../../../../domain/engine/identity-prompt';
import { loadSharp } from '../../../images/sharp';
import { fitImage, megapixelsOf } from '../fit';
import { jobIdOf, type MediaPolicy, type ProviderEngineOptions, withApiKey } from '../provider';
import {
  defaultTransport,
  HttpEngineError,
  type ProviderAnswer,
  type ProviderCall,
  type ProviderTransport,
  sendWithRetries,
} from '../provider-http';
import { identityInputs } from '../references';
import { parseAnswer, ResultSchema, type StatusAnswer, SubmitAnswerSchema } from './answers';
import {
  askedSize,
  type FalFamily,
  falFamilyOf,
  falMegapixels,
  falTakesLora,
  MAX_BILLED_INPUT_MEGAPIXELS,
} from './families';
import { allowedMediaUrl, FAL_MAX_OUTPUT_BYTES, FAL_MEDIA_HOSTS_DEFAULT, guardedFetch, tooLarge } from './media';
import {
  cancelFalTicket,
  errorDetail,
  FAL_ENGINE,
  falHeaders,
  falRequestStatus,
  falTicketRequests,
  ok,
  onQueue,
  PROVIDER,
  providerError,
  type QueuedRequest,
  type TicketRequest,
} from './queue';

/**
 * A check only reads (status, result, files): a transient failure (5xx, 429, the network) that outlasted one
 * call's attempts is worth another check later, so it stays retryable and the workflow checks again after its
 * wait (TransientEngineError) instead of failing a job whose fal request may still finish.
 */
const worthAnotherCheck = (error: unknown): unknown =>
  error instanceof HttpEngineError &&
  !error.retryable &&
  error.cause instanceof HttpEngineError &&
  error.cause.retryable
    ? new HttpEngineError(error.message, { retryable: true, status: error.status, cause: error.cause })
    : error;

/**
 * The answers to a submit that show fal queued nothing, the only ones a submit is sent again on
 * (provider-http.ts `notProcessed`; fal's queue takes no idempotency key). 429 alone: a rate-limit refusal
 * at the door (RFC 6585 §4; fal's reliability page, https://fal.ai/docs/model-apis/model-endpoints/reliability,
 * "Rate limits (429)"), answered before any request_id exists, while fal's concurrency limit never rejects a
 * queued request (https://fal.ai/docs/documentation/model-apis/concurrency-limits). fal documents no 5xx of
 * the submit itself as "not queued", so none is retried: a request it queued would run, and bill, twice.
 */
export const FAL_SUBMIT_NOT_PROCESSED: readonly number[] = [429];

/** Poll delay before check n+1 of `run`: 1 s, then a second more each time, at most 5 s. */
const pollDelayMs = (poll: number): number => Math.min(5, poll + 1) * 1000;

/** A best-effort cancel after an abort must not hang the caller. */
const CANCEL_ON_ABORT_TIMEOUT_MS = 10_000;

export class FalEngine implements ImageEngine {
  readonly queue: EngineQueue;
  readonly family: FalFamily;
  private readonly transport: ProviderTransport;
  private readonly queueUrl: string;
  private readonly media: MediaPolicy;

  constructor(private readonly options: ProviderEngineOptions) {
    this.family = falFamilyOf(options.model);
    this.transport = defaultTransport(options.transport);
    this.queueUrl = options.baseUrl.replace(/\/+$/, '');
    this.media = options.media ?? { hosts: FAL_MEDIA_HOSTS_DEFAULT, allowLoopback: false };
    // Built without an annotation so that the port's optional members (e.g. `kind`) are checked structurally.
    const queue = {
      kind: FAL_ENGINE,
      accepts: () => true,
      submit: (request: EngineRequest, signal: AbortSignal, webhookUrl?: string) =>
        this.submit(request, signal, webhookUrl),
      check: (ticket: EngineTicket, request: EngineRequest, signal: AbortSignal) => this.check(ticket, request, signal),
      cancel: (ticket: EngineTicket, signal: AbortSignal) => this.cancel(ticket, signal),
    };
    this.queue = queue;
  }

  async run(
    request: EngineRequest,
    signal: AbortSignal,
    progress?: ProgressReport,
    keepTicket?: KeepTicket,
  ): Promise<EngineOutcome> {
    const ticket = await this.submit(request, signal);
    try {
      await keepTicket?.(ticket);
      for (let poll = 0; ; poll += 1) {
        const check = await this.check(ticket, request, signal);
        if (check.state === 'done') return check.outcome;
        if (check.progress !== undefined) progress?.(check.progress);
        await this.transport.wait(pollDelayMs(poll), signal);
      }
    } catch (error) {
      // A run that fails (aborted, its ticket not kept, a check failing for good) has no use for the work:
      // left queued, it would run unseen and be billed.
      await this.cancel(ticket, AbortSignal.timeout(CANCEL_ON_ABORT_TIMEOUT_MS)).catch(() => undefined);
      throw error;
    }
  }

  /** One call to the queue with the key (read again once if fal refuses it: rotated since it was cached). */
  private withKey(call: Omit<ProviderCall, 'headers' | 'provider'>, signal: AbortSignal): Promise<ProviderAnswer> {
    const url = onQueue(String(call.url), this.queueUrl, call.method === 'POST' ? 'submit' : 'status or result');
    return withApiKey(this.options.apiKey, (apiKey) =>
      sendWithRetries(this.transport, { ...call, url, provider: PROVIDER, headers: falHeaders(apiKey) }, signal),
    );
  }

  /**
   * The caller's images, then the reference crops (or contact sheets), shared as short-lived URLs; on a family
   * with LoRA endpoints, the one subject carried by its LoRA (identity-prompt.ts `loraCarried`) as a presigned
   * URL of our copy of the LoRA instead of crops, and the word its LoRA learned in the prompt.
   */
  private async inputs(request: EngineRequest): Promise<{
    prompt: string;
    urls: string[];
    megapixels: number;
    lora?: { profileId: string; url: string };
  }> {
    const { family } = this;
    if (request.images.length > family.maxInputImages) {
      throw new HttpEngineError(
        `${this.options.model} takes at most ${family.maxInputImages} input images; the request has ${request.images.length}`,
        { retryable: false },
      );
    }
    const takesLora = falTakesLora(family, request);
    const identity = await identityInputs(
      request,
      takesLora ? (family.lora?.maxInputImages ?? 0) : family.maxInputImages,
      this.options.references.load,
      takesLora,
    );
    const carried = identity.plan.lora;
    const lora = carried && { profileId: carried.profileId, url: await this.options.references.url(carried.key) };
    // Each input is shared as what its bytes are (DecodedImage.format is the format after re-encoding).
    const callers = request.images.map((image) => ({
      data: image.data,
      contentType: inputContentTypeOf(image.format),
      width: image.width,
      height: image.height,
    }));
    const references = await Promise.all(
      identity.references.map(async (data) => {
        const meta = await (await loadSharp())(data).metadata();
        return { data, contentType: 'image/jpeg', width: meta.width ?? 0, height: meta.height ?? 0 };
      }),
    );
    // Each copy is scoped to the account, and to the profile it shows or else to the job (shared-inputs.ts).
    const owner = { accountId: request.accountId, jobId: jobIdOf(request.workKey) };
    const owners = [
      ...callers.map(() => owner),
      ...identity.plan.references.map(({ profileId }) => ({ ...owner, profileId })),
    ];
    const all = [...callers, ...references];
    const urls = await Promise.all(
      all.map(({ data, contentType }, index) =>
        this.options.references.share(data, contentType, owners[index] ?? owner),
      ),
    );
    const megapixels = all.reduce(
      (sum, { width, height }) => sum + Math.min(MAX_BILLED_INPUT_MEGAPIXELS, falMegapixels(width, height)),
      0,
    );
    return { prompt: identity.prompt, urls, megapixels, ...(lora && { lora }) };
  }

  /** One call's input, in the endpoint's own fields (the double checks them against the client's types). */
  private input(
    request: EngineRequest,
    prompt: string,
    urls: string[],
    images: number,
    loraUrl?: string,
  ): Record<string, unknown> {
    const { family } = this;
    const size = askedSize(family, request.width, request.height);
    return {
      prompt,
      ...(urls.length > 0 && { image_urls: urls }),
      ...(loraUrl !== undefined && { loras: [{ path: loraUrl, scale: LORA_SCALE }] }),
      ...(family.numImagesField && { num_images: images }),
      ...(size.kind === 'image_size'
        ? { image_size: { width: size.width, height: size.height } }
        : { aspect_ratio: size.aspectRatio, resolution: size.resolution }),
      ...(family.outputFormatField && { output_format: request.outputFormat === 'jpg' ? 'jpeg' : 'png' }),
      ...(family.safetyCheckerField && { enable_safety_checker: true }),
    };
  }

  /** With `webhookUrl`, fal reports each request's end there (`fal_webhook`, webhook.ts); the ticket says so. */
  async submit(request: EngineRequest, signal: AbortSignal, webhookUrl?: string): Promise<EngineTicket> {
    signal.throwIfAborted();
    const submittedAt = this.transport.clock();
    const { prompt, urls, megapixels, lora } = await this.inputs(request);
    // A generate that names profiles carries their crops, so it goes to the edit endpoint too; a subject carried
    // by its LoRA sends the family's LoRA endpoints.
    const endpoints = lora && this.family.lora ? this.family.lora : this.family;
    const endpoint = urls.length > 0 ? endpoints.editEndpoint : endpoints.generateEndpoint;
    const counts: number[] = [];
    for (let left = request.numOutputImages; left > 0; left -= this.family.maxImagesPerCall) {
      counts.push(Math.min(left, this.family.maxImagesPerCall));
    }
    const requests: TicketRequest[] = [];
    // The earlier calls of a ticket that fails or is refused would run unseen (and be charged): stop them.
    const cancelStarted = async () => {
      const started = requests.filter((entry): entry is QueuedRequest => 'status' in entry);
      if (started.length === 0) return;
      await this.cancel(
        { engine: FAL_ENGINE, requests: started, submittedAt },
        AbortSignal.timeout(CANCEL_ON_ABORT_TIMEOUT_MS),
      ).catch(() => undefined);
    };
    try {
      for (const images of counts) {
        const answer = await this.withKey(
          {
            url: `${this.queueUrl}/${endpoint}${webhookUrl ? `?fal_webhook=${encodeURIComponent(webhookUrl)}` : ''}`,
            method: 'POST',
            body: JSON.stringify(this.input(request, prompt, urls, images, lora?.url)),
            notProcessed: FAL_SUBMIT_NOT_PROCESSED,
          },
          signal,
        );
        if (!ok(answer)) {
          const { message, policy } = errorDetail(answer);
          if (!policy) throw providerError(answer, `submit to ${endpoint}`);
          await cancelStarted();
          return {
            engine: FAL_ENGINE,
            model: this.options.model,
            requests: [{ id: 'refused', refusal: 'moderated', message }],
            submittedAt,
          };
        }
        const queued = parseAnswer(SubmitAnswerSchema, answer, 'submit');
        // The URLs this ticket will send the key to: on the configured queue, or the job fails now.
        requests.push({
          id: queued.request_id,
          status: onQueue(queued.status_url, this.queueUrl, 'status'),
          response: onQueue(queued.response_url, this.queueUrl, 'result'),
          cancel: onQueue(queued.cancel_url, this.queueUrl, 'cancel'),
          images,
          inputMegapixels: megapixels,
          ...(lora && { lora: lora.profileId }),
        });
      }
    } catch (error) {
      await cancelStarted();
      throw error;
    }
    // The model travels with the ticket: it is checked and canceled by this model's engine whatever the routes say later.
    return {
      engine: FAL_ENGINE,
      model: this.options.model,
      requests,
      submittedAt,
      ...(webhookUrl !== undefined && { webhook: true }),
    };
  }

  private ticketRequests(ticket: EngineTicket): TicketRequest[] {
    return falTicketRequests(ticket);
  }

  private get(url: string, signal: AbortSignal): Promise<ProviderAnswer> {
    return this.withKey({ url, method: 'GET' }, signal);
  }

  private status(entry: QueuedRequest, signal: AbortSignal): Promise<StatusAnswer> {
    return falRequestStatus(
      entry,
      { apiKey: this.options.apiKey, queueUrl: this.queueUrl, transport: this.transport },
      signal,
    );
  }

  async check(ticket: EngineTicket, request: EngineRequest, signal: AbortSignal): Promise<QueueCheck> {
    return this.checkOnce(ticket, request, signal).catch((error: unknown) => {
      throw worthAnotherCheck(error);
    });
  }

  private async checkOnce(ticket: EngineTicket, request: EngineRequest, signal: AbortSignal): Promise<QueueCheck> {
    signal.throwIfAborted();
    const entries = this.ticketRequests(ticket);
    const refused = entries.find((entry) => entry.id === 'refused');
    if (refused && 'refusal' in refused) {
      return { state: 'done', outcome: { kind: refused.refusal, message: refused.message } };
    }
    const queued = entries.filter((entry): entry is QueuedRequest => 'status' in entry);
    const statuses = await Promise.all(queued.map((entry) => this.status(entry, signal)));
    const completed = statuses.filter((status) => status.status === 'COMPLETED').length;
    if (completed < queued.length) {
      const positions = statuses.flatMap((status) =>
        status.status === 'IN_QUEUE' && typeof status.queue_position === 'number' ? [status.queue_position] : [],
      );
      return {
        state: 'waiting',
        ...(positions.length > 0 && { queuePosition: Math.max(...positions) }),
        ...(queued.length > 1 && { progress: completed / queued.length }),
      };
    }
    return { state: 'done', outcome: await this.outcome(queued, request, signal) };
  }

  /** Every request COMPLETED: their results, refusals first, then the images downloaded and fitted, in order. */
  private async outcome(queued: QueuedRequest[], request: EngineRequest, signal: AbortSignal): Promise<EngineOutcome> {
    type CallResult = { refusal: 'moderated' | 'no_image'; message: string } | { urls: string[] };
    const results = await Promise.all(
      queued.map(async (entry): Promise<CallResult> => {
        const answer = await this.get(entry.response, signal);
        if (!ok(answer)) {
          const { message, policy } = errorDetail(answer);
          if (policy) return { refusal: 'moderated', message };
          throw providerError(answer, `the result of request ${entry.id}`);
        }
        const result = parseAnswer(ResultSchema, answer, 'result');
        const flags = result.has_nsfw_concepts ?? [];
        if (result.images.length > 0 && flags.slice(0, result.images.length).some(Boolean)) {
          return {
            refusal: 'moderated',
            message: `fal's safety checker flagged ${flags.filter(Boolean).length} of ${result.images.length} images (has_nsfw_concepts)`,
          };
        }
        if (result.images.length < entry.images) {
          return {
            refusal: 'no_image',
            message: `fal completed request ${entry.id} with ${result.images.length} of the ${entry.images} images asked`,
          };
        }
        return { urls: result.images.slice(0, entry.images).map((image) => image.url) };
      }),
    );
    for (const result of results) {
      if ('refusal' in result) return { kind: result.refusal, message: result.message };
    }
    const urls = results.flatMap((result) => ('urls' in result ? result.urls : []));
    const images: Buffer[] = [];
    for (const url of urls) {
      const data = await this.download(url, signal);
      images.push(await fitImage(data, request.width, request.height, request.outputFormat, signal));
    }
    const providerCostMicros = this.costMicros(request, queued);
    const carriedByLora = [...new Set(queued.flatMap((entry) => (entry.lora ? [entry.lora] : [])))];
    return {
      kind: 'images',
      images,
      usage: {
        outputTokens: 0,
        megapixels: megapixelsOf(request.width, request.height, images.length),
        ...(providerCostMicros !== undefined && { providerCostMicros }),
      },
      ...(carriedByLora.length > 0 && { carriedByLora }),
    };
  }

  /**
   * An output file, with the shared retry rules, through the guarded client (media.ts): only from fal's
   * media hosts (FAL_MEDIA_HOSTS), at most FAL_MAX_OUTPUT_BYTES, no redirect, never with the key. A URL
   * anywhere else fails the job (refunded). sendWithRetries reads bodies as text, so the bytes go base64.
   */
  private async download(url: string, signal: AbortSignal): Promise<Buffer> {
    const checked = allowedMediaUrl(url, this.media, this.queueUrl);
    const fetchBytes: ProviderTransport['fetch'] = async (input, init) => {
      const response = await (this.options.transport?.fetch ?? guardedFetch(this.media.allowLoopback))(input, init);
      if (!response.ok) return response;
      const bytes = Buffer.from(await response.arrayBuffer());
      if (bytes.length > FAL_MAX_OUTPUT_BYTES) throw tooLarge(checked);
      return new Response(bytes.toString('base64'), { status: response.status, headers: response.headers });
    };
    const answer = await sendWithRetries(
      { ...this.transport, fetch: fetchBytes },
      { provider: PROVIDER, url: checked, method: 'GET', headers: {} },
      signal,
    );
    if (!ok(answer)) throw providerError(answer, `the download of ${checked}`);
    return Buffer.from(answer.text, 'base64');
  }

  /**
   * From the price table: per call, its outputs at the size asked, and on edit endpoints its inputs; a call
   * to a LoRA endpoint at the LoRA endpoints' price.
   */
  private costMicros(request: EngineRequest, queued: QueuedRequest[]): number | undefined {
    const size = askedSize(this.family, request.width, request.height);
    let micros = 0;
    for (const entry of queued) {
      const price = entry.lora ? this.family.lora?.price : this.family.price;
      if (!price) return undefined;
      if (price.per === 'image') {
        const factor = size.kind === 'aspect_ratio' ? (price.tierFactor?.[size.resolution] ?? 1) : 1;
        micros += price.imageMicros * factor * entry.images;
      } else {
        const megapixels =
          size.kind === 'image_size'
            ? falMegapixels(size.width, size.height)
            : falMegapixels(size.longEdgePx, size.longEdgePx);
        micros +=
          entry.images * (price.firstMegapixelMicros + (megapixels - 1) * price.furtherMegapixelMicros) +
          entry.inputMegapixels * price.inputMegapixelMicros;
      }
    }
    return Math.ceil(micros);
  }

  /** PUT each cancel_url; a request fal has already finished is not an error (it may still be charged). */
  async cancel(ticket: EngineTicket, signal: AbortSignal): Promise<void> {
    await cancelFalTicket(
      ticket,
      { apiKey: this.options.apiKey, queueUrl: this.queueUrl, transport: this.transport },
      signal,
    );
  }
}
