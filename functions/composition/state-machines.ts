/** Starting and stopping the state machines; executions are named by job or profile id. */

import { sfnClient, startExecution, stopExecution } from '../adapters/sfn/executions';
import { STATE_MACHINE_ARN_ENV } from '../deployment/env-names';
import type { TrainingTier } from '../domain/profiles/profile';
import { once, settings } from './core';

export const sfn = once(() => sfnClient(settings().AWS_REGION, settings().SFN_ENDPOINT));

export const startImageJob = (input: {
  accountId: string;
  jobId: string;
  hasCallback: boolean;
  maxRunning?: number;
  runUntil?: number;
}) => startExecution(sfn(), settings()[STATE_MACHINE_ARN_ENV['image-job']], input.jobId, input);

export const stopImageJob = (jobId: string) =>
  stopExecution(sfn(), settings()[STATE_MACHINE_ARN_ENV['image-job']], jobId, {
    error: 'JobCanceled',
    cause: 'The job was canceled.',
  });

/**
 * The trainer a profile trains with: TRAINER's, except that a provider's LoRA trainer (TRAINER=<provider>, e.g.
 * fal; the workflow's `lora` branch) trains Full Train only; Quick Train keeps the sandbox's face template and
 * never calls it. `apiBaseUrl` is the API the
 * profile was created on, where the trainer's webhook reports.
 */
export const startProfileTraining = ({
  trainingTier,
  ...input
}: {
  accountId: string;
  profileId: string;
  imageUrls: string[];
  trainingTier: TrainingTier;
  apiBaseUrl: string;
}) =>
  startExecution(sfn(), settings()[STATE_MACHINE_ARN_ENV['profile-training']], input.profileId, {
    ...input,
    trainer: settings().loraTrainer ? (trainingTier === 'standard' ? 'lora' : 'sandbox') : settings().TRAINER,
  });

export const stopProfileTraining = (profileId: string) =>
  stopExecution(sfn(), settings()[STATE_MACHINE_ARN_ENV['profile-training']], profileId, {
    error: 'ProfileDeleted',
    cause: 'The profile was deleted.',
  });

/**
 * Starts the backfill of face templates for `modelId` (statemachines/profile-reembedding.asl.json); each start is
 * a new execution, which skips what an earlier one did.
 */
export const startProfileReembedding = (modelId: string, at: number) =>
  startExecution(sfn(), settings()[STATE_MACHINE_ARN_ENV['profile-reembedding']], `reembed-${at}`, {
    modelId,
    cursor: null,
  });
