/** The training steps that decode photos or compute signatures (ValidatePhotos, CompleteTraining), so sharp. */

import { sandboxTrainer } from '../adapters/engine/sandbox-trainer';
import { profilePhotos } from '../adapters/images/photos';
import type { TrainingDeps } from '../domain/profiles/training';
import { once } from './core';
import { decodeInput } from './inputs';
import { objects } from './storage';
import { trainingStepDeps } from './training';

export const photoTrainingDeps = once((): TrainingDeps => {
  const steps = trainingStepDeps();
  return {
    clock: steps.clock,
    profiles: steps.profiles,
    ledger: steps.ledger,
    settings: steps.settings,
    get remoteTrainer() {
      return steps.remoteTrainer;
    },
    decodePhoto: (url, label) => decodeInput(url, label),
    photos: profilePhotos(objects()),
    trainer: sandboxTrainer,
    enqueueCallback: steps.enqueueCallback,
  };
});
