/**
 * Read first: a local stand-in for Google's Gemini API `generateContent` (image generation with
 * gemini-3.1-flash-image, "Nano Banana 2"), on 127.0.0.1. It speaks the REST wire format (camelCase JSON),
 * checks every request it receives against the published description, answers a violation with HTTP 400
 * in Google's error shape (`{error:{code,message,status}}`) and records it, so a test can assert that
 * none happened. It answers real images made with sharp at the aspect ratio and tier it was asked.
 *
 * Where each checked field comes from (read 2026-11-24):
 * - Endpoint `POST /v1beta/models/{model}:generateContent`, header `x-goog-api-key`, request body
 *   `contents[].parts[]` (`text` | `inlineData{mimeType,data}`), `generationConfig.responseModalities`
 *   (TEXT, IMAGE), `generationConfig.imageConfig{aspectRatio,imageSize}`: the Gemini API reference,
 *   https://ai.google.dev/api/generate-content and the image-generation guide
 *   https://ai.google.dev/gemini-api/docs/image-generation (not stored for this session: read through the
 *   types Google's SDK ships, below, and the request tables of mirrors such as
 *   https://docs.gptproto.com/docs/allapi/Google/gemini-3-pro-image-preview/official-format/image-edit).
 * - Field names and types: `@google/genai` 2.32.0's `Content`, `Part`, `Blob`, `GenerationConfig`,
 *   `ImageConfig`, `GenerateContentResponse` (genai.d.ts), checked at compile time below; enums
 *   (`Modality`, `FinishReason`, `BlockedReason`) as their wire strings. 2.32.0 is the last release that
 *   supports Node 20; 3.3.0 declares these six types the same but for doc comments (its FinishReason adds
 *   values neither the double nor the adapter uses, MODEL_ARMOR among them).
 * - `imageSize` 1K/2K/4K: `ImageConfig.imageSize` doc comment in @google/genai 2.32.0 and 3.3.0.
 * - `aspectRatio`: the SDK's doc comment lists 1:1, 2:3, 3:2, 3:4, 4:3, 9:16, 16:9, 21:9; Gemini 3.1 Flash
 *   Image adds 4:5, 5:4, 1:4, 4:1, 1:8, 8:1 (14 in all). Google's own list for 3.1 Flash was not reachable
 *   here; the 14 are as third-party integrators of the model publish them, e.g.
 *   https://docs.jiekou.ai/en/docs/models/reference-gemini-3.1-flash-image-text-to-image and
 *   https://github.com/flowmi-ai/flowmi/releases/tag/v0.2.1 (a real account should confirm 1:4…8:1).
 * - At most 14 input images (gemini-3.1-flash-image; issue 24 and Google Cloud's model page
 *   https://docs.cloud.google.com/gemini-enterprise-agent-platform/models/gemini/3-1-flash-image-preview).
 * - Input MIME types image/png, image/jpeg, image/webp, image/heic, image/heif (Google Cloud's image
 *   understanding page); the double also decodes each inline image and checks that its bytes are what its
 *   mimeType says.
 * - Output tokens per image (1K 1120, 2K 1680, 4K 2520): Google Cloud's model page above.
 * - Refusals: HTTP 200 with `promptFeedback.blockReason`, or a candidate's `finishReason` (FinishReason in
 *   the SDK), as issue 24 lists them.
 *
 * The images draw the people of the input images as a model would, never their pixels (face-render.ts,
 * with its prompt triggers `[double:drift]` and `[double:no-face]`). A request whose text carries `[[` or
 * `prf_` is answered as usual but recorded in `violations`: no internal id may reach a provider.
 *
 * It runs in the test's process and listens on loopback, so a service started in another process reaches
 * it through GEMINI_BASE_URL=<baseUrl>.
 */
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { Content, GenerateContentResponse, GenerationConfig, ImageConfig } from '@google/genai';
import sharp from 'sharp';
import * as v from 'valibot';
import { internalIdsIn, renderOutput, requestSeed } from './face-render';

