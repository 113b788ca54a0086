/**
 * Read first: the face analyser, on onnxruntime-node's CPU provider with one thread (one Lambda vCPU),
 * running @vladmandic/human 3.3.6's weights (MIT as declared by the package; upstream BlazeFace and
 * FaceMesh from Google MediaPipe, FaceRes from HSE-asavchenko/HSE_FaceRec_tf):
 *
 * 1. detect: the whole image letterboxed (not stretched: stretching moved boxes on narrow images) to
 *    256×256 straight from the encoded bytes (a JPEG is decoded at 1/8 scale for it), BlazeFace-back, NMS
 *    at IoU 0.1, detector score ≥ 0.5; an image without a face is never decoded whole;
 * 2. classify: FaceMesh's face confidence on the unrotated 192 px crop; below MIN_PERSON_FACE_CONFIDENCE
 *    the detection is an `animal` (the detector fires on cats and dogs, FaceMesh does not);
 * 3. align: the box enlarged 1.4 times, squared, rotated so that the eyes are level, sampled once into
 *    224×224 from the image decoded at full resolution, or 2, 4 or 8 times smaller while the smallest
 *    face's region keeps ≥ 448 px (decodeShrinkFor: a 2K photo of a large face decodes in a quarter of the
 *    time; embeddings against full resolution: cosine median 0.999, minimum 0.95, over the fixtures);
 * 4. embed: FaceRes, 1024 values, L2-normalised.
 *
 * Model files: read from the installed package, `<@vladmandic/human>/models/{blazeface,facemesh,faceres}.*`,
 * found with Node's resolution from this file (`createRequire(__filename).resolve`), which works from the
 * sources and inside an esbuild bundle with @vladmandic/human installed as a node module beside it (the
 * model files are never bundled into JavaScript). `modelsDir` overrides the folder (e.g. a trimmed copy in
 * an asset); its caller reads it from configuration. The tfjs graphs are converted to ONNX in memory
 * (tfjs-to-onnx.ts) the first time a face is analysed, once per process; the sessions are kept.
 *
 * The model id names the weights and this pipeline: change either (another human version, another crop,
 * another detector input) and MODEL_ID must change, so that stored templates are re-embedded rather
 * than compared across spaces. The installed human version is checked against it at load.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import sharp from 'sharp';
import * as v from 'valibot';
import { type DetectedFace, type FaceAnalyzer, MIN_PERSON_FACE_CONFIDENCE } from '../../domain/faces';
import {
  ANCHOR_COUNT,
  type CropRegion,
  cropRegionOf,
  DETECTOR_SIZE_PX,
  decodeDetections,
  decodeShrinkFor,
  letterboxOf,
  type RgbImage,
  sampleRegion,
  sharpnessOf,
  yawDegreesOf,
} from './face-geometry';
import { type ConversionSpec, convertTfjsToOnnx } from './tfjs-to-onnx';

const HUMAN_VERSION = '3.3.6';
export const MODEL_ID = `human-faceres-${HUMAN_VERSION}/b1`;

const EMBEDDING_SIZE_PX = 224;
const MESH_SIZE_PX = 192;
const DETECTION = { minScore: 0.5, maxFaces: 10, maxOverlap: 0.1 };

const MODELS = {
  // Outputs in this order: regressions of the 384 coarse anchors, scores of the 512 fine ones, scores of
  // the coarse ones, regressions of the fine ones.
  blazeface: { inputShape: [1, 256, 256, 3], outputs: ['Identity_3', 'Identity', 'Identity_1', 'Identity_2'] },
  facemesh: { inputShape: [1, 192, 192, 3], outputs: ['Identity_1'] },
  faceres: { inputShape: [-1, 224, 224, 3], outputs: ['global_pooling/Mean'] },
} satisfies Record<string, ConversionSpec>;
type ModelName = keyof typeof MODELS;

interface LoadedModel {
  session: ort.InferenceSession;
  inputName: string;
  outputNames: string[];
}
type Sessions = Record<ModelName, LoadedModel>;

export interface LoadTiming {
  convertMs: number;
  sessionMs: number;
}

/** The folder of human's model files, from the installed package. */
export const installedModelsDir = (): string => {
  const main = createRequire(__filename).resolve('@vladmandic/human');
  return path.join(path.dirname(main), '..', 'models');
};

