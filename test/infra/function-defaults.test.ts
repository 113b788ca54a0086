import { type App, Duration, Stack } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import {
  architectureOf,
  bundlingOptions,
  IMAGE_NODE_MODULES,
  serviceFunction,
} from '../../lib/constructs/function-defaults';
import { fixtureStack, STAND_IN_HANDLER, testApp } from '../fixtures/infra/service-stack';
import { flatTemplate } from '../fixtures/infra/template-queries';

process.env.CDK_VALIDATION = 'false';

const architecturesIn = (app: App) => {
  const stack = new Stack(app, 'Functions');
  serviceFunction(stack, 'Plain', {
    entry: STAND_IN_HANDLER,
    description: 'plain',
    timeout: Duration.seconds(3),
    environment: {},
  });
  serviceFunction(stack, 'Images', {
    entry: STAND_IN_HANDLER,
    description: 'images',
    timeout: Duration.seconds(3),
    environment: {},
    images: true,
  });
  return Object.values(flatTemplate(stack).findResources('AWS::Lambda::Function')).map(
    (fn) => fn.Properties.Architectures,
  );
};

describe('the architecture setting', () => {
  test('functions run on arm64 when the context names none', () => {
    expect(architecturesIn(testApp())).toEqual([['arm64'], ['arm64']]);
  });

  test('-c architecture=x86_64 puts every function on x86_64', () => {
    expect(architecturesIn(testApp({ context: { architecture: 'x86_64' } }))).toEqual([['x86_64'], ['x86_64']]);
  });

  test('any other value stops the synth and names the two choices', () => {
    expect(() => architecturesIn(testApp({ context: { architecture: 'x64' } }))).toThrow(
      /must be arm64 or x86_64, not "x64"/,
    );
    expect(() => architectureOf(new Stack(testApp({ context: { architecture: 'ARM64' } }), 'S'))).toThrow(
      /arm64 or x86_64/,
    );
  });
});

describe('the bundling recipe', () => {
  test('image work installs sharp, heic-decode and the face runtime as node modules for linux on glibc, in the chosen architecture', () => {
    expect(IMAGE_NODE_MODULES).toEqual(['sharp', 'heic-decode', 'onnxruntime-node']);
    expect(bundlingOptions(true, lambda.Architecture.ARM_64)).toMatchObject({
      nodeModules: ['sharp', 'heic-decode', 'onnxruntime-node'],
      environment: {
        npm_config_os: 'linux',
        npm_config_cpu: 'arm64',
        npm_config_libc: 'glibc',
        npm_config_onnxruntime_node_install: 'skip',
      },
    });
    expect(bundlingOptions(true, lambda.Architecture.X86_64).environment).toMatchObject({ npm_config_cpu: 'x64' });
  });

  test("image work keeps only the architecture's onnxruntime binaries, and writes the face models as ONNX beside the bundle", () => {
    const afterBundling = (architecture: lambda.Architecture) =>
      bundlingOptions(true, architecture).commandHooks?.afterBundling('/in', '/out').join('\n') ?? '';
    expect(afterBundling(lambda.Architecture.ARM_64)).toContain(
      'find "/out/node_modules/onnxruntime-node/bin/napi-v6/linux" -mindepth 1 -maxdepth 1 ! -name arm64 -exec rm -rf {} +',
    );
    expect(afterBundling(lambda.Architecture.X86_64)).toContain('! -name x64 -exec');
    expect(afterBundling(lambda.Architecture.ARM_64)).toContain(
      'node "/in/node_modules/tsx/dist/cli.mjs" "/in/bin/faces/build-models.ts" --out "/out/face-models"',
    );
    expect(afterBundling(lambda.Architecture.ARM_64)).not.toContain('@vladmandic');
    expect(bundlingOptions(false, lambda.Architecture.ARM_64).commandHooks).toBeUndefined();
  });

  test('other functions install no node modules and change no npm setting', () => {
    const options = bundlingOptions(false, lambda.Architecture.ARM_64);
    expect(options.nodeModules).toBeUndefined();
    expect(options.environment).toBeUndefined();
  });

  test('an image function bundles the AWS SDK, every other leaves it to the runtime; all minified but their names, with a source map', () => {
    expect(bundlingOptions(true, lambda.Architecture.ARM_64).externalModules).toEqual([]);
    expect(bundlingOptions(false, lambda.Architecture.ARM_64).externalModules).toEqual(['@aws-sdk/*']);
    for (const images of [true, false]) {
      const options = bundlingOptions(images, lambda.Architecture.ARM_64);
      expect(options).toMatchObject({
        mainFields: ['module', 'main'],
        esbuildArgs: { '--minify-whitespace': true, '--minify-syntax': true },
        sourceMap: true,
      });
      expect(options.minify).toBeUndefined();
    }
  });
});

describe('the time budgets AWS can hold', () => {
  const variablesOf = (context: Record<string, unknown> = {}) =>
    Object.values(
      flatTemplate(fixtureStack({}, testApp({ context }))).findResources('AWS::Lambda::Function', {
        Properties: { Description: 'POST /{v2,v1}/service/edit' },
      }),
    ).map((fn) => fn.Properties.Environment.Variables);

  test('an image route answers 504 after 290 s, under API Gateway idle limit of 5 minutes, and a job may run the spec’s 1800 s', () => {
    expect(variablesOf()).toEqual([
      expect.objectContaining({ SYNC_BUDGET_SECONDS: '290', ASYNC_BUDGET_SECONDS: '1800' }),
    ]);
  });

  test('context may shorten them, never past what AWS holds', () => {
    expect(variablesOf({ syncBudgetSeconds: 120, asyncBudgetSeconds: '600' })).toEqual([
      expect.objectContaining({ SYNC_BUDGET_SECONDS: '120', ASYNC_BUDGET_SECONDS: '600' }),
    ]);
    expect(() => variablesOf({ syncBudgetSeconds: 600 })).toThrow(
      /syncBudgetSeconds must be a whole number of seconds from 1 to 290/,
    );
    expect(() => variablesOf({ asyncBudgetSeconds: 1801 })).toThrow(
      /asyncBudgetSeconds must be a whole number of seconds from 1 to 1800/,
    );
  });
});
