/**
 * The image engine port: one operation in, images out, or a typed refusal. The sandbox engine
 * (functions/adapters/engine/sandbox-engine.ts) does real image work on sharp; the HTTP adapter forwards
 * the same request to a GPU backend. Engines never see money, accounts or HTTP, and they do not say who
 * is in their outputs: recognition (recognition.ts) does, the same way after every engine.
 */
import type { FaceKind } from '../faces';
import { METRICS, type Meter } from '../shared/meter';

export const OPERATIONS = ['edit', 'generate', 'enhance', 'remix'] as const;
export type Operation = (typeof OPERATIONS)[number];

export const OUTPUT_FORMATS = ['png', 'jpg'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

const CONTENT_TYPE: Record<OutputFormat, string> = { png: 'image/png', jpg: 'image/jpeg' };
export const contentTypeOf = (format: OutputFormat) => CONTENT_TYPE[format];

export const INPUT_FORMATS = ['jpeg', 'png', 'webp', 'heif'] as const;
export type InputFormat = (typeof INPUT_FORMATS)[number];

/** An input image after decoding: bytes sharp can read (HEIC already converted), at most 4096 px a side. */
export interface DecodedImage {
  data: Buffer;
  format: InputFormat;
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
  /** Object keys of 3-6 aligned JPEG face crops, best first: what an engine shows a model of this subject. */
  referenceKeys: string[];
}

/**
 * A READY profile the request references. Recognition (recognition.ts) matches output faces against
 * `face`; a profile without one (not re-embedded since the face model came) can be named but never matched.
 */
export interface CandidateProfile {
  profileId: string;
  face: CandidateFace | null;
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
}

export interface EngineUsage {
  /** Output tokens, for token-metered models. */
  outputTokens: number;
  /** Output megapixels summed over all images, for megapixel-metered models. */
  megapixels: number;
}

export type EngineOutcome =
  | {
      kind: 'images';
      /** Encoded in `outputFormat`, exactly `numOutputImages` of them. Who they show is for recognition to say. */
      images: Buffer[];
      usage: EngineUsage;
    }
  | { kind: 'moderated'; message: string }
  | { kind: 'no_image'; message: string };

/** How far an engine run has got, from 0 to 1; called as often as the engine likes (callers throttle). */
export type ProgressReport = (fraction: number) => void;

export interface ImageEngine {
  /**
   * Throws on an engine failure; a refusal is an outcome, not an error. Honours `signal` (abort).
   * May report its progress through `progress` (optional both ways: an engine that cannot tell says nothing).
   */
  run(request: EngineRequest, signal: AbortSignal, progress?: ProgressReport): Promise<EngineOutcome>;
}

/** Runs the engine until it answers or `signal` aborts, whichever is first (an engine that ignores aborts is left behind). */
export const runEngine = (
  engine: ImageEngine,
  request: EngineRequest,
  signal: AbortSignal,
  progress?: ProgressReport,
): Promise<EngineOutcome> =>
  new Promise<EngineOutcome>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    engine
      .run(request, signal, progress)
      .then(resolve, reject)
      .finally(() => signal.removeEventListener('abort', onAbort));
  });

/** The engine, timed: each run's latency by operation and outcome (`images`, `moderated`, `no_image`, `error`). */
export const meteredEngine = (
  engine: ImageEngine,
  meter: Meter,
  now: () => number = () => performance.now(),
): ImageEngine => ({
  run: async (request, signal, progress) => {
    const started = now();
    let outcome = 'error';
    try {
      const result = await engine.run(request, signal, progress);
      outcome = result.kind;
      return result;
    } finally {
      meter.milliseconds(METRICS.engineLatency, now() - started, { operation: request.operation, outcome });
    }
  },
});