/** An SDK type as its JSON goes over the wire: enums become their string values. */
type Wire<T> = T extends string
  ? `${T}`
  : T extends readonly (infer U)[]
    ? Wire<U>[]
    : T extends object
      ? { [K in keyof T]: Wire<T[K]> }
      : T;

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
export const GEMINI_IMAGE_SIZES = ['1K', '2K', '4K'] as const;
export const GEMINI_MAX_INPUT_IMAGES = 14;
/** Output tokens Google counts for one image of each size (and what the double reports). */
export const IMAGE_TOKENS: Record<(typeof GEMINI_IMAGE_SIZES)[number], number> = { '1K': 1120, '2K': 1680, '4K': 2520 };
/** Tokens of the short text part the double answers beside each image. */
export const TEXT_TOKENS = 7;

const INPUT_MIME_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/heic', 'image/heif'] as const;
const SHARP_FORMAT: Record<(typeof INPUT_MIME_TYPES)[number], string[]> = {
  'image/png': ['png'],
  'image/jpeg': ['jpeg'],
  'image/webp': ['webp'],
  'image/heic': ['heif'],
  'image/heif': ['heif'],
};

const TextPartSchema = v.strictObject({ text: v.string() });
const InlineDataPartSchema = v.strictObject({
  inlineData: v.strictObject({
    mimeType: v.picklist(INPUT_MIME_TYPES),
    data: v.pipe(v.string(), v.minLength(1), v.base64()),
  }),
});
const ContentSchema = v.strictObject({
  role: v.optional(v.picklist(['user', 'model'])),
  parts: v.pipe(v.array(v.union([TextPartSchema, InlineDataPartSchema])), v.minLength(1)),
});
const ImageConfigSchema = v.strictObject({
  aspectRatio: v.optional(v.picklist(GEMINI_ASPECT_RATIOS)),
  imageSize: v.optional(v.picklist(GEMINI_IMAGE_SIZES)),
});
const GenerationConfigSchema = v.strictObject({
  responseModalities: v.optional(
    v.pipe(v.array(v.picklist(['TEXT', 'IMAGE'])), v.minLength(1), v.includes('IMAGE' as const)),
  ),
  imageConfig: v.optional(ImageConfigSchema),
  candidateCount: v.optional(v.literal(1)),
});

/** The generateContent request this double accepts: what the reference fixes, strictly. */
export const GenerateContentRequestSchema = v.strictObject({
  contents: v.pipe(v.array(ContentSchema), v.minLength(1)),
  generationConfig: v.optional(GenerationConfigSchema),
});
export type GenerateContentRequest = v.InferOutput<typeof GenerateContentRequestSchema>;

/** Compile-time proof that whatever the schema accepts is a request Google's own SDK types allow. */
type Request = GenerateContentRequest;
type RequestGenerationConfig = NonNullable<Request['generationConfig']>;
type Assignable<T extends U, U> = T;
export type RequestTypeChecks = [
  Assignable<Request['contents'][number], Wire<Content>>,
  Assignable<Omit<RequestGenerationConfig, 'imageConfig'>, Wire<GenerationConfig>>,
  // imageConfig sits in GenerationConfig on the wire; the SDK keeps it on its request config.
  Assignable<NonNullable<RequestGenerationConfig['imageConfig']>, Wire<ImageConfig>>,
];

/** The double's answers: the wire JSON of @google/genai's GenerateContentResponse. */
export type GenerateContentAnswer = Wire<
  Pick<GenerateContentResponse, 'candidates' | 'promptFeedback' | 'usageMetadata' | 'modelVersion' | 'responseId'>
>;
type GoogleError = { error: { code: number; message: string; status: string } };

