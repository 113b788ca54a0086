/**
 * Read first: the OpenAI Images adapter (gpt-image-2 behind base-b-2, gpt-image-2.5-flare / -sunburst behind
 * base-b-2.5-*). Synchronous: one POST per call, no queue.
 *
 * - A generate without inputs or reference crops is POST {baseUrl}/images/generations (JSON). Everything else
 *   (edit, enhance, remix, a generate naming profiles) is POST {baseUrl}/images/edits (multipart/form-data,
 *   one `image[]` part per image: the caller's inputs first, then the reference crops, at most 16).
 * - Size: gpt-image-2 takes any WIDTHxHEIGHT within its limits (OPENAI_SIZE_LIMITS), so the exact size is asked
 *   for when allowed, else the nearest allowed one; fitImage makes every output exactly width×height.
 * - Count: at most 10 images per call (`n`, OpenAPI maximum); more take several calls, made one after another
 *   so that a refusal stops the rest.
 * - Refusal: HTTP 400 with `error.code` `moderation_blocked` (GPT image models; `content_policy_violation` is
 *   the same refusal from the DALL·E era) → moderated. Any other 4xx is an HttpEngineError, not retryable.
 * - Idempotency-Key: `${workKey}` (one call) or `${workKey}:${i}` (call i of several), the same on every
 *   attempt. OpenAI does not document honouring Idempotency-Key on the Images API (its OpenAPI document names
 *   no such header), so today it protects only through proxies that deduplicate; sent so nothing changes here
 *   when OpenAI does.
 *
 * Wire shapes: OpenAI's OpenAPI document (github.com/openai/openai-openapi, openapi.json, commit f85dbe22,
 * 2026-08-21), schemas CreateImageRequest, CreateImageEditRequest, ImagesResponse, ErrorResponse.
 */
import * as v from 'valibot';
import {
  type EngineOutcome,
  type EngineRequest,
  type ImageEngine,
  type ImageFormat,
  inputContentTypeOf,
  type OutputFormat,
} from '../../../../domain/engine/engine';
import { fitImage, megapixelsOf } from '../fit';
import { type ProviderEngineOptions, withApiKey } from '../provider';
import {
  defaultTransport,
  HttpEngineError,
  malformedAnswer,
  type ProviderAnswer,
  type ProviderTransport,
  parseJson,
  sendWithRetries,
} from '../provider-http';
import { identityInputs } from '../references';
import { OPENAI_PRICES_MICROS_PER_TOKEN } from './prices';

export { OPENAI_PRICES_MICROS_PER_TOKEN };

const PROVIDER = 'OpenAI';

/** CreateImageEditRequest.image: "You can provide up to 16 images" (maxItems 16). */
export const OPENAI_MAX_INPUT_IMAGES = 16;

/** CreateImageRequest.n / CreateImageEditRequest.n: maximum 10. */
export const OPENAI_MAX_IMAGES_PER_CALL = 10;

/**
 * gpt-image-2's sizes. The OpenAPI `size` description: both edges divisible by 16, aspect ratio between 1:3 and
 * 3:1, at most 3840x2160, "the model's current pixel and edge limits". Those limits, as OpenAI's image guide
 * states them (quoted by https://docs.anyfast.ai/api-reference/model-api/openai/gpt-image-2 and
 * https://xairouter.com/en/models/gpt-image-2/, read 2026-11-24): total pixels 655,360 to 8,294,400, longest
 * edge 3,840 px. The 2.5 models take the same request shape (issue 24).
 */
export const OPENAI_SIZE_LIMITS = {
  edgeMultiplePx: 16,
  maxEdgePx: 3840,
  maxRatio: 3,
  minPixels: 655_360,
  maxPixels: 8_294_400,
} as const;

/** Our quality values and OpenAI's `quality` are the same words (xhigh and max only on the 2.5 models). */
const QUALITY = ['auto', 'low', 'medium', 'high', 'xhigh', 'max'] as const;

