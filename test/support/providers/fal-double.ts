/**
 * A local double of fal's queue (https://queue.fal.run) on 127.0.0.1, for tests without the internet: submit,
 * status, result and cancel, and the output files on the same server. Start it in the test process and hand
 * its `baseUrl` to the service (FAL_QUEUE_URL). It checks what it receives and REJECTS what breaks fal's
 * published description (HTTP 422 in fal's own `detail[]` shape, recorded in `violations`). Its images draw
 * the people of the input images as a model would, never their pixels (face-render.ts, with its prompt
 * triggers `[double:drift]` and `[double:no-face]`); an input whose text carries `[[` or `prf_` is accepted
 * but recorded in `violations`: no internal id may reach a provider.
 *
 * Sources of each checked field (retrieved 2026-11-24):
 * - Queue protocol, URLs and methods: @fal-ai/client 1.10.1 src/queue.js (submit POST {queue}/{endpoint};
 *   status GET …/requests/{id}/status; result GET …/requests/{id}; cancel PUT …/requests/{id}/cancel; the
 *   status/result/cancel URLs name only owner/app, never the endpoint's sub-path) and src/request.js
 *   (`Authorization: Key <key>`, JSON body); https://fal.ai/docs/api-reference/inference-api (202 while
 *   IN_QUEUE / IN_PROGRESS, 200 once COMPLETED).
 * - Answers: typed as the client's InQueueQueueStatus / QueueStatus (src/types/common.d.ts) and each endpoint's
 *   Output (src/types/endpoints.d.ts, EndpointTypeMap).
 * - Inputs: one valibot schema per endpoint, each asserted at type level to be assignable to
 *   EndpointTypeMap[endpoint]['input'] (below); ranges from the types' docs (flux-2 image_size 512–2048 a side,
 *   flux-2 edit ≤ 4 image_urls, qwen-image-2 edit 1–3 and 512²–2048² px, seedream ≤ 10 and 2560×1440–3072² px
 *   scaled), from fal's model pages (num_images 1–4: https://fal.ai/models/fal-ai/flux-2-dev/llms.txt,
 *   https://fal.ai/docs/model-api-reference/image-generation-api/nano-banana-2) and from issue 24 (flux-2-pro
 *   ≤ 8 references, nano-banana-2 ≤ 14). Objects are strict: a field the endpoint does not have is rejected.
 * - Refusals: 422 `detail[]` with `type: "content_policy_violation"` (https://fal.ai/docs/documentation/model-apis/errors);
 *   `has_nsfw_concepts` (Flux2Output).
 * - Cancel: https://fal.ai/docs/inference-api/queue/cancel (CANCELLATION_REQUESTED; ALREADY_COMPLETED for a
 *   finished request). What a cancelled request's result answers is not documented there: this double
 *   answers 400 with a `detail` string, which the adapter treats as a failed request.
 * - Webhooks: a submit with the `fal_webhook` query parameter (@fal-ai/client 1.10.1 src/queue.js) is reported
 *   to that URL once done, as https://docs.fal.ai/model-apis/model-endpoints/webhooks describes: a POST of
 *   `{ request_id, gateway_request_id, status: "OK" | "ERROR", payload, error }` with X-Fal-Webhook-Request-Id,
 *   -User-Id, -Timestamp and -Signature (hex ED25519 of request id, user id, timestamp and the body's hex
 *   SHA-256, joined by "\n"), signed with the double's own key pair, whose JWKS it serves at `jwksUrl`;
 *   a delivery not answered 2xx is retried (fal: 10 times over 2 hours; here `webhookRetryMs` apart). A
 *   request with a webhook completes by time (its hold's `ms`, else at once), whatever its polls.
 * Seedream is checked against the v5 lite types: the v5 pro endpoint is not in client 1.10.1.
 */
import { createHash, generateKeyPairSync, randomUUID, sign } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { InQueueQueueStatus, QueueStatus } from '@fal-ai/client';
import type { EndpointTypeMap } from '@fal-ai/client/endpoints';
import * as v from 'valibot';
import { internalIdsIn, renderOutput, requestSeed } from './face-render';
import {
  checkTrainingSet,
  Flux2TrainerInputSchema,
  LorasSchema,
  loraFile,
  readZip,
  TRAINER_ENDPOINT,
  type TrainingSet,
} from './fal-trainer-double';

// ---- Input schemas, one per endpoint, checked against the client's types ----

/** The first bytes of each input type fal's image models read. */
const INPUT_MAGIC: Record<string, Buffer> = {
  'image/png': Buffer.from([0x89, 0x50, 0x4e, 0x47]),
  'image/jpeg': Buffer.from([0xff, 0xd8, 0xff]),
  'image/webp': Buffer.from('RIFF'),
};

const int = (min: number, max = Number.MAX_SAFE_INTEGER) =>
  v.pipe(v.number(), v.integer(), v.minValue(min), v.maxValue(max));
const httpUrl = v.pipe(v.string(), v.url(), v.regex(/^https?:\/\//, 'must be an http(s) URL'));
const prompt = v.pipe(v.string(), v.minLength(1));
const FLUX_PRESETS = [
  'square_hd',
  'square',
  'portrait_4_3',
  'portrait_16_9',
  'landscape_4_3',
  'landscape_16_9',
] as const;
const sizeBetween = (minEdge: number, maxEdge: number) =>
  v.strictObject({ width: int(minEdge, maxEdge), height: int(minEdge, maxEdge) });
const pixelsBetween = (minPixels: number, maxPixels: number) =>
  v.pipe(
    v.strictObject({ width: int(1, 16384), height: int(1, 16384) }),
    v.check(
      ({ width, height }) => width * height >= minPixels && width * height <= maxPixels,
      `total pixels must be between ${minPixels} and ${maxPixels}`,
    ),
  );
const imageUrls = (min: number, max: number) => v.pipe(v.array(httpUrl), v.minLength(min), v.maxLength(max));

const flux2Fields = {
  prompt,
  acceleration: v.optional(v.picklist(['none', 'regular', 'high'])),
  enable_prompt_expansion: v.optional(v.boolean()),
  enable_safety_checker: v.optional(v.boolean()),
  guidance_scale: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(20))),
  image_size: v.optional(v.union([sizeBetween(512, 2048), v.picklist(FLUX_PRESETS)])),
  num_images: v.optional(int(1, 4)),
  num_inference_steps: v.optional(int(4, 50)),
  output_format: v.optional(v.picklist(['jpeg', 'png', 'webp'])),
  seed: v.optional(v.number()),
  sync_mode: v.optional(v.boolean()),
};
export const Flux2InputSchema = v.strictObject(flux2Fields);
export const Flux2EditInputSchema = v.strictObject({ ...flux2Fields, image_urls: imageUrls(1, 4) });
/** FLUX.2 [dev] with LoRAs (Flux2LoraInput, Flux2LoraEditInput: at most 3 image_urls on the edit). */
export const Flux2LoraInputSchema = v.strictObject({ ...flux2Fields, loras: v.optional(LorasSchema) });
export const Flux2LoraEditInputSchema = v.strictObject({
  ...flux2Fields,
  image_urls: imageUrls(1, 3),
  loras: v.optional(LorasSchema),
});