const checkHumanVersion = (modelsDir: string): void => {
  const manifest = path.join(modelsDir, '..', 'package.json');
  if (!fs.existsSync(manifest)) return; // a trimmed copy of the models alone: the asset build vouches for it
  const { version } = v.parse(v.object({ version: v.string() }), JSON.parse(fs.readFileSync(manifest, 'utf8')));
  if (version !== HUMAN_VERSION)
    throw new Error(`face models: @vladmandic/human ${version} is installed, ${MODEL_ID} needs ${HUMAN_VERSION}`);
};

const SESSION_OPTIONS: ort.InferenceSession.SessionOptions = {
  executionProviders: ['cpu'],
  intraOpNumThreads: 1,
  interOpNumThreads: 1,
  graphOptimizationLevel: 'all',
};

const loading = new Map<string, Promise<{ sessions: Sessions; timing: LoadTiming }>>();

const loadSessions = (modelsDir: string): Promise<{ sessions: Sessions; timing: LoadTiming }> => {
  let pending = loading.get(modelsDir);
  if (!pending) {
    pending = (async () => {
      checkHumanVersion(modelsDir);
      const timing = { convertMs: 0, sessionMs: 0 };
      const load = async (name: ModelName): Promise<LoadedModel> => {
        const startedAt = performance.now();
        const { bytes, inputName, outputNames } = convertTfjsToOnnx(path.join(modelsDir, `${name}.json`), MODELS[name]);
        const convertedAt = performance.now();
        const session = await ort.InferenceSession.create(bytes, SESSION_OPTIONS);
        timing.convertMs += convertedAt - startedAt;
        timing.sessionMs += performance.now() - convertedAt;
        return { session, inputName, outputNames };
      };
      const sessions = {
        blazeface: await load('blazeface'),
        facemesh: await load('facemesh'),
        faceres: await load('faceres'),
      };
      return { sessions, timing };
    })();
    pending.catch(() => loading.delete(modelsDir)); // a failed load is retried by the next call
    loading.set(modelsDir, pending);
  }
  return pending;
};

const run = async (model: LoadedModel, input: Float32Array, shape: number[]): Promise<Float32Array[]> => {
  const results = await model.session.run({ [model.inputName]: new ort.Tensor('float32', input, shape) });
  return model.outputNames.map((name) => {
    const data = results[name]?.data;
    if (!(data instanceof Float32Array)) throw new Error(`face models: output ${name} is not float32`);
    return data;
  });
};

/** Sharp's pipeline to 8-bit RGB: alpha dropped, any colour space to sRGB. */
const rgb = (image: Buffer) => sharp(image).removeAlpha().toColourspace('srgb');

const checkedRgb = ({ data, info }: { data: Buffer; info: sharp.OutputInfo }): RgbImage => {
  if (info.channels !== 3) throw new Error(`face analysis: expected RGB, got ${info.channels} channels`);
  return { data, width: info.width, height: info.height };
};

const decode = async (image: Buffer): Promise<RgbImage> =>
  checkedRgb(await rgb(image).raw().toBuffer({ resolveWithObject: true }));

const unitLength = (values: Float32Array): number[] => {
  let norm = 0;
  for (const value of values) norm += value * value;
  norm = Math.sqrt(norm) || 1;
  return Array.from(values, (value) => value / norm);
};

export interface OnnxFaceAnalyzer extends FaceAnalyzer {
  /** Loads the models now instead of at the first analysis (e.g. during a function's init). */
  load(): Promise<LoadTiming>;
}