/** Every refusal form issue 24 lists. */
export const REFUSAL_FORMS = [
  'blockReason',
  'SAFETY',
  'IMAGE_SAFETY',
  'PROHIBITED_CONTENT',
  'IMAGE_PROHIBITED_CONTENT',
  'BLOCKLIST',
  'SPII',
  'NO_IMAGE',
  'IMAGE_OTHER',
  'RECITATION',
  'STOP_WITHOUT_IMAGE',
] as const;
export type RefusalForm = (typeof REFUSAL_FORMS)[number];

export type Scripted =
  | { kind: 'fail'; status: number; retryAfter?: string; message?: string }
  | { kind: 'refuse'; form: RefusalForm; message?: string; where?: 'message' | 'text' | 'none' }
  | { kind: 'delay'; delayMs: number }
  /** The image is made (and would be billed: `counters.unanswered`), then the answer is this 5xx instead. */
  | { kind: 'work-then-fail'; status: number }
  /** The request is received and never answered (a client-side timeout's provider). */
  | { kind: 'hang' };

export interface ReceivedRequest {
  path: string;
  model: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

export interface Violation {
  path: string;
  reason: string;
}

export interface GeminiDoubleOptions {
  /** When set, a request with another `x-goog-api-key` is answered 400 API_KEY_INVALID (and recorded). */
  apiKey?: string;
  /**
   * Draw the people of the input images as a model would (face-render.ts: another photo of the person, or
   * the face redrawn, anywhere in a seeded scene; default true); false draws the scene alone.
   */
  drawFaces?: boolean;
  /** Each output draws someone else with this probability (seeded; face-render.ts), 0 by default. */
  driftRate?: number;
}

export interface GeminiDouble {
  baseUrl: string;
  received: ReceivedRequest[];
  violations: Violation[];
  /** `maxInFlight`: the most generateContent requests it held at one time. */
  /** `unanswered`: requests whose work was done (and billed) but whose image never reached the client. */
  counters: {
    requests: number;
    images: number;
    refusals: number;
    failures: number;
    maxInFlight: number;
    unanswered: number;
  };
  /** Answers taken one per request, in order, before the default (an image). */
  script: Scripted[];
  failNext(status: number, options?: { retryAfter?: string; message?: string }): void;
  refuseNext(form: RefusalForm, options?: { message?: string; where?: 'message' | 'text' | 'none' }): void;
  /** Holds the next answer this long (for abort tests). */
  delayNext(delayMs: number): void;
  close(): Promise<void>;
}

const STATUS_NAME: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
};

const googleError = (code: number, message: string): GoogleError => ({
  error: { code, message, status: STATUS_NAME[code] ?? 'UNKNOWN' },
});

const PATH = /^\/v1beta\/models\/([^/:]+):generateContent$/;

const ratioOf = (aspect: string): number => {
  const [w, h] = aspect.split(':').map(Number);
  return (w ?? 1) / (h ?? 1);
};

/** About 1 MP per 1K tier (4 MP at 2K, 16 MP at 4K) at the asked ratio, edges multiples of 16. */
export const answeredSize = (aspectRatio: string, imageSize: string): { width: number; height: number } => {
  const tier = imageSize === '4K' ? 4 : imageSize === '2K' ? 2 : 1;
  const area = (1024 * tier) ** 2;
  const ratio = ratioOf(aspectRatio);
  const round16 = (px: number) => Math.max(16, Math.round(px / 16) * 16);
  return { width: round16(Math.sqrt(area * ratio)), height: round16(Math.sqrt(area / ratio)) };
};

