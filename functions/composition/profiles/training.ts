/**
 * Training: the trainer callback route, and the training steps that touch no image (StartTraining,
 * RequestTraining, AcceptTraining, FailTraining). Photo decoding and the face template are in
 * photo-training.ts.
 */

import { httpTrainer, sfnTrainingTasks } from '../../adapters/engine/http-trainer';
import { photoStore } from '../../adapters/s3/photo-store';
import { DEVELOPMENT_ENV } from '../../deployment/env-names';
import type { RemoteTrainer, TrainerCallbackDeps } from '../../domain/profiles/training';
import { watchedLedger } from '../account/balance-watch';
import { clock, once, settings } from '../core';
import { ledger, profiles } from '../data';
import { enqueueCallback } from '../queues';
import { secretOrEmpty } from '../secrets';
import { sfn } from '../state-machines';
import { objects } from '../storage';

const trainerToken = once(() =>
  secretOrEmpty(settings().TRAINER_TOKEN, settings().TRAINER_TOKEN_SECRET_ARN, 'the trainer token'),
);

export const trainerCallbackDeps = once(
  (): TrainerCallbackDeps => ({ trainerToken: trainerToken(), tasks: sfnTrainingTasks(sfn()) }),
);

/** A training backend over HTTPS that calls back with the task token (TRAINER=http). */
const remoteTrainer = once((): RemoteTrainer => {
  const { TRAINER_URL: baseUrl, TRAINER_CALLBACK_URL: callbackUrl } = settings();
  if (!baseUrl) throw new Error('TRAINER=http needs TRAINER_URL');
  if (!callbackUrl) throw new Error('TRAINER=http needs TRAINER_CALLBACK_URL');
  const store = objects();
  let trainer: Promise<RemoteTrainer> | undefined;
  return {
    request: async (training) => {
      trainer =
        trainer ??
        trainerToken()().then((token) =>
          httpTrainer({ baseUrl, token, callbackUrl, presignPhoto: (key, seconds) => store.presignGet(key, seconds) }),
        );
      return (await trainer).request(training);
    },
  };
});

/** The training steps that need no image work. */
export const trainingStepDeps = once(() => ({
  clock,
  profiles: profiles(),
  // A training's settle is followed by the low-balance notice and auto-recharge, as a job's is.
  ledger: watchedLedger(ledger()),
  photos: photoStore(objects()),
  get remoteTrainer() {
    return remoteTrainer();
  },
  settings: { trainingDelaySeconds: settings()[DEVELOPMENT_ENV.trainingDelaySeconds], photoConcurrency: 4 },
  enqueueCallback,
}));
