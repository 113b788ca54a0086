/**
 * Every Lambda function of the service is made here: one runtime, one architecture, one bundling recipe,
 * one log retention, and the environment variables that functions/shared/config.ts reads, named in this
 * one place.
 */
import * as path from 'node:path';
import type { Duration } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, type BundlingOptions } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { acknowledge } from './acknowledgements';

export const RUNTIME = lambda.Runtime.NODEJS_22_X;
export const ARCHITECTURE = lambda.Architecture.ARM_64;
export const LOG_RETENTION = logs.RetentionDays.ONE_MONTH;
export const DEFAULT_MEMORY_MB = 512;
/** sharp and the HEIC decoder are CPU-bound; 1769 MB is one full vCPU, 2048 leaves room for a 12 MP decode. */
export const IMAGE_MEMORY_MB = 2048;

/** The repository root: handler paths in the route and workflow tables are relative to it. */
export const REPOSITORY_ROOT = path.resolve(__dirname, '..', '..');

/** The environment variables the stack sets, and nowhere else. */
export const ENV = {
  tableName: 'SERVICE_TABLE_NAME',
  bucketName: 'SERVICE_BUCKET_NAME',
  callbackQueueUrl: 'CALLBACK_QUEUE_URL',
  callbackDeadLetterQueueUrl: 'CALLBACK_DLQ_URL',
  downloadTokenSecretArn: 'DOWNLOAD_TOKEN_SECRET_ARN',
  logLevel: 'LOG_LEVEL',
  nodeOptions: 'NODE_OPTIONS',
} as const;

/** `image-job` → `IMAGE_JOB_STATE_MACHINE_ARN`. */
export const stateMachineArnVariable = (workflowName: string): string =>
  `${workflowName
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .toUpperCase()}_STATE_MACHINE_ARN`;

export interface ServiceResources {
  readonly table: dynamodb.ITable;
  readonly bucket: s3.IBucket;
  readonly callbackQueue: sqs.IQueue;
  readonly downloadTokenSecret: secretsmanager.ISecret;
  /** Where the engine and trainer run (lib/constructs/backends.ts); empty for the sandbox. */
  readonly backendEnvironment?: Record<string, string>;
  /** Workflow name → state machine, for the functions that start and stop executions. */
  readonly stateMachines?: ReadonlyMap<string, sfn.IStateMachine>;
}

export const serviceEnvironment = (resources: ServiceResources): Record<string, string> => ({
  [ENV.tableName]: resources.table.tableName,
  [ENV.bucketName]: resources.bucket.bucketName,
  [ENV.callbackQueueUrl]: resources.callbackQueue.queueUrl,
  [ENV.downloadTokenSecretArn]: resources.downloadTokenSecret.secretArn,
  [ENV.logLevel]: 'info',
  [ENV.nodeOptions]: '--enable-source-maps',
  ...resources.backendEnvironment,
  ...Object.fromEntries(
    [...(resources.stateMachines ?? [])].map(([name, machine]) => [stateMachineArnVariable(name), machine.stateMachineArn]),
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

/** npm's name for a Lambda architecture. */
const npmCpu = (architecture: lambda.Architecture): string =>
  architecture.name === lambda.Architecture.X86_64.name ? 'x64' : 'arm64';

/** The modules image work needs that esbuild cannot bundle: they are installed into the asset instead. */
export const IMAGE_NODE_MODULES = ['sharp', 'heic-decode'] as const;

/**
 * The AWS SDK v3 comes with the Node runtime. sharp carries a native libvips binary and heic-decode a
 * WASM file, so neither can be bundled: they are installed into the asset as node modules, and npm is
 * told to install the build for ARCHITECTURE on Lambda's linux (glibc), whatever machine runs the synth.
 */
export const bundlingOptions = (images: boolean): BundlingOptions => ({
  externalModules: ['@aws-sdk/*'],
  sourceMap: true,
  sourcesContent: false,
  ...(images && {
    nodeModules: [...IMAGE_NODE_MODULES],
    environment: { npm_config_os: 'linux', npm_config_cpu: npmCpu(ARCHITECTURE), npm_config_libc: 'glibc' },
  }),
});

export interface ServiceFunctionProps {
  /** Handler module, relative to the repository root; it exports `handler`. */
  readonly entry: string;
  readonly description: string;
  readonly timeout: Duration;
  readonly environment: Record<string, string>;
  /** The function imports sharp (and the HEIC decoder). */
  readonly images?: boolean;
  readonly memoryMb?: number;
}

export const serviceFunction = (scope: Construct, id: string, props: ServiceFunctionProps): NodejsFunction => {
  const images = props.images ?? false;
  const fn = new NodejsFunction(scope, id, {
    entry: path.join(REPOSITORY_ROOT, handlerEntry(props.entry)),
    projectRoot: REPOSITORY_ROOT,
    depsLockFilePath: path.join(REPOSITORY_ROOT, 'package-lock.json'),
    description: props.description,
    runtime: RUNTIME,
    architecture: ARCHITECTURE,
    memorySize: props.memoryMb ?? (images ? IMAGE_MEMORY_MB : DEFAULT_MEMORY_MB),
    timeout: props.timeout,
    environment: props.environment,
    logGroup: new logs.LogGroup(scope, `${id}Logs`, { retention: LOG_RETENTION }),
    bundling: bundlingOptions(images),
  });
  acknowledge(
    fn,
    'AwsSolutions-L1',
    `${RUNTIME.name} is the runtime the service targets (esbuild compiles for it); moving to a newer Node ` +
      'line is a deliberate one-line change of RUNTIME, not a side effect of upgrading aws-cdk-lib.',
  );
  acknowledge(
    fn,
    'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
    'The AWS managed basic execution policy only lets the function write its own CloudWatch logs.',
  );
  return fn;
};
