/**
 * The composition root: builds the adapters the domain needs from the configuration, once per
 * process (Lambda cold start, or the local runtime), and hands them to handlers as one typed object.
 * Clients are created here but connect on first use, so a handler pays only for what it touches.
 */
import { readFileSync } from 'node:fs';
import { SFNClient, StartExecutionCommand, StopExecutionCommand } from '@aws-sdk/client-sfn';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { WEBHOOK_SECRET_PREFIX, type AccountsRepository } from '../domain/accounts/accounts';
import type { DeliveryDeps } from '../domain/callbacks/deliver';
import { signDownloadToken } from '../domain/images/download-token';
import type { ImageEngine } from '../domain/images/engine';
import { contentTypeOf, type ImageDeps } from '../domain/images/operations';
import type { WorkflowDeps } from '../domain/jobs/workflow';
import type { ProfileDeps } from '../domain/profiles/profiles';
import type { TagWriter } from '../domain/profiles/tags';
import type { RemoteTrainer, TrainerCallbackDeps, TrainingDeps } from '../domain/profiles/training';
import { httpTrainer, sfnTrainingTasks } from '../adapters/engine/http-trainer';
import { sandboxTrainer } from '../adapters/engine/sandbox-trainer';
import { profilePhotos } from '../adapters/images/photos';
import { systemClock, type Clock } from '../domain/shared/clock';
import { newId, newSecret, type IdSource } from '../domain/shared/ids';
import { DynamoAccounts } from '../adapters/dynamo/accounts-repository';
import { countCallbackAttempts, recordCallbackAttempt } from '../adapters/dynamo/callback-attempts';
import { cachedKeyLookup } from '../adapters/dynamo/key-cache';
import { DynamoLedger } from '../adapters/dynamo/ledger-repository';
import { DynamoJobs } from '../adapters/dynamo/jobs-repository';
import { DynamoProfiles } from '../adapters/dynamo/profiles-repository';
import { openTable, type Table } from '../adapters/dynamo/table';
import { HttpEngine } from '../adapters/engine/http-engine';
import { SandboxEngine } from '../adapters/engine/sandbox-engine';
import { imageFetcher } from '../adapters/images/image-fetch';
import { decodeImageInput } from '../adapters/images/image-input';
import { postCallback } from '../adapters/net/post-callback';
import { createObjectStore, type ObjectStore } from '../adapters/s3/object-store';
import { lazySecret } from '../adapters/secrets';
import { config, type ServiceConfig } from './config';
import { createLogger, type Logger } from './http/logger';

export interface Services {
  config: ServiceConfig;
  clock: Clock;
  newId: IdSource;
  log: Logger;
  table: Table;
  accounts: AccountsRepository;
  /** Key resolution with a short cache: a warm function reads the key once per cache period. */
  keyLookup: Pick<AccountsRepository, 'findKeyByHash'>;
  ledger: DynamoLedger;
  profiles: DynamoProfiles;
  jobs: DynamoJobs;
  objects: ObjectStore;
  sqs: SQSClient;
  sfn: SFNClient;
  downloadSecret: () => Promise<string>;
  images: ImageDeps;
  workflow: WorkflowDeps;
  profileDeps: ProfileDeps;
  training: TrainingDeps;
  trainerCallbacks: TrainerCallbackDeps;
  tagDeps: { tags: TagWriter; writeConcurrency: number };
  callbacks: DeliveryDeps;
}

