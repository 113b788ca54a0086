/**
 * Read first: the face analyser, on onnxruntime-node's CPU provider with one thread (one Lambda vCPU),
 * running @vladmandic/human 3.3.6's weights (MIT as declared by the package; upstream BlazeFace and
 * FaceMesh from Google MediaPipe, FaceRes from HSE-asavchenko/HSE_FaceRec_tf):
 *
 * 1. detect: the whole image letterboxed (not stretched: stretching moved boxes on narrow images) to
 *    256×256 straight from the encoded bytes (a JPEG shrinks on load), BlazeFace-back, NMS at IoU 0.1,
 *    detector score ≥ 0.5; an image without a face is never decoded whole;
 * 2. classify: FaceMesh's face confidence on the unrotated 192 px crop, or, when that is below
 *    MIN_PERSON_FACE_CONFIDENCE, on the crop turned to level the eyes if that reads at least
 *    MIN_LEVELLED_PERSON_FACE_CONFIDENCE (a tilted head); below, the detection is an `animal` (the detector
 *    fires on cats and dogs, FaceMesh does not);
 * 3. align: the box enlarged 1.4 times, squared, rotated so that the eyes are level, sampled once into
 *    224×224 from the faces' area decoded at full resolution (only the rows and columns the crops reach),
 *    or from the whole image decoded 4 or 8 times smaller while the smallest face's region keeps ≥ 448 px
 *    (decodeShrinkFor: a 2K photo of a large face decodes in a fraction of the time; embeddings against
 *    full resolution: cosine median 0.999, minimum 0.95, over the fixtures); with `enough` (who is
 *    present), faces largest first, stopping once enough are found;
 * 4. embed: FaceRes on the crop made grey (toLuma: colour grades and palettes do not move it), 1024
 *    values, L2-normalised. (onnxruntime-node runs a model on the main thread, in
 *    a setImmediate: nothing else of the analysis can run beside it.)
 *
 * Model files: ONNX, converted from human's TensorFlow.js graphs at build time (face-models.ts says where
 * they are and what the manifest holds; bin/faces/build-models.ts makes them). `modelsDir` overrides the
 * folder. Nothing is loaded at import: onnxruntime-node and sharp are imported when the first analysis
 * (or `load()`) needs them, so a function that imports the analyser but serves a request without a face
 * to look at does not pay for them; each model's session is created the first time that model runs
 * (facemesh and faceres only once a face is found), once per process, and kept.
 */
import path from 'node:path';
import type * as Ort from 'onnxruntime-node';
import type { Sharp, SharpOptions } from 'sharp';
import {
  type AnalyzeOptions,
  type DetectedFace,
  type FaceAnalyzer,
  MIN_LEVELLED_PERSON_FACE_CONFIDENCE,
  MIN_PERSON_FACE_CONFIDENCE,
} from '../../domain/faces';
import { loadSharp } from '../images/sharp';
import {
  ANCHOR_COUNT,
  type CropRegion,
  cropRegionOf,
  DETECTOR_SIZE_PX,
  decodeDetections,
  decodeShrinkFor,
  detectorInput,
  letterboxOf,
  luminanceOf,
  pitchDegreesOf,
  type RgbImage,
  sampleRegion,
  sharpnessOf,
  toLuma,
  yawDegreesOf,
} from './face-geometry';
import {
  defaultModelsDir,
  FACE_MODEL_NAMES,
  type FaceModelId,
  type FaceModelName,
  MODEL_ID,
  readManifest,
} from './face-models';

export { MODEL_ID };

const EMBEDDING_SIZE_PX = 224;
const MESH_SIZE_PX = 192;
const DETECTION = { minScore: 0.5, maxFaces: 10, maxOverlap: 0.1 };

interface LoadedModel {
  session: Ort.InferenceSession;
  inputName: string;
  outputNames: string[];
}

export interface LoadTiming {
  /** Importing onnxruntime-node (its native binding), when this call was the first to need it. */
  runtimeMs: number;
  /** Creating the sessions this call created. */
  sessionMs: number;
}

/**
 * The files are optimised at build time up to `extended` (face-models.ts); `all` here adds only the NCHWc
 * layout, which must be made on the CPU that runs it (its block size is that CPU's vector width) and
 * halves the models' run time.
 */
