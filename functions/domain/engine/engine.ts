/**
 * The image engine port: one operation in, images out, or a typed refusal. The sandbox engine
 * (functions/adapters/engine/sandbox-engine.ts) does real image work on sharp; the HTTP adapter forwards
 * the same request to a GPU backend. Engines never see money, accounts or HTTP, and they do not say who
 * is in their outputs: recognition (recognition.ts) does, the same way after every engine.
 */
import type { FaceKind, FacePose, HeadPose } from '../faces';
import { METRICS, type Meter } from '../shared/meter';

export const OPERATIONS = ['edit', 'generate', 'enhance', 'remix'] as const;
export type Operation = (typeof OPERATIONS)[number];

export const OUTPUT_FORMATS = ['png', 'jpg'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

const CONTENT_TYPE: Record<OutputFormat, string> = { png: 'image/png', jpg: 'image/jpeg' };
export const contentTypeOf = (format: OutputFormat) => CONTENT_TYPE[format];

/** What a caller may send: the input guard reads these from the magic bytes. */
export const INPUT_FORMATS = ['jpeg', 'png', 'webp', 'heif'] as const;
export type InputFormat = (typeof INPUT_FORMATS)[number];

/**
 * What a decoded input's bytes are: the guard re-encodes HEIC (and any input it rotates or shrinks) to
 * JPEG, or PNG when it has alpha, so HEIF is never the format of bytes an engine receives.
 */
export const IMAGE_FORMATS = ['jpeg', 'png', 'webp'] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];

const IMAGE_CONTENT_TYPE: Record<ImageFormat, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
};
/** The media type of a decoded input's bytes (stored inputs, inputs sent to a provider). */
export const inputContentTypeOf = (format: ImageFormat) => IMAGE_CONTENT_TYPE[format];

/**
 * The format of encoded bytes, from their magic bytes alone (no decoding): what a label must say. An
 * adapter that names bytes for a provider asks the bytes, so a label cannot disagree with them.
 */
export const imageFormatOf = (bytes: Buffer): ImageFormat | undefined => {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 8 && bytes.readUInt32BE(0) === 0x89504e47 && bytes.readUInt32BE(4) === 0x0d0a1a0a) return 'png';
  if (bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP')
    return 'webp';
  return undefined;
};

/** An input image after decoding: bytes sharp can read (HEIC already converted), at most 4096 px a side. */
export interface DecodedImage {
  data: Buffer;
  /** The format of `data` as it is now (after any re-encoding), never the caller's file's. */
  format: ImageFormat;
  /** The caller's file's format, where it differs from `data`'s (a HEIC, re-encoded): for reports only. */
  sourceFormat?: InputFormat;
  width: number;
  height: number;
  /**
   * Optional: `data` decoded small (interleaved 8-bit sRGB on white, fit inside 128 px), left by the
   * input guard's verification decode so that an engine needing statistics does not decode again.
   * Absent when `data` was rebuilt or reloaded from storage.
   */
  preview?: ImagePreview;
}

export interface ImagePreview {
  data: Buffer;
  width: number;
  height: number;
}

/** What a profile's training kept of its face: the template mean (of one model) and the aligned reference crops. */
export interface CandidateFace {
  /** The face analyser's model id: only faces of the same model are compared with `mean`. */
  modelId: string;
  kind: FaceKind;
  /** Unit length. */
  mean: number[];
  /**
   * Object keys of aligned JPEG face crops, best first: what an engine shows a model of this subject (3-6;
   * a Full Train profile's bank up to 8). Send them in the order reference-choice.ts gives.
   */
  referenceKeys: string[];
  /** The pose of each crop, in the order of `referenceKeys`, when training recorded them (a Full Train bank). */
  referencePoses?: FacePose[];
}

/**
 * A READY profile the request references. Recognition (recognition.ts) matches output faces against
 * `face`; a profile without one (not re-embedded since the face model came) can be named but never matched.
 */
export interface CandidateProfile {
  profileId: string;
  face: CandidateFace | null;
  /**
   * The head pose of this subject's face in the request's input, where it was found there (edit, enhance,
   * remix; identity.ts): the references closest to it are sent first. Absent: not looked for, or not found.
   */
  inputPose?: HeadPose;
  /**
   * The profile's LoRA, for a model that takes one (Full Train on a LoRA trainer, profiles/lora-training.ts):
   * the file's key in our bucket and the token it learned the subject as. Absent on every other profile.
   */
  lora?: CandidateLora;
}

/** A READY profile's trained LoRA: sent by a presigned URL of `key`; its subject named by `token` in the prompt. */
export interface CandidateLora {
  key: string;
  token: string;
}

