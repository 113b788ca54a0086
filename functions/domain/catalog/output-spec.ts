/**
 * Read first: the output rules of edit and generate (spec "Base models, quality and size"), and the
 * pinned 2K output of enhance and remix. Checks run field by field in a fixed order (base_model,
 * resolution, quality, aspect_ratio, size), so every 400 names the first offending field.
 */
import { InvalidRequestError } from '../errors';
import {
  type AspectRatio,
  type BaseModel,
  baseModelIds,
  DEFAULT_BASE_MODEL,
  findBaseModel,
  type ModelOperation,
  type Quality,
  type Resolution,
} from './catalog';
import { parseSizeText } from './size-text';

export interface OutputParams {
  baseModel?: string;
  resolution?: Resolution;
  aspectRatio?: AspectRatio;
  quality?: Quality;
  /** `<width>x<height>`, already matching the request pattern. */
  size?: string;
  /** width / height of the first input image; what `auto` follows. Square when absent. */
  inputAspect?: number;
}

export interface OutputSpec {
  baseModel: string;
  /** The pricing tier; `1K` when an exact `size` replaces the tier. */
  resolution: Resolution;
  /** `null` when an exact `size` was given. */
  aspectRatio: AspectRatio | null;
  /** Set only for models that take `quality` (`auto` when omitted). */
  quality?: Quality;
  width: number;
  height: number;
  sizeGiven: boolean;
}

const LONG_EDGE_PX: Record<Resolution, number> = { '1K': 1024, '2K': 2048, '4K': 4096 };
const DEFAULT_RESOLUTION: Resolution = '1K';
/** Models without `auto` use this ratio when `aspect_ratio` is omitted (spec rule 4). */
export const FALLBACK_ASPECT_RATIO: AspectRatio = '4:3';

export const SIZE_LIMITS = {
  edgeMultiplePx: 16,
  maxEdgePx: 3840,
  maxRatio: 3,
  minPixels: 655_360,
  maxPixels: 3_686_400,
} as const;

const list = (items: readonly string[]): string => items.join(', ');

/** Rounds to the nearest multiple of 16 px, at least 16. */
const roundTo16 = (px: number): number => Math.max(16, Math.round(px / 16) * 16);

/** Long edge `longEdgePx`, the other edge from `ratio` (width / height) rounded to a multiple of 16. */
const fitLongEdge = (longEdgePx: number, ratio: number): { width: number; height: number } =>
  ratio >= 1
    ? { width: longEdgePx, height: roundTo16(longEdgePx / ratio) }
    : { width: roundTo16(longEdgePx * ratio), height: longEdgePx };

const ratioOf = (aspectRatio: Exclude<AspectRatio, 'auto'>): number => {
  const [w, h] = aspectRatio.split(':').map(Number);
  return w / h;
};

const usableRatio = (ratio: number | undefined): number =>
  ratio !== undefined && Number.isFinite(ratio) && ratio > 0 ? ratio : 1;

/** Enhance and remix: long edge 2048 px, the input's aspect ratio kept, short edge a multiple of 16. */
export const pinnedTwoK = (width: number, height: number): { width: number; height: number } =>
  fitLongEdge(LONG_EDGE_PX['2K'], usableRatio(width / height));

const resolveModel = (operation: ModelOperation, id: string): BaseModel => {
  const model = findBaseModel(id);
  if (!model) throw new InvalidRequestError(`Unknown base_model '${id}'. Supported: ${list(baseModelIds())}.`);
  if (!model.operations.includes(operation)) {
    throw new InvalidRequestError(
      `base_model '${id}' does not support ${operation}. Models that do: ${list(baseModelIds((m) => m.operations.includes(operation)))}.`,
    );
  }
  return model;
};

const checkResolution = (model: BaseModel, resolution: Resolution | undefined): void => {
  if (resolution !== undefined && !model.resolutions.includes(resolution)) {
    throw new InvalidRequestError(
      `resolution '${resolution}' is not supported by base_model '${model.id}' (supported: ${list(model.resolutions)}).`,
    );
  }
};