const localCredentials = (endpoint: string | undefined) =>
  endpoint ? { endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {};

const OUTPUT_EXTENSION = { png: 'png', jpg: 'jpg' } as const;
/** Inputs of async jobs, kept for the workflow; the bucket's lifecycle expires them (lib/constructs/data.ts). */
const inputPrefix = (accountId: string, jobId: string) => `inputs/${accountId}/${jobId}/`;
const INPUT_CONTENT_TYPE = { jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp', heif: 'image/heif' } as const;

/** The ARN of a machine's execution with this name. */
const executionArn = (stateMachineArn: string, name: string) => `${stateMachineArn.replace(':stateMachine:', ':execution:')}:${name}`;

/** Stops a running execution; one that is unknown or already over is not an error. */
const stopExecution = async (sfn: SFNClient, stateMachineArn: string, name: string) => {
  try {
    await sfn.send(new StopExecutionCommand({ executionArn: executionArn(stateMachineArn, name), error: 'ProfileDeleted', cause: 'The profile was deleted.' }));
  } catch (error) {
    if (!(error instanceof Error && error.name === 'ExecutionDoesNotExist')) throw error;
  }
};

/** Starts an execution named after the job; a start that already happened is not an error. */
const startExecution = async (sfn: SFNClient, stateMachineArn: string, name: string, input: unknown) => {
  try {
    await sfn.send(new StartExecutionCommand({ stateMachineArn, name, input: JSON.stringify(input) }));
  } catch (error) {
    if (!(error instanceof Error && error.name === 'ExecutionAlreadyExists')) throw error;
  }
};

/** A token given directly (local) or as a Secrets Manager secret (AWS); empty when neither is set. */
const tokenOf = (settings: ServiceConfig, value: string, arn: string | undefined, name: string) =>
  value || arn ? lazySecret({ value: value || undefined, arn, region: settings.AWS_REGION, name }) : async () => '';

const engineFor = (settings: ServiceConfig): ImageEngine => {
  if (settings.ENGINE === 'sandbox') return new SandboxEngine();
  const baseUrl = settings.ENGINE_URL;
  if (!baseUrl) throw new Error('ENGINE=http needs ENGINE_URL');
  const token = tokenOf(settings, settings.ENGINE_TOKEN, settings.ENGINE_TOKEN_SECRET_ARN, 'the engine token');
  let engine: Promise<ImageEngine> | undefined;
  return { run: async (request, signal) => (await (engine ??= token().then((value) => new HttpEngine({ baseUrl, token: value })))).run(request, signal) };
};

const remoteTrainerFor = (settings: ServiceConfig, objects: ObjectStore, token: () => Promise<string>): RemoteTrainer => {
  const { TRAINER_URL: baseUrl, TRAINER_CALLBACK_URL: callbackUrl } = settings;
  if (!baseUrl) throw new Error('TRAINER=http needs TRAINER_URL');
  if (!callbackUrl) throw new Error('TRAINER=http needs TRAINER_CALLBACK_URL');
  let trainer: Promise<RemoteTrainer> | undefined;
  return {
    request: async (training) =>
      (
        await (trainer ??= token().then((value) =>
          httpTrainer({ baseUrl, token: value, callbackUrl, presignPhoto: (key, expiresInSeconds) => objects.presignGet(key, expiresInSeconds) }),
        ))
      ).request(training),
  };
};

export const buildServices = (settings: ServiceConfig, clock: Clock = systemClock): Services => {
  const table = openTable({ tableName: settings.SERVICE_TABLE_NAME, region: settings.AWS_REGION, endpoint: settings.DYNAMODB_ENDPOINT });
  const accounts = new DynamoAccounts(table, newId);
  const ledger = new DynamoLedger(table, newId);
  const profiles = new DynamoProfiles(table);
  const objects = createObjectStore({ bucket: settings.SERVICE_BUCKET_NAME, region: settings.AWS_REGION, endpoint: settings.S3_ENDPOINT });
  const sqs = new SQSClient({ region: settings.AWS_REGION, ...localCredentials(settings.SQS_ENDPOINT) });
  const sfn = new SFNClient({ region: settings.AWS_REGION, ...localCredentials(settings.SFN_ENDPOINT) });
  const jobs = new DynamoJobs(table);
  const downloadSecret = lazySecret({ value: settings.DOWNLOAD_TOKEN_SECRET, arn: settings.DOWNLOAD_TOKEN_SECRET_ARN, region: settings.AWS_REGION, name: 'the download token secret' });
  let engine: ImageEngine | undefined;
  function imageDeps(): ImageDeps {
    return {
      clock,
      newId,
      ledger,
      profiles,
      jobs,
      get engine() {
        return (engine ??= engineFor(settings));
      },
      decodeInput: (value, label, signal) => decodeImageInput(value, label, { fetchBytes: imageFetcher({ allowLoopback: settings.ALLOW_LOOPBACK_URLS, signal }) }),
      inputs: {
        save: (accountId, jobId, images) =>
          Promise.all(
            images.map(async (image, index) => {
              const key = `${inputPrefix(accountId, jobId)}${index + 1}`;
              await objects.put(key, image.data, INPUT_CONTENT_TYPE[image.format]);
              return { key, format: image.format, width: image.width, height: image.height };
            }),
          ),
        remove: async (accountId, jobId) => {
          await objects.deletePrefix(inputPrefix(accountId, jobId));
        },
        load: (inputs) =>
          Promise.all(
            inputs.map(async (input) => {
              const stored = await objects.get(input.key);
              if (!stored) throw new Error(`input ${input.key} is missing`);
              return { data: stored.body, format: input.format, width: input.width, height: input.height };
            }),
          ),
      },
      outputs: {
        load: (keys) =>
          Promise.all(
            keys.map(async (key) => {
              const stored = await objects.get(key);
              if (!stored) throw new Error(`output ${key} is missing`);
              return stored.body;
            }),
          ),
        save: (accountId, jobId, images, format) =>
          Promise.all(
            images.map(async (image, index) => {
              const key = `outputs/${accountId}/${jobId}/${index + 1}.${OUTPUT_EXTENSION[format]}`;
              await objects.put(key, image, contentTypeOf(format));
              return key;
            }),
          ),
        link: async (baseUrl, grant) => `${baseUrl}/v2/service/downloads/${signDownloadToken(grant, await downloadSecret())}`,
      },
      workflows: {
        startImageJob: (input) => startExecution(sfn, settings.IMAGE_JOB_STATE_MACHINE_ARN, input.jobId, input),
      },
      settings: {
        syncBudgetMs: settings.SYNC_BUDGET_SECONDS * 1000,
        asyncBudgetMs: settings.ASYNC_BUDGET_SECONDS * 1000,
        outputFormatSwitchAt: settings.OUTPUT_FORMAT_SWITCH_AT,
        replayPollMs: 200,
      },
    
    };
  }
  const images = imageDeps();
  const photos = profilePhotos(objects);
  let remoteTrainer: RemoteTrainer | undefined;
  const trainerToken = tokenOf(settings, settings.TRAINER_TOKEN, settings.TRAINER_TOKEN_SECRET_ARN, 'the trainer token');
  return {
    config: settings,
    clock,
    newId,
    log: createLogger(settings.LOG_LEVEL),
    table,
    accounts,
    keyLookup: cachedKeyLookup(accounts, settings.API_KEY_CACHE_SECONDS * 1000, clock),
    ledger,
    profiles,
    jobs,
    objects,
    sqs,
    sfn,
    downloadSecret,
    images,
    workflow: {
      clock,
      jobs,
      ledger,
      get engine() {
        return images.engine;
      },
      inputs: images.inputs,
      outputs: images.outputs,
      link: images.outputs.link,
      enqueueCallback: async (message) => {
        await sqs.send(new SendMessageCommand({ QueueUrl: settings.CALLBACK_QUEUE_URL, MessageBody: JSON.stringify(message) }));
      },
      settings: { asyncBudgetMs: settings.ASYNC_BUDGET_SECONDS * 1000 },
    },
    profileDeps: {
      clock,
      newId,
      ledger,
      profiles,
      accounts,
      training: {
        start: (input) => startExecution(sfn, settings.PROFILE_TRAINING_STATE_MACHINE_ARN, input.profileId, { ...input, trainer: settings.TRAINER }),
        stop: (profileId) => stopExecution(sfn, settings.PROFILE_TRAINING_STATE_MACHINE_ARN, profileId),
      },
      photos,
    },
    training: {
      clock,
      profiles,
      ledger,
      decodePhoto: (url, label) => images.decodeInput(url, label, new AbortController().signal),
      photos,
      trainer: sandboxTrainer,
      get remoteTrainer() {
        return (remoteTrainer ??= remoteTrainerFor(settings, objects, trainerToken));
      },
      settings: { trainingTimeScale: settings.TRAINING_TIME_SCALE, photoConcurrency: 4 },
    },
    trainerCallbacks: { trainerToken, tasks: sfnTrainingTasks(sfn) },
    tagDeps: { tags: profiles, writeConcurrency: 16 },
    callbacks: {
      webhookSecret: (accountId) => accounts.getOrCreateWebhookSecret(accountId, newSecret(WEBHOOK_SECRET_PREFIX), clock()),
      attemptsSoFar: countCallbackAttempts(table),
      deadLetter: async (message, attempts) => {
        await sqs.send(
          new SendMessageCommand({
            QueueUrl: settings.CALLBACK_DLQ_URL,
            MessageBody: JSON.stringify(message),
            MessageAttributes: { attempts: { DataType: 'Number', StringValue: String(attempts) } },
          }),
        );
      },
      post: postCallback({
        allowLoopback: settings.ALLOW_LOOPBACK_URLS,
        extraCa: settings.EXTRA_TRUSTED_CA_FILE ? readFileSync(settings.EXTRA_TRUSTED_CA_FILE, 'utf8') : undefined,
      }),
      recordAttempt: recordCallbackAttempt(table),
      clock,
      random: Math.random,
    },
  };
};

let current: Services | undefined;
let clockOfProcess: Clock = systemClock;

export const services = (): Services => (current ??= buildServices(config(), clockOfProcess));

/**
 * Forget the built services: the local runtime rebuilds them after changing the environment, and
 * tests may hand in a clock of their own.
 */
export const resetServices = (clock: Clock = systemClock): void => {
  current = undefined;
  clockOfProcess = clock;
};
