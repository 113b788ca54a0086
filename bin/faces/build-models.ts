/**
 * `npm run build:faces [-- --out <dir>]`: the face models as ONNX files (functions/adapters/faces/face-models.ts).
 *
 * Converts @vladmandic/human's TensorFlow.js graphs (blazeface, facemesh, faceres, from the installed
 * package) with bin/faces/tfjs-to-onnx.ts, then has onnxruntime-node optimise each graph
 * (optimise-models.cjs: fusions and folding at the `extended` level, the part of onnxruntime's
 * optimisation that does not depend on the CPU, so a cold start no longer redoes it) into
 * `.build/face-models/`, and again only when an input changes (human's files, the converter, the model
 * specs, these scripts, onnxruntime-node's version: a hash of them is stored beside the output). With `--out`, the files are then copied into that folder: the asset synthesis runs
 * it so for every function that analyses faces (lib/constructs/function-defaults.ts), into
 * `<asset>/face-models/`. `npm start`, the tests (global setup) and the bench make the repository's copy
 * the same way before anything loads the analyser from the sources.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import * as v from 'valibot';
import {
  FACE_MODEL_NAMES,
  FACE_MODEL_SPECS,
  type FaceModelsManifest,
  HUMAN_VERSION,
  MANIFEST_FILE,
  MODEL_ID,
  readManifest,
  sourceModelsDir,
} from '../../functions/adapters/faces/face-models';
import { convertTfjsToOnnx } from './tfjs-to-onnx';

const ROOT_DIR = path.resolve(__dirname, '../..');
const STAMP_FILE = 'source-hash';
const CODE = [
  'functions/adapters/faces/face-models.ts',
  'bin/faces/tfjs-to-onnx.ts',
  'bin/faces/build-models.ts',
  'bin/faces/optimise-models.cjs',
].map((file) => path.join(ROOT_DIR, file));
const OPTIMISER = path.join(__dirname, 'optimise-models.cjs');
/** The graph optimisation level the build applies (optimise-models.cjs says why not `all`). */
export const BUILD_OPTIMISATION = 'extended';

/** The folder of human's model files, in the installed package (found by Node's resolution). */
export const humanModelsDir = (): string =>
  path.join(path.dirname(require.resolve('@vladmandic/human', { paths: [ROOT_DIR] })), '..', 'models');

const WeightFilesSchema = v.object({ weightsManifest: v.array(v.object({ paths: v.array(v.string()) })) });

/** A model's graph and its weight shards. */
const inputFilesOf = (modelsDir: string, name: string): string[] => {
  const graph = path.join(modelsDir, `${name}.json`);
  const { weightsManifest } = v.parse(WeightFilesSchema, JSON.parse(fs.readFileSync(graph, 'utf8')));
  return [graph, ...weightsManifest.flatMap((group) => group.paths.map((file) => path.join(modelsDir, file)))];
};

const checkHumanVersion = (modelsDir: string): void => {
  const manifest = path.join(modelsDir, '..', 'package.json');
  const { version } = v.parse(v.object({ version: v.string() }), JSON.parse(fs.readFileSync(manifest, 'utf8')));
  if (version !== HUMAN_VERSION)
    throw new Error(`face models: @vladmandic/human ${version} is installed, ${MODEL_ID} needs ${HUMAN_VERSION}`);
};

/** The installed onnxruntime-node's version: the optimised graphs are its output. */
export const onnxRuntimeVersion = (): string => {
  const manifest = require.resolve('onnxruntime-node/package.json', { paths: [ROOT_DIR] });
  return v.parse(v.object({ version: v.string() }), JSON.parse(fs.readFileSync(manifest, 'utf8'))).version;
};

/** What the built files depend on. */
export const inputsHash = (modelsDir = humanModelsDir(), runtimeVersion = onnxRuntimeVersion()): string => {
  const hash = createHash('sha256').update(`${MODEL_ID}\nonnxruntime-node ${runtimeVersion}\n`);
  const files = [...CODE, ...FACE_MODEL_NAMES.flatMap((name) => inputFilesOf(modelsDir, name))];
  for (const file of files) hash.update(`${path.basename(file)}\n`).update(fs.readFileSync(file));
  return hash.digest('hex');
};

/**
 * Converts and optimises the three models into `outDir` (replacing it), with their manifest and, when
 * given, the stamp of their inputs. Written beside it and renamed into place, so a reader never sees half a folder; when
 * another process put the same build there first, its copy stays.
 */
