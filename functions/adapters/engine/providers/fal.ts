/**
 * Read first: the fal adapter. fal runs every model behind a queue (https://fal.ai/docs/api-reference/inference-api,
 * and @fal-ai/client 1.10.1 src/queue.js): submit `POST {queue}/{endpoint}` with the endpoint's input → request_id,
 * status_url, response_url, cancel_url; poll `GET {status_url}` (202 while IN_QUEUE / IN_PROGRESS, 200 once
 * COMPLETED); fetch `GET {response_url}` → the endpoint's output, whose images are URLs to download; cancel
 * `PUT {cancel_url}`. The URLs fal answers are used as given: they name the app without the endpoint's sub-path.
 *
 * One code path: `queue.submit` makes one ticket (one fal request per `maxImagesPerCall` images asked),
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
import sharp from 'sharp';
import * as v from 'valibot';
import {
  type EngineOutcome,
  type EngineQueue,
  type EngineRequest,
  type EngineTicket,
  type ImageEngine,
  inputContentTypeOf,
  type ProgressReport,
  type QueueCheck,
} from '../../../domain/engine/engine';
import {
  cancelFalTicket,
  errorDetail,
  FAL_ENGINE,
  falHeaders,
  falTicketRequests,
  ok,
  PROVIDER,
  providerError,
  type QueuedRequest,
  type TicketRequest,
} from './fal-queue';
import { fitImage, megapixelsOf, nearestAspectRatio } from './fit';
import type { ProviderEngineOptions } from './provider';
import {
  defaultTransport,
  HttpEngineError,
  malformedAnswer,
  type ProviderAnswer,
  type ProviderTransport,
  parseJson,
  sendWithRetries,
} from './provider-http';
import { identityInputs } from './references';

/** How an endpoint family is asked for a size (from the input types in @fal-ai/client 1.10.1 src/types/endpoints.d.ts). */
type SizeRule =
  /** `image_size: {width, height}` within these bounds (fal scales other sizes itself, or refuses them). */
  | { kind: 'image_size'; minEdgePx?: number; maxEdgePx?: number; minPixels?: number; maxPixels?: number }
  /** `aspect_ratio` + `resolution` tier (nano-banana). */
  | { kind: 'aspect_ratio'; aspectRatios: readonly string[]; tiers: readonly { name: string; longEdgePx: number }[] };

/**
 * What fal charges (integer micro-USD), per endpoint family; generate and edit endpoints alike. Retrieved 2026-11-24:
 * - flux-2 [dev]: $0.012 per megapixel, input images too on /edit, each image rounded up to whole megapixels of
 *   1024×1024 (fal's price as relayed by https://lumenfall.ai/models/black-forest-labs/flux.2-dev; the rounding
 *   rule is fal's own, e.g. https://fal.ai/models/fal-ai/flux-2-flex/llms.txt).
 * - flux-2-pro: $0.03 the first megapixel of an output, $0.015 each further one; input images on /edit $0.015 per
 *   megapixel (https://skillspool.org/zh/skills/joernstoehler-dnd-claude-code-claude-skills-fal-flux-prompting-skill-md,
 *   https://lumenfall.ai/models/black-forest-labs/flux.2-pro?mode=image-edit; fal's flux-2-max/edit llms.txt
 *   states the same first/further scheme with inputs counted).
 * - nano-banana-2: $0.08 per image; 0.5K ×0.75, 2K ×1.5, 4K ×2 (https://fal.ai/models/fal-ai/nano-banana-2/edit/llms.txt).
 * - qwen-image-2 (standard): $0.035 per image, text-to-image and edit (https://fal.ai/learn/tools/how-to-use-qwen-image-2).
 * - seedream: no published price found for the v5 endpoints: no cost recorded.
 */
type Price =
  | { per: 'megapixel'; firstMegapixelMicros: number; furtherMegapixelMicros: number; inputMegapixelMicros: number }
  | { per: 'image'; imageMicros: number; tierFactor?: Record<string, number> };

/** fal's megapixel: 1024×1024 px ("a 1024x1024 image will cost $0.05" at $0.05/MP); inputs beyond 4 MP are resized. */
const FAL_MEGAPIXEL_PX = 1024 * 1024;
const MAX_BILLED_INPUT_MEGAPIXELS = 4;

