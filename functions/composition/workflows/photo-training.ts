/** The training steps that decode photos and analyse their faces (ValidatePhotos), so sharp and the face models. */

import { profilePhotos } from '../../adapters/images/photos';
import type { TrainingDeps } from '../../domain/profiles/training';
import { once } from '../core';
import { faceAnalyzer } from '../faces';
import { decodeInput } from '../images/inputs';
import { trainingStepDeps } from '../profiles/training';
import { objects } from '../storage';

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
    decodePhoto: (source, label, accountId) => decodeInput(source, label, undefined, accountId),
    photos: profilePhotos(objects()),
    get faces() {
      return faceAnalyzer();
    },
    enqueueCallback: steps.enqueueCallback,
  };
});
