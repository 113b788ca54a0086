/**
 * Read first: the image engine on Google's Gemini API (`POST {baseUrl}/v1beta/models/{model}:generateContent`,
 * key in `x-goog-api-key`), for gemini-3.1-flash-image ("Nano Banana 2"). Typed fetch with valibot schemas
 * of the answers, not @google/genai: its runtime needs Node 22 and ours runs on Node 20 locally.
 *
 * - One image per call: `numOutputImages` calls, at most 4 in flight, each asking for the nearest aspect
 *   ratio Gemini offers and the tier (1K/2K/4K) that covers the long edge; fitImage makes every answer
 *   exactly width×height in outputFormat.
 * - Inputs go inline (base64 `inlineData`): the caller's images first, then the identity references
 *   (identityInputs, capped at the model's 14 input images). Enhance and remix are instructions in the prompt.
 * - Refusals arrive as HTTP 200: `promptFeedback.blockReason` or a moderating `finishReason` → moderated;
 *   any other answer without an image (NO_IMAGE, IMAGE_OTHER, RECITATION, STOP without one…) → no_image.
 * - 429 and 5xx are retried by sendWithRetries (Retry-After honoured); any other 4xx is thrown, not retryable,
 *   with Google's message.
 * - Idempotency: the Gemini API takes no idempotency key (it has no such header; none is invented here), so
 *   a call that reached Google may be paid twice if repeated. Exactly-once is then the workflow's job: a step
 *   that reached the provider is never retried by the caller. `request.workKey` is therefore not sent.
 */
import * as v from 'valibot';
import {
  type EngineOutcome,
  type EngineRequest,
  type ImageEngine,
  inputContentTypeOf,
} from '../../../../domain/engine/engine';
import { fitImage, megapixelsOf, nearestAspectRatio } from '../fit';
import { type ProviderEngineOptions, refusedKey, withApiKey } from '../provider';
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
import { GEMINI_IMAGE_PRICE_MICROS, type GeminiImageSize, geminiPossibleCostMicros, imageSizeFor } from './prices';

const PROVIDER = 'Gemini';

/** gemini-3.1-flash-image takes at most this many input images in one call. */
export const GEMINI_MAX_INPUT_IMAGES = 14;
/** Calls in flight at once for one request (one image per call). */
export const GEMINI_MAX_PARALLEL_CALLS = 4;

/**
 * The ratios gemini-3.1-flash-image generates: the eight of @google/genai 3.3.0's ImageConfig doc comment
 * plus 4:5, 5:4 and the 3.1 Flash extremes 1:4, 4:1, 1:8, 8:1.
 */
export const GEMINI_ASPECT_RATIOS = [
  '1:1',
  '2:3',
  '3:2',
  '3:4',
  '4:3',
  '4:5',
  '5:4',
  '9:16',
  '16:9',
  '21:9',
  '1:4',
  '4:1',
  '1:8',
  '8:1',
] as const;

export { GEMINI_IMAGE_PRICE_MICROS, type GeminiImageSize, geminiPossibleCostMicros, imageSizeFor };

/**
 * The answers Google documents as "the request was not processed", the only ones a generateContent POST is
 * sent again on (provider-http.ts `notProcessed`; the Gemini API takes no idempotency key). From the
 * Gemini API's troubleshooting guide (https://ai.google.dev/gemini-api/docs/troubleshooting, "backend
 * service error codes"): 429 RESOURCE_EXHAUSTED ("You've exceeded the rate limit") and 503 UNAVAILABLE
 * ("The service may be temporarily overloaded or down"), UNAVAILABLE being the one code Google's AIP-194
 * (https://google.aip.dev/194) names retryable. Not 500 INTERNAL ("An unexpected error occurred on Google's
 * side") nor 504 DEADLINE_EXCEEDED ("unable to finish processing within the deadline"): work had begun.
 */
export const GEMINI_NOT_PROCESSED: readonly number[] = [429, 503];

/** `finishReason`s (and any `promptFeedback.blockReason`) that mean Google's policies refused the work. */
const MODERATED_FINISH = new Set([
  'SAFETY',
  'IMAGE_SAFETY',
  'PROHIBITED_CONTENT',
  'IMAGE_PROHIBITED_CONTENT',
  'BLOCKLIST',
  'SPII',
]);

type Part = { text: string } | { inlineData: { mimeType: string; data: string } };

