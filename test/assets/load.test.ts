/**
 * What ships is what we test: the stack is synthesised for this machine's architecture exactly as
 * `cdk synth` does (bin/assets/build.ts, cached between runs), and every AWS::Lambda::Function of the
 * template is loaded from its asset alone, in a Lambda-like sandbox (bin/assets/sandbox.ts): a copy of
 * the asset folder, the runtime's AWS SDK v3 and nothing else on the module path, the template's
 * handler string and environment. Each must load and export its handler; the functions that do no
 * image work must carry no sharp, heic-decode, libheif, onnxruntime or face model; the image functions carry
 * onnxruntime-node for this machine only and the three face models as ONNX files (the build's conversion of
 * human's, byte for byte; no converter, no human package), within Lambda's 250 MB, and load neither sharp
 * nor onnxruntime at init; the job poll carries no workflow or queue client.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ensureAssets } from '../../bin/assets/build';
import { Sandbox } from '../../bin/assets/sandbox';
import { readTemplate, resolveValue, type Template } from '../../bin/assets/template';
import { FACE_MODEL_NAMES, MODEL_ID, readManifest, sourceModelsDir } from '../../functions/adapters/faces/face-models';
import { CURRENT_API_VERSION, ROUTES, routePath } from '../../functions/deployment/routes';
import { WORKFLOWS } from '../../functions/workflows/definitions';
import { hostArchitecture } from '../../lib/constructs/function-defaults';

const SYNTH_TIMEOUT_MS = 300_000;
const IMAGE_MODULES = ['sharp', 'heic-decode', 'libheif-js', 'onnxruntime-node', 'onnxruntime-common'];
/** Lambda's limit on a function's unzipped code. */
const LAMBDA_UNZIPPED_LIMIT_BYTES = 250 * 1024 * 1024;
const npmCpu = process.arch;

let template: Template;
const sandbox = new Sandbox();

beforeAll(async () => {
  template = readTemplate((await ensureAssets()).templateFile);
}, SYNTH_TIMEOUT_MS);
afterAll(() => sandbox.dispose());

/** Placeholder values for the template's references: loading a function reads no configuration. */
const placeholder = (logicalId: string, attribute?: string) =>
  attribute ? `arn:aws:local:${logicalId}:${attribute}` : `local-${logicalId}`;

const shipped = (logicalId: string) => template.functions.find((fn) => fn.logicalId === logicalId)!;
const isImageFunction = (logicalId: string) => fs.existsSync(path.join(shipped(logicalId).assetDir, 'node_modules'));
const installed = (logicalId: string, module: string) =>
  fs.existsSync(path.join(shipped(logicalId).assetDir, 'node_modules', module, 'package.json'));
const bundle = (logicalId: string) => fs.readFileSync(path.join(shipped(logicalId).assetDir, 'index.js'), 'utf8');

test('the template has one function per route, per workflow Task, the portal, the callback deliverer and the maintenance function', () => {
  const tasks = Object.values(WORKFLOWS).flatMap((workflow) => Object.keys(workflow.tasks));
  // Plus the developer portal, the callback deliverer and the scheduled closing of abandoned work.
  expect(template.functions).toHaveLength(ROUTES.length + tasks.length + 3);
  expect(new Set(template.methods.map((method) => method.functionId)).size).toBe(ROUTES.length + 1);
});

test(`every function is built for this machine (${hostArchitecture()})`, () => {
  for (const { logicalId } of template.functions)
    expect([logicalId, template.resources[logicalId].Properties.Architectures]).toEqual([
      logicalId,
      [hostArchitecture()],
    ]);
});

test('every shipped function loads alone in a Lambda-like sandbox and exports its handler', async () => {
  const results = await Promise.all(
    template.functions.map(async (fn) => {
      const environment = Object.fromEntries(
        Object.entries(fn.environment).map(([name, value]) => [name, resolveValue(value, placeholder)]),
      );
      const lambda = sandbox.create({
        name: fn.logicalId,
        assetDir: fn.assetDir,
        handler: fn.handler,
        memoryMb: fn.memoryMb,
        timeoutSeconds: fn.timeoutSeconds,
        environment,
      });
      return lambda.coldStart().then(
        () => [fn.logicalId, 'loaded'],
        (error: Error) => [fn.logicalId, `${error.name}: ${error.message}`],
      );
    }),
  );
  expect(results).toEqual(template.functions.map((fn) => [fn.logicalId, 'loaded']));
}, 120_000);

test('exactly the image functions ship node modules: sharp for this machine and the HEIC decoder', () => {
  const imageFunctions = template.functions.map((fn) => fn.logicalId).filter(isImageFunction);
  const expected = [
    ...ROUTES.filter((route) => route.images),
    ...Object.values(WORKFLOWS)
      .flatMap((w) => Object.values(w.tasks))
      .filter((task) => task.images),
  ];
  expect(imageFunctions).toHaveLength(expected.length);
  for (const logicalId of imageFunctions) {
    for (const module of [...IMAGE_MODULES, `@img/sharp-linux-${npmCpu}`])
      expect([logicalId, module, installed(logicalId, module)]).toEqual([logicalId, module, true]);
    // Required when first used (functions/adapters/images/sharp.ts; the last test checks it is not at init).
    expect(bundle(logicalId)).toContain('require("sharp")');
  }
});

