/**
 * The local runtime: the same handlers and state machines as on AWS, against embedded back ends
 * (the DynamoDB store of bin/local-aws/dynamo, the S3 server of bin/local-aws/s3.ts, aws-local-stepfunctions,
 * local-aws-sqs), configured through the
 * same environment variables the CDK stack sets. Used by `npm start` and by the integration tests.
 *
 * The development settings a developer exports (LOCAL_ENV_SETTINGS, functions/deployment/env-names.ts) are
 * read from this process's environment once, at start, and handed to every function the same way in
 * both modes: the in-process handlers read them from this process, the workers of `npm run start:assets`
 * get them over the template's environment.
 */

import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { CALLBACK_QUEUE } from '../../functions/callbacks/definitions';
import { clock, resetComposition, settings } from '../../functions/composition/core';
import { jobs, ledger, profiles, table } from '../../functions/composition/data';
import { cancelTicketWork } from '../../functions/composition/providers/provider-work';
import { startImageJob, startProfileReembedding } from '../../functions/composition/state-machines';
import { BACKEND_ENV, DEVELOPMENT_ENV, ENV, LOCAL_ENV_SETTINGS } from '../../functions/deployment/env-names';
import { ROUTES, routePath, routeVersions } from '../../functions/deployment/routes';
import * as Accounts from '../../functions/domain/accounts/accounts';
import type { Clock } from '../../functions/domain/shared/clock';
import { PORTAL_ROUTE } from '../../functions/portal/route';
import { WORKFLOWS } from '../../functions/workflows/definitions';
import { stateMachineArnVariable } from '../../lib/constructs/function-defaults';
import { ensureAssets } from '../assets/build';
import { loadAssets } from '../assets/serve';
import { ensureFaceModels } from '../faces/build-models';
import { LOCAL_REGION } from './arns';
import { startLocalDynamo } from './dynamo';
import { type ApiHandler, type GatewayAnswer, type GatewayRoute, startLocalGateway } from './gateway';
import { IamGate } from './iam';
import { lambdaContext, loadHandler } from './lambda-context';
import { type Reconciled, reconcileInterruptedWork, startBackfillIfNeeded } from './reconcile';
import { startLocalS3 } from './s3';
import { startLocalSecretsManager } from './secrets-manager';
import { services } from './services';
import { type QueueConsumer, startLocalSqs, startQueuePoller } from './sqs';
import {
  type LocalStepFunctions,
  startLocalStepFunctions,
  startStepFunctionsServer,
  stateMachineArnFor,
} from './step-functions';
import { ensureTable } from './table';

export const ROOT_DIR = path.resolve(__dirname, '../..');
const TABLE_NAME = 'service';
const BUCKET_NAME = 'service-local';

export interface LocalRuntimeOptions {
  /** Where the local DynamoDB and S3 keep their data; a restart with the same directory keeps everything. */
  dataDir: string;
  port?: number;
  host?: string;
  logLevel?: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  /** Multiplies state machine waits and retry intervals (tests and development use less than 1). */
  timeScale?: number;
  /** Opening credit of the development account, micro-USD; no development account when undefined. */
  devAccountCreditMicros?: number;
  /** Sees every answer a function gave through the gateway (the tests check them against the OpenAPI document). */
  onAnswer?: (answer: GatewayAnswer) => void;
  /** Extra environment for the handlers (e.g. shorter budgets in tests). */
  env?: Record<string, string>;
  /** The clock every handler uses (tests move it instead of sleeping); sources only. */
  clock?: Clock;
  /**
   * Serve the synthesised artefacts (`npm run start:assets`): every function from its bundled asset in
   * a Lambda-like worker, the state machines from the template. Default: the handler sources in process.
   */
  assets?: boolean;
}

export interface DevAccount {
  accountId: string;
  keyId: string;
  apiKey: string;
}

