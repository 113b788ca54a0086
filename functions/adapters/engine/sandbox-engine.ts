/**
 * Read first: the sandbox engine, the default engine locally and on AWS. It does real image work on
 * sharp, so a caller sees outputs that answer the request, and it is deterministic: the same request
 * (prompt, parameters, input bytes) gives the same bytes. Outputs of one request differ by a small
 * per-output colour offset, applied last as one `linear` step.
 *
 * Performance is part of the contract (bench/ compares enhance and remix at 2K with a bare sharp
 * pipeline): each input is decoded once for the output; statistics are read from the small preview the
 * input guard's verification decode left on the input (image-input.ts), or, for an input without one,
 * from the same preview decoded here (JPEG shrink-on-load makes that cheap), so the outputs are the same
 * bytes either way. One pipeline per request and one encode per output.
 * With several outputs the shared work is rendered to raw pixels once and each output encodes from them.
 *
 * Identity stays true without a model: for every candidate named as `[[id]]` in a generate or edit prompt,
 * the profile's first reference crop (an aligned face, read through `referenceImage`) is redrawn (turned,
 * relit, resaturated; never its own pixels) in every
 * output, the named faces side by side (across the middle of a generated image, along the bottom of an
 * edited one), each crop 30% of the output's longer side
 * (614 px at 2K), a size the face analyser finds reliably (faceLayout, sandbox-drawing.ts). Enhance and remix keep the input's faces: they only
 * sharpen, stretch or shift colours. The engine says nothing about who is in its outputs; recognition
 * (domain/engine/recognition.ts) finds out, as it does after any engine. Sandbox prompt tokens
 * (sandbox-prompts.ts) select moderation, no image, failure and slowness.
 *
 * This file holds the engine and its four operations; the drawing helpers they use (where the faces go,
 * the pipeline's linear finish and encode, the statistics of a small copy, the seeds) are in
 * sandbox-drawing.ts.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { OverlayOptions } from 'sharp';
import type {
  EngineOutcome,
  EngineRequest,
  EngineUsage,
  ImageEngine,
  ProgressReport,
} from '../../domain/engine/engine';
import { referencesInOrder } from '../../domain/engine/reference-choice';
import { loadSharp } from '../images/sharp';
import {
  type ChannelLinear,
  channelMoments,
  colourTransfer,
  contrastStretch,
  encode,
  faceLayers,
  load,
  renderOutputs,
  requestSeeds,
  type Seeds,
  smallCopy,
} from './sandbox-drawing';
import { parseSandboxPrompt } from './sandbox-prompts';

/** Waits, rejecting with an AbortError as soon as `signal` aborts. */
export type Wait = (milliseconds: number, signal: AbortSignal) => Promise<void>;

export interface SandboxEngineOptions {
  /** How `sandbox:slow=<seconds>` waits; tests pass a recorder instead of sleeping. */
  wait?: Wait;
  /** The bytes of a profile's reference crop (an object key of CandidateFace.referenceKeys). */
  referenceImage?: (key: string) => Promise<Buffer>;
}

const noReferences = async (key: string): Promise<Buffer> => {
  throw new Error(`sandbox engine: no reference store to read ${key} from`);
};

/** What `sandbox:fail` throws: an engine failure, answered as an internal error. */
export class SandboxEngineFailure extends Error {
  constructor() {
    super('The sandbox engine failed because the prompt asked it to (sandbox:fail).');
    this.name = 'SandboxEngineFailure';
  }
}

export const MODERATED_MESSAGE = 'The request was blocked by content moderation (sandbox:moderation).';
export const NO_IMAGE_MESSAGE = 'The model finished without producing an image (sandbox:no-image).';

/** Output tokens per image scale with pixels and with the requested quality (token-metered models). */
const PIXELS_PER_OUTPUT_TOKEN = 750;
const QUALITY_TOKEN_FACTOR: Record<string, number> = { low: 0.25, medium: 0.5, high: 1, auto: 1, xhigh: 1.5, max: 2 };

const SLOW_STEPS = 20;
const SLOW_SHARE = 0.9;

const waitFor: Wait = async (milliseconds, signal) => {
  await delay(milliseconds, undefined, { signal });
};

export class SandboxEngine implements ImageEngine {
  private readonly wait: Wait;
  private readonly referenceImage: (key: string) => Promise<Buffer>;