export interface FalFamily {
  name: string;
  generateEndpoint: string;
  editEndpoint: string;
  /** Input images one edit call takes (the caller's and the reference crops together). */
  maxInputImages: number;
  /** `num_images` of one call; 1 where the endpoint has no `num_images`. */
  maxImagesPerCall: number;
  numImagesField: boolean;
  size: SizeRule;
  outputFormatField: boolean;
  safetyCheckerField: boolean;
  price?: Price;
}

const NANO_ASPECT_RATIOS = [
  '21:9',
  '16:9',
  '3:2',
  '4:3',
  '5:4',
  '1:1',
  '4:5',
  '3:4',
  '2:3',
  '9:16',
  '4:1',
  '1:4',
  '8:1',
  '1:8',
];
const NANO_TIERS = [
  { name: '0.5K', longEdgePx: 512 },
  { name: '1K', longEdgePx: 1024 },
  { name: '2K', longEdgePx: 2048 },
  { name: '4K', longEdgePx: 4096 },
];

/** Without an endpoint suffix: the route may name `fal-ai/qwen-image-2` or `fal-ai/qwen-image-2/text-to-image`. */
const baseOf = (model: string): string => model.replace(/\/(edit|text-to-image)$/, '');

/**
 * The endpoint families this adapter speaks, by the route's model. Caps: the issue's (flux-2 edit ≤ 4 references,
 * flux-2-pro ≤ 8, nano-banana-2 ≤ 14, qwen-image-2 1–3) and the types' docs (seedream ≤ 10); `num_images` 1–4
 * per fal's model pages (flux-2 dev, nano-banana-2; the qwen family; seedream kept at 4 likewise).
 */
export const falFamilyOf = (model: string): FalFamily => {
  const base = baseOf(model);
  switch (base) {
    case 'fal-ai/flux-2':
      return {
        name: 'flux-2',
        generateEndpoint: base,
        editEndpoint: `${base}/edit`,
        maxInputImages: 4,
        maxImagesPerCall: 4,
        numImagesField: true,
        size: { kind: 'image_size', minEdgePx: 512, maxEdgePx: 2048 },
        outputFormatField: true,
        safetyCheckerField: true,
        price: {
          per: 'megapixel',
          firstMegapixelMicros: 12_000,
          furtherMegapixelMicros: 12_000,
          inputMegapixelMicros: 12_000,
        },
      };
    case 'fal-ai/flux-2-pro':
      return {
        name: 'flux-2-pro',
        generateEndpoint: base,
        editEndpoint: `${base}/edit`,
        maxInputImages: 8,
        maxImagesPerCall: 1,
        numImagesField: false,
        size: { kind: 'image_size', minEdgePx: 512, maxEdgePx: 2048 },
        outputFormatField: true,
        safetyCheckerField: true,
        price: {
          per: 'megapixel',
          firstMegapixelMicros: 30_000,
          furtherMegapixelMicros: 15_000,
          inputMegapixelMicros: 15_000,
        },
      };
    case 'fal-ai/nano-banana-2':
      return {
        name: 'nano-banana-2',
        generateEndpoint: base,
        editEndpoint: `${base}/edit`,
        maxInputImages: 14,
        maxImagesPerCall: 4,
        numImagesField: true,
        size: { kind: 'aspect_ratio', aspectRatios: NANO_ASPECT_RATIOS, tiers: NANO_TIERS },
        outputFormatField: true,
        safetyCheckerField: false,
        price: { per: 'image', imageMicros: 80_000, tierFactor: { '0.5K': 0.75, '1K': 1, '2K': 1.5, '4K': 2 } },
      };
    case 'fal-ai/qwen-image-2':
      return {
        name: 'qwen-image-2',
        generateEndpoint: `${base}/text-to-image`,
        editEndpoint: `${base}/edit`,
        maxInputImages: 3,
        maxImagesPerCall: 4,
        numImagesField: true,
        size: { kind: 'image_size', minPixels: 512 * 512, maxPixels: 2048 * 2048 },
        outputFormatField: true,
        safetyCheckerField: true,
        price: { per: 'image', imageMicros: 35_000 },
      };
    default:
      if (/(^|\/)bytedance\/seedream\/v\d/.test(base)) {
        return {
          name: 'seedream',
          generateEndpoint: `${base}/text-to-image`,
          editEndpoint: `${base}/edit`,
          maxInputImages: 10,
          maxImagesPerCall: 4,
          numImagesField: true,
          size: { kind: 'image_size', minPixels: 2560 * 1440, maxPixels: 3072 * 3072 },
          outputFormatField: false,
          safetyCheckerField: true,
        };
      }
      throw new Error(
        `fal route model '${model}' is not one the fal adapter knows (fal-ai/flux-2, fal-ai/flux-2-pro, fal-ai/nano-banana-2, fal-ai/qwen-image-2, …/bytedance/seedream/v5/…)`,
      );
  }
};