export const buildFaceModels = (
  outDir: string,
  options: { modelsDir?: string; stamp?: string } = {},
): FaceModelsManifest => {
  const modelsDir = options.modelsDir ?? humanModelsDir();
  checkHumanVersion(modelsDir);
  const staging = `${outDir}.${process.pid}.tmp`;
  fs.rmSync(staging, { recursive: true, force: true });
  fs.mkdirSync(staging, { recursive: true });
  const converted = (name: string) => path.join(staging, `${name}.converted.onnx`);
  const models = Object.fromEntries(
    FACE_MODEL_NAMES.map((name) => {
      const { bytes, inputName, outputNames } = convertTfjsToOnnx(
        path.join(modelsDir, `${name}.json`),
        FACE_MODEL_SPECS[name],
      );
      fs.writeFileSync(converted(name), bytes);
      return [name, { file: `${name}.onnx`, data: `${name}.data`, inputName, outputNames }];
    }),
  ) as FaceModelsManifest['models'];
  try {
    execFileSync(
      process.execPath,
      [OPTIMISER, ...FACE_MODEL_NAMES.flatMap((name) => [converted(name), path.join(staging, models[name].file)])],
      { cwd: ROOT_DIR, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    // optimise-models.cjs names each weights file after its model file, as the manifest does.
    for (const name of FACE_MODEL_NAMES)
      if (!fs.existsSync(path.join(staging, models[name].data))) throw new Error(`no ${models[name].data} was written`);
  } catch (error) {
    fs.rmSync(staging, { recursive: true, force: true });
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
    throw new Error(`face models: optimising the graphs failed: ${stderr || (error as Error).message}`);
  }
  for (const name of FACE_MODEL_NAMES) fs.rmSync(converted(name));
  const manifest: FaceModelsManifest = {
    modelId: MODEL_ID,
    humanVersion: HUMAN_VERSION,
    optimisation: { level: BUILD_OPTIMISATION, onnxRuntime: onnxRuntimeVersion() },
    models,
  };
  fs.writeFileSync(path.join(staging, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  if (options.stamp) fs.writeFileSync(path.join(staging, STAMP_FILE), options.stamp);
  fs.rmSync(outDir, { recursive: true, force: true });
  try {
    fs.renameSync(staging, outDir);
  } catch (error) {
    fs.rmSync(staging, { recursive: true, force: true });
    if (!options.stamp || stampOf(outDir) !== options.stamp) throw error;
  }
  return manifest;
};

const stampOf = (dir: string): string | undefined => {
  const file = path.join(dir, STAMP_FILE);
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
};

/** The repository's copy (`.build/face-models/`), converted again only when an input changed. */
export const ensureFaceModels = (options: { log?: (line: string) => void } = {}): string => {
  const outDir = sourceModelsDir();
  const hash = inputsHash();
  if (stampOf(outDir) === hash) return outDir;
  const startedAt = performance.now();
  fs.mkdirSync(path.dirname(outDir), { recursive: true });
  buildFaceModels(outDir, { stamp: hash });
  options.log?.(`Face models converted to ONNX in ${Math.round(performance.now() - startedAt)} ms: ${outDir}`);
  return outDir;
};

/** Copies the built models (the manifest and the files it lists, not the stamp) into `target`. */
export const copyFaceModels = (from: string, target: string): void => {
  const { models } = readManifest(from);
  fs.rmSync(target, { recursive: true, force: true });
  fs.mkdirSync(target, { recursive: true });
  const files = [MANIFEST_FILE, ...FACE_MODEL_NAMES.flatMap((name) => [models[name].file, models[name].data])];
  for (const file of files) fs.copyFileSync(path.join(from, file), path.join(target, file));
};

if (require.main === module) {
  const at = process.argv.indexOf('--out');
  const target = at > 0 ? process.argv[at + 1] : undefined;
  if (at > 0 && !target) {
    process.stderr.write('usage: npm run build:faces [-- --out <dir>]\n');
    process.exit(2);
  }
  try {
    const built = ensureFaceModels({ log: (line) => process.stdout.write(`${line}\n`) });
    if (target) copyFaceModels(built, path.resolve(target));
    process.stdout.write(`Face models: ${target ? path.resolve(target) : built}\n`);
  } catch (error) {
    process.stderr.write(`face models: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