export interface LocalRuntime {
  url: string;
  endpoints: { dynamodb: string; s3: string; stepFunctions: string; sqs: string };
  queueUrls: Record<string, string>;
  stepFunctions: LocalStepFunctions;
  devAccount?: DevAccount;
  /** What this start found unfinished from a previous run, and did about it. */
  reconciled: Reconciled;
  /** The face model whose backfill this start began (some READY profile lacked its template), else null. */
  backfill: { modelId: string } | null;
  /** With the artefacts: the IAM gate the stand-ins check every function's calls with, and its refusals. */
  iam?: IamGate;
  close(): Promise<void>;
}

const ensureDevAccount = async (dataDir: string, creditMicros: number): Promise<DevAccount> => {
  const file = path.join(dataDir, 'dev-account.json');
  const deps = services();
  if (fs.existsSync(file)) {
    const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as DevAccount;
    if (await deps.accounts.get(saved.accountId)) return saved;
  }
  const { account, key } = await Accounts.open(deps, { name: 'development', openingCreditMicros: creditMicros });
  const devAccount = { accountId: account.accountId, keyId: key.keyId, apiKey: key.apiKey };
  // Development only: the key is kept in plain text under the (git-ignored) data directory so that
  // every start can print a working curl line. The service itself stores only its hash.
  fs.writeFileSync(file, `${JSON.stringify(devAccount, null, 2)}\n`, { mode: 0o600 });
  return devAccount;
};

/** Secrets the service needs, made once per data directory so that links survive restarts. */
const localSecrets = (dataDir: string): { downloadTokenSecret: string } => {
  const file = path.join(dataDir, 'secrets.json');
  if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, 'utf8')) as { downloadTokenSecret: string };
  const secrets = { downloadTokenSecret: randomBytes(32).toString('base64url') };
  fs.writeFileSync(file, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 });
  return secrets;
};

/** The development settings `environment` sets: each of LOCAL_ENV_SETTINGS that has a value there. */
const developmentSettings = (environment: NodeJS.ProcessEnv): Record<string, string> => {
  const settings: Record<string, string> = {};
  for (const name of LOCAL_ENV_SETTINGS) {
    const value = environment[name];
    if (value !== undefined) settings[name] = value;
  }
  return settings;
};

/**
 * Sets `values` in this process's environment, and returns what puts back what they replaced: a later
 * runtime in this process (a restart, the next test) reads its developer's environment, not this one's.
 */
const setProcessEnvironment = (values: Record<string, string>): (() => Promise<void>) => {
  const replaced = Object.keys(values).map((name) => [name, process.env[name]] as const);
  Object.assign(process.env, values);
  return async () => {
    for (const [name, value] of replaced) {
      if (value === undefined) Reflect.deleteProperty(process.env, name);
      else process.env[name] = value;
    }
  };
};

/** The route table's handlers, in process, under every version prefix, and the portal on its own paths (npm start). */
const sourceRoutes = (): GatewayRoute[] => {
  let portal: ApiHandler | undefined;
  return [
    ...ROUTES.flatMap((route) => {
      let handler: ApiHandler | undefined;
      return routeVersions(route).map((version) => ({
        method: route.method,
        resource: routePath(version, route),
        invoke: (event: APIGatewayProxyEvent) => {
          handler ??= loadHandler<ApiHandler>(path.join(ROOT_DIR, 'functions/api', route.handler));
          return handler(event, lambdaContext(route.handler.replace('/', '-')));
        },
      }));
    }),
    ...PORTAL_ROUTE.paths.map((resource) => ({
      method: 'ANY',
      resource,
      invoke: (event: APIGatewayProxyEvent) => {
        portal ??= loadHandler<ApiHandler>(path.join(ROOT_DIR, PORTAL_ROUTE.handler));
        return portal(event, lambdaContext('portal'));
      },
    })),
  ];
};

