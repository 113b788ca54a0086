/**
 * The backfill's steps (statemachines/profile-reembedding.asl.json): ListStaleProfiles and FinishBackfill
 * read the table only; ReembedProfile analyses photos, so it carries sharp and the face models.
 */
import { DynamoReembedProgress } from '../../adapters/dynamo/reembed-progress';
import { profilePhotos } from '../../adapters/images/photos';
import type { ReembedDeps } from '../../domain/profiles/reembed';
import { clock, meter, once } from '../core';
import { profiles, table } from '../data';
import { faceAnalyzer } from '../faces';
import { objects } from '../storage';

export const reembedStepDeps = once(() => ({
  clock,
  readyPage: (cursor: string | null) => profiles().readyPage(cursor),
  progress: new DynamoReembedProgress(table()),
}));

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