const OUTPUT_FORMAT: Record<OutputFormat, 'png' | 'jpeg'> = { png: 'png', jpg: 'jpeg' };

// Wire schemas of what we read back (ImagesResponse, ErrorResponse); unknown fields are allowed, as OpenAI adds them.
const count = v.pipe(v.number(), v.integer(), v.minValue(0));
const ImagesResponseSchema = v.object({
  created: v.number(),
  data: v.optional(v.array(v.object({ b64_json: v.optional(v.string()) }))),
  usage: v.optional(
    v.object({
      input_tokens: count,
      output_tokens: count,
      total_tokens: count,
      input_tokens_details: v.optional(v.object({ text_tokens: count, image_tokens: count })),
    }),
  ),
});
type ImagesResponse = v.InferOutput<typeof ImagesResponseSchema>;

const ErrorResponseSchema = v.object({
  error: v.object({
    message: v.string(),
    type: v.optional(v.string()),
    param: v.optional(v.nullable(v.string())),
    code: v.optional(v.nullable(v.string())),
  }),
});

/**
 * The answers OpenAI documents as "the request was not processed", the only ones a POST is sent again on
 * (provider-http.ts `notProcessed`; OpenAI does not document honouring Idempotency-Key). From OpenAI's
 * error-codes guide (https://platform.openai.com/docs/guides/error-codes, "API errors"): 429 "Rate limit
 * reached for requests" (pace your requests) and 503 "The engine is currently overloaded" / "Slow Down"
 * (our servers are experiencing high traffic and are unable to process your request: help article 6891834).
 * Not 500 ("The server had an error while processing your request": processing had begun), nor a timeout.
 */
export const OPENAI_NOT_PROCESSED: readonly number[] = [429, 503];

/** `error.code` values OpenAI uses for a prompt or image its safety system refused. */
const REFUSAL_CODES = new Set(['moderation_blocked', 'content_policy_violation']);

const allowed = (width: number, height: number): boolean => {
  const { edgeMultiplePx, maxEdgePx, maxRatio, minPixels, maxPixels } = OPENAI_SIZE_LIMITS;
  return (
    width % edgeMultiplePx === 0 &&
    height % edgeMultiplePx === 0 &&
    Math.max(width, height) <= maxEdgePx &&
    Math.max(width, height) <= maxRatio * Math.min(width, height) &&
    width * height >= minPixels &&
    width * height <= maxPixels
  );
};

/**
 * The size to ask gpt-image-2 for: width×height itself when allowed, else the allowed size closest to it
 * (aspect ratio clamped to 1:3..3:1, area to the pixel limits, long edge to 3840, then the nearest multiple-of-16
 * size on a log scale, so that fitting changes the image least).
 */
export const openAiSize = (width: number, height: number): { width: number; height: number } => {
  if (allowed(width, height)) return { width, height };
  const { edgeMultiplePx, maxEdgePx, maxRatio, minPixels, maxPixels } = OPENAI_SIZE_LIMITS;
  const ratio = Math.min(maxRatio, Math.max(1 / maxRatio, width / height));
  const area = Math.min(maxPixels, Math.max(minPixels, width * height));
  const shrink = Math.min(1, maxEdgePx / Math.max(Math.sqrt(area * ratio), Math.sqrt(area / ratio)));
  const idealWidth = Math.sqrt(area * ratio) * shrink;
  const idealHeight = Math.sqrt(area / ratio) * shrink;
  const distance = (w: number, h: number) => Math.hypot(Math.log(w / idealWidth), Math.log(h / idealHeight));
  let best = { width: 1024, height: 1024 };
  for (let w = edgeMultiplePx; w <= maxEdgePx; w += edgeMultiplePx) {
    const around = idealHeight * (w / idealWidth);
    for (const h of [Math.floor(around / edgeMultiplePx), Math.ceil(around / edgeMultiplePx)].map(
      (steps) => steps * edgeMultiplePx,
    )) {
      if (h > 0 && allowed(w, h) && distance(w, h) < distance(best.width, best.height)) best = { width: w, height: h };
    }
  }
  return best;
};