/** What one call asks fal for: an exact size, or an aspect ratio and a tier. */
export type AskedSize =
  | { kind: 'image_size'; width: number; height: number }
  | { kind: 'aspect_ratio'; aspectRatio: string; resolution: string; longEdgePx: number };

const down16 = (px: number) => Math.max(16, Math.floor(px / 16) * 16);
const up16 = (px: number) => Math.ceil(px / 16) * 16;

/** The size to ask for: the request's own where the endpoint allows it, else the nearest it takes (fitImage does the rest). */
export const askedSize = (family: FalFamily, width: number, height: number): AskedSize => {
  const rule = family.size;
  if (rule.kind === 'aspect_ratio') {
    const long = Math.max(width, height);
    const tier = rule.tiers.find((t) => t.longEdgePx >= long) ?? rule.tiers[rule.tiers.length - 1];
    return {
      kind: 'aspect_ratio',
      aspectRatio: nearestAspectRatio(width, height, rule.aspectRatios),
      resolution: tier?.name ?? '1K',
      longEdgePx: tier?.longEdgePx ?? 1024,
    };
  }
  let scale = 1;
  if (rule.maxEdgePx && Math.max(width, height) * scale > rule.maxEdgePx)
    scale = rule.maxEdgePx / Math.max(width, height);
  if (rule.maxPixels && width * height * scale ** 2 > rule.maxPixels)
    scale = Math.sqrt(rule.maxPixels / (width * height));
  if (rule.minEdgePx && Math.min(width, height) * scale < rule.minEdgePx)
    scale = rule.minEdgePx / Math.min(width, height);
  if (rule.minPixels && width * height * scale ** 2 < rule.minPixels)
    scale = Math.sqrt(rule.minPixels / (width * height));
  if (scale === 1) return { kind: 'image_size', width, height };
  const round = scale < 1 ? down16 : up16;
  const clamp = (px: number) => Math.min(rule.maxEdgePx ?? px, Math.max(rule.minEdgePx ?? px, px));
  return { kind: 'image_size', width: clamp(round(width * scale)), height: clamp(round(height * scale)) };
};

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

const falMegapixels = (width: number, height: number): number =>
  Math.max(1, Math.ceil((width * height) / FAL_MEGAPIXEL_PX));

/** The submit answer (the client's InQueueQueueStatus, common.d.ts), what this adapter reads of it. */
const SubmitAnswerSchema = v.object({
  request_id: v.pipe(v.string(), v.minLength(1)),
  response_url: v.pipe(v.string(), v.url()),
  status_url: v.pipe(v.string(), v.url()),
  cancel_url: v.pipe(v.string(), v.url()),
  queue_position: v.optional(v.nullable(v.number())),
});

/** QueueStatus (common.d.ts): IN_QUEUE carries queue_position. */
const StatusAnswerSchema = v.object({
  status: v.picklist(['IN_QUEUE', 'IN_PROGRESS', 'COMPLETED']),
  queue_position: v.optional(v.nullable(v.number())),
});
type StatusAnswer = v.InferOutput<typeof StatusAnswerSchema>;

/** The image endpoints' outputs (Flux2Output, NanoBananaOutput, imagen3Output, pulidOutput): images by URL. */
const ResultSchema = v.object({
  images: v.array(v.object({ url: v.pipe(v.string(), v.minLength(1)) })),
  has_nsfw_concepts: v.optional(v.nullable(v.array(v.boolean()))),
});

const parseAnswer = <T extends v.GenericSchema>(schema: T, answer: ProviderAnswer, what: string): v.InferOutput<T> => {
  const parsed = v.safeParse(schema, parseJson(PROVIDER, answer.text));
  if (!parsed.success) throw malformedAnswer(PROVIDER, `${what}: ${v.summarize(parsed.issues)}`);
  return parsed.output;
};