export interface EngineRequest {
  operation: Operation;
  prompt: string;
  /** edit: the inputs; enhance: [image]; remix: [input, reference]; generate: none. */
  images: DecodedImage[];
  /** Output size, decided by the domain from the model, resolution, aspect ratio or size. */
  width: number;
  height: number;
  outputFormat: OutputFormat;
  numOutputImages: number;
  baseModel: string;
  quality?: string;
  /** Profiles the request references (profile_ids merged with prompt references). */
  candidates: CandidateProfile[];
  /** The subset of candidate ids named as `[[id]]` in the prompt: those are generated. */
  namedInPrompt: string[];
  /**
   * Fixed by the job (its id): every attempt at this work carries it, so a provider that deduplicates
   * (an Idempotency-Key) does the work once however often a step is retried. Never fresh per attempt.
   */
  workKey: string;
  /**
   * The account the job is for: what a provider is shown of the caller's inputs and profiles is stored
   * under it (ReferenceImages.share), so that it is scoped to the account and deleted with its profile.
   */
  accountId: string;
}

/** An engine request before its job exists (images/prepare.ts): the job's id becomes its workKey, its account is the job's. */
export type PreparedEngineRequest = Omit<EngineRequest, 'workKey' | 'accountId'>;

export interface EngineUsage {
  /** Output tokens, for token-metered models. */
  outputTokens: number;
  /** Input tokens of the prompt (text) and of the images sent (image), for token-metered models; absent: none reported. */
  inputTextTokens?: number;
  inputImageTokens?: number;
  /**
   * True when the engine could not say how many tokens the work took (a provider's answer without its
   * `usage`): a token-metered model then settles at its reservation (fail closed), and it is logged.
   */
  tokensMissing?: boolean;
  /** Output megapixels summed over all images, for megapixel-metered models. */
  megapixels: number;
  /**
   * What the work cost the operator at the provider (micro-USD), where the provider reports it or its
   * price list computes it; recorded on the job for the operator, never shown to the API caller.
   */
  providerCostMicros?: number;
}

export type EngineOutcome =
  | {
      kind: 'images';
      /** Encoded in `outputFormat`, exactly `numOutputImages` of them. Who they show is for recognition to say. */
      images: Buffer[];
      usage: EngineUsage;
      /**
       * The subjects the provider was given as a LoRA (identity-prompt.ts `loraCarried`), not as reference
       * images; absent or empty: every subject by its references.
       */
      carriedByLora?: string[];
    }
  | { kind: 'moderated'; message: string }
  | { kind: 'no_image'; message: string };

/** How far an engine run has got, from 0 to 1; called as often as the engine likes (callers throttle). */
export type ProgressReport = (fraction: number) => void;

/** Keeps a queued provider's ticket where the work's other ends can find it (the job's record). */
export type KeepTicket = (ticket: EngineTicket) => Promise<void>;

export interface ImageEngine {
  /**
   * Throws on an engine failure; a refusal is an outcome, not an error. Honours `signal` (abort).
   * May report its progress through `progress` (optional both ways: an engine that cannot tell says nothing).
   * Errors worth another try carry `retryable: true` (HttpEngineError does).
   * An engine whose provider queues the work hands its ticket to `keepTicket` before it checks the work
   * (a synchronous job stores it, so that work outliving the caller's process can still be canceled); a
   * ticket that cannot be kept is canceled and the run fails.
   */
  run(
    request: EngineRequest,
    signal: AbortSignal,
    progress?: ProgressReport,
    keepTicket?: KeepTicket,
  ): Promise<EngineOutcome>;
  /**
   * Present on engines whose provider queues work (fal): the asynchronous job's workflow submits once,
   * stores the ticket on the job, and checks it from later steps, so no step holds a Lambda for the
   * whole generation and a retried step checks the same provider request instead of starting another.
   * `run` stays for synchronous calls (it submits and checks within the call).
   */
  queue?: EngineQueue;
  /**
   * Whether running this request asks a provider that does not deduplicate work (no honoured
   * Idempotency-Key): the asynchronous workflow then marks the job before the call and never runs it a
   * second time (steps.ts). Absent: a run may be repeated (the sandbox; an engine that honours the key).
   */
  startsOnce?(request: Pick<EngineRequest, 'baseModel'>): boolean;
}

/** Whether an engine error says the provider may have done the work although its answer was lost (provider-http.ts). */
export const mayHaveRun = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && (error as { mayHaveRun?: unknown }).mayHaveRun === true;

/**
 * What a queued submission left to find its work again: JSON, stored on the job. `engine` names the
 * adapter that made it (a routed engine sends checks and cancels back to it); `requests` are the
 * provider's own request ids (one per provider call: several when a provider makes fewer images per
 * call than asked), with whatever else the adapter needs to reach them.
 */
export interface EngineTicket {
  engine: string;
  /** The provider's model the work was submitted to: a check or cancel goes to it whatever the routes say now. */
  model?: string;
  requests: { id: string; [field: string]: string | number }[];
  submittedAt: number;
  /** The provider reports each request's end to the URL the submit gave it (its webhook route). */
  webhook?: boolean;
}

export type QueueCheck =
  /** Still queued or running: `progress` from 0 to 1 where the provider says, `queuePosition` where it has one. */
  { state: 'waiting'; progress?: number; queuePosition?: number } | { state: 'done'; outcome: EngineOutcome };

