/**
 * @jest-environment ./test/faces/onnx-environment.js
 *
 * The face models built at build time are the models the analyser used to convert in memory at every
 * cold start, optimised by onnxruntime at the `extended` level: the bytes onnxruntime writes for that
 * conversion, the same outputs on a fixture photo (bit for bit), and the same faces found by the analyser
 * that reads them. Also when they are built again, what the build refuses and what the analyser refuses
 * to read.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import sharp from 'sharp';
import {
  buildFaceModels,
  copyFaceModels,
  humanModelsDir,
  inputsHash,
  onnxRuntimeVersion,
} from '../../../../bin/faces/build-models';
import { convertTfjsToOnnx } from '../../../../bin/faces/tfjs-to-onnx';
import {
  FACE_MODEL_NAMES,
  FACE_MODEL_SPECS,
  type FaceModelName,
  MANIFEST_FILE,
  MODEL_ID,
  readManifest,
  sourceModelsDir,
} from '../../../../functions/adapters/faces/face-models';
import { createOnnxFaceAnalyzer } from '../../../../functions/adapters/faces/onnx-face-analyzer';

jest.setTimeout(60_000);

const FIXTURE = path.join(__dirname, '..', '..', '..', 'fixtures', 'faces', 'astronaut.jpg');
const SESSION_OPTIONS: ort.InferenceSession.SessionOptions = {
  executionProviders: ['cpu'],
  intraOpNumThreads: 1,
  graphOptimizationLevel: 'all',
};

let workDir: string;
let built: string;

beforeAll(() => {
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'face-models-'));
  built = path.join(workDir, 'face-models');
  buildFaceModels(built);
});
afterAll(() => fs.rmSync(workDir, { recursive: true, force: true }));

/** Today's conversion, in memory, as the analyser did it at every cold start. */
const inMemory = (name: FaceModelName) =>
  convertTfjsToOnnx(path.join(humanModelsDir(), `${name}.json`), FACE_MODEL_SPECS[name]);

/**
 * What onnxruntime itself writes for the in-memory conversion optimised at the `extended` level, with
 * the weights in `<name>.data`: the model file and the weights file.
 */
const optimisedHere = async (name: FaceModelName): Promise<[Buffer, Buffer]> => {
  const dir = path.join(workDir, 'optimised-here');
  fs.mkdirSync(dir, { recursive: true });
  const session = await ort.InferenceSession.create(inMemory(name).bytes, {
    ...SESSION_OPTIONS,
    graphOptimizationLevel: 'extended',
    optimizedModelFilePath: path.join(dir, `${name}.onnx`),
    extra: {
      session: {
        optimized_model_external_initializers_file_name: `${name}.data`,
        optimized_model_external_initializers_min_size_in_bytes: '1024',
      },
    },
  });
  await session.release();
  return [fs.readFileSync(path.join(dir, `${name}.onnx`)), fs.readFileSync(path.join(dir, `${name}.data`))];
};

const MODEL_FILES = FACE_MODEL_NAMES.flatMap((name) => [`${name}.data`, `${name}.onnx`]);

/** The fixture photo as the model's input: resized to its square, RGB scaled to [-1, 1], NHWC. */
const photoInput = async (name: FaceModelName): Promise<ort.Tensor> => {
  const [, height, width] = FACE_MODEL_SPECS[name].inputShape;
  const pixels = await sharp(fs.readFileSync(FIXTURE)).resize(width, height).removeAlpha().raw().toBuffer();
  return new ort.Tensor(
    'float32',
    Float32Array.from(pixels, (value) => value / 127.5 - 1),
    [1, height, width, 3],
  );
};

const outputsOf = async (model: string | Uint8Array, name: FaceModelName): Promise<Float32Array[]> => {
  const session =
    typeof model === 'string'
      ? await ort.InferenceSession.create(model, SESSION_OPTIONS)
      : await ort.InferenceSession.create(model, SESSION_OPTIONS);
  const results = await session.run({ [session.inputNames[0]]: await photoInput(name) });
  await session.release();
  return session.outputNames.map((output) => results[output].data as Float32Array);
};