const flux2ProFields = {
  prompt,
  enable_safety_checker: v.optional(v.boolean()),
  image_size: v.optional(v.union([sizeBetween(64, 4096), v.picklist(FLUX_PRESETS)])),
  output_format: v.optional(v.picklist(['jpeg', 'png'])),
  safety_tolerance: v.optional(v.picklist(['1', '2', '3', '4', '5'])),
  seed: v.optional(v.number()),
  sync_mode: v.optional(v.boolean()),
};
export const Flux2ProInputSchema = v.strictObject(flux2ProFields);
export const Flux2ProEditInputSchema = v.strictObject({
  ...flux2ProFields,
  image_size: v.optional(v.union([sizeBetween(64, 4096), v.picklist([...FLUX_PRESETS, 'auto'])])),
  image_urls: imageUrls(1, 8),
});

const NANO_ASPECTS = [
  'auto',
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
] as const;
const nanoFields = {
  prompt,
  aspect_ratio: v.optional(v.picklist(NANO_ASPECTS)),
  enable_web_search: v.optional(v.boolean()),
  limit_generations: v.optional(v.boolean()),
  num_images: v.optional(int(1, 4)),
  output_format: v.optional(v.picklist(['jpeg', 'png', 'webp'])),
  resolution: v.optional(v.picklist(['0.5K', '1K', '2K', '4K'])),
  safety_tolerance: v.optional(v.picklist(['1', '2', '3', '4', '5', '6'])),
  seed: v.optional(v.number()),
  sync_mode: v.optional(v.boolean()),
  thinking_level: v.optional(v.picklist(['minimal', 'high'])),
};
export const NanoBanana2InputSchema = v.strictObject(nanoFields);
export const NanoBanana2EditInputSchema = v.strictObject({ ...nanoFields, image_urls: imageUrls(1, 14) });

const qwenFields = {
  prompt,
  enable_prompt_expansion: v.optional(v.boolean()),
  enable_safety_checker: v.optional(v.boolean()),
  image_size: v.optional(v.union([pixelsBetween(512 * 512, 2048 * 2048), v.picklist(FLUX_PRESETS)])),
  negative_prompt: v.optional(v.pipe(v.string(), v.maxLength(500))),
  num_images: v.optional(int(1, 4)),
  output_format: v.optional(v.picklist(['jpeg', 'png', 'webp'])),
  seed: v.optional(int(0, 2147483647)),
  sync_mode: v.optional(v.boolean()),
};
export const QwenImage2InputSchema = v.strictObject(qwenFields);
export const QwenImage2EditInputSchema = v.strictObject({
  ...qwenFields,
  prompt: v.pipe(v.string(), v.minLength(1), v.maxLength(800)),
  image_urls: imageUrls(1, 3),
});

const seedreamFields = {
  prompt,
  enable_safety_checker: v.optional(v.boolean()),
  // Any custom size: fal scales it into 2560×1440–3072×3072 total pixels.
  image_size: v.optional(
    v.union([
      v.strictObject({ width: int(1, 16384), height: int(1, 16384) }),
      v.picklist([...FLUX_PRESETS, 'auto_2K', 'auto_3K']),
    ]),
  ),
  max_images: v.optional(int(1, 6)),
  num_images: v.optional(int(1, 4)),
  sync_mode: v.optional(v.boolean()),
};
export const SeedreamInputSchema = v.strictObject(seedreamFields);
export const SeedreamEditInputSchema = v.strictObject({ ...seedreamFields, image_urls: imageUrls(1, 10) });

/** A fits B: assignable, and no key B lacks (plain assignability would let an extra field through). */
type Assignable<A, B> = [A] extends [B] ? ([Exclude<keyof A, keyof B>] extends [never] ? true : false) : false;
type Assert<T extends true> = T;
type InputOf<E extends keyof EndpointTypeMap> = EndpointTypeMap[E]['input'];
/** Compile-time proof that every schema accepts only what the client's types allow. */
export type FalSchemasMatchClientTypes = [
  Assert<Assignable<v.InferOutput<typeof Flux2InputSchema>, InputOf<'fal-ai/flux-2'>>>,
  Assert<Assignable<v.InferOutput<typeof Flux2EditInputSchema>, InputOf<'fal-ai/flux-2/edit'>>>,
  Assert<Assignable<v.InferOutput<typeof Flux2LoraInputSchema>, InputOf<'fal-ai/flux-2/lora'>>>,
  Assert<Assignable<v.InferOutput<typeof Flux2LoraEditInputSchema>, InputOf<'fal-ai/flux-2/lora/edit'>>>,
  Assert<Assignable<v.InferOutput<typeof Flux2ProInputSchema>, InputOf<'fal-ai/flux-2-pro'>>>,
  Assert<Assignable<v.InferOutput<typeof Flux2ProEditInputSchema>, InputOf<'fal-ai/flux-2-pro/edit'>>>,
  Assert<Assignable<v.InferOutput<typeof NanoBanana2InputSchema>, InputOf<'fal-ai/nano-banana-2'>>>,
  Assert<Assignable<v.InferOutput<typeof NanoBanana2EditInputSchema>, InputOf<'fal-ai/nano-banana-2/edit'>>>,
  Assert<Assignable<v.InferOutput<typeof QwenImage2InputSchema>, InputOf<'fal-ai/qwen-image-2/text-to-image'>>>,
  Assert<Assignable<v.InferOutput<typeof QwenImage2EditInputSchema>, InputOf<'fal-ai/qwen-image-2/edit'>>>,
  Assert<
    Assignable<v.InferOutput<typeof SeedreamInputSchema>, InputOf<'fal-ai/bytedance/seedream/v5/lite/text-to-image'>>
  >,
  Assert<Assignable<v.InferOutput<typeof SeedreamEditInputSchema>, InputOf<'fal-ai/bytedance/seedream/v5/lite/edit'>>>,
];

type OutputKind = 'flux-2' | 'flux-2-pro' | 'nano-banana-2' | 'qwen-image-2' | 'seedream' | 'trainer';

interface EndpointSpec {
  schema: v.GenericSchema;
  output: OutputKind;
  /** The size fal makes when `image_size` / `aspect_ratio` is absent. */
  defaultSize: { width: number; height: number };
  defaultFormat: 'png' | 'jpeg';
}