/** Poll delay before check n+1 of `run`: 1 s, then a second more each time, at most 5 s. */
const pollDelayMs = (poll: number): number => Math.min(5, poll + 1) * 1000;

/** A best-effort cancel after an abort must not hang the caller. */
const CANCEL_ON_ABORT_TIMEOUT_MS = 10_000;

export class FalEngine implements ImageEngine {
  readonly queue: EngineQueue;
  readonly family: FalFamily;
  private readonly transport: ProviderTransport;
  private readonly queueUrl: string;

  constructor(private readonly options: ProviderEngineOptions) {
    this.family = falFamilyOf(options.model);
    this.transport = defaultTransport(options.transport);
    this.queueUrl = options.baseUrl.replace(/\/+$/, '');
    // Built without an annotation so that the port's optional members (e.g. `kind`) are checked structurally.
    const queue = {
      kind: FAL_ENGINE,
      accepts: () => true,
      submit: (request: EngineRequest, signal: AbortSignal) => this.submit(request, signal),
      check: (ticket: EngineTicket, request: EngineRequest, signal: AbortSignal) => this.check(ticket, request, signal),
      cancel: (ticket: EngineTicket, signal: AbortSignal) => this.cancel(ticket, signal),
    };
    this.queue = queue;
  }

  async run(request: EngineRequest, signal: AbortSignal, progress?: ProgressReport): Promise<EngineOutcome> {
    const ticket = await this.submit(request, signal);
    try {
      for (let poll = 0; ; poll += 1) {
        const check = await this.check(ticket, request, signal);
        if (check.state === 'done') return check.outcome;
        if (check.progress !== undefined) progress?.(check.progress);
        await this.transport.wait(pollDelayMs(poll), signal);
      }
    } catch (error) {
      if (signal.aborted)
        await this.cancel(ticket, AbortSignal.timeout(CANCEL_ON_ABORT_TIMEOUT_MS)).catch(() => undefined);
      throw error;
    }
  }

  private async headers(): Promise<Record<string, string>> {
    return falHeaders(await this.options.apiKey());
  }

  /** The caller's images, then the reference crops (or contact sheets), shared as short-lived URLs. */
  private async inputs(request: EngineRequest): Promise<{ prompt: string; urls: string[]; megapixels: number }> {
    const { family } = this;
    if (request.images.length > family.maxInputImages) {
      throw new HttpEngineError(
        `${this.options.model} takes at most ${family.maxInputImages} input images; the request has ${request.images.length}`,
        { retryable: false },
      );
    }
    const identity = await identityInputs(request, family.maxInputImages, this.options.references.load);
    const callers = await Promise.all(
      request.images.map(async (image) =>
        image.format === 'heif'
          ? {
              data: await sharp(image.data).png().toBuffer(),
              contentType: 'image/png',
              width: image.width,
              height: image.height,
            }
          : {
              data: image.data,
              contentType: inputContentTypeOf(image.format),
              width: image.width,
              height: image.height,
            },
      ),
    );
    const references = await Promise.all(
      identity.references.map(async (data) => {
        const meta = await sharp(data).metadata();
        return { data, contentType: 'image/jpeg', width: meta.width ?? 0, height: meta.height ?? 0 };
      }),
    );
    const all = [...callers, ...references];
    const urls = await Promise.all(
      all.map(({ data, contentType }) => this.options.references.share(data, contentType)),
    );
    const megapixels = all.reduce(
      (sum, { width, height }) => sum + Math.min(MAX_BILLED_INPUT_MEGAPIXELS, falMegapixels(width, height)),
      0,
    );
    return { prompt: identity.prompt, urls, megapixels };
  }

  /** One call's input, in the endpoint's own fields (the double checks them against the client's types). */
  private input(request: EngineRequest, prompt: string, urls: string[], images: number): Record<string, unknown> {
    const { family } = this;
    const size = askedSize(family, request.width, request.height);
    return {
      prompt,
      ...(urls.length > 0 && { image_urls: urls }),
      ...(family.numImagesField && { num_images: images }),
      ...(size.kind === 'image_size'
        ? { image_size: { width: size.width, height: size.height } }
        : { aspect_ratio: size.aspectRatio, resolution: size.resolution }),
      ...(family.outputFormatField && { output_format: request.outputFormat === 'jpg' ? 'jpeg' : 'png' }),
      ...(family.safetyCheckerField && { enable_safety_checker: true }),
    };
  }