const SESSION_OPTIONS: Ort.InferenceSession.SessionOptions = {
  executionProviders: ['cpu'],
  intraOpNumThreads: 1,
  interOpNumThreads: 1,
  graphOptimizationLevel: 'all',
};

const once = <T>(load: () => Promise<T>): (() => Promise<T>) => {
  let pending: Promise<T> | undefined;
  return () => {
    if (!pending) {
      pending = load();
      pending.catch(() => {
        pending = undefined; // a failed load is retried by the next call
      });
    }
    return pending;
  };
};

const timing = { runtimeMs: 0, sessionMs: 0 };

const onnxRuntime = once(async () => {
  const startedAt = performance.now();
  // onnxruntime-node ≥ 1.29 on Linux starts Microsoft's telemetry with its first session (a thread, a
  // device id written under $HOME, events uploaded over HTTPS) unless this is set before then: nothing
  // here may call out to the internet, and opting out also takes ~5-10 ms off that first session.
  process.env.ORT_DISABLE_TELEMETRY ??= '1';
  // `require`, not `import()`: see images/sharp.ts.
  const runtime = require('onnxruntime-node') as typeof Ort;
  timing.runtimeMs += performance.now() - startedAt;
  return runtime;
});

const sharpOf = async (input?: Buffer | Uint8Array, options?: SharpOptions): Promise<Sharp> =>
  (await loadSharp())(input, options);

/** One session per models folder and model, created on first use. */
const sessions = new Map<string, () => Promise<LoadedModel>>();

const modelOf = (modelsDir: string, name: FaceModelName): Promise<LoadedModel> => {
  const key = `${modelsDir}\0${name}`;
  let load = sessions.get(key);
  if (!load) {
    load = once(async () => {
      const { file, inputName, outputNames } = readManifest(modelsDir).models[name];
      const ort = await onnxRuntime();
      const startedAt = performance.now();
      const session = await ort.InferenceSession.create(path.join(modelsDir, file), SESSION_OPTIONS);
      timing.sessionMs += performance.now() - startedAt;
      return { session, inputName, outputNames };
    });
    sessions.set(key, load);
  }
  return load();
};

const run = async (model: LoadedModel, input: Float32Array, shape: number[]): Promise<Float32Array[]> => {
  const ort = await onnxRuntime();
  const results = await model.session.run({ [model.inputName]: new ort.Tensor('float32', input, shape) });
  return model.outputNames.map((name) => {
    const data = results[name]?.data;
    if (!(data instanceof Float32Array)) throw new Error(`face models: output ${name} is not float32`);
    return data;
  });
};

/** Sharp's pipeline to 8-bit RGB: alpha dropped, any colour space to sRGB. */
const rgb = async (image: Buffer): Promise<Sharp> => (await sharpOf(image)).removeAlpha().toColourspace('srgb');

const checkedRgb = ({
  data,
  info,
}: {
  data: Buffer;
  info: { channels: number; width: number; height: number };
}): RgbImage => {
  if (info.channels !== 3) throw new Error(`face analysis: expected RGB, got ${info.channels} channels`);
  return { data, width: info.width, height: info.height };
};

const decode = async (image: Buffer): Promise<RgbImage> =>
  checkedRgb(await (await rgb(image)).raw().toBuffer({ resolveWithObject: true }));

const unitLength = (values: Float32Array): number[] => {
  let norm = 0;
  for (const value of values) norm += value * value;
  norm = Math.sqrt(norm) || 1;
  return Array.from(values, (value) => value / norm);
};

export interface OnnxFaceAnalyzer extends FaceAnalyzer {
  /**
   * Loads the runtime and all three models now instead of when the analysis first needs them (e.g.
   * during a function's init); what this call did, in ms (0 for what was already loaded).
   */
  load(): Promise<LoadTiming>;
}

/**
 * The part of a `width` × `height` image that sampling `regions` reads: each region's square turned any way
 * (half its diagonal from the centre), plus the bilinear neighbour; undefined when it is the whole image.
 */
