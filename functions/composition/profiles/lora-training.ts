/**
 * Full Train on a queued provider's LoRA trainer (TRAINER=<provider>, e.g. fal; domain/profiles/lora-training.ts):
 * the trainer built from the provider's row and the trainer settings, the training steps' dependencies, the webhook route's for a profile's
 * report, and the stop a deletion asks for. No image work: nothing here loads sharp.
 */
import { SendTaskSuccessCommand } from '@aws-sdk/client-sfn';
import { DynamoTrainerPace } from '../../adapters/dynamo/trainer-pace';
import { LORA_TRAINERS } from '../../adapters/engine/providers/queued';
import { photoStore, profileSharedPrefix } from '../../adapters/s3/photo-store';
import { providerWebhookUrl } from '../../deployment/api-paths';
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

/** The trainer TRAINER names, from its provider's row (queue, key, media hosts, platform) and LORA_TRAINER_*. */
export const loraTrainer = once((): LoraTrainer => {
  const config = settings();
  const trainer = config.loraTrainer;
  if (!trainer) throw new Error(`TRAINER=${config.TRAINER} trains no LoRA`);
  const id = trainer.provider;
  const row = HOSTED_PROVIDERS[id];
  const { baseUrl, mediaHosts, platformUrl } = config.providers[id];
  const allowLoopback = config.ALLOW_LOOPBACK_URLS;
  return LORA_TRAINERS[id]({
    apiKey: providerKey(id, `the ${row.title} API key`),
    queueUrl: checkedHttpsUrl(baseUrl, `The ${row.title} base URL`, allowLoopback),
    platformUrl: checkedHttpsUrl(
      platformUrl ?? row.trainer.platformUrl.default,
      row.trainer.platformUrl.env,
      allowLoopback,
    ),
    steps: trainer.steps,
    learningRate: trainer.learningRate,
    media: { hosts: mediaHosts ?? row.queue.mediaHosts.default, allowLoopback },
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
    // The trainer's provider reports to the generic provider route, on the API the profile was created on,
    // naming the profile.
    webhookUrl: async ({ accountId, profileId, apiBaseUrl }) => {
      const sig = profileReportToken(accountId, profileId, await downloadSecret()());
      const query = new URLSearchParams({ account: accountId, profile: profileId, sig });
      const provider = settings().loraTrainer?.provider;
      if (!provider) throw new Error(`TRAINER=${settings().TRAINER} trains no LoRA`);
      return `${providerWebhookUrl(apiBaseUrl, provider)}?${query.toString()}`;
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
