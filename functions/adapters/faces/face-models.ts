/**
 * Read first: the face models as the analyser runs them, ONNX files made at build time.
 *
 * @vladmandic/human 3.3.6 ships its models as TensorFlow.js graphs (model.json + .bin shards). The build
 * (bin/faces/build-models.ts: `npm run build:faces`, run by the asset synthesis, `npm start`, the tests and
 * the bench) converts the three the analyser uses with bin/faces/tfjs-to-onnx.ts, has onnxruntime-node optimise
 * each graph at the `extended` level (what a session would otherwise redo at every cold start; the same
 * outputs, bit for bit, on the fixtures) and writes them into a folder:
 *
 *   face-models/
 *     manifest.json     what was built: MODEL_ID, human's version, the optimisation (level, onnxruntime
 *                       version), each model's files, input and outputs
 *     blazeface.onnx    detector, 256×256 NHWC
 *     facemesh.onnx     face confidence, 192×192 NHWC
 *     faceres.onnx      embedding, 224×224 NHWC, dynamic batch
 *     <model>.data      each model's weights (initializers of 1 KB or more), which onnxruntime reads
 *                       beside the .onnx much faster than from inside it
 *
 * In a Lambda asset the folder sits beside `index.js`; from the sources it is `.build/face-models/` at the
 * repository root. The run time only reads these files (no converter, no protobuf library).
 *
 * MODEL_ID names the weights and the analyser's pipeline: change either (another human version, another
 * crop, another detector input) and MODEL_ID must change, so that stored templates are re-embedded rather
 * than compared across spaces. The manifest records the MODEL_ID the files were built for, and the
 * analyser refuses files built for another.
 */
import fs from 'node:fs';
import path from 'node:path';
import * as v from 'valibot';

export const HUMAN_VERSION = '3.3.6';
/**
 * b1: FaceRes on the aligned colour crop. b2: the same crop made grey first (face-geometry.ts `toLuma`),
 * a new embedding space, so templates of b1 are re-embedded.
 */
export const MODEL_ID = `human-faceres-${HUMAN_VERSION}/b2`;
/**
 * The same weights and pipeline under another id, selected by the development setting FACE_MODEL_ID: tests
 * of a face-model change (templates side by side, made on demand, the backfill, a rollback) run two model
 * ids without building a second set of models. Never set on AWS.
 */
export const TEST_MODEL_ID = `${MODEL_ID}+test`;
export const FACE_MODEL_IDS = [MODEL_ID, TEST_MODEL_ID] as const;
export type FaceModelId = (typeof FACE_MODEL_IDS)[number];

/** The folder's name, beside the bundle in an asset and under `.build/` for the sources. */
export const FACE_MODELS_FOLDER = 'face-models';
export const MANIFEST_FILE = 'manifest.json';

/** What the converter keeps of each tfjs graph (bin/faces/tfjs-to-onnx.ts ConversionSpec). */
export interface FaceModelSpec {
  /** NHWC; -1 for a dynamic batch. */
  inputShape: number[];
  /** The TensorFlow node names to expose as outputs, in this order. */
  outputs: string[];
}

export const FACE_MODEL_SPECS = {
  // Outputs in this order: regressions of the 384 coarse anchors, scores of the 512 fine ones, scores of
  // the coarse ones, regressions of the fine ones.
  blazeface: { inputShape: [1, 256, 256, 3], outputs: ['Identity_3', 'Identity', 'Identity_1', 'Identity_2'] },
  facemesh: { inputShape: [1, 192, 192, 3], outputs: ['Identity_1'] },
  faceres: { inputShape: [-1, 224, 224, 3], outputs: ['global_pooling/Mean'] },
} satisfies Record<string, FaceModelSpec>;
export type FaceModelName = keyof typeof FACE_MODEL_SPECS;
export const FACE_MODEL_NAMES = Object.keys(FACE_MODEL_SPECS) as FaceModelName[];

const ModelEntrySchema = v.object({
  file: v.pipe(v.string(), v.regex(/^[a-z]+\.onnx$/)),
  /** The weights, as external data the .onnx file names. */
  data: v.pipe(v.string(), v.regex(/^[a-z]+\.data$/)),
  inputName: v.string(),
  /** In the order of the spec's outputs. */
  outputNames: v.array(v.string()),
});

export const FaceModelsManifestSchema = v.object({
  modelId: v.string(),
  humanVersion: v.string(),
  /** The graph optimisation applied at build time, and by which onnxruntime-node. */
  optimisation: v.object({ level: v.picklist(['extended']), onnxRuntime: v.string() }),
  models: v.object({ blazeface: ModelEntrySchema, facemesh: ModelEntrySchema, faceres: ModelEntrySchema }),
});
export type FaceModelsManifest = v.InferOutput<typeof FaceModelsManifestSchema>;

/** The repository's copy, for a process running the sources (made by `npm run build:faces`). */
export const sourceModelsDir = (): string => path.resolve(__dirname, '..', '..', '..', '.build', FACE_MODELS_FOLDER);

/**
 * Where the analyser reads the models by default: beside the bundle in a Lambda asset (esbuild's
 * `__dirname` is the bundle's folder), else the repository's build folder.
 */
export const defaultModelsDir = (): string => {
  const besideBundle = path.join(__dirname, FACE_MODELS_FOLDER);
  return fs.existsSync(path.join(besideBundle, MANIFEST_FILE)) ? besideBundle : sourceModelsDir();
};

/** The manifest of a models folder, checked against this analyser's MODEL_ID and for the files it lists. */
export const readManifest = (modelsDir: string): FaceModelsManifest => {
  const file = path.join(modelsDir, MANIFEST_FILE);
  if (!fs.existsSync(file))
    throw new Error(
      `face models: no ${file}; build the models with \`npm run build:faces\` (bin/faces/build-models.ts)`,
    );
  const parsed = v.safeParse(FaceModelsManifestSchema, JSON.parse(fs.readFileSync(file, 'utf8')));
  if (!parsed.success)
    throw new Error(
      `face models: ${file} is not a manifest this analyser reads (${v.summarize(parsed.issues).replace(/\n/g, '; ')}); build them again with \`npm run build:faces\``,
    );
  const manifest = parsed.output;
  if (manifest.modelId !== MODEL_ID)
    throw new Error(
      `face models: ${modelsDir} holds ${manifest.modelId}, this analyser runs ${MODEL_ID}; build them again with \`npm run build:faces\``,
    );
  const missing = Object.values(manifest.models)
    .flatMap(({ file, data }) => [file, data])
    .filter((name) => !fs.existsSync(path.join(modelsDir, name)));
  if (missing.length > 0)
    throw new Error(
      `face models: ${modelsDir} lacks ${missing.join(', ')}; build them again with \`npm run build:faces\``,
    );
  return manifest;
};