test('a function that does no image work carries no sharp, heic-decode, libheif, onnxruntime or face model', () => {
  for (const { logicalId } of template.functions.filter((fn) => !isImageFunction(fn.logicalId))) {
    const code = bundle(logicalId);
    expect([
      logicalId,
      /node_modules\/(sharp|heic-decode|libheif-js|onnxruntime-node|onnxruntime-common|@vladmandic)\//.test(code) ||
        /(require|import)\("(sharp|heic-decode|onnxruntime-node|@vladmandic\/human)"\)/.test(code) ||
        code.includes('libheif') ||
        code.includes('onnxruntime'),
    ]).toEqual([logicalId, false]);
  }
});

test('the image functions carry onnxruntime-node for this machine only and the face models as the build made them, nothing else of them', () => {
  // The repository's build (test/unit/bin/faces/build-models.test.ts: the conversion as onnxruntime
  // optimises it, with the in-memory conversion's outputs).
  const built = Object.fromEntries(
    FACE_MODEL_NAMES.flatMap((name) => [`${name}.onnx`, `${name}.data`]).map((file) => [
      file,
      fs.readFileSync(path.join(sourceModelsDir(), file)),
    ]),
  );
  const imageFunctions = template.functions.map((fn) => fn.logicalId).filter(isImageFunction);
  for (const logicalId of imageFunctions) {
    const modules = path.join(shipped(logicalId).assetDir, 'node_modules');
    const listing = (dir: string) => fs.readdirSync(path.join(modules, dir)).sort();
    expect([logicalId, listing('onnxruntime-node/bin/napi-v6'), listing('onnxruntime-node/bin/napi-v6/linux')]).toEqual(
      [logicalId, ['linux'], [npmCpu]],
    );
    expect([logicalId, installed(logicalId, '@vladmandic/human')]).toEqual([logicalId, false]);
    const models = path.join(shipped(logicalId).assetDir, 'face-models');
    expect([logicalId, fs.readdirSync(models).sort()]).toEqual([
      logicalId,
      [...Object.keys(built), 'manifest.json'].sort(),
    ]);
    for (const [file, bytes] of Object.entries(built))
      expect([logicalId, file, bytes.equals(fs.readFileSync(path.join(models, file)))]).toEqual([
        logicalId,
        file,
        true,
      ]);
    expect(readManifest(models).modelId).toBe(MODEL_ID);
    expect(bundle(logicalId)).toContain('require("onnxruntime-node")');
    // The converter and its protobuf library stay in the build.
    expect([logicalId, /ModelProto|protobufjs|onnx-proto/.test(bundle(logicalId))]).toEqual([logicalId, false]);
  }
});

test("each image function's unzipped asset fits Lambda's 250 MB", () => {
  const sizes = template.functions
    .filter((fn) => isImageFunction(fn.logicalId))
    .map((fn) => {
      const bytes = Number(execFileSync('du', ['-sb', fn.assetDir], { encoding: 'utf8' }).split('\t')[0]);
      return [fn.logicalId, bytes, bytes < LAMBDA_UNZIPPED_LIMIT_BYTES] as const;
    });
  process.stdout.write(
    `image function assets (${hostArchitecture()}, unzipped): ${sizes.map(([id, bytes]) => `${id} ${(bytes / 1e6).toFixed(1)} MB`).join(', ')}\n`,
  );
  expect(sizes.filter(([, , fits]) => !fits)).toEqual([]);
});

test('the job poll, the route clients call most, loads neither the Step Functions nor the SQS client', () => {
  const poll = template.methods.find(
    (method) => method.method === 'GET' && method.path === routePath(CURRENT_API_VERSION, { path: '/jobs/{job_id}' }),
  );
  expect(poll).toBeDefined();
  const code = bundle(poll?.functionId ?? '');
  expect(code).toContain('require("@aws-sdk/lib-dynamodb")');
  expect(code.match(/require\("@aws-sdk\/client-(sfn|sqs)"\)/g)).toBeNull();
});

test('an image function loads neither sharp nor onnxruntime at init: the routes that use them load them when they do', () => {
  // Each bundle required in a fresh Node (the project's AWS SDK on NODE_PATH, as the runtime provides it),
  // then the native modules it has loaded are listed.
  const loadedAtInit = (assetDir: string): string[] =>
    JSON.parse(
      execFileSync(
        process.execPath,
        [
          '-e',
          `require(${JSON.stringify(path.join(assetDir, 'index.js'))});
           const loaded = Object.keys(require.cache).map((file) => /node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(file)?.[1]);
           process.stdout.write(JSON.stringify([...new Set(loaded.filter((name) => name && !name.startsWith('@aws-sdk') && !name.startsWith('@smithy') && !name.startsWith('@aws-crypto') && !name.startsWith('@aws')))]));`,
        ],
        {
          encoding: 'utf8',
          env: { PATH: process.env.PATH, NODE_PATH: path.join(__dirname, '..', '..', 'node_modules') },
        },
      ),
    );
  const imageFunctions = template.functions.filter((fn) => isImageFunction(fn.logicalId));
  expect(imageFunctions.length).toBeGreaterThan(0);
  for (const fn of imageFunctions)
    expect([fn.logicalId, loadedAtInit(fn.assetDir).filter((name) => IMAGE_MODULES.includes(name))]).toEqual([
      fn.logicalId,
      [],
    ]);
});