export const createOnnxFaceAnalyzer = (options: { modelsDir?: string } = {}): OnnxFaceAnalyzer => {
  const modelsDir = options.modelsDir ?? installedModelsDir();
  const sessions = async () => (await loadSessions(modelsDir)).sessions;

  /** The detector's input straight from the encoded image (a JPEG shrinks on load), letterboxed. */
  const detect = async (models: Sessions, imageBytes: Buffer, width: number, height: number) => {
    const letterbox = letterboxOf(width, height);
    const small = await rgb(imageBytes)
      .resize(DETECTOR_SIZE_PX, DETECTOR_SIZE_PX, { fit: 'contain', background: { r: 0, g: 0, b: 0 } })
      .raw()
      .toBuffer();
    const input = new Float32Array(small.length);
    for (let index = 0; index < small.length; index += 1) input[index] = (small[index] ?? 0) / 127.5 - 1;
    const [coarseRegressions, fineScores, coarseScores, fineRegressions] = await run(models.blazeface, input, [
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

  const analyze = async (imageBytes: Buffer): Promise<DetectedFace[]> => {
    const [models, { width, height }] = await Promise.all([sessions(), sharp(imageBytes).metadata()]);
    if (!width || !height) throw new Error('face analysis: the image has no size');
    const found = await detect(models, imageBytes, width, height);
    if (found.length === 0) return [];
    const boxes = found.map(({ corners: [x1, y1, x2, y2] }) => ({ x: x1, y: y1, width: x2 - x1, height: y2 - y1 }));
    const shrink = decodeShrinkFor(
      Math.min(...boxes.map((box, index) => cropRegionOf(box, found[index]?.landmarks ?? [], false).side)),
    );
    const image =
      shrink === 1
        ? await decode(imageBytes)
        : checkedRgb(
            await rgb(imageBytes)
              .resize(Math.max(1, Math.round(width / shrink)), Math.max(1, Math.round(height / shrink)), {
                fit: 'fill',
              })
              .raw()
              .toBuffer({ resolveWithObject: true }),
          );
    const toDecoded = (region: CropRegion): CropRegion => ({
      ...region,
      centreX: (region.centreX * image.width) / width,
      centreY: (region.centreY * image.height) / height,
      side: (region.side * image.width) / width,
    });
    const faces: DetectedFace[] = [];
    for (const [index, candidate] of found.entries()) {
      const box = boxes[index] ?? { x: 0, y: 0, width: 0, height: 0 };
      const meshRegion = toDecoded(cropRegionOf(box, candidate.landmarks, false));
      const meshInput = sampleRegion(image, meshRegion, MESH_SIZE_PX, 1 / 255);
      const [confidence] = await run(models.facemesh, meshInput, [1, MESH_SIZE_PX, MESH_SIZE_PX, 3]);
      const faceConfidence = confidence[0];
      const crop = sampleRegion(image, toDecoded(cropRegionOf(box, candidate.landmarks, true)), EMBEDDING_SIZE_PX);
      const [embedding] = await run(models.faceres, crop, [1, EMBEDDING_SIZE_PX, EMBEDDING_SIZE_PX, 3]);
      faces.push({
        box,
        landmarks: candidate.landmarks,
        detectorScore: candidate.score,
        kind: faceConfidence >= MIN_PERSON_FACE_CONFIDENCE ? 'person' : 'animal',
        faceConfidence,
        embedding: unitLength(embedding),
        sharpness: sharpnessOf(crop, EMBEDDING_SIZE_PX),
        yawDegrees: yawDegreesOf(candidate.landmarks),
      });
    }
    return faces;
  };

  const crop = async (imageBytes: Buffer, face: DetectedFace, sizePx: number): Promise<Buffer> => {
    if (!Number.isInteger(sizePx) || sizePx < 1) throw new Error(`face crop: bad size ${sizePx}`);
    const image = await decode(imageBytes);
    const pixels = sampleRegion(image, cropRegionOf(face.box, face.landmarks, true), sizePx);
    return sharp(
      Uint8Array.from(pixels, (value) => Math.round(value)),
      {
        raw: { width: sizePx, height: sizePx, channels: 3 },
      },
    )
      .jpeg({ quality: 90 })
      .toBuffer();
  };

  return {
    modelId: MODEL_ID,
    analyze,
    crop,
    load: async () => (await loadSessions(modelsDir)).timing,
  };
};