const ENDPOINTS: Record<string, EndpointSpec> = {
  'fal-ai/flux-2': {
    schema: Flux2InputSchema,
    output: 'flux-2',
    defaultSize: { width: 1024, height: 768 },
    defaultFormat: 'png',
  },
  'fal-ai/flux-2/edit': {
    schema: Flux2EditInputSchema,
    output: 'flux-2',
    defaultSize: { width: 1024, height: 768 },
    defaultFormat: 'png',
  },
  'fal-ai/flux-2/lora': {
    schema: Flux2LoraInputSchema,
    output: 'flux-2',
    defaultSize: { width: 1024, height: 768 },
    defaultFormat: 'png',
  },
  'fal-ai/flux-2/lora/edit': {
    schema: Flux2LoraEditInputSchema,
    output: 'flux-2',
    defaultSize: { width: 1024, height: 768 },
    defaultFormat: 'png',
  },
  [TRAINER_ENDPOINT]: {
    schema: Flux2TrainerInputSchema,
    output: 'trainer',
    defaultSize: { width: 0, height: 0 },
    defaultFormat: 'png',
  },
  'fal-ai/flux-2-pro': {
    schema: Flux2ProInputSchema,
    output: 'flux-2-pro',
    defaultSize: { width: 1024, height: 768 },
    defaultFormat: 'jpeg',
  },
  'fal-ai/flux-2-pro/edit': {
    schema: Flux2ProEditInputSchema,
    output: 'flux-2-pro',
    defaultSize: { width: 1024, height: 1024 },
    defaultFormat: 'jpeg',
  },
  'fal-ai/nano-banana-2': {
    schema: NanoBanana2InputSchema,
    output: 'nano-banana-2',
    defaultSize: { width: 1024, height: 1024 },
    defaultFormat: 'png',
  },
  'fal-ai/nano-banana-2/edit': {
    schema: NanoBanana2EditInputSchema,
    output: 'nano-banana-2',
    defaultSize: { width: 1024, height: 1024 },
    defaultFormat: 'png',
  },
  'fal-ai/qwen-image-2/text-to-image': {
    schema: QwenImage2InputSchema,
    output: 'qwen-image-2',
    defaultSize: { width: 1024, height: 1024 },
    defaultFormat: 'png',
  },
  'fal-ai/qwen-image-2/edit': {
    schema: QwenImage2EditInputSchema,
    output: 'qwen-image-2',
    defaultSize: { width: 1024, height: 1024 },
    defaultFormat: 'png',
  },
  'fal-ai/bytedance/seedream/v5/lite/text-to-image': {
    schema: SeedreamInputSchema,
    output: 'seedream',
    defaultSize: { width: 2048, height: 2048 },
    defaultFormat: 'png',
  },
  'fal-ai/bytedance/seedream/v5/lite/edit': {
    schema: SeedreamEditInputSchema,
    output: 'seedream',
    defaultSize: { width: 2048, height: 2048 },
    defaultFormat: 'png',
  },
};

const PRESET_SIZES: Record<string, { width: number; height: number }> = {
  square_hd: { width: 1024, height: 1024 },
  square: { width: 512, height: 512 },
  portrait_4_3: { width: 768, height: 1024 },
  portrait_16_9: { width: 576, height: 1024 },
  landscape_4_3: { width: 1024, height: 768 },
  landscape_16_9: { width: 1024, height: 576 },
  auto_2K: { width: 2048, height: 2048 },
  auto_3K: { width: 3072, height: 3072 },
  auto: { width: 1024, height: 1024 },
};
const NANO_TIER_PX: Record<string, number> = { '0.5K': 512, '1K': 1024, '2K': 2048, '4K': 4096 };

// ---- The double ----

export interface FalReceived {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** Parsed JSON, or the raw text. */
  body: unknown;
}

export type FalStage = 'submit' | 'status' | 'result' | 'cancel' | 'file';

export interface Hold {
  /** Status polls answered IN_QUEUE (with a falling queue_position), then `runningPolls` IN_PROGRESS. */
  queuedPolls?: number;
  runningPolls?: number;
  /** Or by time: IN_QUEUE the first half of `ms`, IN_PROGRESS the second (for runs with a real wait). */
  ms?: number;
  /**
   * The status still answers IN_PROGRESS this long after the work finished and its webhook went out (fal's
   * status lagging its webhook); the result is served once the status has said COMPLETED.
   */
  statusLagMs?: number;
  /**
   * Or until told: IN_QUEUE at this queue_position until `advance(id, 'IN_PROGRESS')`, IN_PROGRESS until
   * `advance(id, 'COMPLETED')`, which completes the work and reports it to the webhook.
   */
  untilTold?: { queuePosition: number };
}

export type RefusalKind = 'content_policy' | 'nsfw' | 'no_image';

export interface FalDoubleOptions {
  /**
   * Draw the people of the input images as a model would (face-render.ts: another photo of the person, or
   * the face redrawn, anywhere in a seeded scene; default true); false draws the scene alone.
   */
  drawFaces?: boolean;
  /** Each output draws someone else with this probability (seeded; face-render.ts), 0 by default. */
  driftRate?: number;
  /** Hold for every request not scripted otherwise. */
  hold?: Hold;
  /** Answer output file URLs on this base instead of the double's own (a result pointing elsewhere). */
  filesAt?: string;
  /** Answer status, result and cancel URLs on this base instead of the double's own queue. */
  queueAt?: string;
  /** Between attempts of a webhook delivery not answered 2xx (default 200 ms), at most 10 attempts as fal. */
  webhookRetryMs?: number;
}

/** One webhook delivery attempt the double made. */
export interface FalWebhookDelivery {
  requestId: string;
  url: string;
  attempt: number;
  /** The receiver's HTTP status, or 0 when the connection failed. */
  status: number;
  /** When the attempt was sent (epoch ms). */
  at: number;
}

/** The signed headers of a delivery, built as fal builds them (for tests that forge or replay one). */
export interface FalWebhookSigner {
  headers(requestId: string, body: string, options?: { timestamp?: number; userId?: string }): Record<string, string>;
}

export interface FalSubmission {
  requestId: string;
  endpoint: string;
  input: Record<string, unknown>;
  /** The `fal_webhook` it named. */
  webhook?: string;
}

/** One training the trainer app took: what its zip held, and its settings. */
export interface FalTraining {
  requestId: string;
  zipUrl: string;
  steps?: number;
  learningRate?: number;
  set?: TrainingSet;
  /** The LoRA file's URL it answered. */
  loraUrl?: string;
  /** The zip's images: what a LoRA endpoint draws when its prompt names the LoRA's trigger word. */
  photos?: Buffer[];
  /** The words every caption has but common ones: the trigger words the LoRA learned. */
  triggers?: string[];
}

/** One call to a LoRA endpoint: each LoRA's path, whether it was fetched, and whether the prompt triggered it. */
export interface FalLoraUse {
  requestId: string;
  endpoint: string;
  path: string;
  scale?: number;
  /** The training whose LoRA file it fetched (by the file's metadata), if any. */
  trainingId?: string;
  /** The prompt named one of that LoRA's trigger words: the double drew its subject. */
  triggered: boolean;
}