  constructor(options: SandboxEngineOptions = {}) {
    this.wait = options.wait ?? waitFor;
    this.referenceImage = options.referenceImage ?? noReferences;
  }

  async run(
    request: EngineRequest,
    signal: AbortSignal,
    progress: ProgressReport = () => undefined,
  ): Promise<EngineOutcome> {
    signal.throwIfAborted();
    assertRenderable(request);
    const directives = parseSandboxPrompt(request.prompt);
    // The slow wait stands for the model's work: reported in twentieths, up to 0.9; the rendering is the rest.
    const slowMs = directives.slowSeconds * 1000;
    for (let step = 1; step <= SLOW_STEPS && slowMs > 0; step += 1) {
      await this.wait(slowMs / SLOW_STEPS, signal);
      progress((SLOW_SHARE * step) / SLOW_STEPS);
    }
    signal.throwIfAborted();
    if (directives.moderation) return { kind: 'moderated', message: MODERATED_MESSAGE };
    if (directives.fail) throw new SandboxEngineFailure();
    if (directives.noImage) return { kind: 'no_image', message: NO_IMAGE_MESSAGE };

    const faces = await namedFaces(request, this.referenceImage);
    signal.throwIfAborted();
    const images = await render(request, faces, signal);
    progress(1);
    return { kind: 'images', images, usage: usageOf(request) };
  }
}

const assertRenderable = ({ operation, images, width, height, numOutputImages }: EngineRequest): void => {
  const needed = { enhance: 1, remix: 2, edit: 0, generate: 0 }[operation];
  if (images.length < needed)
    throw new Error(`sandbox engine: ${operation} needs ${needed} input image(s), got ${images.length}`);
  for (const value of [width, height, numOutputImages]) {
    if (!Number.isInteger(value) || value < 1)
      throw new Error(`sandbox engine: bad output shape ${width}x${height}, ${numOutputImages} image(s)`);
  }
};

const usageOf = ({ width, height, numOutputImages, quality }: EngineRequest): EngineUsage => {
  const pixels = width * height;
  const factor = QUALITY_TOKEN_FACTOR[quality ?? 'auto'] ?? 1;
  return {
    outputTokens: Math.ceil((pixels * factor) / PIXELS_PER_OUTPUT_TOKEN) * numOutputImages,
    megapixels: (pixels * numOutputImages) / 1e6,
  };
};

// ---- identity ----

/** The reference crops of the candidates the prompt names (generate and edit), in the prompt's order. */
const namedFaces = async (
  request: EngineRequest,
  referenceImage: (key: string) => Promise<Buffer>,
): Promise<Buffer[]> => {
  if (request.operation !== 'generate' && request.operation !== 'edit') return [];
  const byId = new Map(request.candidates.map((candidate) => [candidate.profileId, candidate]));
  const keys = request.namedInPrompt.flatMap((id) => {
    const candidate = byId.get(id);
    return candidate ? referencesInOrder(candidate).slice(0, 1) : [];
  });
  return Promise.all(keys.map(referenceImage));
};

// ---- rendering ----

/** `faces`: reference crops to place (generate and edit), in order. */
const render = (request: EngineRequest, faces: Buffer[], signal: AbortSignal): Promise<Buffer[]> => {
  const seeds = requestSeeds(request);
  switch (request.operation) {
    case 'enhance':
      return renderEnhance(request, seeds, signal);
    case 'remix':
      return renderRemix(request, seeds, signal);
    case 'edit':
      return request.images.length > 0
        ? renderEdit(request, faces, seeds, signal)
        : renderGenerate(request, faces, seeds, signal);
    case 'generate':
      return renderGenerate(request, faces, seeds, signal);
  }
};

/** Normalise (contrast stretch from the small copy's luminance), sharpen, resize to the 2K size asked. */
const renderEnhance = async (request: EngineRequest, seeds: Seeds, signal: AbortSignal): Promise<Buffer[]> => {
  const [image] = request.images;
  signal.throwIfAborted();
  const levels = contrastStretch(await smallCopy(image));
  const base = (await load(image)).resize(request.width, request.height, { fit: 'cover' }).sharpen();
  return renderOutputs(base, outputLinears(request, seeds, levels), request.outputFormat, signal);
};