/** What the tokens of one answer cost at OpenAI, in micro-USD, rounded up (undefined without a price or usage). */
export const openAiCostMicros = (model: string, usage: ImagesResponse['usage']): number | undefined => {
  const price = OPENAI_PRICES_MICROS_PER_TOKEN[model];
  if (!price || !usage) return undefined;
  const details = usage.input_tokens_details;
  const textIn = details?.text_tokens ?? usage.input_tokens;
  const imageIn = details?.image_tokens ?? 0;
  return Math.ceil(textIn * price.textInput + imageIn * price.imageInput + usage.output_tokens * price.imageOutput);
};

/** An input image as OpenAI takes it (png, webp or jpg; anything else is re-encoded as png). */
/** One `image[]` part, named and typed as what its bytes are (JPEG, PNG or WebP: what the Images API takes). */
const asUpload = (
  data: Buffer,
  format: ImageFormat,
  name: string,
): { data: Buffer; type: string; filename: string } => ({
  data,
  type: inputContentTypeOf(format),
  filename: `${name}.${UPLOAD_EXTENSION[format]}`,
});

const UPLOAD_EXTENSION: Record<ImageFormat, string> = { jpeg: 'jpg', png: 'png', webp: 'webp' };

export class OpenAiEngine implements ImageEngine {
  private readonly options: ProviderEngineOptions;
  private readonly transport: ProviderTransport;

  constructor(options: ProviderEngineOptions) {
    this.options = options;
    this.transport = defaultTransport(options.transport);
  }

  async run(request: EngineRequest, signal: AbortSignal): Promise<EngineOutcome> {
    signal.throwIfAborted();
    const identity = await identityInputs(request, OPENAI_MAX_INPUT_IMAGES, this.options.references.load);
    const uploads = [
      ...request.images.map((image, index) => asUpload(image.data, image.format, `input-${index + 1}`)),
      ...identity.references.map((data, index) => asUpload(data, 'jpeg', `reference-${index + 1}`)),
    ];
    const size = openAiSize(request.width, request.height);
    const fields: Record<string, string | number> = {
      model: this.options.model,
      prompt: identity.prompt,
      size: `${size.width}x${size.height}`,
      output_format: OUTPUT_FORMAT[request.outputFormat],
      ...(request.quality !== undefined && { quality: qualityOf(request.quality) }),
    };
    const calls = Math.ceil(request.numOutputImages / OPENAI_MAX_IMAGES_PER_CALL);

    const images: Buffer[] = [];
    const tokens = { output: 0, text: 0, image: 0, missing: false };
    let costMicros: number | undefined = 0;
    for (let call = 0; call < calls; call += 1) {
      const n = Math.min(OPENAI_MAX_IMAGES_PER_CALL, request.numOutputImages - call * OPENAI_MAX_IMAGES_PER_CALL);
      const key = calls === 1 ? request.workKey : `${request.workKey}:${call}`;
      const answer = await withApiKey(this.options.apiKey, (apiKey) =>
        this.send({ ...fields, n }, uploads, apiKey, key, signal),
      );
      const outcome = parseAnswer(answer);
      if ('kind' in outcome) return outcome;
      const encoded = (outcome.data ?? []).flatMap(({ b64_json }) => (b64_json ? [b64_json] : []));
      if (encoded.length < n) throw malformedAnswer(PROVIDER, `${encoded.length} images for ${n} asked`);
      for (const base64 of encoded.slice(0, n)) {
        const fitted = await fitImage(
          Buffer.from(base64, 'base64'),
          request.width,
          request.height,
          request.outputFormat,
          signal,
        ).catch((error: unknown) => {
          if (signal.aborted) throw error;
          throw malformedAnswer(PROVIDER, 'b64_json is not an image', error);
        });
        images.push(fitted);
      }
      // An answer without `usage` cannot be priced: the job settles at its reservation (pricing.ts).
      const { usage } = outcome;
      if (!usage) tokens.missing = true;
      tokens.output += usage?.output_tokens ?? 0;
      tokens.text += usage ? (usage.input_tokens_details?.text_tokens ?? usage.input_tokens) : 0;
      tokens.image += usage?.input_tokens_details?.image_tokens ?? 0;
      const cost = openAiCostMicros(this.options.model, outcome.usage);
      costMicros = costMicros === undefined || cost === undefined ? undefined : costMicros + cost;
    }
    return {
      kind: 'images',
      images,
      usage: {
        outputTokens: tokens.output,
        inputTextTokens: tokens.text,
        inputImageTokens: tokens.image,
        ...(tokens.missing && { tokensMissing: true }),
        megapixels: megapixelsOf(request.width, request.height, images.length),
        ...(costMicros !== undefined && { providerCostMicros: costMicros }),
      },
    };
  }

