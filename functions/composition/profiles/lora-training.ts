/**
 * Full Train on fal's LoRA trainer (TRAINER=fal; domain/profiles/lora-training.ts): the trainer built from
 * fal's row and the trainer settings, the training steps' dependencies, the webhook route's for a profile's
 * report, and the stop a deletion asks for. No image work: nothing here loads sharp.
 */
import { SendTaskSuccessCommand } from '@aws-sdk/client-sfn';
import { DynamoTrainerPace } from '../../adapters/dynamo/trainer-pace';
import { falTrainer } from '../../adapters/engine/providers/fal/trainer';
import { photoStore, profileSharedPrefix } from '../../adapters/s3/photo-store';
import { providerWebhookUrl } from '../../deployment/api-paths';
import { BACKEND_ENV } from '../../deployment/env-names';
import { HOSTED_PROVIDERS } from '../../deployment/providers';
import {
  type LoraReportDeps,
  type LoraTrainer,
  type LoraTrainingDeps,
  profileReportToken,
} from '../../domain/profiles/lora-training';
import { checkedHttpsUrl } from '../../domain/shared/loopback';
import { watchedLedger } from '../account/balance-watch';
import { clock, log, once, settings } from '../core';
import { ledger, profiles, table } from '../data';
import { enqueueCallback } from '../queues';
import { downloadSecret, providerKey } from '../secrets';
import { sfn } from '../state-machines';
import { objects } from '../storage';

/** fal's trainer, from fal's row (its queue, key and media hosts) and FAL_TRAINER_STEPS / _LEARNING_RATE. */
export const loraTrainer = once((): LoraTrainer => {
  const config = settings();
  const { baseUrl, mediaHosts } = config.providers.fal;
  const allowLoopback = config.ALLOW_LOOPBACK_URLS;
  return falTrainer({
    apiKey: providerKey('fal', `the ${HOSTED_PROVIDERS.fal.title} API key`),
    queueUrl: checkedHttpsUrl(baseUrl, 'The fal base URL', allowLoopback),
    platformUrl: checkedHttpsUrl(config[BACKEND_ENV.falPlatformUrl], BACKEND_ENV.falPlatformUrl, allowLoopback),
    steps: config[BACKEND_ENV.falTrainerSteps],
    learningRate: config[BACKEND_ENV.falTrainerLearningRate],
    media: { hosts: mediaHosts ?? HOSTED_PROVIDERS.fal.queue.mediaHosts.default, allowLoopback },
    clock,
    store: async (accountId, profileId, name, data, contentType) => {
      const key = `${profileSharedPrefix(accountId, profileId)}${name}`;
      await objects().put(key, data, contentType);
      return key;
    },
    presign: (key, seconds) => objects().presignGet(key, seconds),
    log: (message, fields) => log().warn(message, fields),
  });
});

/** The training steps SubmitLoraTraining, AwaitLoraTraining and CheckLoraTraining. */
export const loraTrainingDeps = once(
  (): LoraTrainingDeps => ({
    clock,
    profiles: profiles(),
    ledger: watchedLedger(ledger()),
    get trainer() {
      return loraTrainer();
    },
    photos: photoStore(objects()),
    // fal reports to the generic provider route, on the API the profile was created on, naming the profile.
    webhookUrl: async ({ accountId, profileId, apiBaseUrl }) => {
      const sig = profileReportToken(accountId, profileId, await downloadSecret()());
      const query = new URLSearchParams({ account: accountId, profile: profileId, sig });
      return `${providerWebhookUrl(apiBaseUrl, 'fal')}?${query.toString()}`;
    },
    enqueueCallback,
    pace: new DynamoTrainerPace(table()),
  }),
);

/** Step Functions' answers for a token no task waits on any more (a later wait stores a new one). */
const GONE_TASK_ERRORS = new Set(['InvalidToken', 'TaskDoesNotExist', 'TaskTimedOut']);

/** The webhook route's dependencies for a profile's training report. */
export const loraReportDeps = once(
  (): LoraReportDeps => ({
    clock,
    profiles: profiles(),
    reportSecret: downloadSecret(),
    resume: async (taskToken) => {
      try {
        await sfn().send(new SendTaskSuccessCommand({ taskToken, output: '{}' }));
      } catch (error) {
        if (!(error instanceof Error && GONE_TASK_ERRORS.has(error.name))) throw error;
      }
    },
    log: (message, fields) => log().warn(message, fields),
  }),
);
