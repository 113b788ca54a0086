/**
 * The backfill's ReembedProfile step (statemachines/profile-reembedding.asl.json): it analyses photos, so
 * it carries sharp and the face models (the table-only steps are in reembedding-steps.ts).
 */
import { profilePhotos } from '../../adapters/images/photos';
import type { ReembedDeps } from '../../domain/profiles/reembed';
import { meter, once } from '../core';
import { profiles } from '../data';
import { faceAnalyzer } from '../faces';
import { objects } from '../storage';
import { reembedStepDeps } from './reembedding-steps';

export const reembedDeps = once(
  (): ReembedDeps => ({
    ...reembedStepDeps(),
    profiles: profiles(),
    meter: meter(),
    photos: profilePhotos(objects()),
    get faces() {
      return faceAnalyzer();
    },
    settings: { trainingDelaySeconds: 0, photoConcurrency: 1 },
  }),
);