  private send(
    fields: Record<string, string | number>,
    uploads: { data: Buffer; type: string; filename: string }[],
    apiKey: string,
    idempotencyKey: string,
    signal: AbortSignal,
  ): Promise<ProviderAnswer> {
    const headers = {
      authorization: `Bearer ${apiKey}`,
      accept: 'application/json',
      'idempotency-key': idempotencyKey,
    };
    if (uploads.length === 0) {
      return sendWithRetries(
        this.transport,
        {
          provider: PROVIDER,
          url: this.url('images/generations'),
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify(fields),
          notProcessed: OPENAI_NOT_PROCESSED,
        },
        signal,
      );
    }
    // fetch sets the multipart content type with its boundary; one FormData serves every attempt.
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, String(value));
    for (const upload of uploads) {
      form.append('image[]', new Blob([new Uint8Array(upload.data)], { type: upload.type }), upload.filename);
    }
    return sendWithRetries(
      this.transport,
      {
        provider: PROVIDER,
        url: this.url('images/edits'),
        method: 'POST',
        headers,
        body: form,
        notProcessed: OPENAI_NOT_PROCESSED,
      },
      signal,
    );
  }

  private url(path: string): URL {
    const base = this.options.baseUrl;
    return new URL(path, base.endsWith('/') ? base : `${base}/`);
  }
}

const qualityOf = (quality: string): string => {
  const known = QUALITY.find((value) => value === quality);
  if (!known) throw new HttpEngineError(`OpenAI takes no quality '${quality}'`, { retryable: false });
  return known;
};

/** A 2xx is the images (checked against ImagesResponse); a 400 refusal is an outcome; any other 4xx is thrown. */
const parseAnswer = (answer: ProviderAnswer): ImagesResponse | { kind: 'moderated'; message: string } => {
  if (answer.status >= 200 && answer.status < 300) {
    const parsed = v.safeParse(ImagesResponseSchema, parseJson(PROVIDER, answer.text));
    if (!parsed.success) throw malformedAnswer(PROVIDER, v.summarize(parsed.issues));
    return parsed.output;
  }
  let json: unknown;
  try {
    json = JSON.parse(answer.text);
  } catch {
    json = undefined; // a gateway's HTML page: its text is the message
  }
  const failure = v.safeParse(ErrorResponseSchema, json);
  const message = failure.success ? failure.output.error.message : answer.text.slice(0, 300);
  if (answer.status === 400 && failure.success && REFUSAL_CODES.has(failure.output.error.code ?? '')) {
    return { kind: 'moderated', message };
  }
  throw new HttpEngineError(`OpenAI answered HTTP ${answer.status}: ${message}`, {
    retryable: false,
    status: answer.status,
  });
};