  async submit(request: EngineRequest, signal: AbortSignal): Promise<EngineTicket> {
    signal.throwIfAborted();
    const submittedAt = this.transport.clock();
    const { prompt, urls, megapixels } = await this.inputs(request);
    // A generate that names profiles carries their crops, so it goes to the edit endpoint too.
    const endpoint = urls.length > 0 ? this.family.editEndpoint : this.family.generateEndpoint;
    const counts: number[] = [];
    for (let left = request.numOutputImages; left > 0; left -= this.family.maxImagesPerCall) {
      counts.push(Math.min(left, this.family.maxImagesPerCall));
    }
    const headers = await this.headers();
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
        const answer = await sendWithRetries(
          this.transport,
          {
            provider: PROVIDER,
            url: `${this.queueUrl}/${endpoint}`,
            method: 'POST',
            headers,
            body: JSON.stringify(this.input(request, prompt, urls, images)),
          },
          signal,
        );
        if (!ok(answer)) {
          const { message, policy } = errorDetail(answer);
          if (!policy) throw providerError(answer, `submit to ${endpoint}`);
          await cancelStarted();
          return { engine: FAL_ENGINE, requests: [{ id: 'refused', refusal: 'moderated', message }], submittedAt };
        }
        const queued = parseAnswer(SubmitAnswerSchema, answer, 'submit');
        requests.push({
          id: queued.request_id,
          status: queued.status_url,
          response: queued.response_url,
          cancel: queued.cancel_url,
          images,
          inputMegapixels: megapixels,
        });
      }
    } catch (error) {
      await cancelStarted();
      throw error;
    }
    return { engine: FAL_ENGINE, requests, submittedAt };
  }

  private ticketRequests(ticket: EngineTicket): TicketRequest[] {
    return falTicketRequests(ticket);
  }

  private async get(url: string, signal: AbortSignal): Promise<ProviderAnswer> {
    const headers = await this.headers();
    return sendWithRetries(this.transport, { provider: PROVIDER, url, method: 'GET', headers }, signal);
  }

  private async status(entry: QueuedRequest, signal: AbortSignal): Promise<StatusAnswer> {
    const answer = await this.get(entry.status, signal);
    if (!ok(answer)) throw providerError(answer, `the status of request ${entry.id}`);
    return parseAnswer(StatusAnswerSchema, answer, 'status');
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
    return {
      kind: 'images',
      images,
      usage: {
        outputTokens: 0,
        megapixels: megapixelsOf(request.width, request.height, images.length),
        ...(providerCostMicros !== undefined && { providerCostMicros }),
      },
    };
  }

  /**
   * An output file, with the shared retry rules. sendWithRetries reads bodies as text, so this fetch hands it
   * the bytes base64-encoded. No Authorization header: the files are public URLs on fal's CDN, not the queue.
   */
  private async download(url: string, signal: AbortSignal): Promise<Buffer> {
    const fetchBytes: ProviderTransport['fetch'] = async (input, init) => {
      const response = await this.transport.fetch(input, init);
      if (!response.ok) return response;
      const bytes = Buffer.from(await response.arrayBuffer());
      return new Response(bytes.toString('base64'), { status: response.status, headers: response.headers });
    };
    const answer = await sendWithRetries(
      { ...this.transport, fetch: fetchBytes },
      { provider: PROVIDER, url, method: 'GET', headers: {} },
      signal,
    );
    if (!ok(answer)) throw providerError(answer, `the download of ${url}`);
    return Buffer.from(answer.text, 'base64');
  }

  /** From the price table: per call, its outputs at the size asked, and on edit endpoints its inputs. */
  private costMicros(request: EngineRequest, queued: QueuedRequest[]): number | undefined {
    const { price } = this.family;
    if (!price) return undefined;
    const size = askedSize(this.family, request.width, request.height);
    let micros = 0;
    for (const entry of queued) {
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
    await cancelFalTicket(ticket, { apiKey: this.options.apiKey, transport: this.transport }, signal);
  }
}