export interface FalDouble {
  /** Trainings submitted to fal-ai/flux-2-trainer, in order (their sets once read). */
  trainings: FalTraining[];
  /** The next training does its work, then fails with this message (ERROR on its webhook, 422 on its result). */
  failNextTraining(message: string): void;
  /** Every LoRA `path` a LoRA endpoint fetched, with the HTTP status it got (0: no connection). */
  loraFetches: { path: string; status: number }[];
  /** Every LoRA a LoRA endpoint loaded, in order. */
  loraUses: FalLoraUse[];
  /** Resolves with the next training submitted to fal-ai/flux-2-trainer (from now on). */
  nextTraining(): Promise<FalTraining>;
  /** Moves a request held `untilTold` on: IN_PROGRESS, or COMPLETED (its work done and reported). */
  advance(requestId: string, state: 'IN_PROGRESS' | 'COMPLETED'): void;
  /** The request ids whose payloads were deleted (DELETE /v1/models/requests/{id}/payloads). */
  deletedPayloads: string[];
  /** FAL_PLATFORM_URL for the service: the double's own platform API. */
  platformUrl: string;
  baseUrl: string;
  received: FalReceived[];
  /** Accepted submissions, in order. */
  submissions: FalSubmission[];
  /** From now on, answer output file URLs on `base` (undefined: the double's own). */
  answerFilesAt(base: string | undefined): void;
  /** Every request that broke fal's published description, described. Tests assert it stays empty. */
  violations: string[];
  counters: { submits: number; statusPolls: number; results: number; cancels: number; files: number };
  /**
   * The next request at `on` (default submit; `after` that many more first) answers `status` (with Retry-After
   * when given); `times` such requests in a row (default 1). With `afterWork` (submit only) the request is
   * queued first, as fal would have queued it, and then answered `status`: the client never learns its id.
   */
  failNext(
    status: number,
    options?: {
      on?: FalStage;
      after?: number;
      times?: number;
      retryAfter?: string;
      detail?: unknown;
      afterWork?: boolean;
    },
  ): void;
  /** The next submission is queued (and will run, billed) but its answer never comes: a client-side timeout. */
  hangNextSubmit(): void;
  /** The next submission is queued (and runs) at once, but its answer is sent `ms` later (a slow network). */
  slowNextSubmit(ms: number): void;
  /** Drops every scripted failure not yet answered. */
  clearFailures(): void;
  /**
   * The next submission (`after` that many more first) is refused: 422 content_policy_violation (on submit or
   * on its result), NSFW-flagged images, or no images.
   */
  refuseNext(kind: RefusalKind, options?: { on?: 'submit' | 'result'; after?: number; message?: string }): void;
  /** How long the next submission stays queued / in progress. */
  holdNext(hold: Hold): void;
  /** Serves bytes at a loopback URL, as the bucket's presigned URLs do (ReferenceImages.share). */
  share(data: Buffer, contentType: string): Promise<string>;
  /** The JWKS of the double's webhook key (FAL_JWKS_URL). */
  jwksUrl: string;
  /** Signs deliveries with the double's key. */
  signer: FalWebhookSigner;
  /** Every webhook attempt, in order. */
  webhookDeliveries: FalWebhookDelivery[];
  /** When each request finished (epoch ms), by request id: what a webhook reports. */
  finishedAt: Map<string, number>;
  /**
   * The requests still running (queued or in progress: neither finished nor cancelled), as fal would bill
   * them on; and those a cancel stopped before they finished. By request id, in submission order.
   */
  running(): string[];
  cancelled(): string[];
  /** The next `count` webhooks are never sent (a lost webhook); the work completes all the same. */
  dropNextWebhooks(count?: number): void;
  /** The next `count` webhooks are delivered twice (fal retries: duplicates are normal). */
  duplicateNextWebhooks(count?: number): void;
  /** The next `count` webhooks are sent `ms` after the work finished. */
  delayNextWebhooks(ms: number, count?: number): void;
  close(): Promise<void>;
}

interface QueuedRequest {
  id: string;
  endpoint: string;
  /** owner/app: what the status, result and cancel URLs name. */
  app: string;
  createdAt: number;
  hold: Hold;
  polls: number;
  completed: boolean;
  cancelled: boolean;
  refusal?: 'content_policy' | 'nsfw' | 'no_image';
  refusalMessage?: string;
  files: Promise<{ name: string; width: number; height: number; contentType: string }[]>;
  output: OutputKind;
  seed: number;
  prompt: string;
  /** The `fal_webhook` the submit named, and whether it has been reported there. */
  webhook?: string;
  reported?: boolean;
  /** A status poll has answered COMPLETED (what a result fetch must follow when the status lags). */
  statusSaidCompleted?: boolean;
  /** A training (fal-ai/flux-2-trainer): its record, and the failure it ends with after its work. */
  training?: FalTraining & { failure?: string };
  /** Where a request held `untilTold` stands. */
  told?: 'IN_PROGRESS' | 'COMPLETED';
}

/** Words of a caption that name no one: what is left in every caption is the trigger the LoRA learned. */
const CAPTION_WORDS = new Set(['a', 'an', 'the', 'photo', 'of', 'person', 'animal', 'dog', 'cat', 'portrait']);
const triggersOf = (captions: string[]): string[] => {
  const [first, ...rest] = captions.map((caption) => new Set(caption.toLowerCase().split(/[^a-z0-9]+/)));
  if (!first) return [];
  return [...first].filter((word) => word !== '' && !CAPTION_WORDS.has(word) && rest.every((set) => set.has(word)));
};

/** The `seed` a LoRA file of the double's carries in its safetensors metadata (loraFile): its training's id. */
const loraSeedOf = (data: Buffer): string | undefined => {
  try {
    const length = Number(data.readBigUInt64LE(0));
    const header = JSON.parse(data.subarray(8, 8 + length).toString('utf8')) as {
      __metadata__?: { seed?: unknown };
    };
    return typeof header.__metadata__?.seed === 'string' ? header.__metadata__.seed : undefined;
  } catch {
    return undefined;
  }
};

const POLICY_MESSAGE = 'The content was flagged by a content checker.';

const ratioOf = (aspect: string): number => {
  const [w, h] = aspect.split(':').map(Number);
  return (w ?? 1) / (h ?? 1);
};

const sizeOfInput = (spec: EndpointSpec, input: Record<string, unknown>): { width: number; height: number } => {
  if (spec.output === 'nano-banana-2') {
    const long = NANO_TIER_PX[String(input.resolution ?? '1K')] ?? 1024;
    const aspect = String(input.aspect_ratio ?? 'auto');
    const ratio = aspect === 'auto' ? 1 : ratioOf(aspect);
    return ratio >= 1
      ? { width: long, height: Math.round(long / ratio) }
      : { width: Math.round(long * ratio), height: long };
  }
  const asked = input.image_size;
  let size = spec.defaultSize;
  if (typeof asked === 'string') size = PRESET_SIZES[asked] ?? size;
  else if (asked && typeof asked === 'object' && 'width' in asked && 'height' in asked) {
    size = { width: Number(asked.width), height: Number(asked.height) };
  }
  if (spec.output === 'seedream') {
    // fal: "In case the image size does not fall within these parameters, the image size will be adjusted to by scaling."
    const pixels = size.width * size.height;
    const scale =
      pixels < 2560 * 1440
        ? Math.sqrt((2560 * 1440) / pixels)
        : pixels > 3072 * 3072
          ? Math.sqrt((3072 * 3072) / pixels)
          : 1;
    size = { width: Math.round(size.width * scale), height: Math.round(size.height * scale) };
  }
  return size;
};