/** The generateContent body this adapter sends (REST, camelCase). */
export interface GenerateContentBody {
  contents: { role: 'user'; parts: Part[] }[];
  generationConfig: {
    responseModalities: ('TEXT' | 'IMAGE')[];
    imageConfig: { aspectRatio: string; imageSize: GeminiImageSize };
  };
}

const AnswerPartSchema = v.looseObject({
  text: v.optional(v.string()),
  thought: v.optional(v.boolean()),
  inlineData: v.optional(v.looseObject({ mimeType: v.string(), data: v.string() })),
});

const AnswerSchema = v.looseObject({
  candidates: v.optional(
    v.array(
      v.looseObject({
        content: v.optional(v.looseObject({ parts: v.optional(v.array(AnswerPartSchema)) })),
        finishReason: v.optional(v.string()),
        finishMessage: v.optional(v.string()),
      }),
    ),
  ),
  promptFeedback: v.optional(
    v.looseObject({ blockReason: v.optional(v.string()), blockReasonMessage: v.optional(v.string()) }),
  ),
  usageMetadata: v.optional(v.looseObject({ candidatesTokenCount: v.optional(v.number()) })),
});
type Answer = v.InferOutput<typeof AnswerSchema>;

const ErrorAnswerSchema = v.object({
  error: v.looseObject({ code: v.optional(v.number()), message: v.string(), status: v.optional(v.string()) }),
});

type CallResult =
  | { kind: 'image'; data: Buffer; outputTokens: number | undefined }
  | { kind: 'moderated' | 'no_image'; message: string; outputTokens: number | undefined };

export class GeminiEngine implements ImageEngine {
  private readonly url: string;
  private readonly transport: ProviderTransport;

  constructor(private readonly options: ProviderEngineOptions) {
    const base = options.baseUrl.replace(/\/+$/, '');
    this.url = `${base}/v1beta/models/${encodeURIComponent(options.model)}:generateContent`;
    this.transport = defaultTransport(options.transport);
  }

  async run(request: EngineRequest, signal: AbortSignal): Promise<EngineOutcome> {
    signal.throwIfAborted();
    const imageSize = imageSizeFor(request.width, request.height);
    const body = JSON.stringify(await this.body(request, imageSize));
    const results = await inBatches(request.numOutputImages, GEMINI_MAX_PARALLEL_CALLS, signal, async (callSignal) => {
      const answer = await withApiKey(
        this.options.apiKey,
        (apiKey) =>
          sendWithRetries(
            this.transport,
            {
              provider: PROVIDER,
              url: this.url,
              method: 'POST',
              headers: { 'content-type': 'application/json', 'x-goog-api-key': apiKey },
              body,
              notProcessed: GEMINI_NOT_PROCESSED,
            },
            callSignal,
          ),
        refusedGeminiKey,
      );
      if (answer.status < 200 || answer.status >= 300) throw rejected(answer.status, answer.text);
      return readAnswer(parseAnswer(answer.text));
    });
    const outputTokens = results.reduce((sum, result) => sum + (result.outputTokens ?? 0), 0);
    const tokensMissing = results.some((result) => result.outputTokens === undefined);
    const refused = results.find((result) => result.kind !== 'image');
    if (refused) return { kind: refused.kind, message: refused.message };
    const images = await Promise.all(
      results
        .filter((result) => result.kind === 'image')
        .map(({ data }) => fitImage(data, request.width, request.height, request.outputFormat, signal)),
    );
    return {
      kind: 'images',
      images,
      usage: {
        outputTokens,
        ...(tokensMissing && { tokensMissing: true }),
        megapixels: megapixelsOf(request.width, request.height, images.length),
        providerCostMicros: GEMINI_IMAGE_PRICE_MICROS[imageSize] * images.length,
      },
    };
  }

  private async body(request: EngineRequest, imageSize: GeminiImageSize): Promise<GenerateContentBody> {
    const identity = await identityInputs(request, GEMINI_MAX_INPUT_IMAGES, this.options.references.load);
    const { prompt } = identity;
    const images = [
      ...request.images.map(({ data, format }) => ({
        mimeType: inputContentTypeOf(format),
        data: data.toString('base64'),
      })),
      ...identity.references.map((data) => ({ mimeType: 'image/jpeg', data: data.toString('base64') })),
    ];
    return {
      contents: [
        {
          role: 'user',
          parts: [...(prompt === '' ? [] : [{ text: prompt }]), ...images.map((inlineData) => ({ inlineData }))],
        },
      ],
      generationConfig: {
        responseModalities: ['TEXT', 'IMAGE'],
        imageConfig: {
          aspectRatio: nearestAspectRatio(request.width, request.height, GEMINI_ASPECT_RATIOS),
          imageSize,
        },
      },
    };
  }
}

