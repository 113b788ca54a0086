/**
 * Every Lambda function of the service is made here: one runtime, one architecture, one bundling recipe,
 * one log retention, and the environment variables that functions/deployment/settings.ts reads, named in this
 * one place.
 */
import * as path from 'node:path';
import type { Duration } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { type BundlingOptions, NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import type { Construct } from 'constructs';
import { FACE_MODELS_FOLDER } from '../../functions/adapters/faces/face-models';
import { ENV, STATE_MACHINE_ARN_ENV } from '../../functions/deployment/env-names';
import { acknowledge } from './acknowledgements';

export const RUNTIME = lambda.Runtime.NODEJS_22_X;

/**
 * CDK context `architecture` (`-c architecture=x86_64`): the functions and the native modules of the
 * image functions follow it. arm64 (Graviton) is the default: cheaper per GB-second; x86_64 lets a
 * synthesised stack be loaded and run on an x64 machine (npm run start:assets, the load test).
 */
export const ARCHITECTURE_CONTEXT = 'architecture';
export const ARCHITECTURES = { arm64: lambda.Architecture.ARM_64, x86_64: lambda.Architecture.X86_64 } as const;
export type ArchitectureName = keyof typeof ARCHITECTURES;
export const DEFAULT_ARCHITECTURE: ArchitectureName = 'arm64';

const isArchitectureName = (value: unknown): value is ArchitectureName =>
  typeof value === 'string' && Object.hasOwn(ARCHITECTURES, value);

/** The architecture the app's context asks for; anything but arm64 or x86_64 stops the synth. */
export const architectureOf = (scope: Construct): lambda.Architecture => {
  const asked: unknown = scope.node.tryGetContext(ARCHITECTURE_CONTEXT) ?? DEFAULT_ARCHITECTURE;
  if (!isArchitectureName(asked))
    throw new Error(`CDK context ${ARCHITECTURE_CONTEXT} must be arm64 or x86_64, not ${JSON.stringify(asked)}`);
  return ARCHITECTURES[asked];
};

/** The Lambda architecture of the machine at hand. */
export const hostArchitecture = (): ArchitectureName => (process.arch === 'arm64' ? 'arm64' : 'x86_64');
export const LOG_RETENTION = logs.RetentionDays.ONE_MONTH;
export const DEFAULT_MEMORY_MB = 512;
/** sharp and the HEIC decoder are CPU-bound; 1769 MB is one full vCPU, 2048 leaves room for a 12 MP decode. */
export const IMAGE_MEMORY_MB = 2048;

/** The repository root: handler paths in the route and workflow tables are relative to it. */
export const REPOSITORY_ROOT = path.resolve(__dirname, '..', '..');

/**
 * Read first: the time budgets AWS can hold, set on every function (functions/deployment/settings.ts reads them).
 * - Synchronous image calls: API Gateway's REST streaming drops a Regional connection that sends nothing
 *   for 5 minutes, and our answer's status is known only at the end, so no byte can go out early. On AWS
 *   the budget is therefore under that idle limit (CDK context `syncBudgetSeconds`, default and maximum
 *   290): past it the call answers 504 TIMEOUT and is refunded, as the spec says of its 600 s.
 * - Async jobs: the spec's 30 minutes (context `asyncBudgetSeconds`, default and maximum 1800); past it the
 *   job fails TIMEOUT and is refunded. A queued provider (fal) is submitted once and checked by short
 *   RunEngine rounds, so its job may use the whole budget; a synchronous provider call (OpenAI, Gemini,
 *   the HTTP engine) is one Lambda run, so such a job ends TIMEOUT if the call itself outlasts 885 s
 *   (15 minutes less the 15 s kept to record the outcome). Locally (npm start) the budgets are 600 s and 1800 s.
 */
export const BUDGET_LIMITS_SECONDS = { sync: 290, async: 1800 } as const;
export const DEFAULT_BUDGETS_SECONDS = { sync: 290, async: 1800 } as const;

export const budgetEnvironment = (scope: Construct): Record<string, string> => {
  const read = (key: string, fallback: number, limit: number) => {
    const value = Number(scope.node.tryGetContext(key) ?? fallback);
    if (!Number.isInteger(value) || value < 1 || value > limit)
      throw new Error(`CDK context ${key} must be a whole number of seconds from 1 to ${limit}`);
    return String(value);
  };
  return {
    [ENV.syncBudgetSeconds]: read('syncBudgetSeconds', DEFAULT_BUDGETS_SECONDS.sync, BUDGET_LIMITS_SECONDS.sync),
    [ENV.asyncBudgetSeconds]: read('asyncBudgetSeconds', DEFAULT_BUDGETS_SECONDS.async, BUDGET_LIMITS_SECONDS.async),
  };
};

export { ENV };

/** `image-job` → `IMAGE_JOB_STATE_MACHINE_ARN` (the names the functions read, functions/deployment/env-names.ts). */
export const stateMachineArnVariable = (workflowName: string): string => {
  const variable = (STATE_MACHINE_ARN_ENV as Record<string, string>)[workflowName];
  if (!variable)
    throw new Error(`workflow ${workflowName} has no state machine ARN variable in functions/deployment/env-names.ts`);
  return variable;
};

export interface ServiceResources {
  readonly table: dynamodb.ITable;
  readonly bucket: s3.IBucket;
  readonly callbackQueue: sqs.IQueue;
  readonly downloadTokenSecret: secretsmanager.ISecret;
  /** Where the engine and trainer run (lib/constructs/backends.ts); empty for the sandbox. */
  readonly backendEnvironment?: Record<string, string>;
  /** The time budgets AWS can hold (budgetEnvironment). */
  readonly budgetEnvironment?: Record<string, string>;
  /** Workflow name → state machine, for the functions that start and stop executions. */
  readonly stateMachines?: ReadonlyMap<string, sfn.IStateMachine>;
}

export const serviceEnvironment = (resources: ServiceResources): Record<string, string> => ({
  [ENV.tableName]: resources.table.tableName,
  [ENV.bucketName]: resources.bucket.bucketName,
  [ENV.callbackQueueUrl]: resources.callbackQueue.queueUrl,
  [ENV.downloadTokenSecretArn]: resources.downloadTokenSecret.secretArn,
  [ENV.logLevel]: 'info',
  ...resources.backendEnvironment,
  ...resources.budgetEnvironment,
  ...Object.fromEntries(
    [...(resources.stateMachines ?? [])].map(([name, machine]) => [
      stateMachineArnVariable(name),
      machine.stateMachineArn,
    ]),
  ),
});

/** A handler path from a route or workflow table, with `.ts` added when it names a module without extension. */
export const handlerEntry = (modulePath: string): string =>
  /\.[cm]?[jt]s$/.test(modulePath) ? modulePath : `${modulePath}.ts`;

/** A construct id from words of any case: `('GET', '/jobs/{job_id}')` → `GetJobsJobId`. */
export const constructId = (...words: string[]): string =>
  words
    .flatMap((word) => word.split(/[^A-Za-z0-9]+/))
    .filter(Boolean)
    .map((word) => word[0].toUpperCase() + (word === word.toUpperCase() ? word.slice(1).toLowerCase() : word.slice(1)))
    .join('');

/**
 * Shell commands run after esbuild has bundled a function, given the repository and the bundle's directory
 * as the bundling sees them (on this machine, or in the bundling container).
 */
export type BuildSteps = (inputDir: string, outputDir: string) => string[];

/** npm's name for a Lambda architecture. */
const npmCpu = (architecture: lambda.Architecture): string =>
  architecture.name === lambda.Architecture.X86_64.name ? 'x64' : 'arm64';

/** The modules image work needs that esbuild cannot bundle: they are installed into the asset instead. */
export const IMAGE_NODE_MODULES = ['sharp', 'heic-decode', 'onnxruntime-node'] as const;

/**
 * The face models, converted at build time: bin/faces/build-models.ts turns @vladmandic/human's
 * TensorFlow.js graphs (from the repository's node_modules, through its cache in `.build/face-models/`)
 * into ONNX files in `<asset>/face-models/`, so a cold start only reads them. Run with the repository's
 * tsx, by the Node that runs the bundling (on this machine, or in the bundling container).
 */
export const faceModelCommands = (inputDir: string, outputDir: string): string[] => [
  `node "${path.posix.join(inputDir, 'node_modules', 'tsx', 'dist', 'cli.mjs')}" "${path.posix.join(inputDir, 'bin', 'faces', 'build-models.ts')}" --out "${path.posix.join(outputDir, FACE_MODELS_FOLDER)}"`,
];

/**
 * What face analysis does not need of its installed modules, removed from the asset after the install
 * (bash, in the asset directory): onnxruntime-node carries binaries for every platform (288 MB) of which
 * Lambda runs one, `bin/napi-v6/linux/<arch>`, beside its `dist/`; its install script and that script's
 * own dependencies (adm-zip, global-agent) never run in Lambda.
 */
export const facePruneCommands = (outputDir: string, architecture: lambda.Architecture): string[] => {
  const onnx = path.posix.join(outputDir, 'node_modules', 'onnxruntime-node');
  return [
    `find "${onnx}/bin/napi-v6" -mindepth 1 -maxdepth 1 ! -name linux -exec rm -rf {} +`,
    `find "${onnx}/bin/napi-v6/linux" -mindepth 1 -maxdepth 1 ! -name ${npmCpu(architecture)} -exec rm -rf {} +`,
    `rm -rf "${onnx}/lib" "${onnx}/script" "${onnx}/README.md"`,
    `find "${onnx}/dist" -name "*.map" -delete`,
  ];
};

/**
 * The AWS SDK v3 comes with the Node runtime (an image function bundles its own, see externalModules).
 * sharp carries a native libvips binary, heic-decode a WASM file and onnxruntime-node (face analysis) a
 * native runtime, so none can be bundled: they are installed into the asset as node modules, and npm is
 * told to install the build
 * for the architecture on Lambda's linux (glibc), whatever machine runs the synth, without
 * onnxruntime-node's install script (it would fetch CUDA libraries); what face analysis does not use is
 * then pruned (facePruneCommands), and the face models are written beside the bundle (faceModelCommands).
 * npm prefers its cache, so a synth for the host's own architecture
 * after `npm ci` needs no network. A function that does no image work ships none of them:
 * test/assets/load.test.ts proves both.
 */
export const bundlingOptions = (
  images: boolean,
  architecture: lambda.Architecture,
  files: readonly string[] = [],
  buildSteps?: BuildSteps,
): BundlingOptions => ({
  // An image function bundles the AWS SDK: it must start within 150 ms (issue 32), and the runtime's copy,
  // loaded file by file from /var/runtime/node_modules, is most of that (docs/benchmarks.md). Every other
  // function leaves the SDK to the runtime and keeps its bundle small.
  externalModules: images ? [] : ['@aws-sdk/*'],
  // Packages' ES module builds first: esbuild drops what a function does not import (the SDK's CommonJS
  // builds are whole-package files). Whitespace and syntax minified, names kept (errors and logs name
  // their class; esbuild's keepNames instead wraps every function in a call that costs more at init than
  // the whole minification saves): less to parse. The source map ships beside the bundle; a logged error's
  // stack is mapped through it then (functions/adapters/source-mapped-stack.ts), not with node's
  // --enable-source-maps, which parses the whole map at every cold start.
  mainFields: ['module', 'main'],
  esbuildArgs: { '--minify-whitespace': true, '--minify-syntax': true },
  sourceMap: true,
  sourcesContent: false,
  // Installed files a handler reads at run time (the docs page's renderer), copied beside the bundle, and
  // files a build step writes there (the portal's page assets).
  ...((files.length > 0 || buildSteps || images) && {
    commandHooks: {
      beforeBundling: () => [],
      beforeInstall: () => [],
      // Runs after the node modules are installed.
      afterBundling: (inputDir: string, outputDir: string) => [
        // Resolved here (package exports apply), then named inside the bundling's view of the repository.
        ...files.map((file) => {
          const installed = path.relative(REPOSITORY_ROOT, require.resolve(file, { paths: [REPOSITORY_ROOT] }));
          return `cp "${path.posix.join(inputDir, ...installed.split(path.sep))}" "${path.posix.join(outputDir, path.basename(file))}"`;
        }),
        ...(buildSteps?.(inputDir, outputDir) ?? []),
        ...(images ? [...facePruneCommands(outputDir, architecture), ...faceModelCommands(inputDir, outputDir)] : []),
      ],
    },
  }),
  ...(images && {
    nodeModules: [...IMAGE_NODE_MODULES],
    environment: {
      npm_config_os: 'linux',
      npm_config_cpu: npmCpu(architecture),
      npm_config_libc: 'glibc',
      npm_config_prefer_offline: 'true',
      npm_config_onnxruntime_node_install: 'skip',
    },
  }),
});

/** Each image function's share of the account's concurrency (context `imageConcurrency`; 0 leaves it uncapped). */
export const DEFAULT_IMAGE_CONCURRENCY = 40;

export const imageConcurrency = (scope: Construct): number | undefined => {
  const raw: unknown = scope.node.tryGetContext('imageConcurrency') ?? DEFAULT_IMAGE_CONCURRENCY;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0)
    throw new Error(`context imageConcurrency must be a whole number of executions, 0 for no cap (got ${String(raw)})`);
  return value === 0 ? undefined : value;
};