export const startFalDouble = async (options: FalDoubleOptions = {}): Promise<FalDouble> => {
  const drawFaces = options.drawFaces ?? true;
  let filesAt = options.filesAt;
  let drawnRequests = 0;
  const received: FalReceived[] = [];
  const submissions: FalSubmission[] = [];
  const violations: string[] = [];
  const counters = { submits: 0, statusPolls: 0, results: 0, cancels: 0, files: 0 };
  const trainings: FalTraining[] = [];
  const trainingFailures: string[] = [];
  const loraFetches: { path: string; status: number }[] = [];
  const loraUses: FalLoraUse[] = [];
  const trainingWaiters: ((training: FalTraining) => void)[] = [];
  const deletedPayloads: string[] = [];
  const failures: {
    on: FalStage;
    after: number;
    times: number;
    status: number;
    retryAfter?: string;
    detail?: unknown;
    afterWork: boolean;
  }[] = [];
  let hangSubmits = 0;
  const slowSubmits: number[] = [];
  const refusals: { kind: RefusalKind; on: 'submit' | 'result'; after: number; message?: string }[] = [];
  const holds: Hold[] = [];
  const requests = new Map<string, QueuedRequest>();
  const files = new Map<string, { data: Buffer; contentType: string }>();
  const shared = new Map<string, { data: Buffer; contentType: string }>();
  let baseUrl = '';
  const keyPair = generateKeyPairSync('ed25519');
  const jwk = { ...keyPair.publicKey.export({ format: 'jwk' }), kid: 'double-1', use: 'sig', alg: 'EdDSA' };
  const webhookDeliveries: FalWebhookDelivery[] = [];
  const finishedAt = new Map<string, number>();
  const webhookScripts = { drop: 0, duplicate: 0, delays: [] as number[] };
  const webhookRetryMs = options.webhookRetryMs ?? 200;
  const timers = new Set<NodeJS.Timeout>();
  let closing = false;
  const later = (ms: number, run: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (!closing) run();
    }, ms);
    timers.add(timer);
  };
  const signer: FalWebhookSigner = {
    headers: (requestId, body, { timestamp = Math.floor(Date.now() / 1000), userId = 'double-user' } = {}) => {
      const digest = createHash('sha256').update(body).digest('hex');
      const message = Buffer.from([requestId, userId, String(timestamp), digest].join('\n'));
      return {
        'content-type': 'application/json',
        'x-fal-webhook-request-id': requestId,
        'x-fal-webhook-user-id': userId,
        'x-fal-webhook-timestamp': String(timestamp),
        'x-fal-webhook-signature': sign(null, message, keyPair.privateKey).toString('hex'),
      };
    },
  };

  /** One delivery, retried while not answered 2xx (fal: 10 attempts). */
  const deliver = (request: QueuedRequest, url: string, body: string, attempt = 1): void => {
    void fetch(url, { method: 'POST', headers: signer.headers(request.id, body), body })
      .then(
        async (answer) => {
          await answer.arrayBuffer().catch(() => undefined);
          return answer.status;
        },
        () => 0,
      )
      .then((status) => {
        webhookDeliveries.push({ requestId: request.id, url, attempt, status, at: Date.now() });
        if ((status < 200 || status >= 300) && attempt < 10)
          later(webhookRetryMs, () => deliver(request, url, body, attempt + 1));
      });
  };

  /** Reports a finished request to its webhook as fal does (with the scripted drops, duplicates and delays). */
  const report = (request: QueuedRequest): void => {
    const url = request.webhook;
    if (!url || request.reported) return;
    request.reported = true;
    finishedAt.set(request.id, Date.now());
    const delay = webhookScripts.delays.shift() ?? 0;
    const drop = webhookScripts.drop > 0;
    if (drop) webhookScripts.drop -= 1;
    const twice = !drop && webhookScripts.duplicate > 0;
    if (twice) webhookScripts.duplicate -= 1;
    void webhookBodyOf(request).then(
      (payload) => {
        const body = JSON.stringify(payload);
        later(delay, () => {
          if (drop) return;
          deliver(request, url, body);
          if (twice) later(10, () => deliver(request, url, body));
        });
      },
      (error: unknown) =>
        violations.push(`webhook of ${request.id}: ${error instanceof Error ? error.message : String(error)}`),
    );
  };

  /**
   * A request with a webhook and a hold by time (or none) completes when its time is up, then is reported;
   * one held by polls completes when its polls say (the service's fallback checks), and is reported then.
   */
  const completeByWebhook = (request: QueuedRequest): void => {
    if (!request.webhook) return;
    if (request.hold.untilTold) return;
    if (request.hold.ms === undefined && (request.hold.queuedPolls ?? 0) + (request.hold.runningPolls ?? 0) > 0) return;
    later(request.hold.ms ?? 0, () => {
      void request.files.then(
        () => {
          if (request.cancelled) return;
          request.completed = true;
          report(request);
        },
        () => undefined,
      );
    });
  };

  /** A request held by time has done its work once its time is up, polled or not. */
  const finishedByTime = (request: QueuedRequest): boolean =>
    request.hold.ms !== undefined && Date.now() >= request.createdAt + request.hold.ms;

  const send = (response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    response.writeHead(status, { 'content-type': 'application/json', ...headers });
    response.end(JSON.stringify(body));
  };
  const reject = (response: ServerResponse, status: number, why: string, loc: (string | number)[] = ['body']) => {
    violations.push(why);
    send(response, status, { detail: [{ loc, msg: why, type: 'value_error' }] });
  };
  const scriptedFailure = (stage: FalStage, response: ServerResponse, afterWork = false): boolean => {
    const index = failures.findIndex((failure) => failure.on === stage && failure.afterWork === afterWork);
    const failure = failures[index];
    if (!failure) return false;
    if (failure.after > 0) {
      failure.after -= 1;
      return false;
    }
    failure.times -= 1;
    if (failure.times <= 0) failures.splice(index, 1);
    send(response, failure.status, failure.detail ?? { detail: `scripted HTTP ${failure.status}` }, {
      ...(failure.retryAfter !== undefined && { 'retry-after': failure.retryAfter }),
    });
    return true;
  };

  const fetchInput = async (url: string): Promise<Buffer> => {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`image_urls entry ${url} answered HTTP ${response.status}`);
    const data = Buffer.from(await response.arrayBuffer());
    // fal's models read an input by its Content-Type: one that says another format than the bytes is a mislabel.
    const contentType = response.headers.get('content-type') ?? '';
    const magic = INPUT_MAGIC[contentType];
    if (!magic) violations.push(`image_urls entry ${url} is served as '${contentType}', not png, jpeg or webp`);
    else if (!data.subarray(0, magic.length).equals(magic))
      violations.push(`image_urls entry ${url} is served as '${contentType}' but its bytes are not`);
    return data;
  };

  const makeFiles = async (
    id: string,
    spec: EndpointSpec,
    input: Record<string, unknown>,
    count: number,
    /** The subjects the request's LoRAs draw (their prompt named the trigger), beside its inputs' people. */
    loraSubjects: Buffer[] = [],
  ): Promise<QueuedRequest['files'] extends Promise<infer T> ? T : never> => {
    if (spec.output === 'trainer') return trainerWork(id, input);
    drawnRequests += 1;
    const ordinal = drawnRequests; // taken before any await: the seed follows the order of submission
    const { width, height } = sizeOfInput(spec, input);
    const format = input.output_format === 'jpeg' ? 'jpeg' : input.output_format === 'png' ? 'png' : spec.defaultFormat;
    const urls = Array.isArray(input.image_urls) ? input.image_urls.map(String) : [];
    const fetched = await Promise.all(urls.map(fetchInput));
    const inputs = drawFaces ? [...loraSubjects, ...fetched] : [];
    const prompt = String(input.prompt ?? '');
    const made = [];
    for (let index = 0; index < count; index += 1) {
      const { data } = await renderOutput({
        width,
        height,
        format: format === 'png' ? 'png' : 'jpeg',
        seed: requestSeed('fal', ordinal, index, prompt, ...inputs),
        prompt,
        inputs,
        driftRate: options.driftRate,
      });
      const name = `${id}-${index}.${format === 'png' ? 'png' : 'jpeg'}`;
      const contentType = format === 'png' ? 'image/png' : 'image/jpeg';
      files.set(name, { data, contentType });
      made.push({ name, width, height, contentType });
    }
    return made;
  };

  /**
   * A training's work: the zip fetched and read, its images and captions checked (recorded in `violations`
   * when fal would refuse them, or when a name or caption carries an internal id), the LoRA file made.
   */
  const trainerWork = async (id: string, input: Record<string, unknown>) => {
    const training = trainings.find((entry) => entry.requestId === id);
    const response = await fetch(String(input.image_data_url));
    if (!response.ok) throw new Error(`image_data_url answered HTTP ${response.status}`);
    const entries = readZip(Buffer.from(await response.arrayBuffer()));
    const set = checkTrainingSet(
      entries,
      typeof input.default_caption === 'string' ? input.default_caption : undefined,
    );
    for (const problem of set.problems) violations.push(`${TRAINER_ENDPOINT}: ${problem}`);
    for (const where of internalIdsIn({ names: entries.map((entry) => entry.name), captions: set.captions }))
      violations.push(`${TRAINER_ENDPOINT}: internal id in the zip: ${where}`);
    const name = `${id}-lora.safetensors`;
    files.set(name, { data: loraFile(id), contentType: 'application/octet-stream' });
    if (training) {
      training.set = set;
      training.loraUrl = `${filesAt ?? baseUrl}/files/${name}`;
      training.photos = entries.filter((entry) => set.images.includes(entry.name)).map((entry) => entry.data);
      training.triggers = triggersOf(Object.values(set.captions));
    }
    return [{ name, width: 0, height: 0, contentType: 'application/octet-stream' }];
  };

  const outputOf = async (request: QueuedRequest): Promise<unknown> => {
    if (request.output === 'trainer') {
      const [lora] = await request.files;
      const file = (name: string, contentType: string) => ({
        url: `${filesAt ?? baseUrl}/files/${name}`,
        content_type: contentType,
        file_name: name,
      });
      return {
        diffusers_lora_file: file(lora?.name ?? '', 'application/octet-stream'),
        config_file: file(`${request.id}-config.json`, 'application/json'),
      } satisfies EndpointTypeMap['fal-ai/flux-2-trainer']['output'];
    }
    const made = request.refusal === 'no_image' ? [] : await request.files;
    const images = made.map((file) => ({
      url: `${filesAt ?? baseUrl}/files/${file.name}`,
      width: file.width,
      height: file.height,
      content_type: file.contentType,
      file_name: file.name,
    }));
    switch (request.output) {
      case 'flux-2':
        return {
          images,
          has_nsfw_concepts: images.map(() => request.refusal === 'nsfw'),
          prompt: request.prompt,
          seed: request.seed,
          timings: {},
        } satisfies EndpointTypeMap['fal-ai/flux-2']['output'];
      case 'flux-2-pro':
        return { images, seed: request.seed } satisfies EndpointTypeMap['fal-ai/flux-2-pro']['output'];
      case 'nano-banana-2':
        return { images, description: '' } satisfies EndpointTypeMap['fal-ai/nano-banana-2']['output'];
      case 'qwen-image-2':
        return { images, seed: request.seed } satisfies EndpointTypeMap['fal-ai/qwen-image-2/text-to-image']['output'];
      case 'seedream':
        return {
          images,
          seed: request.seed,
        } satisfies EndpointTypeMap['fal-ai/bytedance/seedream/v5/lite/text-to-image']['output'];
    }
    return undefined;
  };

  /** The delivery body (fal's docs: OK with the endpoint's output; ERROR with `error` and the detail as payload). */
  const webhookBodyOf = async (request: QueuedRequest): Promise<Record<string, unknown>> => {
    const ids = { request_id: request.id, gateway_request_id: request.id };
    const failed = request.training?.failure;
    if (failed !== undefined)
      return { ...ids, status: 'ERROR', error: 'Invalid status code: 422', payload: { detail: failedDetail(failed) } };
    if (request.refusal === 'content_policy')
      return {
        ...ids,
        status: 'ERROR',
        error: 'Invalid status code: 422',
        payload: {
          detail: [
            {
              loc: ['body', 'prompt'],
              msg: request.refusalMessage ?? POLICY_MESSAGE,
              type: 'content_policy_violation',
            },
          ],
        },
      };
    return { ...ids, status: 'OK', payload: await outputOf(request) };
  };

  const failedDetail = (message: string) => [{ loc: ['body', 'image_data_url'], msg: message, type: 'value_error' }];

  const urlsOf = (request: QueuedRequest) => {
    const base = `${options.queueAt ?? baseUrl}/${request.app}/requests/${request.id}`;
    return { request_id: request.id, response_url: base, status_url: `${base}/status`, cancel_url: `${base}/cancel` };
  };

  const statusOf = (request: QueuedRequest): QueueStatus => {
    const { queuedPolls = 0, runningPolls = 0, ms } = request.hold;
    request.polls += 1;
    let state: QueueStatus['status'] = 'COMPLETED';
    let position = 0;
    if (!request.cancelled && !request.completed) {
      if (request.hold.untilTold) {
        state = request.told ?? 'IN_QUEUE';
        position = request.hold.untilTold.queuePosition;
      } else if (ms !== undefined) {
        const elapsed = Date.now() - request.createdAt;
        state = elapsed >= ms ? 'COMPLETED' : elapsed < ms / 2 ? 'IN_QUEUE' : 'IN_PROGRESS';
      } else if (request.polls <= queuedPolls) {
        state = 'IN_QUEUE';
        position = queuedPolls - request.polls;
      } else if (request.polls <= queuedPolls + runningPolls) {
        state = 'IN_PROGRESS';
      }
    }
    const lag = request.hold.statusLagMs;
    if (state === 'COMPLETED' && lag !== undefined && !request.cancelled) {
      const doneAt = finishedAt.get(request.id) ?? (ms !== undefined ? request.createdAt + ms : Date.now());
      if (Date.now() < doneAt + lag) state = 'IN_PROGRESS';
    }
    if (state === 'COMPLETED') {
      request.completed = true;
      request.statusSaidCompleted = true;
      if (!request.cancelled) report(request);
    }
    const urls = urlsOf(request);
    if (state === 'IN_QUEUE') return { status: 'IN_QUEUE', queue_position: position, ...urls };
    if (state === 'IN_PROGRESS') {
      // The trainer logs its steps as it goes (fal shows a training's logs on its status).
      const logs =
        request.output === 'trainer'
          ? [
              {
                message: `step 1/${request.training?.steps ?? 1000}`,
                level: 'INFO' as const,
                source: 'USER' as const,
                timestamp: new Date().toISOString(),
              },
            ]
          : [];
      return { status: 'IN_PROGRESS', logs, ...urls };
    }
    return { status: 'COMPLETED', logs: [], metrics: { inference_time: 1.5 }, ...urls };
  };

  const onSubmit = async (
    endpoint: string,
    headers: IncomingHttpHeaders,
    body: unknown,
    response: ServerResponse,
    query: URLSearchParams,
  ) => {
    const spec = ENDPOINTS[endpoint];
    const webhook = query.get('fal_webhook') ?? undefined;
    if (webhook !== undefined && !/^https?:\/\/[^/]+/.test(webhook))
      return reject(response, 422, `fal_webhook is not an http(s) URL: ${webhook}`, ['query', 'fal_webhook']);
    for (const name of query.keys())
      if (name !== 'fal_webhook') return reject(response, 422, `unknown query parameter ${name}`, ['query', name]);
    if (!spec) return reject(response, 404, `no such endpoint: POST /${endpoint}`, ['path']);
    if (!/^application\/json/.test(headers['content-type'] ?? '')) {
      return reject(response, 422, `submit to ${endpoint} without content-type application/json`);
    }
    const parsed = v.safeParse(spec.schema, body);
    if (!parsed.success) {
      const why = `${endpoint} input: ${v.summarize(parsed.issues)}`;
      violations.push(why);
      return send(response, 422, {
        detail: parsed.issues.map((issue) => ({
          loc: ['body', ...(issue.path ?? []).map((item) => String(item.key))],
          msg: issue.message,
          type: 'value_error',
        })),
      });
    }
    if (scriptedFailure('submit', response)) return;
    const input = parsed.output as Record<string, unknown>;
    for (const where of internalIdsIn(input)) violations.push(`${endpoint}: internal id sent: ${where}`);
    // A LoRA endpoint loads each LoRA from its path: one it cannot fetch fails the request. A LoRA of the
    // double's trainer draws its subject when the prompt names its trigger word, as a trained LoRA would.
    const loaded: Omit<FalLoraUse, 'requestId'>[] = [];
    const loraSubjects: Buffer[] = [];
    if (Array.isArray(input.loras)) {
      for (const lora of input.loras as { path: string; scale?: number }[]) {
        const fetched = await fetch(lora.path).then(
          async (answer) => ({ status: answer.status, data: Buffer.from(await answer.arrayBuffer()) }),
          () => ({ status: 0, data: Buffer.alloc(0) }),
        );
        loraFetches.push({ path: lora.path, status: fetched.status });
        if (fetched.status !== 200)
          return reject(
            response,
            422,
            `${endpoint}: the LoRA at ${lora.path} could not be fetched (HTTP ${fetched.status})`,
            ['body', 'loras'],
          );
        const seed = loraSeedOf(fetched.data);
        const trained = trainings.find((entry) => entry.requestId === seed);
        const words = String(input.prompt ?? '')
          .toLowerCase()
          .split(/[^a-z0-9]+/);
        const triggered = (trained?.triggers ?? []).some((word) => words.includes(word));
        if (triggered && trained?.photos?.[0]) loraSubjects.push(trained.photos[0]);
        loaded.push({
          endpoint,
          path: lora.path,
          ...(lora.scale !== undefined && { scale: lora.scale }),
          ...(trained && { trainingId: trained.requestId }),
          triggered,
        });
      }
    }
    const [next] = refusals;
    const refusal = next && next.after === 0 ? refusals.shift() : undefined;
    if (next && next.after > 0) next.after -= 1;
    if (refusal?.kind === 'content_policy' && refusal.on === 'submit') {
      return send(response, 422, {
        detail: [
          {
            loc: ['body', 'prompt'],
            msg: refusal.message ?? POLICY_MESSAGE,
            type: 'content_policy_violation',
            url: 'https://docs.fal.ai/errors#content_policy_violation',
            input: String(input.prompt),
          },
        ],
      });
    }
    const id = randomUUID();
    const seed = Number.parseInt(createHash('sha256').update(id).digest('hex').slice(0, 6), 16);
    const count = typeof input.num_images === 'number' ? input.num_images : 1;
    // The training is recorded before its work starts (trainerWork finds it).
    const pending: FalTraining | undefined =
      spec.output === 'trainer' ? { requestId: id, zipUrl: String(input.image_data_url) } : undefined;
    if (pending) {
      trainings.push(pending);
      for (const waiter of trainingWaiters.splice(0)) waiter(pending);
    }
    for (const use of loaded) loraUses.push({ requestId: id, ...use });
    const files = makeFiles(id, spec, input, count, loraSubjects);
    files.catch((error: unknown) =>
      violations.push(`${endpoint}: ${error instanceof Error ? error.message : String(error)}`),
    );
    const training =
      spec.output === 'trainer'
        ? {
            requestId: id,
            zipUrl: String(input.image_data_url),
            ...(typeof input.steps === 'number' && { steps: input.steps }),
            ...(typeof input.learning_rate === 'number' && { learningRate: input.learning_rate }),
            ...(trainingFailures.length > 0 && { failure: trainingFailures.shift() }),
          }
        : undefined;

    const request: QueuedRequest = {
      ...(pending && training && { training: Object.assign(pending, training) }),
      id,
      endpoint,
      app: endpoint.split('/').slice(0, 2).join('/'),
      createdAt: Date.now(),
      hold: holds.shift() ?? options.hold ?? {},
      polls: 0,
      completed: false,
      cancelled: false,
      refusal: refusal?.kind,
      refusalMessage: refusal?.message,
      files,
      output: spec.output,
      seed,
      prompt: String(input.prompt),
      webhook,
    };
    requests.set(id, request);
    completeByWebhook(request);
    submissions.push({ requestId: id, endpoint, input, ...(webhook !== undefined && { webhook }) });
    counters.submits += 1;
    if (hangSubmits > 0) {
      hangSubmits -= 1;
      return;
    }
    if (scriptedFailure('submit', response, true)) return;
    const answer: InQueueQueueStatus = {
      status: 'IN_QUEUE',
      queue_position: request.hold.untilTold?.queuePosition ?? request.hold.queuedPolls ?? 0,
      ...urlsOf(request),
    };
    const slow = slowSubmits.shift();
    if (slow !== undefined) later(slow, () => send(response, 200, answer));
    else send(response, 200, answer);
  };

  const onRequest = async (
    app: string,
    id: string,
    action: string,
    method: string,
    response: ServerResponse,
  ): Promise<void> => {
    const request = requests.get(id);
    if (!request) return reject(response, 404, `no request ${id}`, ['path']);
    if (app !== request.app) {
      return reject(response, 404, `request ${id} addressed under /${app}; fal's URLs name only /${request.app}`, [
        'path',
      ]);
    }
    if (action === '/status' && method === 'GET') {
      counters.statusPolls += 1;
      if (scriptedFailure('status', response)) return;
      const status = statusOf(request);
      return send(response, status.status === 'COMPLETED' ? 200 : 202, status);
    }
    if (action === '/cancel' && method === 'PUT') {
      counters.cancels += 1;
      if (scriptedFailure('cancel', response)) return;
      if (request.completed) return send(response, 400, { status: 'ALREADY_COMPLETED' });
      request.cancelled = true;
      return send(response, 202, { status: 'CANCELLATION_REQUESTED' });
    }
    if (action === '' && method === 'GET') {
      counters.results += 1;
      if (scriptedFailure('result', response)) return;
      if (!request.completed || (request.hold.statusLagMs !== undefined && !request.statusSaidCompleted)) {
        return reject(response, 400, `result of ${id} fetched before its status said COMPLETED`, ['path']);
      }
      if (request.cancelled) return send(response, 400, { detail: 'Request was cancelled' });
      if (request.training?.failure !== undefined)
        return send(response, 422, { detail: failedDetail(request.training.failure) });
      if (request.refusal === 'content_policy') {
        return send(response, 422, {
          detail: [
            {
              loc: ['body', 'prompt'],
              msg: request.refusalMessage ?? POLICY_MESSAGE,
              type: 'content_policy_violation',
              url: 'https://docs.fal.ai/errors#content_policy_violation',
              input: request.prompt,
            },
          ],
        });
      }
      return send(response, 200, await outputOf(request));
    }
    return reject(response, 405, `${method} ${action || '(result)'} is not part of fal's queue API`, ['path']);
  };

  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = text === '' ? undefined : JSON.parse(text);
      } catch {
        // kept as text: a submit then fails its schema
      }
      const method = request.method ?? '';
      const path = (request.url ?? '').split('?')[0] ?? '';
      const query = new URL(request.url ?? '/', 'http://double').searchParams;
      received.push({ method, path, headers: request.headers, body });
      const handle = async () => {
        if (path === '/.well-known/jwks.json' && method === 'GET') return send(response, 200, { keys: [jwk] });
        const file = /^\/(files|inputs)\/([^/]+)$/.exec(path);
        if (file && method === 'GET') {
          const stored = (file[1] === 'files' ? files : shared).get(file[2] ?? '');
          if (file[1] === 'files') counters.files += 1;
          if (file[1] === 'files' && scriptedFailure('file', response)) return;
          if (!stored) return reject(response, 404, `no file ${path}`, ['path']);
          response.writeHead(200, { 'content-type': stored.contentType });
          return void response.end(stored.data);
        }
        if (!/^Key \S+/.test(request.headers.authorization ?? '')) {
          return reject(response, 401, `${method} ${path} without "Authorization: Key <key>"`, [
            'header',
            'authorization',
          ]);
        }
        const payloads = /^\/v1\/models\/requests\/([^/]+)\/payloads$/.exec(path);
        if (payloads && method === 'DELETE') {
          const id = payloads[1] ?? '';
          if (!requests.has(id)) return reject(response, 404, `no request ${id}`, ['path']);
          deletedPayloads.push(id);
          return send(response, 200, { cdn_delete_results: [] });
        }
        const queued = /^\/(.+)\/requests\/([^/]+)(\/status|\/cancel)?$/.exec(path);
        if (queued) return onRequest(queued[1] ?? '', queued[2] ?? '', queued[3] ?? '', method, response);
        if (method === 'POST') return onSubmit(path.slice(1), request.headers, body, response, query);
        return reject(response, 405, `${method} ${path} is not part of fal's queue API`, ['path']);
      };
      handle().catch((error: unknown) => {
        violations.push(
          `double failed on ${method} ${path}: ${error instanceof Error ? error.message : String(error)}`,
        );
        if (!response.headersSent) send(response, 500, { detail: 'double failed' });
      });
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('fal double: not listening on TCP');
  baseUrl = `http://127.0.0.1:${address.port}`;

  return {
    trainings,
    failNextTraining: (message) => {
      trainingFailures.push(message);
    },
    loraFetches,
    loraUses,
    nextTraining: () => new Promise<FalTraining>((resolve) => trainingWaiters.push(resolve)),
    advance: (requestId, state) => {
      const request = requests.get(requestId);
      if (!request?.hold.untilTold) throw new Error(`request ${requestId} is not held until told`);
      if (request.cancelled || request.completed) return;
      request.told = state;
      if (state !== 'COMPLETED') return;
      // Its work done: reported to its webhook as fal reports a finished request.
      void request.files.then(
        () => {
          if (request.cancelled) return;
          request.completed = true;
          report(request);
        },
        () => undefined,
      );
    },
    deletedPayloads,
    platformUrl: `${baseUrl}/v1`,
    baseUrl,
    received,
    submissions,
    violations,
    counters,
    failNext: (status, { on = 'submit', after = 0, times = 1, retryAfter, detail, afterWork = false } = {}) => {
      failures.push({ on, after, times, status, retryAfter, detail, afterWork });
    },
    slowNextSubmit: (ms) => {
      slowSubmits.push(ms);
    },
    hangNextSubmit: () => {
      hangSubmits += 1;
    },
    clearFailures: () => {
      failures.length = 0;
    },
    refuseNext: (kind, { on = 'result', after = 0, message } = {}) => {
      refusals.push({ kind, on, after, message });
    },
    holdNext: (hold) => {
      holds.push(hold);
    },
    answerFilesAt: (base) => {
      filesAt = base;
    },
    jwksUrl: `${baseUrl}/.well-known/jwks.json`,
    signer,
    webhookDeliveries,
    finishedAt,
    running: () =>
      [...requests.values()]
        .filter((request) => !request.cancelled && !request.completed && !finishedByTime(request))
        .map((request) => request.id),
    cancelled: () => [...requests.values()].filter((request) => request.cancelled).map((request) => request.id),
    dropNextWebhooks: (count = 1) => {
      webhookScripts.drop += count;
    },
    duplicateNextWebhooks: (count = 1) => {
      webhookScripts.duplicate += count;
    },
    delayNextWebhooks: (ms, count = 1) => {
      for (let index = 0; index < count; index += 1) webhookScripts.delays.push(ms);
    },
    share: async (data, contentType) => {
      const name = createHash('sha256').update(data).digest('hex');
      shared.set(name, { data, contentType });
      return `${baseUrl}/inputs/${name}`;
    },
    close: async () => {
      closing = true;
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
};