/**
 * Runs `count` calls, at most `limit` at once, results in call order. After a refusal or a failure no
 * further call starts (each would be paid for nothing); a failure aborts the calls in flight.
 */
const inBatches = async (
  count: number,
  limit: number,
  signal: AbortSignal,
  call: (signal: AbortSignal) => Promise<CallResult>,
): Promise<CallResult[]> => {
  const inner = new AbortController();
  const stop = () => inner.abort(signal.reason);
  signal.addEventListener('abort', stop, { once: true });
  const results: CallResult[] = [];
  let next = 0;
  let refused = false;
  const worker = async () => {
    while (next < count && !refused) {
      const index = next;
      next += 1;
      const result = await call(inner.signal);
      results[index] = result;
      if (result.kind !== 'image') refused = true;
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(limit, count) }, worker));
  } catch (error) {
    inner.abort(error);
    throw signal.aborted ? signal.reason : error;
  } finally {
    signal.removeEventListener('abort', stop);
  }
  return results.filter((result) => result !== undefined);
};

/**
 * Google answers a key it does not know (a deleted one) 400 INVALID_ARGUMENT with reason API_KEY_INVALID,
 * and a revoked or leaked one 403 PERMISSION_DENIED (https://ai.google.dev/gemini-api/docs/troubleshooting).
 */
const refusedGeminiKey = (answer: ProviderAnswer): boolean =>
  refusedKey(answer) || (answer.status === 400 && answer.text.includes('API_KEY_INVALID'));

const rejected = (status: number, text: string): HttpEngineError => {
  let message = text.slice(0, 300);
  try {
    const parsed = v.safeParse(ErrorAnswerSchema, JSON.parse(text));
    if (parsed.success) message = parsed.output.error.message;
  } catch {
    // not JSON: the raw text is the message
  }
  return new HttpEngineError(`${PROVIDER} answered HTTP ${status}: ${message}`, { retryable: false, status });
};

const parseAnswer = (text: string): Answer => {
  const parsed = v.safeParse(AnswerSchema, parseJson(PROVIDER, text));
  if (!parsed.success) throw malformedAnswer(PROVIDER, v.summarize(parsed.issues));
  return parsed.output;
};

/** One answer: its final image (thought images are drafts), or the refusal it stands for. */
const readAnswer = (answer: Answer): CallResult => {
  // Undefined when the answer carries no usage: a token-metered job then settles at its reservation.
  const outputTokens = answer.usageMetadata?.candidatesTokenCount;
  const [candidate] = answer.candidates ?? [];
  const parts = candidate?.content?.parts ?? [];
  const said = parts
    .filter((part) => part.thought !== true && part.text !== undefined)
    .map((part) => part.text?.trim())
    .filter((text) => text !== undefined && text !== '')
    .join(' ');
  const blockReason = answer.promptFeedback?.blockReason;
  if (blockReason !== undefined && blockReason !== '') {
    const message = answer.promptFeedback?.blockReasonMessage || said || `Gemini blocked the prompt (${blockReason}).`;
    return { kind: 'moderated', message, outputTokens };
  }
  const finishReason = candidate?.finishReason ?? 'no candidate';
  if (MODERATED_FINISH.has(finishReason)) {
    const message = candidate?.finishMessage || said || `Gemini refused the image (${finishReason}).`;
    return { kind: 'moderated', message, outputTokens };
  }
  const image = parts.findLast((part) => part.thought !== true && part.inlineData?.mimeType.startsWith('image/'));
  if (image?.inlineData) {
    const data = Buffer.from(image.inlineData.data, 'base64');
    if (data.length === 0) throw malformedAnswer(PROVIDER, 'an empty inline image');
    return { kind: 'image', data, outputTokens };
  }
  const message = candidate?.finishMessage || said || `Gemini returned no image (${finishReason}).`;
  return { kind: 'no_image', message, outputTokens };
};