describe('the build-time face models', () => {
  it('are written with a manifest naming the analyser’s model id, the optimisation and each model’s input and outputs', () => {
    expect(fs.readdirSync(built).sort()).toEqual([...MODEL_FILES, MANIFEST_FILE].sort());
    const manifest = readManifest(built);
    expect(manifest.modelId).toBe(MODEL_ID);
    expect(manifest.optimisation).toEqual({ level: 'extended', onnxRuntime: onnxRuntimeVersion() });
    expect(onnxRuntimeVersion()).toMatch(/^\d+\.\d+\.\d+/);
    for (const name of FACE_MODEL_NAMES) {
      const { inputName, outputNames } = inMemory(name);
      expect(manifest.models[name]).toEqual({ file: `${name}.onnx`, data: `${name}.data`, inputName, outputNames });
    }
  });

  it.each(FACE_MODEL_NAMES)(
    '%s is byte for byte the in-memory conversion as onnxruntime optimises it, weights apart',
    async (name) => {
      const [graph, weights] = await optimisedHere(name);
      expect(fs.readFileSync(path.join(built, `${name}.onnx`)).equals(graph)).toBe(true);
      expect(fs.readFileSync(path.join(built, `${name}.data`)).equals(weights)).toBe(true);
      // Optimised, not the conversion copied through; the weights (nearly all the bytes) are in the data file.
      expect(graph.equals(Buffer.from(inMemory(name).bytes))).toBe(false);
      expect(weights.length).toBeGreaterThan(5 * graph.length);
    },
  );

  it.each(FACE_MODEL_NAMES)('%s gives the in-memory conversion’s outputs on a fixture photo', async (name) => {
    const fromFile = await outputsOf(path.join(built, `${name}.onnx`), name);
    const fromMemory = await outputsOf(inMemory(name).bytes, name);
    expect(fromFile.map((output) => output.length)).toEqual(fromMemory.map((output) => output.length));
    expect(fromFile.map((output) => Array.from(output))).toEqual(fromMemory.map((output) => Array.from(output)));
    // Numbers a model computed: finite, not all zero.
    const values = fromFile.flatMap((output) => Array.from(output));
    expect(values.every(Number.isFinite)).toBe(true);
    expect(values.some((value) => value !== 0)).toBe(true);
  });

  it('the analyser reading them finds the astronaut as the repository’s copy does', async () => {
    const photo = fs.readFileSync(FIXTURE);
    const [face] = await createOnnxFaceAnalyzer({ modelsDir: built }).analyze(photo);
    expect(face).toMatchObject({ kind: 'person' });
    expect(face.embedding).toHaveLength(1024);
    expect(await createOnnxFaceAnalyzer().analyze(photo)).toEqual([face]);
  });

  it('are copied into an asset without the repository copy’s stamp', () => {
    const target = path.join(workDir, 'asset', 'face-models');
    copyFaceModels(sourceModelsDir(), target);
    expect(fs.readdirSync(sourceModelsDir())).toContain('source-hash');
    expect(fs.readdirSync(target).sort()).toEqual(fs.readdirSync(built).sort());
    for (const file of [...MODEL_FILES, MANIFEST_FILE])
      expect([file, fs.readFileSync(path.join(target, file)).equals(fs.readFileSync(path.join(built, file)))]).toEqual([
        file,
        true,
      ]);
  });

  it('are built again when a weight file changes', () => {
    const altered = path.join(workDir, 'human-models');
    fs.mkdirSync(altered);
    for (const file of fs.readdirSync(humanModelsDir()).filter((name) => /^(blazeface|facemesh|faceres)\./.test(name)))
      fs.copyFileSync(path.join(humanModelsDir(), file), path.join(altered, file));
    expect(inputsHash(altered)).toBe(inputsHash());
    fs.appendFileSync(path.join(altered, 'faceres.bin'), Buffer.from([0]));
    expect(inputsHash(altered)).not.toBe(inputsHash());
  });

  it('are built again when onnxruntime-node changes version (the optimised graphs are its output)', () => {
    expect(inputsHash(humanModelsDir(), onnxRuntimeVersion())).toBe(inputsHash());
    expect(inputsHash(humanModelsDir(), '0.0.1')).not.toBe(inputsHash());
  });
});

describe('what is refused', () => {
  it('a folder without models names the command that builds them', () => {
    expect(() => readManifest(path.join(workDir, 'nothing-here'))).toThrow(/npm run build:faces/);
  });

  it('models built for another model id', async () => {
    const other = path.join(workDir, 'other-id');
    fs.cpSync(built, other, { recursive: true });
    const manifest = JSON.parse(fs.readFileSync(path.join(other, MANIFEST_FILE), 'utf8'));
    fs.writeFileSync(
      path.join(other, MANIFEST_FILE),
      JSON.stringify({ ...manifest, modelId: 'human-faceres-3.3.5/b1' }),
    );
    await expect(createOnnxFaceAnalyzer({ modelsDir: other }).load()).rejects.toThrow(
      /holds human-faceres-3\.3\.5\/b1, this analyser runs human-faceres-3\.3\.6\/b2/,
    );
  });

  it('a manifest from before the build optimised the graphs names the command that builds them again', async () => {
    const old = path.join(workDir, 'unoptimised');
    fs.cpSync(built, old, { recursive: true });
    const { optimisation: _, ...manifest } = JSON.parse(fs.readFileSync(path.join(old, MANIFEST_FILE), 'utf8'));
    fs.writeFileSync(path.join(old, MANIFEST_FILE), JSON.stringify(manifest));
    expect(() => readManifest(old)).toThrow(
      /is not a manifest this analyser reads \(.*optimisation.*npm run build:faces/,
    );
    await expect(createOnnxFaceAnalyzer({ modelsDir: old }).load()).rejects.toThrow(/npm run build:faces/);
  });

  it('a folder missing a weights file names it and the command that builds them again', async () => {
    const partial = path.join(workDir, 'partial');
    fs.cpSync(built, partial, { recursive: true });
    fs.rmSync(path.join(partial, 'faceres.data'));
    expect(() => readManifest(partial)).toThrow(/lacks faceres\.data; build them again with `npm run build:faces`/);
    await expect(createOnnxFaceAnalyzer({ modelsDir: partial }).load()).rejects.toThrow(/lacks faceres\.data/);
  });

  it('another version of human', () => {
    const fakeHuman = path.join(workDir, 'human');
    fs.mkdirSync(path.join(fakeHuman, 'models'), { recursive: true });
    fs.writeFileSync(path.join(fakeHuman, 'package.json'), JSON.stringify({ version: '3.3.7' }));
    expect(() => buildFaceModels(path.join(workDir, 'never'), { modelsDir: path.join(fakeHuman, 'models') })).toThrow(
      /@vladmandic\/human 3\.3\.7 is installed, human-faceres-3\.3\.6\/b2 needs 3\.3\.6/,
    );
    expect(fs.existsSync(path.join(workDir, 'never'))).toBe(false);
  });
});