/** The reference's per-channel mean and standard deviation, moved onto the input at the size asked. */
const renderRemix = async (request: EngineRequest, seeds: Seeds, signal: AbortSignal): Promise<Buffer[]> => {
  const [input, reference] = request.images;
  signal.throwIfAborted();
  const [inputPixels, referencePixels] = await Promise.all([smallCopy(input), smallCopy(reference)]);
  const transfer = colourTransfer(channelMoments(inputPixels), channelMoments(referencePixels));
  const base = (await load(input)).resize(request.width, request.height, { fit: 'cover' });
  return renderOutputs(base, outputLinears(request, seeds, transfer), request.outputFormat, signal);
};

/** The first input covering the frame, the others as thumbnails along the bottom, the named faces over them, under a prompt-seeded tint. */
const renderEdit = async (
  request: EngineRequest,
  faces: Buffer[],
  seeds: Seeds,
  signal: AbortSignal,
): Promise<Buffer[]> => {
  const [first, ...others] = request.images;
  const { width, height } = request;
  const edgePx = Math.max(1, Math.floor(Math.min(width, height) / 5));
  const marginPx = Math.max(1, Math.floor(edgePx / 8));
  const fitting = Math.max(0, Math.floor((width - marginPx) / (edgePx + marginPx)));
  const top = Math.max(0, height - edgePx - marginPx);
  signal.throwIfAborted();
  const [thumbnails, faceLayersOf] = await Promise.all([
    Promise.all(
      others
        .slice(0, fitting)
        .map(async (image) => (await load(image)).resize(edgePx, edgePx, { fit: 'cover' }).raw().toBuffer()),
    ),
    faceLayers(faces, width, height, 'bottom', seeds.random('faces')),
  ]);
  const thumbnailLayers: OverlayOptions[] = thumbnails.map((input, index) => ({
    input,
    raw: { width: edgePx, height: edgePx, channels: 3 as const },
    left: marginPx + index * (edgePx + marginPx),
    top,
  }));
  const base = (await load(first))
    .resize(width, height, { fit: 'cover' })
    .composite([...thumbnailLayers, ...faceLayersOf])
    .removeAlpha();
  const random = seeds.random('edit-tint');
  const tint: ChannelLinear = {
    a: [0, 1, 2].map(() => 0.85 + random() * 0.3),
    b: [0, 1, 2].map(() => -16 + random() * 32),
  };
  return renderOutputs(base, outputLinears(request, seeds, tint), request.outputFormat, signal);
};

/** A smooth field of seeded colours (a small grid of random colours, upscaled with a cubic kernel), the named faces across the middle. */
const renderGenerate = async (
  request: EngineRequest,
  faces: Buffer[],
  seeds: Seeds,
  signal: AbortSignal,
): Promise<Buffer[]> => {
  const gridWidth = 4;
  const gridHeight = 3;
  const layers = await faceLayers(faces, request.width, request.height, 'middle', seeds.random('faces'));
  const sharp = await loadSharp();
  return Promise.all(
    Array.from({ length: request.numOutputImages }, (_, index) => {
      signal.throwIfAborted();
      const random = seeds.random(`generate:${index}`);
      const grid = Buffer.from(Array.from({ length: gridWidth * gridHeight * 3 }, () => Math.floor(random() * 256)));
      const field = sharp(grid, { raw: { width: gridWidth, height: gridHeight, channels: 3 } }).resize(
        request.width,
        request.height,
        {
          fit: 'fill',
          kernel: 'cubic',
        },
      );
      return encode(layers.length > 0 ? field.composite(layers) : field, request.outputFormat);
    }),
  );
};

/**
 * Output i gets `finish` plus an offset of i times a seeded direction (2 to 4 levels a channel), so the
 * outputs are distinct and output 0 is the plain result.
 */
const outputLinears = (request: EngineRequest, seeds: Seeds, finish: ChannelLinear): ChannelLinear[] => {
  if (request.numOutputImages === 1) return [finish];
  const random = seeds.random('variation');
  const direction = [0, 1, 2].map(() => (random() < 0.5 ? -1 : 1) * (2 + random() * 2));
  return Array.from({ length: request.numOutputImages }, (_, index) => ({
    a: finish.a,
    b: finish.b.map((offset, channel) => offset + index * direction[channel]),
  }));
};