const facesArea = (
  regions: readonly CropRegion[],
  width: number,
  height: number,
): { left: number; top: number; width: number; height: number } | undefined => {
  let left = width;
  let top = height;
  let right = 0;
  let bottom = 0;
  for (const region of regions) {
    const reach = region.side * Math.SQRT1_2 + 2;
    left = Math.min(left, Math.floor(region.centreX - reach));
    top = Math.min(top, Math.floor(region.centreY - reach));
    right = Math.max(right, Math.ceil(region.centreX + reach));
    bottom = Math.max(bottom, Math.ceil(region.centreY + reach));
  }
  left = Math.max(0, left);
  top = Math.max(0, top);
  right = Math.min(width, right);
  bottom = Math.min(height, bottom);
  if (right <= left || bottom <= top || (left === 0 && top === 0 && right === width && bottom === height))
    return undefined;
  return { left, top, width: right - left, height: bottom - top };
};

/** `modelId`: the id the analyser reports and templates are stored under (TEST_MODEL_ID: the same weights, for tests). */
export const createOnnxFaceAnalyzer = (
  options: { modelsDir?: string; modelId?: FaceModelId } = {},
): OnnxFaceAnalyzer => {
  const modelsDir = options.modelsDir ?? defaultModelsDir();
  const model = (name: FaceModelName) => modelOf(modelsDir, name);

  /** The detector's input straight from the encoded image (a JPEG shrinks on load), letterboxed. */
  const detect = async (
    imageBytes: Buffer,
    sizing: Promise<{ width: number; height: number }>,
    loadingDetector: Promise<LoadedModel>,
  ) => {
    const [{ width, height }, detector, small] = await Promise.all([
      sizing,
      loadingDetector,
      (await rgb(imageBytes))
        .resize(DETECTOR_SIZE_PX, DETECTOR_SIZE_PX, { fit: 'contain', background: { r: 0, g: 0, b: 0 } })
        .raw()
        .toBuffer(),
    ]);
    const letterbox = letterboxOf(width, height);
    const [coarseRegressions, fineScores, coarseScores, fineRegressions] = await run(detector, detectorInput(small), [
      1,
      DETECTOR_SIZE_PX,
      DETECTOR_SIZE_PX,
      3,
    ]);
    const fine = fineScores.length;
    if (fine + coarseScores.length !== ANCHOR_COUNT)
      throw new Error(`face models: BlazeFace gave ${fine + coarseScores.length} scores for ${ANCHOR_COUNT} anchors`);
    return decodeDetections(
      (anchor) => (anchor < fine ? fineScores[anchor] : coarseScores[anchor - fine]),
      (anchor) =>
        anchor < fine
          ? fineRegressions.subarray(anchor * 16, anchor * 16 + 16)
          : coarseRegressions.subarray((anchor - fine) * 16, (anchor - fine) * 16 + 16),
      letterbox,
      DETECTION,
    );
  };

  /**
   * FaceMesh's face confidence on the unrotated crop; when that says "no human face", the crop turned to
   * level the eyes gets a second reading, which counts only when it is near certain (thresholds.ts): a
   * head tilted 25-40° may read below 0.06 unrotated and 0.99 levelled, while a cat's levelled crop (its
   * "eyes" are wherever the detector put them) reads up to 0.75.
   */
  const meshConfidence = async (image: RgbImage, upright: CropRegion, levelled: CropRegion): Promise<number> => {
    const mesh = await model('facemesh');
    const read = async (region: CropRegion) =>
      (await run(mesh, sampleRegion(image, region, MESH_SIZE_PX, 1 / 255), [1, MESH_SIZE_PX, MESH_SIZE_PX, 3]))[0][0];
    const uprightConfidence = await read(upright);
    if (uprightConfidence >= MIN_PERSON_FACE_CONFIDENCE) return uprightConfidence;
    const levelledConfidence = await read(levelled);
    return levelledConfidence >= MIN_LEVELLED_PERSON_FACE_CONFIDENCE ? levelledConfidence : uprightConfidence;
  };

  const analyze = async (imageBytes: Buffer, options: AnalyzeOptions = {}): Promise<DetectedFace[]> => {
    const detector = model('blazeface'); // loads (the first time) while the image is read
    // The image's size is read while it shrinks for the detector.
    const sizing = sharpOf(imageBytes)
      .then((image) => image.metadata())
      .then(({ width, height }) => {
        if (!width || !height) throw new Error('face analysis: the image has no size');
        return { width, height };
      });
    sizing.catch(() => undefined); // awaited below; this only keeps a failure from going unhandled meanwhile
    const found = await detect(imageBytes, sizing, detector);
    const { width, height } = await sizing;
    if (found.length === 0) return [];
    const boxes = found.map(({ corners: [x1, y1, x2, y2] }) => ({ x: x1, y: y1, width: x2 - x1, height: y2 - y1 }));
    const regions = found.map((candidate, index) =>
      cropRegionOf(boxes[index] ?? { x: 0, y: 0, width: 0, height: 0 }, candidate.landmarks, false),
    );
    const shrink = decodeShrinkFor(Math.min(...regions.map((region) => region.side)));
    const facesOnly = shrink === 1 ? facesArea(regions, width, height) : undefined;
    let toDecoded: (region: CropRegion) => CropRegion;
    let image: RgbImage;
    if (facesOnly) {
      // Only the rows and columns the faces' crops reach, at full resolution: a JPEG is decoded down to
      // the lowest face and no further, and nothing outside the area is kept.
      image = checkedRgb(await (await rgb(imageBytes)).extract(facesOnly).raw().toBuffer({ resolveWithObject: true }));
      toDecoded = (region) => ({
        ...region,
        centreX: region.centreX - facesOnly.left,
        centreY: region.centreY - facesOnly.top,
      });
    } else {
      const decoded =
        shrink === 1
          ? await decode(imageBytes)
          : checkedRgb(
              await (await rgb(imageBytes))
                .resize(Math.max(1, Math.round(width / shrink)), Math.max(1, Math.round(height / shrink)), {
                  fit: 'fill',
                })
                .raw()
                .toBuffer({ resolveWithObject: true }),
            );
      image = decoded;
      toDecoded = (region) => ({
        ...region,
        centreX: (region.centreX * decoded.width) / width,
        centreY: (region.centreY * decoded.height) / height,
        side: (region.side * decoded.width) / width,
      });
    }
    const faces: DetectedFace[] = [];
    const area = (index: number) => (boxes[index]?.width ?? 0) * (boxes[index]?.height ?? 0);
    const order = found.map((_, index) => index);
    if (options.enough) order.sort((a, b) => area(b) - area(a));
    for (const index of order) {
      if (options.enough?.(faces)) break;
      const candidate = found[index];
      if (!candidate) continue;
      const box = boxes[index] ?? { x: 0, y: 0, width: 0, height: 0 };
      const aligned = toDecoded(cropRegionOf(box, candidate.landmarks, true));
      const faceConfidence = await meshConfidence(
        image,
        toDecoded(regions[index] ?? cropRegionOf(box, candidate.landmarks, false)),
        aligned,
      );
      const crop = toLuma(sampleRegion(image, aligned, EMBEDDING_SIZE_PX));
      const [embedding] = await run(await model('faceres'), crop, [1, EMBEDDING_SIZE_PX, EMBEDDING_SIZE_PX, 3]);
      faces.push({
        box,
        landmarks: candidate.landmarks,
        detectorScore: candidate.score,
        kind: faceConfidence >= MIN_PERSON_FACE_CONFIDENCE ? 'person' : 'animal',
        faceConfidence,
        embedding: unitLength(embedding),
        sharpness: sharpnessOf(crop, EMBEDDING_SIZE_PX),
        yawDegrees: yawDegreesOf(candidate.landmarks),
        pitchDegrees: pitchDegreesOf(candidate.landmarks),
        luminance: luminanceOf(crop, EMBEDDING_SIZE_PX),
      });
    }
    return faces;
  };

  const crop = async (imageBytes: Buffer, face: DetectedFace, sizePx: number): Promise<Buffer> => {
    if (!Number.isInteger(sizePx) || sizePx < 1) throw new Error(`face crop: bad size ${sizePx}`);
    const image = await decode(imageBytes);
    const pixels = sampleRegion(image, cropRegionOf(face.box, face.landmarks, true), sizePx);
    return (
      await sharpOf(
        Uint8Array.from(pixels, (value) => Math.round(value)),
        { raw: { width: sizePx, height: sizePx, channels: 3 } },
      )
    )
      .jpeg({ quality: 90 })
      .toBuffer();
  };

  const load = async (): Promise<LoadTiming> => {
    const before = { ...timing };
    for (const name of FACE_MODEL_NAMES) await model(name);
    return { runtimeMs: timing.runtimeMs - before.runtimeMs, sessionMs: timing.sessionMs - before.sessionMs };
  };

  return { modelId: options.modelId ?? MODEL_ID, analyze, crop, load };
};
