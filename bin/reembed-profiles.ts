/**
 * The wiring of `npm run admin -- reembed-profiles`: the table's READY profiles, the bucket's photos and
 * the face analyser of this checkout (its model id is the one templates must have: MODEL_ID, or the test
 * model's under FACE_MODEL_ID), its models built first. The same steps as the workflow's (reembed.ts).
 */
import { DynamoProfiles } from '../functions/adapters/dynamo/profiles-repository';
import { DynamoReembedProgress } from '../functions/adapters/dynamo/reembed-progress';
import type { Table } from '../functions/adapters/dynamo/table';
import { FACE_MODEL_IDS, type FaceModelId, MODEL_ID } from '../functions/adapters/faces/face-models';
import { createOnnxFaceAnalyzer } from '../functions/adapters/faces/onnx-face-analyzer';
import { profilePhotos } from '../functions/adapters/images/photos';
import type { ObjectStore } from '../functions/adapters/s3/object-store';
import { DEVELOPMENT_ENV } from '../functions/deployment/env-names';
import type { ReembedDeps } from '../functions/domain/profiles/reembed';
import { systemClock } from '../functions/domain/shared/clock';
import { noMeter } from '../functions/domain/shared/meter';
import { ensureFaceModels } from './faces/build-models';

/** The face model id templates are made for: FACE_MODEL_ID when it names one this analyser runs, else MODEL_ID. */
export const installedModelId = (): FaceModelId => {
  const wanted = process.env[DEVELOPMENT_ENV.faceModelId];
  return FACE_MODEL_IDS.find((id) => id === wanted) ?? MODEL_ID;
};

/** What `--status` reads: the pages of READY profiles and the progress record, no photos and no analyser. */
export const reembedStatusDeps = (table: Table) => ({
  readyPage: (cursor: string | null) => new DynamoProfiles(table).readyPage(cursor),
  progress: new DynamoReembedProgress(table),
});

export const reembedDeps = (table: Table, objects: ObjectStore): ReembedDeps => {
  const profiles = new DynamoProfiles(table);
  ensureFaceModels();
  return {
    clock: systemClock,
    profiles,
    readyPage: (cursor) => profiles.readyPage(cursor),
    progress: new DynamoReembedProgress(table),
    meter: noMeter,
    faces: createOnnxFaceAnalyzer({ modelId: installedModelId() }),
    photos: profilePhotos(objects),
    settings: { trainingDelaySeconds: 0, photoConcurrency: 2 },
  };
};