const resolveQuality = (model: BaseModel, quality: Quality | undefined): Quality | undefined => {
  if (quality !== undefined && model.qualities.length === 0) {
    throw new InvalidRequestError(
      `quality is accepted only by ${list(baseModelIds((m) => m.qualities.length > 0))}; base_model '${model.id}' does not take it.`,
    );
  }
  if (quality !== undefined && !model.qualities.includes(quality)) {
    throw new InvalidRequestError(
      `quality '${quality}' is available only on ${list(baseModelIds((m) => m.qualities.includes(quality)))}; base_model '${model.id}' accepts ${list(model.qualities)}.`,
    );
  }
  return model.qualities.length > 0 ? (quality ?? 'auto') : undefined;
};

const resolveAspectRatio = (model: BaseModel, aspectRatio: AspectRatio | undefined): AspectRatio => {
  if (aspectRatio === 'auto' && !model.autoAspectRatio) {
    throw new InvalidRequestError(
      `aspect_ratio 'auto' is not supported by base_model '${model.id}'; choose 1:1, 3:4, 4:3, 9:16 or 16:9 (default ${FALLBACK_ASPECT_RATIO}).`,
    );
  }
  return aspectRatio ?? (model.autoAspectRatio ? 'auto' : FALLBACK_ASPECT_RATIO);
};

const parseSize = (model: BaseModel, params: OutputParams, size: string): { width: number; height: number } => {
  const invalid = (reason: string) => new InvalidRequestError(`size '${size}': ${reason}`);
  if (!model.exactSize) {
    throw invalid(
      `an exact size is accepted only by ${list(baseModelIds((m) => m.exactSize))}, not by base_model '${model.id}'.`,
    );
  }
  if (params.resolution !== undefined && params.resolution !== DEFAULT_RESOLUTION) {
    throw invalid(`size replaces the 1K tier and cannot be combined with resolution '${params.resolution}'.`);
  }
  if (params.aspectRatio !== undefined) {
    throw invalid(`size fixes the aspect ratio and cannot be combined with aspect_ratio '${params.aspectRatio}'.`);
  }
  const written = parseSizeText(size);
  if (!written) throw invalid('expected <width>x<height> in pixels, for example 1024x768.');
  const { width, height } = written;
  const { edgeMultiplePx, maxEdgePx, maxRatio, minPixels, maxPixels } = SIZE_LIMITS;
  if (width % edgeMultiplePx !== 0 || height % edgeMultiplePx !== 0)
    throw invalid(`each edge must be a multiple of ${edgeMultiplePx} px.`);
  if (width > maxEdgePx || height > maxEdgePx) throw invalid(`each edge must be at most ${maxEdgePx} px.`);
  if (Math.max(width, height) > maxRatio * Math.min(width, height))
    throw invalid(`the aspect ratio must be at most ${maxRatio}:1.`);
  if (width * height < minPixels || width * height > maxPixels) {
    throw invalid(`the total must be from ${minPixels} to ${maxPixels} pixels (it is ${width * height}).`);
  }
  return { width, height };
};

/** Decides the model, tier, ratio, quality and pixel size of an edit or generate, or throws a 400. */
export const resolveOutputSpec = (operation: ModelOperation, params: OutputParams): OutputSpec => {
  const model = resolveModel(operation, params.baseModel ?? DEFAULT_BASE_MODEL);
  checkResolution(model, params.resolution);
  const quality = resolveQuality(model, params.quality);
  const aspectRatio = resolveAspectRatio(model, params.aspectRatio);
  const base = { baseModel: model.id, ...(quality !== undefined ? { quality } : {}) };

  if (params.size !== undefined) {
    const { width, height } = parseSize(model, params, params.size);
    return { ...base, resolution: DEFAULT_RESOLUTION, aspectRatio: null, width, height, sizeGiven: true };
  }
  const resolution = params.resolution ?? DEFAULT_RESOLUTION;
  const ratio = aspectRatio === 'auto' ? usableRatio(params.inputAspect) : ratioOf(aspectRatio);
  return { ...base, resolution, aspectRatio, ...fitLongEdge(LONG_EDGE_PX[resolution], ratio), sizeGiven: false };
};