export interface EngineQueue {
  /** The `engine` of the tickets it makes (e.g. 'fal'): tickets are checked and canceled by a queue of this kind. */
  readonly kind: string;
  /** Whether this request's work is queued (the routed engine asks the model's route). */
  accepts(request: Pick<EngineRequest, 'baseModel'>): boolean;
  /**
   * The kind of the ticket a submit of this request makes (its provider's id), to whose webhook the provider
   * reports; absent: `kind` (a queue of one provider). The routed engine answers the model's provider.
   */
  kindOf?(request: Pick<EngineRequest, 'baseModel'>): string;
  /**
   * Starts the work; the ticket must be stored before anything else can fail. With `webhookUrl` the provider
   * is asked to report each request's end there (the ticket then says `webhook`).
   */
  submit(request: EngineRequest, signal: AbortSignal, webhookUrl?: string): Promise<EngineTicket>;
  /** Where the work stands; once done, the outcome exactly as `run` would give it (count, size, format, usage). */
  check(ticket: EngineTicket, request: EngineRequest, signal: AbortSignal): Promise<QueueCheck>;
  /** Asks the provider to stop the work (best effort: a provider may have finished, and may still charge). */
  cancel(ticket: EngineTicket, signal: AbortSignal): Promise<void>;
}

/**
 * How long a run whose signal aborted waits for the engine to stop before it gives up on it: a queued
 * provider (fal) cancels its request on the abort, and that cancel must leave before the function answers
 * (a Lambda is frozen once it has answered, and a request left running is paid for). Within the 5 minutes
 * API Gateway holds an idle connection (290 s + 5 s).
 */
export const ENGINE_STOP_WAIT_MS = 5_000;

const noop = () => undefined;

/**
 * Runs the engine until it answers or `signal` aborts. After an abort it rejects with the signal's reason
 * once the engine has stopped (its cancel sent), or ENGINE_STOP_WAIT_MS have passed (an engine that ignores
 * aborts is left behind). `keepTicket` is handed to the engine: a queued provider stores its ticket there.
 */
export const abortableRun = (
  engine: ImageEngine,
  request: EngineRequest,
  signal: AbortSignal,
  progress?: ProgressReport,
  keepTicket?: KeepTicket,
): Promise<EngineOutcome> =>
  new Promise<EngineOutcome>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const running = engine.run(request, signal, progress, keepTicket);
    const onAbort = () => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const waited = new Promise<void>((done) => {
        timer = setTimeout(done, ENGINE_STOP_WAIT_MS);
      });
      void Promise.race([running.then(noop, noop), waited]).then(() => {
        clearTimeout(timer);
        reject(signal.reason);
      });
    };
    signal.addEventListener('abort', onAbort, { once: true });
    running.then(
      (outcome) => {
        if (signal.aborted) return;
        signal.removeEventListener('abort', onAbort);
        resolve(outcome);
      },
      (error: unknown) => {
        if (signal.aborted) return;
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });

/**
 * The engine, with every failure that may have left paid work at a provider (mayHaveRun: a timeout or a
 * lost connection after the request was sent, a 5xx a provider does not document as "not processed")
 * reported once, for the operator: the job fails refunded, the provider may still bill the operator.
 */
export const reportingLostWork = (
  engine: ImageEngine,
  report: (request: EngineRequest, error: unknown) => void,
): ImageEngine => {
  const reported = async <T>(request: EngineRequest, work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      if (mayHaveRun(error)) report(request, error);
      throw error;
    }
  };
  const { queue } = engine;
  return {
    run: (request, signal, progress, keepTicket) =>
      reported(request, () => engine.run(request, signal, progress, keepTicket)),
    ...(queue && {
      queue: {
        kind: queue.kind,
        accepts: (request) => queue.accepts(request),
        kindOf: (request) => queue.kindOf?.(request) ?? queue.kind,
        submit: (request, signal, webhookUrl) => reported(request, () => queue.submit(request, signal, webhookUrl)),
        check: (ticket, request, signal) => queue.check(ticket, request, signal),
        cancel: (ticket, signal) => queue.cancel(ticket, signal),
      },
    }),
    ...(engine.startsOnce && { startsOnce: (request) => engine.startsOnce?.(request) ?? false }),
  };
};

/** The engine, timed: each run's latency by operation and outcome (`images`, `moderated`, `no_image`, `error`). */
export const meteredEngine = (
  engine: ImageEngine,
  meter: Meter,
  now: () => number = () => performance.now(),
): ImageEngine => ({
  run: async (request, signal, progress, keepTicket) => {
    const started = now();
    let outcome = 'error';
    try {
      const result = await engine.run(request, signal, progress, keepTicket);
      outcome = result.kind;
      return result;
    } finally {
      meter.milliseconds(METRICS.engineLatency, now() - started, { operation: request.operation, outcome });
    }
  },
  queue: engine.queue,
  ...(engine.startsOnce && { startsOnce: (request) => engine.startsOnce?.(request) ?? false }),
});