const refusal = (form: RefusalForm, message: string | undefined, where: 'message' | 'text' | 'none') => {
  const said = where === 'none' ? undefined : (message ?? `double refused: ${form}`);
  if (form === 'blockReason') {
    return {
      promptFeedback: { blockReason: 'PROHIBITED_CONTENT', ...(where === 'message' && { blockReasonMessage: said }) },
      usageMetadata: { promptTokenCount: 12, totalTokenCount: 12 },
    } satisfies GenerateContentAnswer;
  }
  const finishReason = form === 'STOP_WITHOUT_IMAGE' ? 'STOP' : form;
  return {
    candidates: [
      {
        content: { role: 'model', parts: where === 'text' && said ? [{ text: said }] : [] },
        finishReason,
        ...(where === 'message' && { finishMessage: said }),
        index: 0,
      },
    ],
    usageMetadata: { promptTokenCount: 12, candidatesTokenCount: 0, totalTokenCount: 12 },
  } satisfies GenerateContentAnswer;
};

export const startGeminiDouble = async (options: GeminiDoubleOptions = {}): Promise<GeminiDouble> => {
  const drawFaces = options.drawFaces ?? true;
  const received: ReceivedRequest[] = [];
  const violations: Violation[] = [];
  const counters = { requests: 0, images: 0, refusals: 0, failures: 0, maxInFlight: 0, unanswered: 0 };
  let inFlight = 0;
  const script: Scripted[] = [];
  const timers = new Set<NodeJS.Timeout>();

  const send = (response: ServerResponse, status: number, json: unknown, headers: Record<string, string> = {}) => {
    if (response.destroyed) return;
    response.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', ...headers });
    response.end(JSON.stringify(json));
  };

  const reject = (response: ServerResponse, path: string, code: number, reason: string) => {
    violations.push({ path, reason });
    send(response, code, googleError(code, reason));
  };

  /** What the schema cannot say: the inline bytes are an image of the stated type, and at most 14 of them. */
  const checkImages = async (request: GenerateContentRequest): Promise<{ reason?: string; inputs: Buffer[] }> => {
    const inputs: Buffer[] = [];
    for (const content of request.contents) {
      for (const part of content.parts) {
        if (!('inlineData' in part)) continue;
        const data = Buffer.from(part.inlineData.data, 'base64');
        const format = await sharp(data)
          .metadata()
          .then((meta) => meta.format as string)
          .catch(() => undefined);
        if (!format || !SHARP_FORMAT[part.inlineData.mimeType].includes(format)) {
          return { reason: `inlineData ${inputs.length}: bytes are ${format ?? 'not an image'}`, inputs };
        }
        inputs.push(data);
      }
    }
    if (inputs.length > GEMINI_MAX_INPUT_IMAGES) {
      return { reason: `${inputs.length} input images; at most ${GEMINI_MAX_INPUT_IMAGES}`, inputs };
    }
    return { inputs };
  };

  const draw = async (width: number, height: number, prompt: string, inputs: Buffer[]): Promise<Buffer> => {
    const seed = requestSeed('gemini', counters.images, prompt, ...inputs);
    const drawn = drawFaces ? inputs : [];
    return (
      await renderOutput({ width, height, format: 'png', seed, prompt, inputs: drawn, driftRate: options.driftRate })
    ).data;
  };

  const answerImage = async (request: GenerateContentRequest, inputs: Buffer[], model: string) => {
    const aspectRatio = request.generationConfig?.imageConfig?.aspectRatio ?? '1:1';
    const imageSize = request.generationConfig?.imageConfig?.imageSize ?? '1K';
    const { width, height } = answeredSize(aspectRatio, imageSize);
    const prompt = request.contents
      .flatMap((content) => content.parts.flatMap((part) => ('text' in part ? [part.text] : [])))
      .join('\n');
    const png = await draw(width, height, prompt, inputs);
    counters.images += 1;
    const answer: GenerateContentAnswer = {
      candidates: [
        {
          content: {
            role: 'model',
            parts: [
              { text: 'Here is the image.' },
              { inlineData: { mimeType: 'image/png', data: png.toString('base64') } },
            ],
          },
          finishReason: 'STOP',
          index: 0,
        },
      ],
      usageMetadata: {
        promptTokenCount: 12 + inputs.length * 1120,
        candidatesTokenCount: IMAGE_TOKENS[imageSize] + TEXT_TOKENS,
        candidatesTokensDetails: [
          { modality: 'IMAGE', tokenCount: IMAGE_TOKENS[imageSize] },
          { modality: 'TEXT', tokenCount: TEXT_TOKENS },
        ],
        totalTokenCount: 12 + inputs.length * 1120 + IMAGE_TOKENS[imageSize] + TEXT_TOKENS,
      },
      modelVersion: model,
      responseId: `double-${counters.requests}`,
    };
    return answer;
  };

  const handle = async (path: string, headers: IncomingHttpHeaders, text: string, response: ServerResponse) => {
    const match = PATH.exec(path);
    if (!match?.[1]) return reject(response, path, 404, `unknown path ${path}`);
    const model = decodeURIComponent(match[1]);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
    received.push({ path, model, headers, body });
    counters.requests += 1;
    const key = headers['x-goog-api-key'];
    if (typeof key !== 'string' || key === '') return reject(response, path, 403, 'missing x-goog-api-key');
    if (options.apiKey !== undefined && key !== options.apiKey) {
      return reject(response, path, 400, 'API key not valid. Please pass a valid API key.');
    }
    if (headers['idempotency-key'] !== undefined) {
      // Not part of Gemini's API (Google would ignore it): recorded, since an adapter sending it believes in
      // a guarantee Google does not give.
      violations.push({ path, reason: 'Idempotency-Key header sent: Gemini has none' });
    }
    const parsed = v.safeParse(GenerateContentRequestSchema, body);
    if (!parsed.success) return reject(response, path, 400, `Invalid JSON payload: ${v.summarize(parsed.issues)}`);
    const { reason, inputs } = await checkImages(parsed.output);
    if (reason) return reject(response, path, 400, reason);
    for (const where of internalIdsIn(parsed.output)) violations.push({ path, reason: `internal id sent: ${where}` });

    const next = script.shift();
    if (next?.kind === 'delay') {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          timers.delete(timer);
          resolve();
        }, next.delayMs);
        timers.add(timer);
      });
    }
    if (next?.kind === 'fail') {
      counters.failures += 1;
      return send(
        response,
        next.status,
        googleError(next.status, next.message ?? `double failure ${next.status}`),
        next.retryAfter !== undefined ? { 'retry-after': next.retryAfter } : {},
      );
    }
    if (next?.kind === 'refuse') {
      counters.refusals += 1;
      return send(response, 200, refusal(next.form, next.message, next.where ?? 'message'));
    }
    if (next?.kind === 'hang') {
      counters.unanswered += 1;
      return;
    }
    const answer = await answerImage(parsed.output, inputs, model);
    if (next?.kind === 'work-then-fail') {
      counters.unanswered += 1;
      return send(response, next.status, googleError(next.status, 'An internal error has occurred.'));
    }
    send(response, 200, answer);
  };

  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '';
      if (request.method !== 'POST') return reject(response, path, 404, `${request.method} ${path} is not served`);
      inFlight += 1;
      counters.maxInFlight = Math.max(counters.maxInFlight, inFlight);
      handle(path, request.headers, Buffer.concat(chunks).toString('utf8'), response)
        .catch((error: unknown) => send(response, 500, googleError(500, `double crashed: ${String(error)}`)))
        .finally(() => {
          inFlight -= 1;
        });
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('gemini double: not listening on TCP');

  return {
    baseUrl: `http://127.0.0.1:${address.port}`,
    received,
    violations,
    counters,
    script,
    failNext: (status, { retryAfter, message } = {}) => script.push({ kind: 'fail', status, retryAfter, message }),
    refuseNext: (form, { message, where } = {}) => script.push({ kind: 'refuse', form, message, where }),
    delayNext: (delayMs) => script.push({ kind: 'delay', delayMs }),
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
};