export const startLocalRuntime = async (options: LocalRuntimeOptions): Promise<LocalRuntime> => {
  const host = options.host ?? '127.0.0.1';
  fs.mkdirSync(options.dataDir, { recursive: true });
  const closers: Array<() => Promise<void>> = [];
  const closeAll = async () => {
    for (const close of closers.reverse()) await close().catch(() => undefined);
  };
  try {
    // With the artefacts, every call a function makes is checked against its role's policies (bin/local-aws/iam.ts).
    const gate = options.assets ? new IamGate() : undefined;
    const dynamo = await startLocalDynamo({ dataDir: path.join(options.dataDir, 'dynamodb'), host, gate });
    closers.push(dynamo.close);
    await ensureTable(dynamo.endpoint, TABLE_NAME);

    const s3 = await startLocalS3({ dataDir: path.join(options.dataDir, 's3'), bucket: BUCKET_NAME, host, gate });
    closers.push(s3.close);

    const sqs = await startLocalSqs({
      host,
      gate,
      queues: [
        { name: CALLBACK_QUEUE.deadLetterName, visibilityTimeoutSeconds: CALLBACK_QUEUE.visibilityTimeoutSeconds },
        {
          name: CALLBACK_QUEUE.name,
          visibilityTimeoutSeconds: CALLBACK_QUEUE.visibilityTimeoutSeconds,
          deadLetter: { queueName: CALLBACK_QUEUE.deadLetterName, maxReceiveCount: CALLBACK_QUEUE.maxReceiveCount },
        },
      ],
    });
    closers.push(sqs.close);

    const secrets = localSecrets(options.dataDir);
    const queueNamed = (name: string) => {
      const url = sqs.queueUrls[name];
      const arn = sqs.queueArns[name];
      if (!url || !arn) throw new Error(`the local SQS has no queue ${name}`);
      return { url, arn };
    };
    const queue = queueNamed(CALLBACK_QUEUE.name);
    const deadLetterQueue = queueNamed(CALLBACK_QUEUE.deadLetterName);
    const assets = options.assets
      ? loadAssets({
          templateFile: (await ensureAssets({ log: (line) => process.stdout.write(`${line}\n`) })).templateFile,
          localEnvironment: () => workerEnvironment,
        })
      : undefined;
    // From the sources, the face analyser reads the repository's ONNX models (bin/faces/build-models.ts);
    // an asset carries its own.
    if (!assets) ensureFaceModels({ log: (line) => process.stdout.write(`${line}\n`) });
    if (assets) closers.push(assets.close);
    const prepared = assets?.prepare({
      tableName: TABLE_NAME,
      bucketName: BUCKET_NAME,
      callbackQueue: queue,
      deadLetterQueue,
      queueSettings: {
        visibilityTimeoutSeconds: CALLBACK_QUEUE.visibilityTimeoutSeconds,
        maxReceiveCount: CALLBACK_QUEUE.maxReceiveCount,
        batchSize: CALLBACK_QUEUE.batchSize,
      },
    });
    const secretsManager = prepared
      ? await startLocalSecretsManager({
          host,
          gate,
          secrets: new Map(
            prepared.secrets.map(({ arn, variable }) => [
              arn,
              variable === ENV.downloadTokenSecretArn
                ? secrets.downloadTokenSecret
                : randomBytes(32).toString('base64url'),
            ]),
          ),
        })
      : undefined;
    if (secretsManager) closers.push(secretsManager.close);
    if (prepared) gate?.install(prepared.policies);

    // Handlers read their configuration on first use, not when loaded, so the machines can be built
    // before the environment that names their endpoint is set.
    const stepFunctions =
      assets && prepared
        ? await startStepFunctionsServer({
            machines: prepared.machines,
            invoker: assets.invoker,
            timeScale: options.timeScale,
            host,
            gate,
          })
        : await startLocalStepFunctions({
            workflows: WORKFLOWS,
            rootDir: ROOT_DIR,
            substitutions: { TableName: TABLE_NAME, CallbackQueueUrl: queue.url, Partition: 'aws' },
            timeScale: options.timeScale,
            host,
          });
    closers.push(stepFunctions.close);

    /** What the local runtime adds to a function's environment: the embedded back ends, and development settings. */
    const localEnvironment: Record<string, string> = {
      AWS_REGION: LOCAL_REGION,
      AWS_ACCESS_KEY_ID: process.env.AWS_ACCESS_KEY_ID ?? 'local',
      AWS_SECRET_ACCESS_KEY: process.env.AWS_SECRET_ACCESS_KEY ?? 'local',
      DYNAMODB_ENDPOINT: dynamo.endpoint,
      S3_ENDPOINT: s3.endpoint,
      SFN_ENDPOINT: stepFunctions.endpoint,
      SQS_ENDPOINT: sqs.endpoint,
      ...(secretsManager && { SECRETS_MANAGER_ENDPOINT: secretsManager.endpoint }),
      // The local runtime's own defaults of two development settings: loopback URLs are allowed, and
      // metrics are printed as on Lambda (embedded metric format) except when the logs are silenced.
      [DEVELOPMENT_ENV.allowLoopbackUrls]: 'true',
      [DEVELOPMENT_ENV.metricsDisabled]: options.logLevel === 'silent' ? 'true' : 'false',
      ...developmentSettings(process.env),
      [ENV.logLevel]: options.logLevel ?? 'info',
    };
    // The functions of `npm run start:assets` get the template's variables, then these.
    const workerEnvironment: Record<string, string> = { ...localEnvironment, ...options.env };
    // In this process (the handlers of `npm start`, and the tools): what the stack would set, too.
    const environment = {
      ...localEnvironment,
      [ENV.tableName]: TABLE_NAME,
      [ENV.bucketName]: BUCKET_NAME,
      [ENV.callbackQueueUrl]: queue.url,
      [ENV.callbackDeadLetterQueueUrl]: deadLetterQueue.url,
      DOWNLOAD_TOKEN_SECRET: secrets.downloadTokenSecret,
      ...(prepared
        ? prepared.stateMachineVariables
        : Object.fromEntries(
            Object.keys(WORKFLOWS).map((name) => [stateMachineArnVariable(name), stateMachineArnFor(name)]),
          )),
      ...options.env,
    };
    closers.push(setProcessEnvironment(environment));
    resetComposition(options.clock);

    // Before taking requests: finish or refund what a previous run left open (bin/local-aws/reconcile.ts).
    const reconciled = await reconcileInterruptedWork({
      table: table(),
      jobs: jobs(),
      profiles: profiles(),
      ledger: ledger(),
      clock,
      startImageJob,
      cancelEngineWork: cancelTicketWork,
    });
    const backfill = await startBackfillIfNeeded({
      profiles: profiles(),
      modelId: settings()[DEVELOPMENT_ENV.faceModelId],
      clock,
      startBackfill: async (modelId, at) => void (await startProfileReembedding(modelId, at)),
    });

    const poller = startQueuePoller({
      client: sqs.client,
      queueUrl: queue.url,
      consumer: assets ? assets.consumer : loadHandler<QueueConsumer>(path.join(ROOT_DIR, CALLBACK_QUEUE.handler)),
      functionName: 'deliver-callback',
      batchSize: CALLBACK_QUEUE.batchSize,
      onError: (error) => services().log.error('callback consumer failed', { error: String(error) }),
    });
    closers.push(poller.stop);

    const gateway = await startLocalGateway({
      routes: assets ? assets.routes : sourceRoutes(),
      port: options.port,
      host,
      onError: (error) => services().log.error('handler crashed', { error: String(error) }),
      onAnswer: options.onAnswer,
    });
    closers.push(gateway.close);
    // The training backend calls back on this runtime's own gateway unless told otherwise.
    if (!workerEnvironment[BACKEND_ENV.trainerCallbackUrl]) {
      const ownCallbackUrl = {
        [BACKEND_ENV.trainerCallbackUrl]: `${gateway.url}/v2/service/internal/trainer-callback`,
      };
      Object.assign(workerEnvironment, ownCallbackUrl);
      closers.push(setProcessEnvironment(ownCallbackUrl));
      resetComposition(options.clock);
    }

    const devAccount =
      options.devAccountCreditMicros === undefined
        ? undefined
        : await ensureDevAccount(options.dataDir, options.devAccountCreditMicros);

    return {
      url: gateway.url,
      endpoints: {
        dynamodb: dynamo.endpoint,
        s3: s3.endpoint,
        stepFunctions: stepFunctions.endpoint,
        sqs: sqs.endpoint,
      },
      queueUrls: sqs.queueUrls,
      stepFunctions,
      devAccount,
      reconciled,
      backfill,
      iam: gate,
      close: closeAll,
    };
  } catch (error) {
    await closeAll();
    throw error;
  }
};