export interface ServiceFunctionProps {
  /** Handler module, relative to the repository root; it exports `handler`. */
  readonly entry: string;
  readonly description: string;
  readonly timeout: Duration;
  readonly environment: Record<string, string>;
  /** The function imports sharp (and the HEIC decoder) and analyses faces (onnxruntime-node, the face models). */
  readonly images?: boolean;
  readonly memoryMb?: number;
  /** Files of installed packages copied beside the bundle (RouteDefinition.files). */
  readonly files?: readonly string[];
  /** Commands that write more files beside the bundle (the portal's page assets). */
  readonly buildSteps?: BuildSteps;
  /**
   * The log group of the function's resource group, shared by its functions (Lambda's advanced logging
   * controls: each line is JSON and names its function); one of its own when absent.
   */
  readonly logGroup?: logs.ILogGroup;
}

export const serviceFunction = (scope: Construct, id: string, props: ServiceFunctionProps): NodejsFunction => {
  const images = props.images ?? false;
  const architecture = architectureOf(scope);
  const fn = new NodejsFunction(scope, id, {
    entry: path.join(REPOSITORY_ROOT, handlerEntry(props.entry)),
    projectRoot: REPOSITORY_ROOT,
    depsLockFilePath: path.join(REPOSITORY_ROOT, 'package-lock.json'),
    description: props.description,
    runtime: RUNTIME,
    architecture,
    memorySize: props.memoryMb ?? (images ? IMAGE_MEMORY_MB : DEFAULT_MEMORY_MB),
    // Image work is capped, so that a burst of it cannot take the concurrency every other function needs.
    reservedConcurrentExecutions: images ? imageConcurrency(scope) : undefined,
    timeout: props.timeout,
    // X-Ray: each invocation is a segment of the request's trace (API Gateway and Step Functions start it).
    tracing: lambda.Tracing.ACTIVE,
    environment: props.environment,
    logGroup: props.logGroup ?? new logs.LogGroup(scope, `${id}Logs`, { retention: LOG_RETENTION }),
    ...(props.logGroup && { loggingFormat: lambda.LoggingFormat.JSON }),
    bundling: bundlingOptions(images, architecture, props.files, props.buildSteps),
  });
  acknowledge(
    fn,
    'AwsSolutions-L1',
    `${RUNTIME.name} is the runtime the service targets (esbuild compiles for it); moving to a newer Node ` +
      'line is a deliberate one-line change of RUNTIME, not a side effect of upgrading aws-cdk-lib.',
  );
  acknowledge(
    fn,
    'AwsSolutions-IAM5[Resource::*]',
    'X-Ray tracing: xray:PutTraceSegments and PutTelemetryRecords are authorised only on "*" (CDK grants them for Tracing.ACTIVE).',
  );
  acknowledge(
    fn,
    'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
    'The AWS managed basic execution policy only lets the function write its own CloudWatch logs.',
  );
  return fn;
};
